"""Helpers for the Draft Cider tests: cards written the spec's way and hand-built orchards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.games.orchard import GAME, OrchardState, Place
from engine.games.orchard.cards import BATCH_IDS, CODE
from engine.games.orchard.notation import parse_card


def card(text: str) -> int:
    """A card written as in the spec, e.g. ``"Gold h2 s5"``."""
    return parse_card(text)


def cards(*texts: str) -> list[int]:
    return [card(text) for text in texts]


def empty_orchard() -> list[list[int]]:
    return [[] for _ in BATCH_IDS]


def orchard_with(**batches: Iterable[str]) -> list[list[int]]:
    """An orchard from batch ids to spec-written cards: ``orchard_with(mono=["Red h2 s2"])``."""
    orchard = empty_orchard()
    for batch_id, texts in batches.items():
        orchard[BATCH_IDS.index(batch_id)] = cards(*texts)
    return orchard


def stacked_game(players: int, deck: Iterable[str], **options: Any) -> OrchardState:
    """A game whose deck starts with the given cards (spec-written), via the ``deck`` option."""
    codes = [CODE[card(text)] for text in deck]
    return GAME.new_game(players, seed=1, options={"deck": codes, **options})


def move(text_card: str, batch_id: str) -> Place:
    return Place(card(text_card), BATCH_IDS.index(batch_id))


def play(state: OrchardState, plays: Iterable[tuple[str, str]]) -> OrchardState:
    """Apply (card, batch id) moves, each by whoever is to pick."""
    for text_card, batch_id in plays:
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, move(text_card, batch_id))
    return state


def deck_secrets(state: OrchardState, seat: int) -> list[str]:
    """The only hidden information: the codes of the undrawn cards (hidden from every seat)."""
    return [CODE[undrawn] for undrawn in state.deck]


def with_orchard(state: OrchardState, seat: int, orchard: list[list[int]], pool: Iterable[int] | None = None) -> OrchardState:
    """A copy of ``state`` with one seat's orchard (and optionally the pool) replaced.

    Cards put in the orchard or pool are taken out of the deck so the 75 cards stay conserved.
    """
    state = GAME.copy_state(state)
    used = {placed for batch in orchard for placed in batch}
    if pool is not None:
        state.deck.extend(state.pool)
        state.pool = sorted(pool)
        used |= set(state.pool)
    state.deck = [undrawn for undrawn in state.deck if undrawn not in used]
    state.pool = [offered for offered in state.pool if offered not in used or offered in (pool or ())]
    state.orchards[seat] = [list(batch) for batch in orchard]
    return state


def batches_by_id(view: Mapping[str, Any], seat: int) -> dict[str, list[str]]:
    return view["orchards"][seat]["batches"]
