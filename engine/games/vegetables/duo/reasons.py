"""Why a move of the 2-player Vege tables is refused, in a player's words (docs/rules/vegetables-2p.md).

Only called for moves ``rules.is_legal`` refuses. A refusal never says more than the mover
may know: in particular a Tractor aimed at a card in the face-down W3 is "not possible now" and
nothing else (§10, R11).
"""

from __future__ import annotations

from ..cards import FOLLOWING, NUMBER, SLOT, is_tractor
from ..model import MUST_PASS, OVER, Discard, Done, Pass, Play, TakeWell, UseTractor
from ..reasons import _slot_problem, tractor_fit_problem
from .model import (
    MAY_DRAW_BELOW,
    MUST_DRAW,
    MUST_DRAW_BELOW,
    RELEASE_AT,
    Draw,
    DuoMove,
    DuoState,
    PlayGround,
    TractorGround,
)
from .rules import (
    dead_held,
    draw_sizes,
    free_silo_cards,
    has_play,
    held_by,
    opponent,
    resolve_draw,
    wells_left,
)

FIXED_ROWS = "rows are fixed in the 2-player game (Black 1, Green 2, Red 3, Yellow 4)"


def why_not(state: DuoState, seat: int, move: DuoMove) -> str:
    if state.phase == OVER:
        return "The game is over."
    if seat not in (0, 1):
        return f"There is no seat {seat + 1} in this game."
    player = state.seats[seat]
    own_turn = seat == state.turn

    if isinstance(move, Discard):
        return _discard_problem(state, seat, move.card, own_turn)
    if not own_turn:
        return f"It is not your turn; waiting for seat {state.turn + 1}. Off turn you may only discard a dead card."
    if isinstance(move, TakeWell):
        return (
            "There are no personal wells in the 2-player game: after a play, with fewer than 12 cards "
            "in your Hand, draw from the common wells, e.g. draw W1 W1 (or name the cards)."
        )
    if isinstance(move, Draw):
        return _draw_problem(state, seat, move)
    if state.phase == MUST_DRAW:
        return (
            f"Your turn is over but your Hand holds {len(player.hand)} cards (fewer than {MUST_DRAW_BELOW}): "
            f"draw now, {_draw_words(state, seat)}."
        )
    if isinstance(move, Pass):
        if state.plays >= 1:
            return "You have already played this turn: write done to end it."
        return "You can only pass when no play is possible, and you can still play."
    if isinstance(move, Done):
        if state.phase == MUST_PASS:
            return "You have no possible play this turn: you must pass."
        return "Play at least one card or Tractor before ending your turn."
    if isinstance(move, (Play, PlayGround)):
        return _play_problem(state, seat, move)
    if isinstance(move, (UseTractor, TractorGround)):
        return _tractor_problem(state, seat, move)
    return "That is not a move of this game."


def _locked_words(state: DuoState, seat: int, tractor: str) -> str | None:
    player = state.seats[seat]
    if tractor in player.locked:
        step = RELEASE_AT[player.released]
        return (
            f"{tractor} is still locked: two more Tractors are released when {step} of your Grounds are used."
        )
    if tractor not in player.tractors:
        return f"{tractor} is not one of your available Tractors."
    return None


def _discard_problem(state: DuoState, seat: int, card: str, own_turn: bool) -> str:
    player = state.seats[seat]
    if is_tractor(card):
        problem = _locked_words(state, seat, card)
        if problem:
            return problem
        if not own_turn:
            return "A Tractor can be discarded only during your own turn."
        return f"You cannot discard {card} now."
    if card not in state.dead:
        return f"Only a Tractor or a dead card can be discarded; {card} is not dead."
    if card not in dead_held(state, seat):
        return f"You do not hold {card}."
    if card in player.pending:
        return f"You have already asked to discard {card}; it leaves at the start of your next turn."
    return f"You cannot discard {card} now."


def _draw_words(state: DuoState, seat: int) -> str:
    sizes = draw_sizes(state, seat)
    counts = " or ".join(str(size) for size in sizes)
    return f"taking {counts} card{'s' if sizes[-1] != 1 else ''} (e.g. draw W1 W1 ..., or name the cards)"


