"""The public view and a seat's view of Vege tables for 3 to 5 players (docs/rules/vegetables.md §4.2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.i18n import tr, tr_n

from .cards import FAMILIES, SEQUENCE, SLOT, SLOTS, TRACTOR, sorted_cards
from .model import (
    COLUMNS,
    EMPTY_PASS_PENALTY,
    MUST_PASS,
    OFFICIAL,
    OVER,
    WELL_POINTS_PER_PLAYER,
    VegetablesState,
)
from .rules import dead_held, holdings, well_eligible, well_points
from .scoring import closed_count, sequences_in_play

# ----- views --------------------------------------------------------------------------------------


# The sequence in each column of a family's row, left to right (R -> R1, R2, R3, R4).
ROW_SEQUENCES: dict[str, tuple[str, ...]] = {
    family: tuple(f"{family}{column + 1}" for column in range(COLUMNS)) for family in FAMILIES
}


def public_view(state: VegetablesState) -> dict[str, object]:
    """What everyone may see (§4.2): never a hidden hand, a well, a face-down cell, the holder of a
    dead card kept hidden, a pending discard, or the random generator."""
    rows = []
    for row_index, family in enumerate(state.rows):
        cells = []
        for column in range(COLUMNS):
            sequence = ROW_SEQUENCES[family][column] if family else None
            stack = list(state.stacks[sequence]) if sequence else []
            cells.append(
                cell_view(
                    column + 1, sequence, stack, face_down=bool(state.cells[row_index * COLUMNS + column])
                )
            )
        rows.append({"row": row_index + 1, "family": family or None, "cells": cells})
    seats = []
    for index, player in enumerate(state.seats):
        seats.append(
            {
                **seat_fields(index, player),
                "farmland": sorted_cards(player.farmland),
                "hidden": len(player.hand),
                "well": len(player.well),
                "well_taken": player.well_taken,
            }
        )
    view: dict[str, Any] = {
        "game": "vegetables",
        "players": state.players,
        "variant": state.variant,
        "house_rules": state.variant != OFFICIAL,
        "expert_jokers": state.expert_jokers,
        "removed_family": state.removed_family,
        "families": list(state.families),
        "well_threshold": state.well_threshold,
        "next_well_points": WELL_POINTS_PER_PLAYER
        * max(0, sum(1 for p in state.seats if not p.well_taken) - 1),
        **table_fields(state, rows, seats, ""),
    }
    view["prompt"] = table_prompt(view)
    return view


class _Turn(Protocol):
    phase: str
    turn: int
    plays: int
    valve: int
    went_out: int | None


def cell_view(
    column: int, sequence: str | None, stack: list[str], face_down: bool | None = None
) -> dict[str, Any]:
    """A field cell: its sequence's stack and top card, whether it is closed, and (at 3-5 players,
    where bases go on face-down cards) whether its face-down card is still there."""
    cell: dict[str, Any] = {
        "column": column,
        "sequence": sequence,
        "stack": stack,
        "top": stack[-1] if stack else None,
    }
    if face_down is not None:
        cell["face_down"] = face_down
    cell["closed"] = len(stack) == SLOTS
    return cell


class _Seat(Protocol):
    score: int
    exposed: list[str]
    passes: int


class _Shown(_Turn, Protocol):
    """What the public view of either variant shows alike of a game."""

    stacks: dict[str, list[str]]
    dead: list[str]
    discard: list[str]

    @property
    def seats(self) -> Sequence[_Seat]: ...


def seat_fields(index: int, player: _Seat) -> dict[str, Any]:
    """What every seat shows at any number of players; each variant adds its own."""
    return {
        "seat": index,
        "score": player.score,
        "exposed": sorted_cards(player.exposed),
        "passes": player.passes,
    }


def table_fields(state: _Shown, rows: list[dict[str, Any]], seats: list[dict[str, Any]], prompt: str) -> dict[str, Any]:
    """The part of the public view both variants share: the turn, the field ``rows``, the
    ``seats``, scores, dead cards, the discard pile, the ending and, once over, the standing."""
    over = state.phase == OVER
    scores = [player.score for player in state.seats]
    fields: dict[str, Any] = {
        **turn_fields(state, over),
        "rows": rows,
        "closed": closed_count(state),
        "sequences": sequences_in_play(state),
        "seats": seats,
        "scores": scores,
        "dead": list(state.dead),
        "discard": list(state.discard),
        **ending_fields(state, prompt),
    }
    if over:
        fields.update(final_standing(scores))
    return fields


def turn_fields(state: _Turn, over: bool) -> dict[str, Any]:
    """Whose turn it is and how far it has gone (nobody's once the game is over)."""
    return {
        "phase": state.phase,
        "over": over,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "plays_this_turn": 0 if over else state.plays,
    }


def ending_fields(state: _Turn, prompt: str) -> dict[str, Any]:
    """The passes towards the safety valve, who went out, and what the table waits for."""
    return {"passes_in_a_row": state.valve, "went_out": state.went_out, "prompt": prompt}


def final_standing(scores: list[int]) -> dict[str, list[int]]:
    """The winners (every seat on the best score) and each seat's rank, ties sharing a rank."""
    best = max(scores)
    return {
        "winners": [index for index, score in enumerate(scores) if score == best],
        "ranks": [1 + sum(1 for other in scores if other > score) for score in scores],
    }


def public_prompt(view: dict[str, Any], more: str) -> str:
    """What the table waits for, worded alike at any number of players; ``more`` says what a
    player who has played this turn may still do. Read from the view, as every prompt is: a board
    drawn from a view is worded in its reader's language, whoever asked for the view."""
    if view["over"]:
        return game_over()
    if view["phase"] == MUST_PASS:
        return tr("No play is possible: pass (a dead card may be discarded first).")
    if view["plays_this_turn"] == 0:
        return tr("Play at least one card or Tractor.")
    return more


def table_prompt(view: dict[str, Any]) -> str:
    """The public view's prompt (3 to 5 players)."""
    return public_prompt(view, tr("Play more cards, or say done."))


def prompt_of(view: dict[str, Any]) -> str:
    """The prompt of a public view or of a seat's view (3 to 5 players), in the current language."""
    return seat_prompt(view) if "seat" in view else table_prompt(view)


def game_over() -> str:
    return tr("The game is over.")


def off_turn_prompt(pending: list[str], may_ask: bool) -> str:
    """What a seat may do while another plays: its discard requests, or that it may make one."""
    parts = [tr("Not your turn.")]
    if pending:
        parts.append(
            tr(
                "Asked to discard: {cards} (leaves at the start of your next turn).",
                cards=" ".join(sorted_cards(pending)),
            )
        )
    if may_ask:
        parts.append(tr("You may ask to discard a dead card (it leaves at your next turn)."))
    return " ".join(parts)


def seat_view(state: VegetablesState, seat: int) -> dict[str, object]:
    """The public view plus this seat's own secrets: its hand (dead cards marked through the public
    dead list), its pending discards, and what it can play."""
    view = public_view(state)
    player = state.seats[seat]
    dead = state.dead
    stacks = state.stacks
    playable: list[str] = []
    two_short: list[str] = []  # live cards a Tractor could stand below, if the seat holds one
    holds_tractor = False  # Farmland cards are never Tractors, so this is "in hand or exposed"
    for card in holdings(player):
        if card[0] == TRACTOR:  # is_tractor, inlined: this loop runs for every seat's view
            holds_tractor = True
            playable.append(card)
        elif card in dead:
            continue
        elif SLOT[card] == 1:
            playable.append(card)
        else:
            height = len(stacks[SEQUENCE[card]])
            if height == SLOT[card] - 1:
                playable.append(card)
            elif height == SLOT[card] - 2:
                two_short.append(card)
    your_turn = state.phase != OVER and seat == state.turn
    held_dead = dead_held(state, seat)
    view.update(
        {
            "seat": seat,
            "your_turn": your_turn,
            "hand": sorted_cards(player.hand),
            "pending": sorted_cards(player.pending),
            "dead_held": sorted_cards(held_dead),
            "playable": sorted_cards(playable),
            "playable_after_tractor": sorted_cards(two_short) if holds_tractor else [],
            "can_take_well": well_eligible(state, seat),
            "well_points": well_points(state, seat),  # what taking the well would pay the seat now
        }
    )
    view["prompt"] = seat_prompt(view)
    return view


def seat_prompt(view: dict[str, Any]) -> str:
    """What a seat may or must do now, from its view (3 to 5 players)."""
    if view["over"]:
        return game_over()
    if view["seat"] != view["turn"]:
        pending = view["pending"]
        return off_turn_prompt(pending, any(card not in pending for card in view["dead_held"]))
    if view["phase"] == MUST_PASS:
        return _must_pass_prompt(view)
    if view["can_take_well"]:
        return tr(
            "Your turn. You have fewer than {threshold} hidden cards: play on, or take the well (done does it).",
            threshold=view["well_threshold"],
        )
    if view["plays_this_turn"] == 0:
        return your_turn_first()
    return your_turn_more()


def your_turn_first() -> str:
    return tr("Your turn: play at least one card or Tractor.")


def your_turn_more() -> str:
    return tr("Your turn: play more cards, or say done.")


def _must_pass_prompt(view: dict[str, Any]) -> str:
    """What the forced pass will do to this seat right now (§5), and the dead cards it may drop
    first. Only the hidden hand is exposed: a dead Farmland or exposed card saves nothing."""
    hand = view["hand"]
    hidden = len(hand)
    well_taken = view["seats"][view["seat"]]["well_taken"]
    fields = {"penalty": EMPTY_PASS_PENALTY}
    if hidden and well_taken:
        text = tr_n(
            "You cannot play: pass. The pass puts your {n} hidden card face up (no penalty).",
            "You cannot play: pass. The pass puts your {n} hidden cards face up (no penalty).",
            hidden,
        )
    elif hidden:
        text = tr_n(
            "You cannot play: pass. The pass puts your {n} hidden card face up (no penalty), then brings "
            "in your well (+{points}).",
            "You cannot play: pass. The pass puts your {n} hidden cards face up (no penalty), then brings "
            "in your well (+{points}).",
            hidden, points=view["well_points"],
        )  # fmt: skip
    elif well_taken:
        text = tr("You cannot play: pass. With no hidden card to show, the pass costs {penalty} points.", **fields)
    else:
        text = tr(
            "You cannot play: pass. With no hidden card to show, the pass costs {penalty} points, then "
            "brings in your well (+{points}).",
            points=view["well_points"], **fields,
        )  # fmt: skip
    dead = view["dead_held"]
    if dead:
        text += " " + tr("You may first discard a dead card: {cards}.", cards=" ".join(dead))
        if hand and all(card in view["dead"] for card in hand):
            text += " " + tr(
                "Keep one in your hand and the pass is free; with none left it costs {penalty}.", **fields
            )
    return text


def secret_view(state: VegetablesState, seat: int) -> dict[str, object]:
    # §4.2: the hidden hand, its pending discard requests, and which of its hidden cards are
    # dead (who holds a dead card is the holder's secret). Wells and the field's face-down
    # cards are secret from their owner too, so they are not part of anyone's secret view.
    player = state.seats[seat]
    dead = state.dead
    return {
        "hand": sorted(player.hand),
        "pending": sorted(player.pending),
        "dead_in_hand": sorted(card for card in player.hand if card in dead),
    }
