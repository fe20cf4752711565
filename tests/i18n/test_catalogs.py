"""The catalogues are whole: every message the code uses is translated in every language, none
is kept that the code no longer uses, and every translation has the fields of its message."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from engine.i18n import CODES, tr, tr_n, use_language
from tools import messages


@pytest.fixture(scope="module")
def template() -> Catalog:
    return messages.extract()


def test_every_message_is_translated_and_used(template: Catalog) -> None:
    problems = messages.problems(template)
    assert not problems, "\n".join(str(problem) for problem in problems[:40]) + f"\n({len(problems)} in all)"


def test_the_template_is_up_to_date(template: Catalog) -> None:
    with messages.TEMPLATE.open("rb") as source:
        kept = read_po(source)
    assert {(m.context, str(m.id)) for m in kept if m.id} == {(m.context, str(m.id)) for m in template if m.id}, (
        "run `python -m tools.messages extract`"
    )


def test_fields_are_read_as_python_reads_them() -> None:
    assert messages.fields_of("{name} to play: {n} left, {{literal}}") == {"name", "n"}
    assert messages.fields_of("{unclosed") == {"<unbalanced braces>"}


def test_a_broken_translation_falls_back_to_english_rather_than_failing() -> None:
    # tr() fills fields after translating: a field the translation lacks or misnames must not
    # raise in the middle of a reply. Unknown messages come back in English.
    with use_language("it"):
        assert tr("No such message {x}", x=1) == "No such message 1"
        assert tr_n("{n} card", "{n} cards", 3) == "3 cards"


def test_every_language_has_a_catalogue_but_the_source() -> None:
    assert set(messages.translations()) == set(CODES) - {"en"}
    for code in messages.translations():
        assert messages.read(code).locale is not None


def test_the_english_detector_sees_english_and_only_english() -> None:
    from tests.i18n.english import english_fragments

    assert english_fragments("Alice: your turn", "it", allowed={"Alice"}) == ["your", "turn"]
    assert english_fragments("Tocca a Alice", "it", allowed={"Alice"}) == []
    assert english_fragments("<@123> <t:1700000000:R> pass 7c", "it", allowed={"pass"}) == []
    assert english_fragments("your turn", "en") == []
    # "{cards}" in an Italian message is a field, not the word "cards" used in Italian.
    assert "cards" in english_fragments("3 cards", "it")