def _draw_problem(state: DuoState, seat: int, move: Draw) -> str:
    player = state.seats[seat]
    if state.phase == MUST_PASS:
        return "You cannot play this turn: pass (the draw follows)."
    if wells_left(state) == 0:
        return "The wells are empty."
    if state.phase != MUST_DRAW:
        if state.plays == 0:
            return "Play at least one card or Tractor before drawing."
        if len(player.hand) >= MAY_DRAW_BELOW:
            return f"Your Hand holds {len(player.hand)} cards: you may draw only with fewer than {MAY_DRAW_BELOW}."
    taken, reason = resolve_draw(state, move.picks)
    if taken is None:
        return reason
    hand = len(player.hand)
    sizes = draw_sizes(state, seat)
    targets = " or ".join(str(hand + size) for size in sizes)
    return (
        f"A draw brings your Hand of {hand} to {targets} cards (or takes all that is left in the wells): "
        f"{' or '.join(str(size) for size in sizes)} cards, not {len(taken)}."
    )


def _silo_words(state: DuoState) -> str:
    return " ".join(free_silo_cards(state))


def _take_problem(state: DuoState, take: str, example: str) -> str | None:
    free = free_silo_cards(state)
    if take in free:
        return None
    for index, silo in enumerate(state.silos):
        if take in silo:
            return f"{take} is covered in S{index + 1}; only a Silo's top card is free ({_silo_words(state)}): {example}."
    return f"{take} is not a free Silo card; free: {_silo_words(state)}."


def _play_problem(state: DuoState, seat: int, move: Play | PlayGround) -> str:
    player = state.seats[seat]
    card = move.card
    if is_tractor(card):
        return f"Use a Tractor with: tractor {card} for R7 then R11, or discard it with: discard {card}."
    if card in state.dead and card in dead_held(state, seat):
        return f"{card} is dead (a Tractor took its place): it can only be discarded."
    if NUMBER[card] > 4:
        if isinstance(move, PlayGround):
            return f"A Silo card is taken only with a base (1-4); {card} goes on its sequence: play {card}."
        if move.row is not None:
            return f"Only a base (1-4) is placed in a row; {card} goes on its sequence: play {card}."
        if card not in player.hand and card not in player.exposed:
            return f"You do not hold {card}."
        return _slot_problem(state.stacks, card) or f"play {card} is not possible now."
    if card not in player.grounds:
        return f"{card} is not in your Grounds row."
    free = free_silo_cards(state)
    example = f"play {card} take {free[0]}"
    if isinstance(move, Play):
        if move.row is not None:
            return f"No row is named: {FIXED_ROWS}. Name the Silo card you take: {example}."
        return f"Name the free Silo card you take with {card} ({_silo_words(state)}), e.g. {example}."
    return _take_problem(state, move.take, example) or f"{example} is not possible now."


def _tractor_problem(state: DuoState, seat: int, move: UseTractor | TractorGround) -> str:
    player = state.seats[seat]
    tractor, replaced = move.tractor, move.replaced
    if not is_tractor(tractor):
        return f"{tractor} is not a Tractor."
    problem = _locked_words(state, seat, tractor)
    if problem:
        return problem
    if is_tractor(replaced):
        return "A Tractor stands for a numbered card, never for another Tractor."
    following = FOLLOWING[replaced]
    if following is None:
        return "A Tractor can stand only for a card numbered 1 to 16, never for a closing card (17-20)."
    problem = tractor_fit_problem(state.stacks, replaced, following, player.hand + player.exposed, state.dead)
    if problem:
        return problem
    # The Silo card and the row are judged first, the same way wherever the replaced card is:
    # only then may a refusal depend on whether the opponent holds it (R11).
    free = free_silo_cards(state)
    example = f"tractor {tractor} for {replaced} then {following} take {free[0] if free else 'G17'}"
    if SLOT[replaced] == 1:
        if isinstance(move, UseTractor):
            if move.row is not None:
                return f"No row is named: {FIXED_ROWS}. Name the Silo card you take: {example}."
            return f"A Tractor as a base takes a free Silo card ({_silo_words(state)}): {example}."
        problem = _take_problem(state, move.take, example)
        if problem:
            return problem
    elif isinstance(move, TractorGround):
        return f"A Silo card is taken only when the Tractor is a base: tractor {tractor} for {replaced} then {following}."
    elif move.row is not None:
        return "A row is named only when the Tractor is the first base of a family."
    if replaced in state.dead:
        return f"{replaced} is already dead."
    if held_by(player, replaced):
        return f"You hold {replaced} yourself: play it instead (a Tractor replaces only a card your opponent holds)."
    rival = state.seats[opponent(seat)]
    if not held_by(rival, replaced):
        # R11: said the same way wherever the card is, the face-down W3 included.
        return "That Tractor move is not possible now (a Tractor replaces only a card your opponent holds)."
    if state.phase == MUST_PASS or not has_play(state, seat):
        return "You have no possible play this turn: you must pass."
    return "That Tractor move is not possible now."
