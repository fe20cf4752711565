"""Why a move of the 2-player Vege tables is refused, in a player's words (docs/rules/vegetables-2p.md).

Only called for moves ``rules.is_legal`` refuses. A refusal never says more than the mover
may know: in particular a Tractor aimed at a card in the face-down W3 is "not possible now" and
nothing else (§10, R11).
"""

from __future__ import annotations

from engine.i18n import N_, tr, tr_n

from ..cards import FOLLOWING, NUMBER, SLOT, is_tractor
from ..model import MUST_PASS, OVER, Discard, Done, Pass, Play, TakeWell, UseTractor
from ..reasons import _slot_problem, refusal, tractor_fit_problem
from ..views import game_over
from ..words import any_of
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

NO_ROW = N_(
    "No row is named: rows are fixed in the 2-player game (Black 1, Green 2, Red 3, Yellow 4). Name the Silo "
    "card you take: {example}."
)


def why_not(state: DuoState, seat: int, move: DuoMove) -> str:
    if state.phase == OVER:
        return game_over()
    if seat not in (0, 1):
        return refusal("no_seat", number=seat + 1)
    player = state.seats[seat]
    own_turn = seat == state.turn

    if isinstance(move, Discard):
        return _discard_problem(state, seat, move.card, own_turn)
    if not own_turn:
        return refusal("not_your_turn", number=state.turn + 1)
    if isinstance(move, TakeWell):
        return tr(
            "There are no personal wells in the 2-player game: after a play, with fewer than 12 cards "
            "in your Hand, draw from the common wells, e.g. draw W1 W1 (or name the cards)."
        )
    if isinstance(move, Draw):
        return _draw_problem(state, seat, move)
    if state.phase == MUST_DRAW:
        sizes = draw_sizes(state, seat)
        return tr_n(
            "Your turn is over but your Hand holds {hand} cards (fewer than {limit}): draw now, taking {sizes} "
            "card (e.g. draw W1 W1 ..., or name the cards).",
            "Your turn is over but your Hand holds {hand} cards (fewer than {limit}): draw now, taking {sizes} "
            "cards (e.g. draw W1 W1 ..., or name the cards).",
            sizes[-1], hand=len(player.hand), limit=MUST_DRAW_BELOW, sizes=any_of([str(size) for size in sizes]),
        )  # fmt: skip
    if isinstance(move, Pass):
        if state.plays >= 1:
            return refusal("already_played")
        return tr("You can only pass when no play is possible, and you can still play.")
    if isinstance(move, Done):
        if state.phase == MUST_PASS:
            return refusal("must_pass")
        return refusal("play_before_done")
    if isinstance(move, (Play, PlayGround)):
        return _play_problem(state, seat, move)
    if isinstance(move, (UseTractor, TractorGround)):
        return _tractor_problem(state, seat, move)
    return refusal("not_a_move")


def _locked_words(state: DuoState, seat: int, tractor: str) -> str | None:
    player = state.seats[seat]
    if tractor in player.locked:
        step = RELEASE_AT[player.released]
        return tr(
            "{card} is still locked: two more Tractors are released when {step} of your Grounds are used.",
            card=tractor, step=step,
        )  # fmt: skip
    if tractor not in player.tractors:
        return tr("{card} is not one of your available Tractors.", card=tractor)
    return None


def _discard_problem(state: DuoState, seat: int, card: str, own_turn: bool) -> str:
    player = state.seats[seat]
    if is_tractor(card):
        problem = _locked_words(state, seat, card)
        if problem:
            return problem
        if not own_turn:
            return refusal("tractor_off_turn")
        return refusal("cannot_discard", card=card)
    if card not in state.dead:
        return refusal("not_dead", card=card)
    if card not in dead_held(state, seat):
        return refusal("not_held", card=card)
    if card in player.pending:
        return refusal("already_asked", card=card)
    return refusal("cannot_discard", card=card)


