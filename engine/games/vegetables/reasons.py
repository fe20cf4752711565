"""Why a move of Vege tables (3 to 5 players) is refused, in the player's words."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .cards import (
    FAMILY,
    FAMILY_NAMES,
    NUMBER,
    SEQUENCE,
    SLOT,
    SLOTS,
    is_tractor,
    sequence_card,
    sorted_cards,
)
from .model import MUST_PASS, OVER, Discard, Done, Move, Pass, Play, TakeWell, UseTractor, VegetablesState
from .rules import _tractors_of, free_rows, holdings, legal_moves, row_of

# ----- why a move is refused ----------------------------------------------------------------------


def _row_words(rows: list[int]) -> str:
    numbers = [str(index + 1) for index in rows]
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]


def _base_row_problem(state: VegetablesState, family: str, row: int | None, example: str) -> str | None:
    """Why naming (or not naming) ``row`` for a new base of ``family`` is wrong, if it is."""
    name = FAMILY_NAMES[family]
    rows = len(state.rows)
    if row is not None and not 1 <= row <= rows:
        return f"The field rows are numbered 1 to {rows}."
    assigned = row_of(state, family)
    free = free_rows(state)
    # A row that is determined anyway never reaches here: canonical_move drops it.
    if assigned is not None:
        if row is None or row - 1 == assigned:
            return None
        owner = state.rows[row - 1]
        return (
            f"Row {row} belongs to {FAMILY_NAMES[owner]}; {name} bases go in row {assigned + 1}: {example}."
            if owner
            else f"{name} bases go in row {assigned + 1}, its row: {example}."
        )
    if len(free) == 1:
        if row is None or row - 1 == free[0]:
            return None
        return f"Row {row} belongs to {FAMILY_NAMES[state.rows[row - 1]]}; the only free row is {free[0] + 1}: {example}."
    if row is None:
        return (
            f"{name} has no row yet: name a free row ({_row_words(free)}), e.g. {example} row {free[0] + 1}."
        )
    if state.rows[row - 1]:
        return f"Row {row} belongs to {FAMILY_NAMES[state.rows[row - 1]]}; free rows: {_row_words(free)}."
    return None


def _card_in_game(state: VegetablesState, card: str) -> str | None:
    if is_tractor(card):
        if card not in _tractors_of(state):
            return f"{card} is not used in this game."
        return None
    if FAMILY[card] not in state.families:
        return f"The {FAMILY_NAMES[FAMILY[card]]} family is out of this game."
    return None


def _slot_problem(stacks: Mapping[str, list[str]], card: str) -> str | None:
    """Why ``card`` (5-20) does not fit on its sequence now, if it does not (either game's stacks)."""
    sequence = SEQUENCE[card]
    stack = stacks[sequence]
    slot = SLOT[card]
    if len(stack) == slot - 1:
        return None
    if not stack:
        return f"Sequence {sequence} has no base yet: {card} needs {sequence} (or a Tractor for it) first."
    if len(stack) == SLOTS:
        return f"Sequence {sequence} is closed."
    needed = sequence_card(sequence, len(stack) + 1)
    if len(stack) >= slot:
        return f"The place of {card} in sequence {sequence} is already filled; it needs {needed} next."
    return f"Sequence {sequence} needs {needed} next; {card} must wait for it."


def tractor_fit_problem(
    stacks: Mapping[str, list[str]], replaced: str, following: str, held: list[str], dead: Collection[str]
) -> str | None:
    """Why a Tractor cannot stand for ``replaced`` with ``following`` played right after it, judged
    on the sequence and the mover's own cards (``held``: Hand and exposed); None when it fits."""
    sequence = SEQUENCE[replaced]
    stack = stacks[sequence]
    if len(stack) != SLOT[replaced] - 1:
        if len(stack) == SLOTS:
            return f"Sequence {sequence} is closed."
        if not stack:
            return f"Sequence {sequence} has no base yet: a Tractor can only stand for its base {sequence}."
        needed = sequence_card(sequence, len(stack) + 1)
        return f"A Tractor only fills the next place of a sequence: sequence {sequence} needs {needed} next, not {replaced}."
    if following not in held:
        return f"To use a Tractor for {replaced} you must hold {following} to play right after it."
    if following in dead:
        return f"{following} is dead and cannot follow the Tractor."
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
        return "The game is over."
    if not 0 <= seat < state.players:
        return f"There is no seat {seat + 1} in this game."
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
                return f"You do not hold {card}."
            if not own_turn:
                return "A Tractor can be discarded only during your own turn."
            return f"You cannot discard {card} now."
        if card not in dead:
            return f"Only a Tractor or a dead card can be discarded; {card} is not dead."
        if card not in holdings(player):
            return f"You do not hold {card}."
        if card in player.pending:
            return f"You have already asked to discard {card}; it leaves at the start of your next turn."
        return f"You cannot discard {card} now."

    if not own_turn:
        return f"It is not your turn; waiting for seat {state.turn + 1}. Off turn you may only discard a dead card."

    if isinstance(move, Pass):
        if state.plays >= 1:
            return "You have already played this turn: write done to end it."
        return (
            f"You can only pass when no play is possible, and you can still play: {_open_plays(state, seat)}."
        )
    if isinstance(move, Done):
        if state.phase == MUST_PASS:
            return "You have no possible play this turn: you must pass."
        return "Play at least one card or Tractor before ending your turn."
    if isinstance(move, TakeWell):
        if player.well_taken:
            return "You have already taken your well."
        if state.phase == MUST_PASS:
            return "You have no possible play: pass instead (the pass collects your well)."
        if state.plays == 0:
            return "Play at least one card or Tractor before taking the well."
        return (
            f"You hold {len(player.hand)} hidden cards; the well is taken only with fewer than "
            f"{state.well_threshold}."
        )

    if isinstance(move, Play):
        card = move.card
        if is_tractor(card):
            return f"Use a Tractor with: tractor {card} for R7 then R11, or discard it with: discard {card}."
        problem = _card_in_game(state, card)
        if problem:
            return problem
        if card not in holdings(player):
            return f"You do not hold {card}."
        if card in dead:
            return f"{card} is dead (a Tractor took its place): it can only be discarded."
        if NUMBER[card] <= 4:
            problem = _base_row_problem(state, FAMILY[card], move.row, f"play {card}")
            if problem:
                return problem
        else:
            if move.row is not None:
                return f"Only a base (1-4) is placed in a row; {card} goes on its sequence: play {card}."
            problem = _slot_problem(state.stacks, card)
            if problem:
                return problem
        if state.phase == MUST_PASS:
            return "You have no possible play this turn: you must pass."
        return f"play {card} is not possible now."

    if isinstance(move, UseTractor):
        tractor, replaced = move.tractor, move.replaced
        problem = _card_in_game(state, tractor) or _card_in_game(state, replaced)
        if problem:
            return problem
        if not is_tractor(tractor):
            return f"{tractor} is not a Tractor."
        if tractor not in player.hand and tractor not in player.exposed:
            return f"You do not hold {tractor}."
        if is_tractor(replaced):
            return "A Tractor stands for a numbered card, never for another Tractor."
        following = move.following
        if following is None:
            return "A Tractor can stand only for a card numbered 1 to 16, never for a closing card (17-20)."
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
            return "A row is named only when the Tractor is the first base of a family."
        return "That Tractor move is not possible now."

    return "That is not a move of this game."
