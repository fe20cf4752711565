"""Figures: legal moves, playing a move, the flow of a hand, scoring and the match (the other
parts of the game are in the package's usual modules, README "Adding a game")."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core import Event
from engine.i18n import join_and, tr, tr_n

from .cards import FIGURES, KINGS, VALUE
from .model import (
    ALLOWED_OVER_BAR,
    BAR_AFTER,
    BEAT,
    BY_HANDS,
    FREE,
    GIRO,
    GIRO_TURNS,
    INDIVIDUAL_PLACE_POINTS,
    INDIVIDUAL_WINNER_POINTS,
    NO_CARDS,
    OPEN,
    OVER,
    PAIRS,
    PAIRS_BASE_POINTS,
    PASS,
    PASSES_TO_CLEAR,
    SINGLES,
    Entry,
    FiguresMove,
    FiguresState,
    HandResult,
    Pass,
    Single,
    ThreeKings,
    next_seat,
    partner_of,
    sides,
)
from .setup import deal_hand


def _seat(seat: int) -> str:
    """A seat in an event's text, named by the front end (``format_event``)."""
    return f"{{p{seat}}}"


# ----- legality ---------------------------------------------------------------------------------


def current_bar(state: FiguresState) -> int:
    """What the table demands outside a giro: 0 for FREE or OPEN, v for BEAT(v)."""
    return VALUE[state.top] if state.phase == BEAT and state.top is not None else 0


def allowed_cards(state: FiguresState) -> frozenset[str]:
    phase = state.phase
    if phase == GIRO:
        return FIGURES
    if phase == OVER:
        return NO_CARDS
    return ALLOWED_OVER_BAR[current_bar(state)]


def legal_singles(state: FiguresState, seat: int) -> list[str]:
    if seat != state.turn or state.phase == OVER:
        return []
    allowed = allowed_cards(state)
    return [card for card in state.hands[seat] if card in allowed]


def kings_held(hand: list[str]) -> int:
    return sum(1 for card in hand if card in KINGS)


def may_use_kings(state: FiguresState, seat: int) -> bool:
    return (
        state.phase in (FREE, OPEN, BEAT)
        and seat == state.turn
        and seat not in state.kings_used
        and kings_held(state.hands[seat]) >= 3
    )


def kings_plays(hand: list[str], bar: int) -> Iterator[tuple[str, str, str]]:
    """Every ordered choice of three different cards, each playable after the one before it."""
    for first in hand:
        if first not in ALLOWED_OVER_BAR[bar]:
            continue
        allowed_second = ALLOWED_OVER_BAR[BAR_AFTER[first]]
        for second in hand:
            if second == first or second not in allowed_second:
                continue
            allowed_third = ALLOWED_OVER_BAR[BAR_AFTER[second]]
            for third in hand:
                if third != first and third != second and third in allowed_third:
                    yield (first, second, third)


def legal_moves(state: FiguresState, seat: int) -> list[FiguresMove]:
    if seat != state.turn or state.phase == OVER:
        return []
    allowed = allowed_cards(state)
    hand = state.hands[seat]
    moves: list[FiguresMove] = [SINGLES[card] for card in hand if card in allowed]
    if not moves:
        return [PASS]  # forced: nothing can be discarded
    if may_use_kings(state, seat):
        moves.extend(ThreeKings(cards) for cards in kings_plays(hand, current_bar(state)))
    return moves


# ----- playing ----------------------------------------------------------------------------------


def play(state: FiguresState, seat: int, move: FiguresMove) -> list[Event]:
    """Carry out a legal move in place; ends the hand (and deals the next) when it empties a hand."""
    if isinstance(move, Single):
        return _play_single(state, seat, move.card)
    if isinstance(move, Pass):
        return _play_pass(state, seat)
    return _play_kings(state, seat, move.cards)


def _clear_table(state: FiguresState) -> None:
    last = state.history[-1]
    state.history[-1] = Entry(last.seat, last.move, clears=True)
    state.phase = FREE
    state.top = None
    state.owner = None
    state.passes = 0
    state.giro_starter = None
    state.giro_left = 0


