"""Carrying out the moves of the 2-player Vege tables: turns, draws, releases, passes, the end
(docs/rules/vegetables-2p.md §4-§9). Legality is ``two_player``'s; these functions assume it.
"""

from __future__ import annotations

from engine.core import Event

from .cards import SEQUENCE, SLOT, SLOTS, sorted_cards
from .model import Discard, Done, Pass, Play, UseTractor
from .rules import _finish, _score_closing
from .two_player import (
    EMPTY_PASS_PENALTY,
    MUST_DRAW,
    MUST_DRAW_BELOW,
    MUST_PASS,
    PLAYING,
    RELEASE_AT,
    VALVE_TURNS,
    WELLS,
    Draw,
    DuoMove,
    DuoPlayer,
    DuoState,
    PlayGround,
    TractorGround,
    has_play,
    holdings_empty,
    is_out,
    normalize,
    opponent,
    resolve_draw,
    wells_left,
)

# ----- carrying out moves -------------------------------------------------------------------------


def play_move(state: DuoState, seat: int, move: DuoMove) -> list[Event]:
    """Carry out a legal move in place; returns the events (public unless ``visible_to`` is set)."""
    events: list[Event] = []
    move = normalize(state, seat, move)
    player = state.seats[seat]
    if seat != state.turn:
        assert isinstance(move, Discard)  # A3 off turn: secret until the holder's next turn
        player.pending.append(move.card)
        events.append(
            Event(
                text=f"You asked to discard the dead card {move.card}; it leaves your cards at the start of your next turn.",
                actor=seat,
                visible_to=(seat,),
            )
        )
        return events
    if isinstance(move, PlayGround):
        player.grounds.remove(move.card)
        events.append(Event(text=f"{{p{seat}}} plays the Ground {move.card}.", actor=seat))
        _place_base(state, seat, move.card, move.card, move.take, events)
        player.used_grounds += 1
        _release(state, seat, events)
        _after_play(state, seat, events)
    elif isinstance(move, Play):
        _remove_held(player, move.card)
        sequence = SEQUENCE[move.card]
        state.stacks[sequence].append(move.card)
        events.append(Event(text=f"{{p{seat}}} plays {move.card} on sequence {sequence}.", actor=seat))
        if SLOT[move.card] == SLOTS:
            _score_closing(state, seat, sequence, events)
        _after_play(state, seat, events)
    elif isinstance(move, (UseTractor, TractorGround)):
        _use_tractor(state, seat, move, events)
    elif isinstance(move, Discard) and move.card in player.tractors:
        player.tractors.remove(move.card)
        state.discard.append(move.card)
        state.plays += 1
        events.append(
            Event(text=f"{{p{seat}}} discards a Tractor ({move.card}) and ends the turn.", actor=seat)
        )
        if is_out(state, seat):
            _finish(state, seat, events)
        elif holdings_empty(player):
            state.phase = MUST_DRAW
        else:
            _end_turn(state, events)
    elif isinstance(move, Discard):
        _discard_dead(state, seat, move.card, events, asked_earlier=False)
        if is_out(state, seat):
            _finish(state, seat, events)
        elif state.phase == MUST_DRAW:
            pass  # R28: the draw is still due (and now takes more cards)
        elif state.plays >= 1:
            if holdings_empty(player):
                state.phase = MUST_DRAW
        else:
            state.phase = PLAYING if has_play(state, seat) else MUST_PASS
    elif isinstance(move, Draw):
        _draw(state, seat, move, events)
        state.valve = 0  # drawn cards may be playable: the count of passes starts again (R20)
        _next_turn(state, events)
    elif isinstance(move, Done):
        events.append(Event(text=f"{{p{seat}}} is done.", actor=seat))
        _end_turn(state, events)
    elif isinstance(move, Pass):
        _resolve_pass(state, seat, events)
    else:  # pragma: no cover - legality is checked first
        raise AssertionError(f"unknown move {move!r}")
    return events


def _remove_held(player: DuoPlayer, card: str) -> None:
    for place in (player.hand, player.exposed, player.grounds):
        if card in place:
            place.remove(card)
            return
    raise AssertionError(f"{card} is not held")


def _place_base(
    state: DuoState, seat: int, ground: str, base_card: str, take: str, events: list[Event]
) -> None:
    """A base goes on its fixed cell and the mover takes the chosen free Silo card (§3.2, R6)."""
    sequence = SEQUENCE[ground]
    state.stacks[sequence].append(base_card)
    column = next(index for index, silo in enumerate(state.silos) if silo and silo[-1] == take)
    state.silos[column].pop()
    state.seats[seat].hand.append(take)
    events.append(Event(text=f"{{p{seat}}} takes {take} from S{column + 1}.", actor=seat))


