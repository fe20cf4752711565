"""Which language the local table speaks: --lang, else the terminal's environment."""

from __future__ import annotations

import pytest

from engine.i18n import terminal_language as language_of


@pytest.mark.parametrize(
    ("argv", "environ", "expected"),
    [
        ([], {}, None),
        ([], {"LANG": "it_IT.UTF-8"}, "it"),
        ([], {"LANG": "pt_BR.UTF-8"}, "pt_BR"),
        ([], {"LANG": "ja_JP.UTF-8"}, "ja"),
        ([], {"LANG": "C.UTF-8"}, None),
        ([], {"LANG": "fr_FR.UTF-8"}, None),  # a language the bot does not speak: English
        ([], {"LC_ALL": "ja_JP.UTF-8", "LANG": "it_IT.UTF-8"}, "ja"),  # LC_ALL overrides LANG
        ([], {"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, None),
        ([], {"LANGUAGE": "fr:pt_BR", "LANG": "it_IT.UTF-8"}, "pt_BR"),  # the first it speaks
        ([], {"LANGUAGE": "fr", "LANG": "it_IT.UTF-8"}, "it"),
        (["--lang", "ja"], {"LANG": "it_IT.UTF-8"}, "ja"),  # the flag wins
        (["--lang=pt-BR"], {}, "pt_BR"),
        (["--game", "figures", "--lang", "it", "--lang", "en"], {}, "en"),  # the last one, as argparse
        (["--lang", "xx"], {"LANG": "it_IT.UTF-8"}, None),  # refused later, in English
    ],
)
def test_the_flag_then_the_environment_choose_the_language(argv, environ, expected):
    assert language_of(argv, environ) == expected