def _play_single(state: FiguresState, seat: int, card: str) -> list[Event]:
    state.hands[seat].remove(card)
    state.history.append(Entry(seat, card))
    state.top = card
    state.owner = seat
    following = next_seat(state, seat)
    if state.phase == GIRO:
        events = [Event(text=tr("{player} answers the giro with {card}.", player=_seat(seat), card=card), actor=seat)]
        if not state.hands[seat]:
            return events + end_hand(state, seat)
        state.giro_left -= 1
        if state.giro_left == 0:
            _clear_table(state)
            events.append(Event(text=tr("The giro is over and the table is cleared: {player} leads.", player=_seat(following))))
        state.turn = following
        return events
    state.passes = 0
    if not state.hands[seat]:
        return [Event(text=tr("{player} plays {card}.", player=_seat(seat), card=card), actor=seat), *end_hand(state, seat)]
    value = VALUE[card]
    if card in FIGURES:
        state.phase = GIRO
        state.giro_starter = seat
        state.giro_left = GIRO_TURNS
        text = tr(
            "{player} plays {card} and starts a giro di figure: each other player must discard a figure.",
            player=_seat(seat),
            card=card,
        )
    elif value == 7:
        state.phase = OPEN
        text = tr("{player} plays {card}: the table is open.", player=_seat(seat), card=card)
    else:
        state.phase = BEAT
        text = tr("{player} plays {card}.", player=_seat(seat), card=card)
    state.turn = following
    return [Event(text=text, actor=seat)]


def _play_pass(state: FiguresState, seat: int) -> list[Event]:
    state.history.append(Entry(seat, "pass"))
    events = [Event(text=tr("{player}: Passo.", player=_seat(seat)), actor=seat)]
    following = next_seat(state, seat)
    if state.phase == GIRO:
        state.giro_left -= 1
        if state.giro_left == 0:
            _clear_table(state)
            events.append(Event(text=tr("The giro is over and the table is cleared: {player} leads.", player=_seat(following))))
    else:
        state.passes += 1
        if state.passes == PASSES_TO_CLEAR:
            _clear_table(state)
            events.append(Event(text=tr("Three passes: the table is cleared and {player} leads.", player=_seat(following))))
    state.turn = following
    return events


def _play_kings(state: FiguresState, seat: int, cards: tuple[str, str, str]) -> list[Event]:
    hand = state.hands[seat]
    for card in cards:
        hand.remove(card)
    state.history.append(Entry(seat, "kings " + " ".join(cards)))
    state.kings_used = sorted([*state.kings_used, seat])
    last = cards[-1]
    state.top = last
    state.owner = seat
    state.passes = 0
    events = [Event(text=tr("{player}: three kings! Plays {cards}.", player=_seat(seat), cards=" ".join(cards)), actor=seat)]
    if not hand:
        return events + end_hand(state, seat)
    # No figure in this play starts a giro; a 7 or a figure last leaves the table open.
    state.phase = BEAT if BAR_AFTER[last] else OPEN
    state.turn = next_seat(state, seat)
    return events


# ----- scoring and the match --------------------------------------------------------------------


def individual_points(winner: int, cards_left: list[int]) -> list[int]:
    """10 to the winner; the others 5, 3, 1 by fewest cards, a tied block taking its lowest place."""
    points = [0] * len(cards_left)
    others = [seat for seat in range(len(cards_left)) if seat != winner]
    for seat in range(len(cards_left)):
        if seat == winner:
            points[seat] = INDIVIDUAL_WINNER_POINTS
            continue
        mine = cards_left[seat]
        fewer = sum(1 for other in others if cards_left[other] < mine)
        level = sum(1 for other in others if cards_left[other] == mine)  # counts this seat too
        points[seat] = INDIVIDUAL_PLACE_POINTS[fewer + level - 1]
    return points


def pairs_points(winner: int, partner: int, cards_left: list[int]) -> list[int]:
    """The winning pair scores 5 + the opponents' cards - the partner's cards (maybe negative)."""
    opponents = [seat for seat in range(len(cards_left)) if seat not in (winner, partner)]
    score = PAIRS_BASE_POINTS + sum(cards_left[seat] for seat in opponents) - cards_left[partner]
    return [score if seat in (winner, partner) else 0 for seat in range(len(cards_left))]


