"""La Granja in Italian, Brazilian Portuguese and Japanese: whole seeded games at 2, 3 and 4
players, and every text of the game read at every position (boards, private views, prompts, move
descriptions, events, pictures, refusals provoked, notation and setup errors, the rules), with no
English left in them.

What a player types stays as written in every language: card, roof, hex, building and donkey
codes, goods codes, the verbs and option words of the notation, and the players' names.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.core import BadNotation, SetupError
from engine.games.granja import GAME, setup
from engine.games.granja.cards import CARDS
from engine.games.granja.config import BUILDINGS, CONFIG, DONKEYS, ITEMS, MARKET
from engine.games.granja.model import GranjaState
from engine.games.granja.notation import BUILDING_WORDS, EFFECT_NAMES, KINDS
from engine.i18n import tr, use_language
from tests.i18n import game_texts
from tests.i18n.game_texts import LANGUAGES, error

NAMES = ["Ann", "Bob", "Cy", "Dee"]
# What a player types, in every language: codes, verbs, option and position words, the
# placeholders of the notation's examples (CARD, GOOD TARGET...).
NOTATION = [
    *CARDS, *CONFIG.roofs, *(spec.id for spec in MARKET), *BUILDING_WORDS, *DONKEYS, *ITEMS, *KINDS, *EFFECT_NAMES,
    "field", "barrow", "helper", "ext", "none", "up", "down", "as", "two", "CARD", "GOOD", "TARGET", "POSITION",
    *(f"H{number:02d}" for number in range(1, 18)), "E-DI", "E-DP", "E-IP", "VP",
]  # fmt: skip
TITLE = ["Granja"]  # the game's name, kept in Italian and Portuguese
BAD_MOVES = [
    "", "fly", "play", "play C099 field", "play C001 up", "play C001", "take 9", "take", "die", "die zzz", "die crop",
    "die crops GR GR", "die upgrade 7", "die siesta 5", "die pig 2", "pay", "pay GR OL", "pay XX", "done now",
    "use", "use R9-Z", "use C006 GR OL", "nudge", "nudge left", "buy", "buy FD", "buy GR OL", "upgrade GR@barn",
    "sell TG", "deliver", "deliver GR", "deliver GR zz", "deliver GR b1 as OL", "deliver TG b1 as XX", "hex",
    "hex M99", "donkey", "donkey D9", "donkey D2 +x", "flex GR", "roof", "roof R7-A", "discard", "discard C1000",
    "gain", "sell GR@field", "crop GR",
]  # fmt: skip
PLAYER_INPUT = [*BAD_MOVES, "qwz"]  # what players wrote is quoted back as written
# Option names are typed as they are (`deck=...`), like notation, and quoted so in refusals.
OPTION_NAMES = [*(option.name for option in GAME.options), *GAME.stacking_options]
ALLOWED = {*NAMES, *NOTATION, *TITLE, *PLAYER_INPUT, *OPTION_NAMES}
# Moves tried at positions, legal or not: each verb with typical arguments.
PROBES = [
    "play C001 field", "play C002 ext", "play C003 barrow", "play C004 helper", "discard C004", "pay GR", "pay TG",
    "pay $", "pay VP", "pay OL@field", "back", "done", "pass", "take 1", "take 3", "take 6", "die pig",
    "die crop GR", "die crops GR OL", "die silver", "die vp", "die draw", "die play", "die upgrade", "die upgrade 2",
    "die upgrade siesta", "die siesta 2", "die deliver", "tg silver", "tg pig", "tg draw", "tg upgrade 2", "use R1-A",
    "use R2-B siesta 1", "use R5-B vp", "use C005", "use C006 GR", "use C010", "nudge up", "nudge down",
    "roof R1-A", "roof R3-B", "roof R2-C", "buy GR", "buy PG", "sell FD", "sell GR", "sell PG", "upgrade GR",
    "upgrade PG", "upgrade GR@field", "deliver GR b1", "deliver TG b2 as GR", "deliver GR C010", "deliver PG b6",
    "deliver MT b3", "extra GR b4", "extra TG b5", "gain OL", "hex M05", "hex M25", "hex M01", "donkey D1",
    "donkey D2 +1", "donkey D4", "flex GR OL", "flex none",
]  # fmt: skip


def refusals(state: GranjaState, seat: int) -> Iterator[str]:
    """Every refusal of the position for ``seat``: the probes, each card of its hand on each side,
    each good to each of its barrows and to each building."""
    texts = [*PROBES]
    texts += [f"play {card} {side}" for card in state.farms[seat].hand for side in ("field", "barrow", "helper", "ext")]
    texts += [f"deliver {good} {barrow.card}" for barrow in state.farms[seat].barrows for good in ("GR", "PG", "TG", "WN")]
    texts += [f"deliver {good} b{spec.number}" for spec in BUILDINGS for good in ("GR", "FD", "TG")]
    for text in texts:
        reason = GAME.why_illegal(state, seat, GAME.parse_move(text))
        if reason:
            yield reason
    yield GAME.not_your_turn_reason(state, seat)


def played_texts(players: int, seed: int, refuse_every: int, draw_every: int) -> Iterator[str]:
    """Play a seeded game in the current language, random moves with some of the greedy player's
    (so that buildings and barrows get completed); yield every text."""
    rng = random.Random(seed)
    player = GAME.ai_players()["greedy"]()
    state = GAME.new_game(players, seed)
    names = NAMES[:players]
    step = 0
    while True:
        view = GAME.view(state, None)
        seat_views = [GAME.view(state, seat) for seat in range(players)]
        yield GAME.render_board(view, names)
        yield from (GAME.render_private(seat_view, names) for seat_view in seat_views)
        if step % draw_every == 0 or GAME.is_over(state):
            GAME.draw_board(view, names)
            GAME.draw_hand(seat_views[0], names)
        if GAME.is_over(state):
            return
        acting = GAME.to_act(state)
        seat = acting[rng.randrange(len(acting))]
        if step % refuse_every == 0:
            yield from refusals(state, seat)
            yield GAME.not_your_turn_reason(state, (seat + 1) % players)
        moves = GAME.legal_moves(state, seat)
        yield from (GAME.describe_move(move) for move in moves)
        move = player.choose(GAME, state, seat, rng) if rng.random() < 0.3 else rng.choice(moves)
        state, events = GAME.apply(state, seat, move)
        yield from (event.text for event in events)
        step += 1


def errors_and_rules() -> Iterator[str]:
    for text in BAD_MOVES:
        yield error(lambda text=text: GAME.parse_move(text), BadNotation)  # type: ignore[misc]
    yield error(lambda: GAME.setup(1, 1, {}), SetupError)
    yield error(lambda: GAME.setup(2, 1, {"deck": ["qwz"]}), SetupError)
    yield error(lambda: setup.new_state(1, 1), SetupError)
    yield error(lambda: setup.new_state(2, 1, ["C999"]), SetupError)
    yield error(lambda: setup.new_state(2, 1, ["C001", "C001"]), SetupError)
    yield from (tr(text) for text in (GAME.title, GAME.summary, GAME.notation_help))


def english_left(texts: list[str], language: str) -> dict[str, list[str]]:
    return game_texts.english_left(texts, language, ALLOWED)


def check(texts: list[str], language: str) -> None:
    game_texts.assert_no_english(texts, language, ALLOWED)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_reads_without_english(language: str, players: int, drawn: list[str]) -> None:
    with use_language(language):
        texts = list(played_texts(players, players, refuse_every=8, draw_every=60))
    assert len(texts) > 1_000 and drawn
    check(texts + drawn, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_error_and_the_rules_read_without_english(language: str) -> None:
    with use_language(language):
        texts = list(errors_and_rules())
    assert len(texts) == len(BAD_MOVES) + 8
    check(texts, language)


def test_the_detector_sees_english_left_in_a_game(drawn: list[str]) -> None:
    """The same game in English is all English to the detector: the checks above can fail."""
    texts = list(played_texts(2, 2, refuse_every=50, draw_every=1_000)) + list(errors_and_rules())
    for language in LANGUAGES:
        assert english_left(texts, language)


def test_japanese_uses_the_communitys_words() -> None:
    """The terms of the Japanese rules: 畑, 荷車, 助手, 増設部, 昼寝, 輸送, 交易品, 農場財..."""
    with use_language("ja"):
        texts = " ".join(played_texts(3, 3, refuse_every=20, draw_every=10**6))
        texts += " ".join(errors_and_rules())
    for word in ["畑", "荷車", "助手", "増設部", "昼寝トラック", "輸送", "追加輸送", "交易品", "農場財", "勝利点", "銀",
                 "ロバマーカー", "麦藁帽子", "屋根マーカー", "建設順マーカー", "市場", "豚小屋", "荷車製造所", "村の商店",
                 "商館", "八百屋", "惣菜店", "肉屋", "随時アクション", "収穫物", "資源", "手番順"]:  # fmt: skip
        assert word in texts, word


def test_a_view_is_the_same_for_every_reader_and_reads_in_the_language_it_is_shown_in() -> None:
    """The referee compares and shares views, and renders a table's public board in the server's
    language from a view read for a viewer: a view is the same in every language, and the board,
    the private view (its prompt) and the pictures say nothing in another language than their own."""
    rng = random.Random(6)
    state = GAME.new_game(3, 6)
    names = NAMES[:3]
    seen = 0
    while not GAME.is_over(state):
        if rng.random() < 0.2:
            views = []
            for language in ("en", *LANGUAGES):
                with use_language(language):
                    views.append([GAME.view(state, None), *(GAME.view(state, seat) for seat in range(3))])
            assert all(other == views[0] for other in views)
            with use_language("ja"):
                japanese = [GAME.render_board(views[0][0], names), *(GAME.render_private(view, names) for view in views[0][1:])]
            check(japanese, "ja")
            seen += 1
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    assert seen > 20


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_texts_fit_discords_limits(language: str) -> None:
    """A move's description goes into a select option (100 characters), the notation help into an
    embed field (1,024), the summary into an embed's description (4,096)."""
    moves = [f"take {face}" for face in range(1, 7)]
    moves += [f"play {card} {side}" for card in CARDS for side in ("field", "barrow", "helper", "ext")]
    moves += [f"use {card}" for card in CARDS] + [f"roof {roof}" for roof in CONFIG.roofs]
    moves += [f"donkey {marker}{push}" for marker in DONKEYS for push in ("", " +1")]
    with use_language(language):
        longest = max((GAME.describe_move(GAME.parse_move(text)) for text in moves), key=len)
        assert len(longest) <= 100, longest
        assert len(tr(GAME.notation_help)) <= 1_024
        assert len(tr(GAME.summary)) <= 4_096
