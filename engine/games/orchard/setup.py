"""The deal of Draft Cider: the shuffled deck and each round's pool (docs/rules/orchard.md)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Rng, SetupError
from engine.i18n import tr

from .cards import (
    ALL_CARDS,
    picks_per_round,
)
from .model import OrchardState

# ----- set-up -------------------------------------------------------------------------------------


def new_state(players: int, seed: int, easy: bool, host_first: bool, stacked: Sequence[int] = ()) -> OrchardState:
    """A fresh game with the first pool dealt.

    ``stacked`` cards go on top of the deck in the given order; the rest are shuffled below them.
    """
    if len(set(stacked)) != len(stacked):
        raise SetupError(tr("The stacked deck names a card twice; every apple exists only once."))
    rng = Rng(seed=seed)
    stacked_set = set(stacked)
    rest = [card for card in ALL_CARDS if card not in stacked_set]
    rng.shuffle(rest)
    first_picker = 0 if host_first else rng.randint(0, players - 1)
    state = OrchardState(
        players=players,
        easy=easy,
        first_picker=first_picker,
        current_round=1,
        picks_made=0,
        pool=[],
        deck=list(stacked) + rest,
        orchards=[[[] for _ in range(8)] for _ in range(players)],
        rng=rng,
    )
    deal_pool(state)
    return state


def deal_pool(state: OrchardState) -> None:
    size = picks_per_round(state.players) * state.players
    state.pool = sorted(state.deck[:size])
    del state.deck[:size]
