"""The views of Draft Cider: everything is public, so a seat's view is the public one with its
possible placements added."""

from __future__ import annotations

from typing import Any

from engine.core import ranks_from_keys
from engine.i18n import tr

from . import notation, rules
from .cards import BATCH_IDS, CODE, picks_per_round, rounds_for
from .model import OrchardState


def view(state: OrchardState, seat: int | None) -> dict[str, Any]:
    """The public view (``seat`` None), or a seat's: the public view and, for each pool card, the
    batches it may go in now."""
    players = state.players
    over = rules.is_over(state)
    picker = rules.current_picker(state)
    orchards = []
    totals = []
    for orchard in state.orchards:
        scores = rules.batch_scores(orchard, state.easy)
        totals.append(sum(scores))
        orchards.append(
            {
                "batches": {BATCH_IDS[b]: [CODE[card] for card in cards] for b, cards in enumerate(orchard)},
                "scores": dict(zip(BATCH_IDS, scores, strict=True)),
                "total": sum(scores),
                "unlucky_sum": rules.unlucky_sum(orchard),
                "tree_intact": rules.tree_intact(orchard),
            }
        )
    public: dict[str, Any] = {
        "game": "orchard",
        "players": players,
        "easy": state.easy,
        "solo": players == 1,
        "phase": "over" if over else "picking",
        "over": over,
        "round": state.current_round,
        "rounds": rounds_for(players),
        "picks_per_round": picks_per_round(players),
        "picks_this_round": picks_per_round(players) * players,
        "pick": None if over else state.picks_made + 1,
        "first_picker": rules.round_first_picker(state),
        "turn": picker,
        "to_act": [] if picker is None else [picker],
        "deck_left": len(state.deck),
        "pool": [CODE[card] for card in state.pool],
        "orchards": orchards,
        "scores": totals,
        # A legal move of the seat on turn, in the notation, for the prompt's example.
        "example_move": None if picker is None else notation.format_move(rules.legal_placements(state, picker)[0]),
    }
    public["prompt"] = prompt_of(public)
    if over:
        public["ranks"] = ranks_from_keys(totals)
        public["winners"] = [] if players == 1 else [s for s, rank in enumerate(public["ranks"]) if rank == 1]
    if seat is None:
        return public
    # Nothing is secret from a seat, so its "private" part is a convenience: for each pool card,
    # the batches it may legally go in now and how much each would change the seat's total.
    orchard = state.orchards[seat]
    public["seat"] = seat
    public["your_turn"] = picker == seat
    public["placements"] = {
        CODE[card]: {
            BATCH_IDS[batch]: rules.placement_gain(orchard, card, batch, state.easy)
            for batch in range(8)
            if rules.can_place(orchard, card, batch)
        }
        for card in state.pool
    }
    return public


def prompt_of(view: dict[str, Any]) -> str:
    """What the seat on turn must do, from a view, in the current language (the board is drawn
    from the view in each reader's language)."""
    if view["over"]:
        return tr("The game is over.")
    return tr("Pick a pool card and place it in one of your batches, e.g. {example}.", example=view["example_move"])


def secret_view(state: OrchardState, seat: int) -> dict[str, Any]:
    # Nothing is secret (the pool and every orchard are public, the deck order is unknown to
    # all): no move ever changes a seat's secret.
    return {}
