"""Every text Vege tables shows a player, gathered from whole seeded games (both variants) and a few
built positions (stuck tables, dead cards): boards, private views with their examples, pictures'
words, events, the refusals of probe moves at every position (fixed ones, and each card the seat
holds played, discarded or stood for by a Tractor), notation errors, set-up errors and the game's
own descriptions. The language tests (tests/i18n/test_vegetables_language.py) read them in each
language.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.core import BadNotation, SetupError, format_event
from engine.games.vegetables import GAME, reasons
from engine.games.vegetables.cards import (
    NUMBER,
    PRECEDING,
    SEQUENCE,
    SLOT,
    is_tractor,
    sequence_card,
)
from engine.games.vegetables.duo import reasons as duo_reasons
from engine.games.vegetables.duo.model import DuoState, PlayGround, TractorGround
from engine.games.vegetables.model import Discard, Pass, Play, UseTractor
from engine.i18n import tr

from . import helpers as H
from . import helpers_two as H2

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")

CONFIGS: tuple[tuple[int, dict[str, Any]], ...] = (
    (4, {}),
    (4, {"expert_jokers": True}),
    (3, {"house_variant": True}),
    (5, {"house_variant": True}),
    (2, {}),
)

# Moves tried by every seat at every position: each legal one is skipped, each other one refused.
PROBES = (
    "pass", "done", "well", "play K1", "play K1 row 9", "play K1 row 1", "play K2 row 4", "play R7",
    "play R7 row 1", "play G5", "play Y20", "play K17", "tractor T1 for R7 then R11",
    "tractor T1 for K1 then K5", "tractor T1 for K1 then K5 row 3", "tractor T1 for R5 then R9 row 2",
    "tractor T6 for G10 then G14", "tractor T9 for Y3 then Y7", "tractor T2 for R18", "discard T1",
    "discard T6", "discard T9", "discard T10", "discard K8", "discard R3", "draw W1", "draw W3 W3",
    "draw W1 W1 W2 W2 W1", "draw K13", "play R3 take G17", "play R2 take G13",
    "tractor T1 for R2 then R6 take G17", "tractor T6 for R2 then R6 take G17",
    "tractor T1 for R6 then R10 take G17",
)  # fmt: skip
# Moves no reader writes, refused all the same (a front end may hand any move over).
ODD_MOVES = (Play("T1"), UseTractor("K3", "R7"), UseTractor("T1", "T2"))

# Texts no move reader accepts, and those only the 2-player reader refuses.
BAD_NOTATION = (
    "", "xyz", "play Z9", "play T11", "play K21", "play K1 row", "discard", "tractor T3", "tractor R3 for R7",
    "tractor T3 for T4", "tractor T3 for R17 then R21", "tractor T3 for R7 then R15", "play", "play T3",
    "tractor T3 for R20 then R24", "tractor T3 for R17 then R1", "draw", "play R3 take", "play R3 take T1",
    "play R3 row 1 take G17", "well take G17", "play R3 take G17 G18", "draw W4", "draw X1", 12,
)  # fmt: skip

SETUPS: tuple[tuple[int, dict[str, Any]], ...] = (
    (1, {}),
    (6, {}),
    (2, {"expert_jokers": True}),
    (2, {"expert_jokers": True, "house_variant": True}),
    (3, {"expert_jokers": True}),
    (5, {"expert_jokers": True, "house_variant": True}),
    (3, {}),
    (5, {}),
    (3, {"house_variant": True, "deck": ["G1", "R1", "Y1"]}),
    (3, {"house_variant": True, "deck": ["T8"]}),
    (4, {"deck": ["T9"]}),
    (4, {"deck": ["Q1"]}),
    (4, {"deck": ["K1", "K1"]}),
    (2, {"deck": ["T1"]}),
    (2, {"deck": ["K1", "K1"]}),
)


def _picture_words(draw: Any, *args: Any) -> list[str]:
    """Every text a drawing writes: its lines (Canvas.write) and the bands of its cards."""
    from engine.games.vegetables import draw as draw_module
    from engine.pictures import canvas

    written: list[str] = []
    original_write = canvas.Canvas.write
    original_card = draw_module.labelled_card

    def write(self: Any, x: float, y: float, text: str, *rest: Any, **keywords: Any) -> None:
        written.append(text)
        original_write(self, x, y, text, *rest, **keywords)

    def card(main: str, band: str, *rest: Any) -> Any:
        written.append(band)
        return original_card(main, band, *rest)

    canvas.Canvas.write = write  # type: ignore[method-assign]
    draw_module.labelled_card = card  # type: ignore[assignment]
    try:
        draw(*args)
    finally:
        canvas.Canvas.write = original_write  # type: ignore[method-assign]
        draw_module.labelled_card = original_card  # type: ignore[assignment]
    return written


def descriptions() -> Iterator[tuple[str, str]]:
    """The game's own texts, translated where they are shown (``tr`` of the marked constants)."""
    yield "title", tr(GAME.title)
    yield "summary", tr(GAME.summary)
    yield "notation_help", tr(GAME.notation_help)
    yield "players_note", tr(GAME.players_note)
    for option in GAME.options:
        yield f"option {option.name}", tr(option.description)


