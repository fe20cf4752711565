"""Pictures in every language: each text drawn with a face that has a glyph for every one of its
characters (Japanese texts, and a Japanese player's name in an English game, draw no "tofu"
boxes), the charts' words in the reader's language, and the pictures cached per language."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageDraw

from engine.core import Outcome
from engine.i18n import catalog_path, use_language
from engine.pictures import fonts
from engine.pictures.charts import rating_chart
from engine.pictures.result import draw_result
from engine.referee.model import RatingChange
from engine.referee.pictures import Pictures
from engine.referee.ratings import Rating

JAPANESE_NAMES = ("さくら", "山田太郎", "ＡＢＣ", "🎲 Bob")


def japanese_texts() -> list[str]:
    with catalog_path("ja").open("rb") as source:
        catalog = read_po(source, locale="ja")
    texts: list[str] = []
    for message in catalog:
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            texts.extend(text for text in strings if text)
    return texts


def test_every_japanese_text_and_name_has_a_face_that_draws_all_of_it() -> None:
    texts = [*japanese_texts(), *JAPANESE_NAMES[:3], "1. さくら: 9 · ペア A（席 1 + 3）"]
    assert len(texts) > 150
    latin = fonts.font_file("Final scores")
    assert latin is not None and latin.name == "DejaVuSans.ttf"  # Latin text looks as it always did
    assert fonts.japanese_font_file() is not None
    for text in texts:
        for bold in (False, True):
            assert fonts.missing_glyphs(text, [fonts.font_file(text, bold)]) == "", text
    # What DejaVu alone would have drawn as boxes (the check above can fail):
    assert fonts.missing_glyphs("最終得点", [latin]) == "得最点終"


def _drawn(text: str, face: object) -> Image.Image:
    image = Image.new("L", (200, 60), 0)
    ImageDraw.Draw(image).text((4, 4), text, font=face, fill=255)  # type: ignore[arg-type]
    return image


@pytest.mark.parametrize("char", list("最終得点さ郎ア"))
def test_a_japanese_character_is_drawn_as_itself_not_as_the_missing_glyph(char: str) -> None:
    # The face's own "missing glyph" box, drawn for a private-use character no face maps.
    face = fonts.font(24, False, char)
    tofu = _drawn("\U000f0000", face)
    assert ImageChops.difference(_drawn(char, face), tofu).getbbox() is not None
    # ...where DejaVu draws the box itself (the comparison can fail).
    latin = fonts.font(24)
    assert ImageChops.difference(_drawn(char, latin), _drawn("\U000f0000", latin)).getbbox() is None


def _glyph_warnings(draw: object) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        draw()  # type: ignore[operator]
    return [str(warning.message) for warning in caught if "missing from font" in str(warning.message)]


def test_the_result_picture_draws_japanese_words_and_names() -> None:
    outcome = Outcome(scores=[9, 2.5, 9, 2.5], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    names = ["さくら", "Bob", "山田太郎", "Dan"]
    history = [[0, 0, 0, 0], [3, 1, 2, 0], [9, 2.5, 9, 2.5]]
    drawn: list[object] = []
    with use_language("ja"):
        assert _glyph_warnings(lambda: drawn.append(draw_result(names, outcome, history))) == []
    picture = drawn[0]
    assert picture.labels("title") == ["最終得点"]  # type: ignore[attr-defined]
    assert picture.labels("winner") == ["さくら", "山田太郎"]  # type: ignore[attr-defined]
    # A Japanese name in an English game draws too.
    assert _glyph_warnings(lambda: draw_result(names, outcome, history)) == []


def test_the_rating_chart_speaks_the_readers_language() -> None:
    with use_language("ja"):
        assert _glyph_warnings(lambda: rating_chart("さくら", {"ラ・グランハ": [25.0, 27.1, 26.4]})) == []
        assert rating_chart("さくら", {}).labels("empty") == ["レーティング対象のゲームはまだありません。"]
    with use_language("it"):
        assert rating_chart("Bob", {}).labels("empty") == ["Ancora nessuna partita classificata."]


async def test_pictures_are_cached_per_language() -> None:
    pictures = Pictures()
    change = RatingChange(
        user_id="u1", name="Bob", guild_id="", game="figures", before=Rating(25.0, 8.0), after=Rating(27.0, 7.0),
        rank=1, games=1,
    )
    try:
        english = await pictures.rating_chart("Bob", [change])
        with use_language("ja"):
            japanese = await pictures.rating_chart("Bob", [change])
        again = await pictures.rating_chart("Bob", [change])
    finally:
        pictures.close()
    assert english is not None and japanese is not None and again is not None
    assert japanese.picture.png != english.picture.png and again.picture.png == english.picture.png
    assert japanese.alt.startswith("Bob のレーティングの推移。") and english.alt.startswith("Bob's rating over time.")


def test_the_japanese_face_is_the_one_matplotlib_fontja_ships() -> None:
    # Asked in a process of its own: importing the package changes matplotlib's default font.
    shipped = subprocess.run(
        [sys.executable, "-c", "import matplotlib_fontja; print(matplotlib_fontja.get_font_ttf_path())"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(shipped) == fonts.japanese_font_file()


def test_japanese_text_wraps_between_characters_and_never_starts_a_line_with_a_closing_mark() -> None:
    text = "ゲームは終わりました。レーティング対象のゲームはまだありません。Bob が take 2 を選びました。"
    lines = fonts.wrap(text, 16, 200)
    assert len(lines) > 2 and "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing cut
    assert all(fonts.text_width(line, 16) <= 200 for line in lines)
    assert not any(line[0] in "、。ーぁっゃ」" for line in lines)
    assert "Bob が" in "\n".join(lines)  # the spaces that were there stay
    assert fonts.wrap("The quick brown fox jumps over the lazy dog", 16, 200) == [
        "The quick brown fox", "jumps over the lazy dog",
    ]


def test_emoji_in_a_name_are_left_out_of_the_picture_rather_than_drawn_as_boxes() -> None:
    # Discord names often carry emoji; neither face has them: each would be a tofu box.
    assert fonts.missing_glyphs("🎲 Bob", [fonts.font_file("🎲 Bob")]) == "🎲"  # (the check can fail)
    assert fonts.drawable("🎲 Bob") == "Bob" and fonts.drawable("さくら🌸") == "さくら"
    assert fonts.drawable("👨\u200d👩\u200d👧") == "?"  # a name of emoji alone still shows something
    assert fonts.drawable("★ Star ☀") == "★ Star ☀"  # what a face has stays
    assert ImageChops.difference(fonts.text_mask("🎲 Bob", 16), fonts.text_mask("Bob", 16)).getbbox() is None
    assert fonts.text_width("🎲 Bob", 16) == fonts.text_width("Bob", 16)
    outcome = Outcome(scores=[9, 2], ranks=[1, 2])
    assert _glyph_warnings(lambda: draw_result(["🎲 Bob", "Ann 👍🏽"], outcome, [[0, 0], [9, 2]])) == []
    assert _glyph_warnings(lambda: rating_chart("🎲 Bob", {"Figures": [25.0, 27.1]})) == []
