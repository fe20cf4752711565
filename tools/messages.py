"""Keeping the message catalogues whole: extract, update, check, and merge them.

    python -m tools.messages extract   # messages.pot from the code; every <lang>.po updated to it
    python -m tools.messages check     # what is missing or broken, per language (exit 1 if any)

``extract`` adds new messages to every catalogue untranslated and drops the messages the code no
longer uses, so a catalogue never carries a dead message. Translators then fill the empty
``msgstr``s. The tests (tests/i18n/) run the same checks.

Git can merge catalogues edited on two branches entry by entry rather than line by line
(``merge`` below), once told so (the repository's .gitattributes names the driver):

    git config merge.messages.driver ".venv/bin/python -m tools.messages merge %O %A %B"
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from engine.i18n import CODES, SOURCE, catalog_path
from engine.i18n.translate import CATALOGS

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = CATALOGS / "messages.pot"
# Where players' texts live: the engine, the two front ends, the store's refusals, the entry points.
SOURCES = ("bot.py", "config.py", "cogs", "console", "db", "engine", "pictures")
# tr("..."), tr_n("one", "many", n), tr_ctx("context", "..."), tr_ctx_n(...), N_("..."), and
# discord.py's locale_str("...") for the slash commands' texts.
KEYWORDS = {
    "tr": None,
    "tr_n": (1, 2),
    "tr_ctx": ((1, "c"), 2),
    "tr_ctx_n": ((1, "c"), 2, 3),
    "N_": None,
    "locale_str": None,
}
# Fixed dates keep the headers still: a catalogue changes only when its messages do.
_EPOCH = datetime(2026, 12, 1, tzinfo=UTC)


_HEADER = """\
# Messages of Tabletop Referee, kept with `python -m tools.messages extract`.
# English is the source language; the sentences are the project's own, and each game's terms
# are its community's words."""


def _catalog(locale: str | None) -> Catalog:
    return Catalog(
        locale=locale,
        project="Tabletop Referee",
        version="",
        creation_date=_EPOCH,
        revision_date=_EPOCH,
        language_team="",
        last_translator="",
        charset="utf-8",
        fuzzy=False,
        header_comment=_HEADER,
    )


def _files() -> Iterator[Path]:
    for name in SOURCES:
        path = ROOT / name
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)


def extract() -> Catalog:
    """Every message the code uses, with where it is used (file, no line: lines move)."""
    template = _catalog(None)
    for path in _files():
        relative = path.relative_to(ROOT).as_posix()
        for _lineno, message, comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
        ):
            template.add(message, locations=[(relative, None)], auto_comments=comments, context=context)
    return template


def _write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)


def read(code: str) -> Catalog:
    path = catalog_path(code)
    if not path.exists():
        return _catalog(code)
    with path.open("rb") as source:
        return read_po(source, locale=code)


def translations() -> tuple[str, ...]:
    """The languages with a catalogue: all but the source language."""
    return tuple(code for code in CODES if code != SOURCE)


def update() -> Catalog:
    template = extract()
    _write(template, TEMPLATE)
    for code in translations():
        catalog = read(code)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.revision_date = _EPOCH
        _write(catalog, catalog_path(code))
    return template


def fields_of(text: str) -> set[str]:
    """The ``{named}`` fields of a message (``{{`` is a brace, not a field)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string,)


@dataclass(frozen=True)
class Problem:
    language: str
    message: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.message!r}: {self.what}"


def problems(template: Catalog | None = None) -> list[Problem]:
    """Everything that keeps the catalogues from being whole, for every language."""
    template = template or extract()
    wanted = {(message.context, _ids(message)[0]) for message in template if message.id}
    found: list[Problem] = []
    for code in translations():
        catalog = read(code)
        have = {(message.context, _ids(message)[0]): message for message in catalog if message.id}
        for key in sorted(wanted - have.keys(), key=str):
            found.append(Problem(code, key[1], "missing from the catalogue"))
        for key in sorted(have.keys() - wanted, key=str):
            found.append(Problem(code, key[1], "in the catalogue but used nowhere"))
        for key, message in have.items():
            if key not in wanted:
                continue
            found.extend(_message_problems(code, catalog.num_plurals, message))
    return found


def _message_problems(code: str, plurals: int, message: Message) -> Iterable[Problem]:
    ids, strings = _ids(message), _strings(message)
    name = ids[0]
    if message.fuzzy:
        yield Problem(code, name, "marked fuzzy (a guess to check)")
    if len(ids) > 1 and len(strings) != plurals:
        yield Problem(code, name, f"{len(strings)} plural forms, the language has {plurals}")
    if any(not text for text in strings):
        yield Problem(code, name, "not translated")
        return
    expected = set().union(*(fields_of(text) for text in ids))
    for text in strings:
        # A plural form may leave out {n} (Japanese "one" forms, "un" in Italian): never add a field.
        extra = fields_of(text) - expected
        missing = expected - fields_of(text) - {"n"}
        if extra or missing:
            yield Problem(code, name, f"fields differ: extra {sorted(extra)}, missing {sorted(missing)}")


def merge(base: str, ours: str, theirs: str) -> int:
    """Git's merge driver: the union of both sides' messages, a translation on either side kept."""
    del base
    with open(ours, "rb") as source:
        merged = read_po(source)
    with open(theirs, "rb") as source:
        other = read_po(source)
    for message in other:
        if not message.id:
            continue
        mine = merged.get(message.id, message.context)
        if mine is None:
            merged[message.id] = message
        elif not any(_strings(mine)) and any(_strings(message)):
            mine.string = message.string
    _write(merged, Path(ours))
    return 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        template = update()
        print(f"{len(template)} messages; catalogues updated: {', '.join(translations())}")
        return 0
    if command == "check":
        found = problems()
        for problem in found:
            print(problem)
        print(f"{len(found)} problems")
        return 1 if found else 0
    if command == "merge" and len(argv) == 4:
        return merge(argv[1], argv[2], argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