def setup_errors() -> Iterator[tuple[str, str]]:
    for players, options in SETUPS:
        try:
            GAME.new_game(players, 1, options)
        except SetupError as error:
            yield f"setup {players} {options}", str(error)


def notation_errors() -> Iterator[tuple[str, str]]:
    for text in BAD_NOTATION:
        try:
            GAME.parse_move(text)  # type: ignore[arg-type]
        except BadNotation as error:
            yield f"notation {text!r}", str(error)


def _held(state: Any, seat: int) -> list[str]:
    player = state.seats[seat]
    places = ("grounds", "hand", "exposed", "tractors") if isinstance(state, DuoState) else ("farmland", "hand", "exposed")
    return [card for name in places for card in getattr(player, name)]


def card_probes(state: Any, seat: int) -> list[Any]:
    """Moves made of what the seat holds: each card played (a base in every row too), each dead
    card discarded, and its first Tractor standing for the card below each of its cards, for the
    next card of each sequence and for a card already on the field."""
    held = _held(state, seat)
    rows = 4 if isinstance(state, DuoState) else len(state.rows)
    moves: list[Any] = [Discard(card) for card in state.dead]
    tractors = [card for card in held if is_tractor(card)]
    for card in held:
        if is_tractor(card):
            continue
        moves.append(Play(card))
        if NUMBER[card] <= 4:
            moves.extend(Play(card, row) for row in range(1, rows + 2))
        if tractors and PRECEDING[card] is not None:
            moves.append(UseTractor(tractors[0], PRECEDING[card]))
    if isinstance(state, DuoState):
        silo = [pile[-1] for pile in state.silos if pile] or ["G17"]
        for card in held:
            if not is_tractor(card):
                moves.append(PlayGround(card, silo[0]))
                if tractors and PRECEDING[card] is not None:
                    moves.append(TractorGround(tractors[0], PRECEDING[card], silo[0]))
    if tractors:
        for sequence, stack in state.stacks.items():
            if len(stack) < 4:
                moves.append(UseTractor(tractors[0], sequence_card(sequence, len(stack) + 1)))
            if stack and not is_tractor(stack[0]):
                moves.append(UseTractor(tractors[0], stack[0]))
    return moves


def _off_turn_requests(state: Any, rng: random.Random, texts: list[tuple[str, str]]) -> Any:
    """Now and then a seat off turn asks to discard a dead card it holds (A3), then asks again;
    returns the state after the requests, their texts in ``texts``."""
    for seat in range(state.players):
        if seat == state.turn or GAME.is_over(state):
            continue
        requests = [move for move in GAME.legal_moves(state, seat) if isinstance(move, Discard)]
        if requests and rng.random() < 0.5:
            state, events = GAME.apply(state, seat, requests[0])
            texts.extend(("event", event.text) for event in events)
            texts.append(("refusal of a second request", GAME.why_illegal(state, seat, requests[0]) or ""))
    return state


def position_texts(state: Any, names: list[str], pictures: bool) -> Iterator[tuple[str, str]]:
    """Everything read at one position: the board and each seat's view (with fewer names than
    seats once), pictures, and the refusal of every probe that is not legal."""
    players = state.players
    public = GAME.view(state, None)
    yield "board", GAME.render_board(public, names)
    yield "board, a seat without a name", GAME.render_board(public, names[:1])
    if pictures:
        for text in _picture_words(GAME.draw_board, public, names):
            yield "board picture", text
    probes = [GAME.parse_move(text) for text in PROBES] + list(ODD_MOVES)
    why_not = duo_reasons.why_not if isinstance(state, DuoState) else reasons.why_not
    yield "refusal of no seat", why_not(state, players, Pass())
    yield "refusal of no move", why_not(state, state.turn, object())  # type: ignore[arg-type]
    for seat in range(players):
        private = GAME.view(state, seat)
        yield "private", GAME.render_private(private, names)
        if pictures:
            for text in _picture_words(GAME.draw_hand, private, names):
                yield "hand picture", text
        if GAME.is_over(state):
            continue
        for move in probes + card_probes(state, seat):
            reason = GAME.why_illegal(state, seat, move)
            if reason is not None:
                yield f"refusal {GAME.format_move(move)}", reason