def _draw_problem(state: DuoState, seat: int, move: Draw) -> str:
    player = state.seats[seat]
    if state.phase == MUST_PASS:
        return tr("You cannot play this turn: pass (the draw follows).")
    if wells_left(state) == 0:
        return tr("The wells are empty.")
    if state.phase != MUST_DRAW:
        if state.plays == 0:
            return tr("Play at least one card or Tractor before drawing.")
        if len(player.hand) >= MAY_DRAW_BELOW:
            return tr(
                "Your Hand holds {hand} cards: you may draw only with fewer than {limit}.",
                hand=len(player.hand), limit=MAY_DRAW_BELOW,
            )  # fmt: skip
    taken, reason = resolve_draw(state, move.picks)
    if taken is None:
        return reason
    hand = len(player.hand)
    sizes = draw_sizes(state, seat)
    return tr(
        "A draw brings your Hand of {hand} to {targets} cards (or takes all that is left in the wells): "
        "{sizes} cards, not {count}.",
        hand=hand, targets=any_of([str(hand + size) for size in sizes]), sizes=any_of([str(size) for size in sizes]),
        count=len(taken),
    )  # fmt: skip


def _silo_words(state: DuoState) -> str:
    return " ".join(free_silo_cards(state))


def _take_problem(state: DuoState, take: str, example: str) -> str | None:
    free = free_silo_cards(state)
    if take in free:
        return None
    for index, silo in enumerate(state.silos):
        if take in silo:
            return tr(
                "{card} is covered in {silo}; only a Silo's top card is free ({cards}): {example}.",
                card=take, silo=f"S{index + 1}", cards=_silo_words(state), example=example,
            )  # fmt: skip
    return tr("{card} is not a free Silo card; free: {cards}.", card=take, cards=_silo_words(state))


def _play_problem(state: DuoState, seat: int, move: Play | PlayGround) -> str:
    player = state.seats[seat]
    card = move.card
    if is_tractor(card):
        return refusal("use_tractor_so", card=card)
    if card in state.dead and card in dead_held(state, seat):
        return refusal("is_dead", card=card)
    if NUMBER[card] > 4:
        if isinstance(move, PlayGround):
            return tr(
                "A Silo card is taken only with a base (1-4); {card} goes on its sequence: play {card}.", card=card
            )
        if move.row is not None:
            return refusal("base_only_in_row", card=card)
        if card not in player.hand and card not in player.exposed:
            return refusal("not_held", card=card)
        return _slot_problem(state.stacks, card) or refusal("not_possible", move=f"play {card}")
    if card not in player.grounds:
        return tr("{card} is not in your Grounds row.", card=card)
    free = free_silo_cards(state)
    example = f"play {card} take {free[0]}"
    if isinstance(move, Play):
        if move.row is not None:
            return tr(NO_ROW, example=example)
        return tr(
            "Name the free Silo card you take with {card} ({cards}), e.g. {example}.",
            card=card, cards=_silo_words(state), example=example,
        )  # fmt: skip
    return _take_problem(state, move.take, example) or refusal("not_possible", move=example)


def _tractor_problem(state: DuoState, seat: int, move: UseTractor | TractorGround) -> str:
    player = state.seats[seat]
    tractor, replaced = move.tractor, move.replaced
    if not is_tractor(tractor):
        return refusal("not_a_tractor", card=tractor)
    problem = _locked_words(state, seat, tractor)
    if problem:
        return problem
    if is_tractor(replaced):
        return refusal("tractor_for_tractor")
    following = FOLLOWING[replaced]
    if following is None:
        return refusal("tractor_for_closing")
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
                return tr(NO_ROW, example=example)
            return tr(
                "A Tractor as a base takes a free Silo card ({cards}): {example}.", cards=_silo_words(state), example=example
            )
        problem = _take_problem(state, move.take, example)
        if problem:
            return problem
    elif isinstance(move, TractorGround):
        return tr(
            "A Silo card is taken only when the Tractor is a base: {example}.",
            example=f"tractor {tractor} for {replaced} then {following}",
        )
    elif move.row is not None:
        return refusal("row_for_base_only")
    if replaced in state.dead:
        return tr("{card} is already dead.", card=replaced)
    if held_by(player, replaced):
        return tr(
            "You hold {card} yourself: play it instead (a Tractor replaces only a card your opponent holds).",
            card=replaced,
        )
    rival = state.seats[opponent(seat)]
    if not held_by(rival, replaced):
        # R11: said the same way wherever the card is, the face-down W3 included.
        return tr("That Tractor move is not possible now (a Tractor replaces only a card your opponent holds).")
    if state.phase == MUST_PASS or not has_play(state, seat):
        return refusal("must_pass")
    return refusal("tractor_not_possible")
