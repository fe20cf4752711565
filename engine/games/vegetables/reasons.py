"""Why a move of Vege tables (3 to 5 players) is refused, in the player's words."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal

from engine.i18n import N_, tr, tr_n

from .cards import (
    FAMILY,
    NUMBER,
    SEQUENCE,
    SLOT,
    SLOTS,
    family_name,
    is_tractor,
    sequence_card,
    sorted_cards,
)
from .model import MUST_PASS, OVER, Discard, Done, Move, Pass, Play, TakeWell, UseTractor, VegetablesState
from .rules import _tractors_of, free_rows, holdings, legal_moves, row_of
from .views import game_over
from .words import any_of

# ----- why a move is refused ----------------------------------------------------------------------


def _row_words(rows: list[int]) -> str:
    return any_of([str(index + 1) for index in rows])


def _base_row_problem(state: VegetablesState, family: str, row: int | None, example: str) -> str | None:
    """Why naming (or not naming) ``row`` for a new base of ``family`` is wrong, if it is."""
    name = family_name(family)
    rows = len(state.rows)
    if row is not None and not 1 <= row <= rows:
        return tr("The field rows are numbered 1 to {rows}.", rows=rows)
    assigned = row_of(state, family)
    free = free_rows(state)
    # A row that is determined anyway never reaches here: canonical_move drops it.
    if assigned is not None:
        if row is None or row - 1 == assigned:
            return None
        owner = state.rows[row - 1]
        if owner:
            return tr(
                "Row {row} belongs to {owner}; {family} bases go in row {own}: {example}.",
                row=row, owner=family_name(owner), family=name, own=assigned + 1, example=example,
            )  # fmt: skip
        return tr("{family} bases go in row {own}, its row: {example}.", family=name, own=assigned + 1, example=example)
    if len(free) == 1:
        if row is None or row - 1 == free[0]:
            return None
        return tr(
            "Row {row} belongs to {owner}; the only free row is {free}: {example}.",
            row=row, owner=family_name(state.rows[row - 1]), free=free[0] + 1, example=example,
        )  # fmt: skip
    if row is None:
        return tr(
            "{family} has no row yet: name a free row ({rows}), e.g. {example}.",
            family=name, rows=_row_words(free), example=f"{example} row {free[0] + 1}",
        )  # fmt: skip
    if state.rows[row - 1]:
        return tr(
            "Row {row} belongs to {owner}; free rows: {rows}.",
            row=row, owner=family_name(state.rows[row - 1]), rows=_row_words(free),
        )  # fmt: skip
    return None


def _card_in_game(state: VegetablesState, card: str) -> str | None:
    if is_tractor(card):
        if card not in _tractors_of(state):
            return tr("{card} is not used in this game.", card=card)
        return None
    if FAMILY[card] not in state.families:
        return tr("The {family} family is out of this game.", family=family_name(FAMILY[card]))
    return None


def _slot_problem(stacks: Mapping[str, list[str]], card: str) -> str | None:
    """Why ``card`` (5-20) does not fit on its sequence now, if it does not (either game's stacks)."""
    sequence = SEQUENCE[card]
    stack = stacks[sequence]
    slot = SLOT[card]
    if len(stack) == slot - 1:
        return None
    if not stack:
        return tr(
            "Sequence {sequence} has no base yet: {card} needs {sequence} (or a Tractor for it) first.",
            sequence=sequence, card=card,
        )  # fmt: skip
    if len(stack) == SLOTS:
        return _closed(sequence)
    needed = sequence_card(sequence, len(stack) + 1)
    if len(stack) >= slot:
        return tr(
            "The place of {card} in sequence {sequence} is already filled; it needs {needed} next.",
            card=card, sequence=sequence, needed=needed,
        )  # fmt: skip
    return tr(
        "Sequence {sequence} needs {needed} next; {card} must wait for it.", sequence=sequence, needed=needed, card=card
    )


def _closed(sequence: str) -> str:
    return tr("Sequence {sequence} is closed.", sequence=sequence)


def tractor_fit_problem(
    stacks: Mapping[str, list[str]], replaced: str, following: str, held: list[str], dead: Collection[str]
) -> str | None:
    """Why a Tractor cannot stand for ``replaced`` with ``following`` played right after it, judged
    on the sequence and the mover's own cards (``held``: Hand and exposed); None when it fits."""
    sequence = SEQUENCE[replaced]
    stack = stacks[sequence]
    if len(stack) != SLOT[replaced] - 1:
        if len(stack) == SLOTS:
            return _closed(sequence)
        if not stack:
            return tr(
                "Sequence {sequence} has no base yet: a Tractor can only stand for its base {sequence}.",
                sequence=sequence,
            )
        needed = sequence_card(sequence, len(stack) + 1)
        return tr(
            "A Tractor only fills the next place of a sequence: sequence {sequence} needs {needed} next, not {card}.",
            sequence=sequence, needed=needed, card=replaced,
        )  # fmt: skip
    if following not in held:
        return tr(
            "To use a Tractor for {card} you must hold {following} to play right after it.",
            card=replaced, following=following,
        )  # fmt: skip
    if following in dead:
        return tr("{card} is dead and cannot follow the Tractor.", card=following)
    return None


def _open_plays(state: VegetablesState, seat: int) -> str:
    """The seat's playable cards and Tractors, named for a refused pass."""
    cards: set[str] = set()
    for move in legal_moves(state, seat):
        if isinstance(move, Play) or (isinstance(move, Discard) and is_tractor(move.card)):
            cards.add(move.card)
        elif isinstance(move, UseTractor):
            cards.add(move.tractor)
    return " ".join(sorted_cards(list(cards)))


def why_not(state: VegetablesState, seat: int, move: Move) -> str:
    """The reason an illegal move is refused, in a player's words (only called for illegal moves)."""
    if state.phase == OVER:
        return game_over()
    if not 0 <= seat < state.players:
        return refusal("no_seat", number=seat + 1)
    player = state.seats[seat]
    own_turn = seat == state.turn
    dead = state.dead

    if isinstance(move, Discard):
        card = move.card
        problem = _card_in_game(state, card)
        if problem:
            return problem
        if is_tractor(card):
            if card not in player.hand and card not in player.exposed:
                return refusal("not_held", card=card)
            if not own_turn:
                return refusal("tractor_off_turn")
            return refusal("cannot_discard", card=card)
        if card not in dead:
            return refusal("not_dead", card=card)
        if card not in holdings(player):
            return refusal("not_held", card=card)
        if card in player.pending:
            return refusal("already_asked", card=card)
        return refusal("cannot_discard", card=card)

    if not own_turn:
        return refusal("not_your_turn", number=state.turn + 1)

    if isinstance(move, Pass):
        if state.plays >= 1:
            return refusal("already_played")
        return tr(
            "You can only pass when no play is possible, and you can still play: {cards}.",
            cards=_open_plays(state, seat),
        )
    if isinstance(move, Done):
        if state.phase == MUST_PASS:
            return refusal("must_pass")
        return refusal("play_before_done")
    if isinstance(move, TakeWell):
        if player.well_taken:
            return tr("You have already taken your well.")
        if state.phase == MUST_PASS:
            return tr("You have no possible play: pass instead (the pass collects your well).")
        if state.plays == 0:
            return tr("Play at least one card or Tractor before taking the well.")
        return tr_n(
            "You hold {n} hidden card; the well is taken only with fewer than {threshold}.",
            "You hold {n} hidden cards; the well is taken only with fewer than {threshold}.",
            len(player.hand), threshold=state.well_threshold,
        )  # fmt: skip

    if isinstance(move, Play):
        card = move.card
        if is_tractor(card):
            return refusal("use_tractor_so", card=card)
        problem = _card_in_game(state, card)
        if problem:
            return problem
        if card not in holdings(player):
            return refusal("not_held", card=card)
        if card in dead:
            return refusal("is_dead", card=card)
        if NUMBER[card] <= 4:
            problem = _base_row_problem(state, FAMILY[card], move.row, f"play {card}")
            if problem:
                return problem
        else:
            if move.row is not None:
                return refusal("base_only_in_row", card=card)
            problem = _slot_problem(state.stacks, card)
            if problem:
                return problem
        if state.phase == MUST_PASS:
            return refusal("must_pass")
        return refusal("not_possible", move=f"play {card}")

    if isinstance(move, UseTractor):
        tractor, replaced = move.tractor, move.replaced
        problem = _card_in_game(state, tractor) or _card_in_game(state, replaced)
        if problem:
            return problem
        if not is_tractor(tractor):
            return refusal("not_a_tractor", card=tractor)
        if tractor not in player.hand and tractor not in player.exposed:
            return refusal("not_held", card=tractor)
        if is_tractor(replaced):
            return refusal("tractor_for_tractor")
        following = move.following
        if following is None:
            return refusal("tractor_for_closing")
        problem = tractor_fit_problem(state.stacks, replaced, following, player.hand + player.exposed, dead)
        if problem:
            return problem
        if SLOT[replaced] == 1:
            problem = _base_row_problem(
                state, FAMILY[replaced], move.row, f"tractor {tractor} for {replaced} then {following}"
            )
            if problem:
                return problem
        elif move.row is not None:
            return refusal("row_for_base_only")
        return refusal("tractor_not_possible")

    return refusal("not_a_move")


# ----- refusals the 2-player game words the same way ------------------------------------------------


# The refusals both variants word alike, by name (``refusal``).
Refusal = Literal[
    "no_seat",
    "not_held",
    "tractor_off_turn",
    "cannot_discard",
    "not_dead",
    "already_asked",
    "not_your_turn",
    "already_played",
    "must_pass",
    "play_before_done",
    "use_tractor_so",
    "is_dead",
    "base_only_in_row",
    "not_possible",
    "not_a_tractor",
    "tractor_for_tractor",
    "tractor_for_closing",
    "row_for_base_only",
    "tractor_not_possible",
    "not_a_move",
]
REFUSALS: dict[Refusal, str] = {
    "no_seat": N_("There is no seat {number} in this game."),
    "not_held": N_("You do not hold {card}."),
    "tractor_off_turn": N_("A Tractor can be discarded only during your own turn."),
    "cannot_discard": N_("You cannot discard {card} now."),
    "not_dead": N_("Only a Tractor or a dead card can be discarded; {card} is not dead."),
    "already_asked": N_("You have already asked to discard {card}; it leaves at the start of your next turn."),
    "not_your_turn": N_("It is not your turn; waiting for seat {number}. Off turn you may only discard a dead card."),
    "already_played": N_("You have already played this turn: write done to end it."),
    "must_pass": N_("You have no possible play this turn: you must pass."),
    "play_before_done": N_("Play at least one card or Tractor before ending your turn."),
    "use_tractor_so": N_("Use a Tractor with: tractor {card} for R7 then R11, or discard it with: discard {card}."),
    "is_dead": N_("{card} is dead (a Tractor took its place): it can only be discarded."),
    "base_only_in_row": N_("Only a base (1-4) is placed in a row; {card} goes on its sequence: play {card}."),
    "not_possible": N_("{move} is not possible now."),
    "not_a_tractor": N_("{card} is not a Tractor."),
    "tractor_for_tractor": N_("A Tractor stands for a numbered card, never for another Tractor."),
    "tractor_for_closing": N_("A Tractor can stand only for a card numbered 1 to 16, never for a closing card (17-20)."),
    "row_for_base_only": N_("A row is named only when the Tractor is the first base of a family."),
    "tractor_not_possible": N_("That Tractor move is not possible now."),
    "not_a_move": N_("That is not a move of this game."),
}


def refusal(name: Refusal, **fields: Any) -> str:
    """A refusal both variants word alike, in the reader's language (``REFUSALS``)."""
    return tr(REFUSALS[name], **fields)