def walk(
    state: Any, rng: random.Random, kind: str, script: tuple[str, ...] = (), pictures_every: int = 0,
    requests: bool = True,
) -> Iterator[tuple[str, str]]:
    """Play a game to its end (the ``script`` moves first, in notation, then AI seats of
    ``kind``; off-turn discard requests now and then unless not ``requests``), reading every
    text at every position."""
    names = list(NAMES[: state.players])
    ai = GAME.ai_players()[kind]()
    script_left = list(script)
    step = 0
    while True:
        yield from position_texts(state, names, bool(pictures_every) and step % pictures_every == 0)
        if GAME.is_over(state):
            return
        seat = state.turn
        if script_left:
            move = GAME.parse_move(script_left.pop(0))
        else:
            move = GAME.automatic_move(state, seat) or ai.choose(GAME, state, seat, rng)
        state, events = GAME.apply(state, seat, move)
        for event in events:
            yield "event", format_event(event.text, names)
        if requests:
            texts: list[tuple[str, str]] = []
            state = _off_turn_requests(state, rng, texts)
            yield from ((where, format_event(text, names)) for where, text in texts)
        step += 1


def game_texts(players: int, options: dict[str, Any], seed: int, *, pictures_every: int = 0) -> Iterator[tuple[str, str]]:
    """The texts of one whole game between greedy seats (random ones for odd seeds)."""
    state = GAME.new_game(players, seed, options)
    yield from walk(state, random.Random(seed), "greedy" if seed % 2 == 0 else "random", pictures_every=pictures_every)


# ----- built positions: what seeded games between AI seats seldom reach ----------------------------


def _stuck_table(keep_well: bool) -> Any:
    """Every sequence closed, every seat holding one dead card (the safety valve's table); seat 1
    keeps its well uncollected when ``keep_well``."""
    state = H.new_game(seed=12)
    for row, family in enumerate("KGRY", start=1):
        for base in range(1, 5):
            H.close_sequence(state, row, f"{family}{base}")
    for seat, card in enumerate(["K5", "G6", "R7", "Y8"]):
        state.stacks[SEQUENCE[card]][SLOT[card] - 1] = f"T{seat + 1}"
        state.dead.append(card)
        H.set_cards(state, "farmland", seat, [], park=-1)
        H.set_cards(state, "hand", seat, [card], park=-1)
        if not (keep_well and seat == 0):
            H.take_well(state, seat, park=-1)
    for tractor in ("T1", "T2", "T3", "T4"):
        if tractor in state.discard:
            state.discard.remove(tractor)
    state.cells = [""] * 16
    H.start_turn(state, 0)
    return state


def _stuck_duo(wells: bool) -> Any:
    """The 2-player seat on turn holds only dead cards (K15 hidden, R18 face up); the wells are
    empty unless ``wells``."""
    state = H2.new_duo(8)
    seat = state.turn
    for name in ("grounds", "tractors", "locked"):
        H2.set_place(state, name, [], seat)
    H2.set_place(state, "hand", ["K15"], seat)
    H2.set_place(state, "exposed", ["R18"], seat)
    state.dead.extend(["R18", "K15"])
    if not wells:
        H2.empty_wells(state)
    H2.strand(state, 1 - seat)
    H2.start_turn(state, seat)
    return state


def built_texts() -> Iterator[tuple[str, str]]:
    yield from walk(_stuck_table(keep_well=False), random.Random(1), "greedy", script=("pass",) * 4, requests=False)
    # Seat 1 discards its dead card, then passes with nothing to show but a well to collect.
    yield from walk(_stuck_table(keep_well=True), random.Random(2), "greedy", script=("discard K5",))
    yield from walk(_stuck_duo(wells=False), random.Random(3), "greedy")
    for wells in (True, False):
        yield from walk(_stuck_duo(wells), random.Random(4), "greedy", script=("discard K15",))


def all_texts(seeds: tuple[int, ...] = (0, 1), pictures_every: int = 0) -> Iterator[tuple[str, str]]:
    yield from descriptions()
    yield from setup_errors()
    yield from notation_errors()
    yield from built_texts()
    for players, options in CONFIGS:
        for seed in seeds:
            yield from game_texts(players, options, seed, pictures_every=pictures_every)
