"""The deal of Vege tables for 3 to 5 players (docs/rules/vegetables.md §2)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Rng, SetupError
from engine.core.text import quote
from engine.i18n import tr

from .cards import (
    ALL_TRACTORS,
    FAMILIES,
    FAMILY,
    NUMBERED,
    SEQUENCES,
    TRACTORS_H3,
    TRACTORS_H5,
    TRACTORS_OFFICIAL,
    back_of,
    is_tractor,
)
from .model import COLUMNS, H3, H5, OFFICIAL, PLAYING, PlayerState, VegetablesState
from .rules import begin_turn

# ----- set-up -----------------------------------------------------------------------------------


def variant_for(players: int) -> str:
    return {3: H3, 4: OFFICIAL, 5: H5}[players]


def new_state(players: int, seed: int, expert_jokers: bool, stacked: Sequence[str] = ()) -> VegetablesState:
    """Shuffle and deal (§2).

    The deck is split by back into three piles (Red 1-4, White 5-12, Green 13-20 with the
    Tractors); with Expert jokers the Tractors form a fourth pile. ``stacked`` cards go on top of
    their pile in the given order, the rest of each pile is shuffled below them. Piles are dealt in
    blocks, seat by seat from the first dealt seat: Farmland rows, hidden hands, wells, then the
    field cells row by row, left to right. With a stacked deck the first dealt seat is seat 1.
    """
    variant = variant_for(players)
    rng = Rng(seed=seed)
    codes = _read_stacked(stacked)

    removed_family: str | None = None
    tractors = TRACTORS_OFFICIAL
    if variant == H3:
        named = {FAMILY[code] for code in codes if not is_tractor(code)}
        candidates = [family for family in FAMILIES[1:] if family not in named]
        if not candidates:
            raise SetupError(
                tr(
                    "Deck option: the 3-player variant removes the Green, Red or Yellow family, "
                    "so the stacked deck must leave out every card of at least one of them."
                )
            )
        removed_family = rng.choice(candidates)
        tractors = TRACTORS_H3
    elif variant == H5:
        tractors = TRACTORS_H5
    families = [family for family in FAMILIES if family != removed_family]
    in_play = [code for code in NUMBERED if FAMILY[code] in families] + list(tractors)
    in_play_set = set(in_play)
    for code in codes:
        if code not in in_play_set:
            if is_tractor(code):
                raise SetupError(
                    tr(
                        "Deck option: {card} is not used with {players} players (Tractors {first}-{last}).",
                        card=code, players=players, first=tractors[0], last=tractors[-1],
                    )  # fmt: skip
                )
            raise SetupError(tr("Deck option: {card} is out of the game (its family was removed).", card=code))

    def pile(members: list[str]) -> list[str]:
        return stacked_pile(rng, codes, members)

    red = pile([code for code in in_play if back_of(code) == "red"])
    white = pile([code for code in in_play if back_of(code) == "white"])
    if expert_jokers:
        green = pile([code for code in in_play if back_of(code) == "green" and not is_tractor(code)])
        jokers = pile(list(tractors))
    else:
        green = pile([code for code in in_play if back_of(code) == "green"])
        jokers = []

    # H5 deals unequal numbers: seat 1 of the deal gets the extra Red card, seats 2 and 3 the extra
    # White ones. Seats are randomised for that variant (§2.3); the engine cannot reorder the
    # players, so it rotates which seat is dealt first instead (not with a stacked deck).
    deal_start = rng.randint(0, players - 1) if variant == H5 and not codes else 0
    if variant == H5:
        red_counts, white_counts, well_size, threshold = [4, 3, 3, 3, 3], [6, 7, 7, 6, 6], 5, 4
    else:
        red_counts, white_counts, well_size, threshold = [4] * players, [8] * players, 6, 6
    seats = [PlayerState() for _ in range(players)]
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        seat.farmland = _take(red, red_counts[offset])
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        seat.hand = _take(white, white_counts[offset])
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        if expert_jokers:
            seat.well = _take(green, well_size - 2) + _take(jokers, 2)
        else:
            seat.well = _take(green, well_size)
    rows = len(families)
    cells = _take(green, rows * COLUMNS)
    assert not red and not white and not green and not jokers, "the deal must use every card"

    first = next(index for index, seat in enumerate(seats) if "K1" in seat.farmland)
    state = VegetablesState(
        players=players,
        variant=variant,
        expert_jokers=expert_jokers,
        families=families,
        removed_family=removed_family,
        well_threshold=threshold,
        rows=[""] * rows,
        cells=cells,
        stacks={sequence: [] for sequence in SEQUENCES if sequence[0] in families},
        seats=seats,
        dead=[],
        discard=[],
        removed=[code for code in NUMBERED if FAMILY[code] == removed_family],
        deal_start=deal_start,
        turn=first,
        phase=PLAYING,
        rng=rng,
    )
    begin_turn(state, [])
    return state


def stacked_pile(rng: Rng, stacked: list[str], members: list[str]) -> list[str]:
    """One pile of the deal: the ``stacked`` cards that belong to it on top, in the order given,
    the rest of its ``members`` shuffled below them."""
    member_set = set(members)
    on_top = [code for code in stacked if code in member_set]
    chosen = set(on_top)
    rest = [code for code in members if code not in chosen]
    rng.shuffle(rest)
    return on_top + rest


def _read_stacked(stacked: Sequence[str]) -> list[str]:
    known = set(NUMBERED) | set(ALL_TRACTORS)
    codes: list[str] = []
    seen: set[str] = set()
    for raw in stacked:
        code = str(raw).strip().upper()
        if code not in known:
            raise SetupError(
                tr(
                    "Deck option: {text} is not a card (cards are K1-K20, G1-G20, R1-R20, Y1-Y20, T1-T9).",
                    text=quote(raw),
                )
            )
        if code in seen:
            raise SetupError(named_twice(code))
        seen.add(code)
        codes.append(code)
    return codes


def named_twice(code: str) -> str:
    return tr("Deck option: {card} is named twice; every card exists once.", card=code)


def _take(pile: list[str], count: int) -> list[str]:
    taken = pile[:count]
    del pile[:count]
    return taken