def _use_tractor(state: DuoState, seat: int, move: UseTractor | TractorGround, events: list[Event]) -> None:
    player = state.seats[seat]
    replaced, following = move.replaced, move.following
    assert following is not None
    sequence = SEQUENCE[replaced]
    player.tractors.remove(move.tractor)
    _remove_held(player, following)
    rival = opponent(seat)
    events.append(
        Event(
            text=f"{{p{seat}}} plays Tractor {move.tractor} for {replaced}, then {following}. "
            f"{replaced} is now dead: {{p{rival}}} can only discard it.",
            actor=seat,
        )
    )
    if isinstance(move, TractorGround):
        _place_base(state, seat, replaced, move.tractor, move.take, events)
    else:
        state.stacks[sequence].append(move.tractor)
    state.dead.append(replaced)
    state.stacks[sequence].append(following)
    if SLOT[following] == SLOTS:
        _score_closing(state, seat, sequence, events)
    _after_play(state, seat, events)


def _after_play(state: DuoState, seat: int, events: list[Event]) -> None:
    """After M1-M3 (§6.3): going out ends the game; empty holdings with cards in a well lead to
    the draw at once (R15)."""
    state.plays += 1
    if is_out(state, seat):
        _finish(state, seat, events)
    elif holdings_empty(state.seats[seat]):
        state.phase = MUST_DRAW


def _release(state: DuoState, seat: int, events: list[Event]) -> None:
    """§5.1, R10: two more Tractors at the 4th used Ground, the last two at the 8th."""
    player = state.seats[seat]
    while player.released < len(RELEASE_AT) and player.used_grounds >= RELEASE_AT[player.released]:
        freed, player.locked = player.locked[:2], player.locked[2:]
        player.tractors.extend(freed)
        player.released += 1
        events.append(Event(text=f"{{p{seat}}}: Tractors {', '.join(freed)} released.", actor=seat))


def _discard_dead(state: DuoState, seat: int, card: str, events: list[Event], asked_earlier: bool) -> None:
    player = state.seats[seat]
    ground = card in player.grounds
    _remove_held(player, card)
    state.discard.append(card)
    when = " (asked earlier)" if asked_earlier else ""
    events.append(Event(text=f"{{p{seat}}} discards the dead card {card}{when}.", actor=seat))
    if ground:
        player.used_grounds += 1  # R10: a discarded dead Ground counts as used
        _release(state, seat, events)


def _draw(state: DuoState, seat: int, move: Draw, events: list[Event]) -> None:
    taken, reason = resolve_draw(state, move.picks)
    assert taken is not None, reason
    player = state.seats[seat]
    parts = []
    for card, index in taken:
        state.wells[index].pop()
        player.hand.append(card)
        parts.append(f"{card} ({WELLS[index]})")
        if not state.revealed and (not state.wells[0] or not state.wells[1]):
            state.revealed = True
            shown = " ".join(state.wells[2]) or "empty"
            parts.append(f"then W3 is revealed (bottom to top: {shown})")
    events.append(Event(text=f"{{p{seat}}} draws {', '.join(parts)}; Hand {len(player.hand)}.", actor=seat))


def _end_turn(state: DuoState, events: list[Event]) -> None:
    """END_TURN (§6.3): a Hand below 8 with cards in a well must draw first."""
    if len(state.seats[state.turn].hand) < MUST_DRAW_BELOW and wells_left(state):
        state.phase = MUST_DRAW
        return
    _next_turn(state, events)


def _next_turn(state: DuoState, events: list[Event]) -> None:
    if state.plays >= 1:
        state.valve = 0  # a turn with a play restarts the safety valve (§9)
    state.turn = opponent(state.turn)
    begin_turn(state, events)


def begin_turn(state: DuoState, events: list[Event]) -> None:
    """TURN_START (§6.3): pending discards (a dead Ground may release Tractors), the out check,
    then PLAYING or MUST_PASS."""
    seat = state.turn
    player = state.seats[seat]
    for card in list(player.pending):
        _discard_dead(state, seat, card, events, asked_earlier=True)
    player.pending = []
    state.plays = 0
    if is_out(state, seat):
        _finish(state, seat, events)
        return
    state.phase = PLAYING if has_play(state, seat) else MUST_PASS


def _resolve_pass(state: DuoState, seat: int, events: list[Event]) -> None:
    """§7, R19: expose the Hand (or lose 50 when it is empty), then the draw when a well has cards."""
    player = state.seats[seat]
    player.passes += 1
    if player.hand:
        shown = " ".join(sorted_cards(player.hand))
        player.exposed.extend(player.hand)
        player.hand = []
        events.append(Event(text=f"{{p{seat}}} cannot play and passes, exposing {shown}.", actor=seat))
    else:
        player.score -= EMPTY_PASS_PENALTY
        events.append(
            Event(
                text=f"{{p{seat}}} cannot play and passes with an empty Hand (-{EMPTY_PASS_PENALTY}).",
                actor=seat,
            )
        )
    if wells_left(state):
        state.phase = MUST_DRAW  # the Hand is empty now: the compulsory draw (R19)
        return
    state.valve += 1
    if state.valve >= VALVE_TURNS:
        events.append(
            Event(
                text="Two passes in a row with nothing to draw: nobody can play any more, and the game ends."
            )
        )
        _finish(state, None, events)
        return
    _next_turn(state, events)
