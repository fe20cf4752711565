"""The deal of Vege tables for two (docs/rules/vegetables-2p.md §2)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Rng, SetupError
from engine.core.text import quote
from engine.i18n import tr

from ..cards import NUMBERED, SEQUENCES, back_of
from ..model import PLAYING
from ..setup import named_twice, stacked_pile
from .model import GROUNDS, HAND_DEAL, SILO_COLUMNS, TRACTORS_P1, TRACTORS_P2, DuoPlayer, DuoState

# ----- set-up (§2) --------------------------------------------------------------------------------


def new_state(seed: int, stacked: Sequence[str] = ()) -> DuoState:
    """Shuffle and deal: Red to the Grounds rows (8 each), White to the Hands (12 each) and the 8
    left to W3, Green to the Silos (four columns of 4, S1 first, bottom to top) then W1 and W2 (8
    each). ``stacked`` cards go on top of their pile in the given order, the rest of each pile is
    shuffled below them; P1 is always dealt first."""
    rng = Rng(seed=seed)
    codes = _read_stacked(stacked)

    def pile(members: list[str]) -> list[str]:
        return stacked_pile(rng, codes, members)

    red = pile([code for code in NUMBERED if back_of(code) == "red"])
    white = pile([code for code in NUMBERED if back_of(code) == "white"])
    green = pile([code for code in NUMBERED if back_of(code) == "green"])
    seats = [
        DuoPlayer(
            grounds=red[:GROUNDS],
            hand=white[:HAND_DEAL],
            tractors=[TRACTORS_P1[0]],
            locked=list(TRACTORS_P1[1:]),
        ),
        DuoPlayer(
            grounds=red[GROUNDS:],
            hand=white[HAND_DEAL : 2 * HAND_DEAL],
            tractors=[TRACTORS_P2[0]],
            locked=list(TRACTORS_P2[1:]),
        ),
    ]
    silos = [green[4 * column : 4 * column + 4] for column in range(SILO_COLUMNS)]
    wells = [green[16:24], green[24:32], white[2 * HAND_DEAL :]]
    assert len(wells[2]) == 8 and len(green) == 32 and len(red) == 2 * GROUNDS
    first = 0 if "K1" in seats[0].grounds else 1  # R21: whoever holds K1 starts
    state = DuoState(
        silos=silos,
        wells=wells,
        stacks={sequence: [] for sequence in SEQUENCES},
        seats=seats,
        dead=[],
        discard=[],
        turn=first,
        phase=PLAYING,  # TURN_START at the deal: nothing pending, live Grounds to play
    )
    return state


def _read_stacked(stacked: Sequence[str]) -> list[str]:
    known = set(NUMBERED)
    codes: list[str] = []
    for raw in stacked:
        code = str(raw).strip().upper()
        if code not in known:
            raise SetupError(
                tr(
                    "Deck option: {text} is not a card of the deal (K1-K20, G1-G20, R1-R20, Y1-Y20; "
                    "the Tractors are given out, not dealt).",
                    text=quote(raw),
                )
            )
        if code in codes:
            raise SetupError(named_twice(code))
        codes.append(code)
    return codes