def hand_points(state: FiguresState, winner: int) -> list[int]:
    cards_left = [len(hand) for hand in state.hands]
    if state.mode == PAIRS:
        return pairs_points(winner, partner_of(state, winner), cards_left)
    return individual_points(winner, cards_left)


def end_condition_reached(state: FiguresState, finished: int | None = None) -> bool:
    """The set number of hands is played, or someone has reached the target (ties aside).

    ``finished`` is the number of hands played so far: by default the current hand, which has
    just ended when this is asked from ``end_hand``.
    """
    if state.match_end == BY_HANDS:
        return (state.hand_number if finished is None else finished) >= state.number_of_hands
    return max(state.totals) >= state.target_score


def match_decided(state: FiguresState) -> bool:
    """The end condition has been met and exactly one player (or pair) leads."""
    return end_condition_reached(state) and len(leaders(state)) == 1


def leaders(state: FiguresState) -> list[list[int]]:
    side_totals = [(side, state.totals[side[0]]) for side in sides(state)]
    best = max(total for _, total in side_totals)
    return [side for side, total in side_totals if total == best]


def end_hand(state: FiguresState, winner: int) -> list[Event]:
    """Score the hand; then end the match or deal the next hand."""
    cards_left = [len(hand) for hand in state.hands]
    points = hand_points(state, winner)
    state.totals = [total + gained for total, gained in zip(state.totals, points, strict=True)]
    state.results.append(
        HandResult(
            number=state.hand_number,
            dealer=state.dealer,
            winner=winner,
            cards_left=cards_left,
            points=points,
            history=list(state.history),
        )
    )
    order = state.table
    left_text = ", ".join(f"{_seat(seat)} {cards_left[seat]}" for seat in order if seat != winner)
    totals_text = ", ".join(f"{_seat(seat)} {state.totals[seat]}" for seat in order)
    if state.mode == PAIRS:
        partner = partner_of(state, winner)
        summary = tr(
            "Cards left: {left}. Points: {player} and {partner} score {points}. Totals: {totals}.",
            left=left_text,
            player=_seat(winner),
            partner=_seat(partner),
            points=points[winner],
            totals=totals_text,
        )
    else:
        points_text = ", ".join(f"{_seat(seat)} {points[seat]}" for seat in order)
        summary = tr("Cards left: {left}. Points: {points}. Totals: {totals}.", left=left_text, points=points_text, totals=totals_text)
    events = [
        Event(text=tr("{player} goes out and wins hand {hand}!", player=_seat(winner), hand=state.hand_number), actor=winner),
        Event(text=summary),
    ]
    if match_decided(state):
        state.phase = OVER
        state.top = None
        state.owner = None
        state.giro_starter = None
        state.giro_left = 0
        (side,) = leaders(state)
        who = join_and([_seat(seat) for seat in side])
        events.append(
            Event(
                text=tr_n(
                    "Match over: {winners} wins with {points} points.",
                    "Match over: {winners} win with {points} points.",
                    len(side),
                    winners=who,
                    points=state.totals[side[0]],
                )
            )
        )
        return events
    if end_condition_reached(state):
        events.append(Event(text=tr("The lead is tied, so another hand is played to break the tie.")))
    deal_hand(state)
    events.append(
        Event(
            text=tr(
                "Hand {hand}: {dealer} deals and {player} leads.",
                hand=state.hand_number,
                dealer=_seat(state.dealer),
                player=_seat(state.turn),
            )
        )
    )
    return events
    if end_condition_reached(state):
        events.append(Event(text="The lead is tied, so another hand is played to break the tie."))
    deal_hand(state)
    events.append(
        Event(text=f"Hand {state.hand_number}: {{p{state.dealer}}} deals and {{p{state.turn}}} leads.")
    )
    return events


# ----- a sensible move for a seat that runs out of time -----------------------------------------


def default_move(state: FiguresState, seat: int) -> FiguresMove:
    """The lowest playable number card, else a figure (keeping kings); never the privilege."""
    playable = legal_singles(state, seat)
    if not playable:
        return PASS
    numbers = [card for card in playable if card not in FIGURES]
    if numbers:
        return SINGLES[min(numbers, key=VALUE.__getitem__)]
    not_kings = [card for card in playable if card not in KINGS]
    return SINGLES[(not_kings or playable)[0]]
