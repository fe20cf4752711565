"""Legal moves of the 2-player Vege tables, and carrying them out: turns, draws, releases, passes,
the end (docs/rules/vegetables-2p.md §4-§9). Legality is ``is_legal``; the play functions assume it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.i18n import N_, tr, tr_ctx

from ..cards import NUMBER, NUMBERED, PRECEDING, SEQUENCE, SLOT, SLOTS
from ..events import card_played, dead_discarded, player_done, seat_field, tractor_discarded, tractor_played
from ..model import MUST_PASS, OVER, PLAYING, Discard, Done, Pass, Play, UseTractor
from ..rules import ask_to_discard, done_or_pass, remove_from
from ..scoring import expose_or_pay, finish, next_turn, open_turn, score_closing
from .model import (
    EMPTY_PASS_PENALTY,
    MAY_DRAW_BELOW,
    MUST_DRAW,
    MUST_DRAW_BELOW,
    RELEASE_AT,
    TRACTORS_P1,
    TRACTORS_P2,
    VALVE_TURNS,
    WELLS,
    Draw,
    DuoMove,
    DuoPlayer,
    DuoState,
    PlayGround,
    TractorGround,
)

# ----- carrying out moves -------------------------------------------------------------------------


def play_move(state: DuoState, seat: int, move: DuoMove) -> list[Event]:
    """Carry out a legal move in place; returns the events (public unless ``visible_to`` is set)."""
    events: list[Event] = []
    move = normalize(state, seat, move)
    player = state.seats[seat]
    if seat != state.turn:
        assert isinstance(move, Discard)  # A3 off turn: secret until the holder's next turn
        ask_to_discard(player.pending, seat, move.card, events)
        return events
    if isinstance(move, PlayGround):
        player.grounds.remove(move.card)
        events.append(
            Event(text=tr("{player} plays the Ground {card}.", player=seat_field(seat), card=move.card), actor=seat)
        )
        _place_base(state, seat, move.card, move.card, move.take, events)
        player.used_grounds += 1
        _release(state, seat, events)
        _after_play(state, seat, events)
    elif isinstance(move, Play):
        _remove_held(player, move.card)
        sequence = SEQUENCE[move.card]
        state.stacks[sequence].append(move.card)
        events.append(card_played(seat, move.card, sequence))
        if SLOT[move.card] == SLOTS:
            score_closing(state, seat, sequence, events)
        _after_play(state, seat, events)
    elif isinstance(move, (UseTractor, TractorGround)):
        _use_tractor(state, seat, move, events)
    elif isinstance(move, Discard) and move.card in player.tractors:
        player.tractors.remove(move.card)
        state.discard.append(move.card)
        state.plays += 1
        events.append(tractor_discarded(seat, move.card))
        if is_out(state, seat):
            finish(state, seat, events)
        elif holdings_empty(player):
            state.phase = MUST_DRAW
        else:
            _end_turn(state, events)
    elif isinstance(move, Discard):
        _discard_dead(state, seat, move.card, events, asked_earlier=False)
        if is_out(state, seat):
            finish(state, seat, events)
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
        next_turn(state, events, begin_turn)
    elif isinstance(move, Done):
        events.append(Event(text=player_done(seat), actor=seat))
        _end_turn(state, events)
    else:
        assert isinstance(move, Pass), move  # legality is checked first
        _resolve_pass(state, seat, events)
    return events


def _remove_held(player: DuoPlayer, card: str) -> None:
    remove_from((player.hand, player.exposed, player.grounds), card)


def _place_base(
    state: DuoState, seat: int, ground: str, base_card: str, take: str, events: list[Event]
) -> None:
    """A base goes on its fixed cell and the mover takes the chosen free Silo card (§3.2, R6)."""
    sequence = SEQUENCE[ground]
    state.stacks[sequence].append(base_card)
    column = next(index for index, silo in enumerate(state.silos) if silo and silo[-1] == take)
    state.silos[column].pop()
    state.seats[seat].hand.append(take)
    events.append(
        Event(
            text=tr("{player} takes {card} from {silo}.", player=seat_field(seat), card=take, silo=f"S{column + 1}"),
            actor=seat,
        )
    )


def _use_tractor(state: DuoState, seat: int, move: UseTractor | TractorGround, events: list[Event]) -> None:
    player = state.seats[seat]
    replaced, following = move.replaced, move.following
    assert following is not None
    sequence = SEQUENCE[replaced]
    player.tractors.remove(move.tractor)
    _remove_held(player, following)
    events.append(tractor_played(seat, move.tractor, replaced, following, rival=opponent(seat)))
    if isinstance(move, TractorGround):
        _place_base(state, seat, replaced, move.tractor, move.take, events)
    else:
        state.stacks[sequence].append(move.tractor)
    state.dead.append(replaced)
    state.stacks[sequence].append(following)
    if SLOT[following] == SLOTS:
        score_closing(state, seat, sequence, events)
    _after_play(state, seat, events)


def _after_play(state: DuoState, seat: int, events: list[Event]) -> None:
    """After M1-M3 (§6.3): going out ends the game; empty holdings with cards in a well lead to
    the draw at once (R15)."""
    state.plays += 1
    if is_out(state, seat):
        finish(state, seat, events)
    elif holdings_empty(state.seats[seat]):
        state.phase = MUST_DRAW


def _release(state: DuoState, seat: int, events: list[Event]) -> None:
    """§5.1, R10: two more Tractors at the 4th used Ground, the last two at the 8th."""
    player = state.seats[seat]
    while player.released < len(RELEASE_AT) and player.used_grounds >= RELEASE_AT[player.released]:
        freed, player.locked = player.locked[:2], player.locked[2:]
        player.tractors.extend(freed)
        player.released += 1
        events.append(
            Event(
                text=tr("{player}: Tractors {tractors} released.", player=seat_field(seat), tractors=", ".join(freed)),
                actor=seat,
            )
        )


def _discard_dead(state: DuoState, seat: int, card: str, events: list[Event], asked_earlier: bool) -> None:
    player = state.seats[seat]
    ground = card in player.grounds
    _remove_held(player, card)
    state.discard.append(card)
    events.append(dead_discarded(seat, card, asked_earlier))
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
            shown = " ".join(state.wells[2]) or tr_ctx("vegetables", "empty")
            # Translators: an item in the list of the cards a player draws ("K13 (W1), then W3 is revealed ...").
            parts.append(tr("then W3 is revealed (bottom to top: {cards})", cards=shown))
    events.append(
        Event(
            text=tr(
                "{player} draws {cards}; Hand {size}.", player=seat_field(seat), cards=", ".join(parts),
                size=len(player.hand),
            ),  # fmt: skip
            actor=seat,
        )
    )


def _end_turn(state: DuoState, events: list[Event]) -> None:
    """END_TURN (§6.3): a Hand below 8 with cards in a well must draw first."""
    if len(state.seats[state.turn].hand) < MUST_DRAW_BELOW and wells_left(state):
        state.phase = MUST_DRAW
        return
    next_turn(state, events, begin_turn)


def begin_turn(state: DuoState, events: list[Event]) -> None:
    """TURN_START (§6.3): pending discards (a dead Ground may release Tractors), the out check,
    then PLAYING or MUST_PASS."""
    open_turn(state, events, _discard_dead, is_out, has_play)


def _resolve_pass(state: DuoState, seat: int, events: list[Event]) -> None:
    """§7, R19: expose the Hand (or lose 50 when it is empty), then the draw when a well has cards."""
    player = state.seats[seat]
    expose_or_pay(player, seat, events, EMPTY_PASS_PENALTY, N_("{player} cannot play and passes with an empty Hand (-{penalty})."))
    if wells_left(state):
        state.phase = MUST_DRAW  # the Hand is empty now: the compulsory draw (R19)
        return
    state.valve += 1
    if state.valve >= VALVE_TURNS:
        events.append(
            Event(
                text=tr("Two passes in a row with nothing to draw: nobody can play any more, and the game ends.")
            )
        )
        finish(state, None, events)
        return
    next_turn(state, events, begin_turn)


# ----- small questions ----------------------------------------------------------------------------


def opponent(seat: int) -> int:
    return 1 - seat


def wells_left(state: DuoState) -> int:
    return sum(len(well) for well in state.wells)


def free_silo_cards(state: DuoState) -> list[str]:
    return [column[-1] for column in state.silos if column]


def free_well_cards(state: DuoState) -> list[str]:
    """The tops a draw may take now (W3 only once revealed)."""
    return [well[-1] for index, well in enumerate(state.wells) if well and (index < 2 or state.revealed)]


def holdings(player: DuoPlayer) -> list[str]:
    """The cards a player could still play or discard (locked Tractors aside)."""
    return player.grounds + player.hand + player.exposed + player.tractors


def holdings_empty(player: DuoPlayer) -> bool:
    """Grounds row, Hand, exposed cards and the whole Tractor reserve empty (R14)."""
    return not (player.grounds or player.hand or player.exposed or player.tractors or player.locked)


def is_out(state: DuoState, seat: int) -> bool:
    """§9, R15: empty holdings and all three wells empty."""
    return holdings_empty(state.seats[seat]) and wells_left(state) == 0


def dead_held(state: DuoState, seat: int) -> list[str]:
    player = state.seats[seat]
    dead = state.dead
    return [card for card in player.grounds + player.hand + player.exposed if card in dead]


def held_by(player: DuoPlayer, card: str) -> bool:
    """Whether ``card`` is in the Grounds row, Hand or exposed cards (a Tractor's possible target)."""
    return card in player.hand or card in player.exposed or card in player.grounds


def draw_targets(hand_size: int) -> tuple[int, ...]:
    """§4.2: the hand sizes a draw may end at."""
    if hand_size < MUST_DRAW_BELOW:
        return (MUST_DRAW_BELOW, MAY_DRAW_BELOW)
    if hand_size < MAY_DRAW_BELOW:
        return (MAY_DRAW_BELOW,)
    return ()


def draw_sizes(state: DuoState, seat: int) -> list[int]:
    """How many cards a draw by ``seat`` may take now (R9: all that is left if fewer)."""
    left = wells_left(state)
    hand = len(state.seats[seat].hand)
    return sorted({min(target - hand, left) for target in draw_targets(hand)})


def may_draw(state: DuoState, seat: int) -> bool:
    """A1 is open: the compulsory draw, or a voluntary one after a play below 12 (R8)."""
    if seat != state.turn or wells_left(state) == 0:
        return False
    if state.phase == MUST_DRAW:
        return True
    return state.phase == PLAYING and state.plays >= 1 and len(state.seats[seat].hand) < MAY_DRAW_BELOW


def has_play(state: DuoState, seat: int) -> bool:
    """Whether any of M1-M4 is open (§7: else the player must pass). A live Ground (M1) or an
    available Tractor (M4) is always a play."""
    player = state.seats[seat]
    if player.tractors:
        return True
    dead = state.dead
    if any(card not in dead for card in player.grounds):
        return True
    stacks = state.stacks
    return any(
        card not in dead and len(stacks[SEQUENCE[card]]) == SLOT[card] - 1
        for card in player.hand + player.exposed
    )


# ----- legal moves --------------------------------------------------------------------------------


def legal_moves(state: DuoState, seat: int) -> list[DuoMove]:
    """Every legal move in its canonical form (a Silo card always named; draws taken from W1, then
    W2, then W3). ``why_not`` accepts a few other spellings of the same moves."""
    if state.phase == OVER or seat not in (0, 1):
        return []
    player = state.seats[seat]
    dead = state.dead
    discards: list[DuoMove] = [
        Discard(card) for card in dead_held(state, seat) if seat == state.turn or card not in player.pending
    ]
    if seat != state.turn:
        return discards  # off turn, only a request to discard a dead card (A3)
    if state.phase == MUST_PASS:
        return [Pass(), *discards]
    if state.phase == MUST_DRAW:
        return [*draw_moves(state, seat), *discards]

    moves: list[DuoMove] = []
    silo = free_silo_cards(state)
    for card in player.grounds:
        if card not in dead:
            moves.extend(PlayGround(card, take) for take in silo)
    stacks = state.stacks
    rival = state.seats[opponent(seat)]
    followers: list[str] = []
    for card in player.hand + player.exposed:
        if card in dead:
            continue
        height = len(stacks[SEQUENCE[card]])
        if height == SLOT[card] - 1:
            moves.append(Play(card))
        elif height == SLOT[card] - 2:
            replaced = PRECEDING[card]
            if replaced is not None and replaced not in dead and held_by(rival, replaced):
                followers.append(card)  # R11: only a card the opponent holds can be replaced
    for card in followers:
        replaced = PRECEDING[card]
        assert replaced is not None
        for tractor in player.tractors:
            if SLOT[replaced] == 1:
                moves.extend(TractorGround(tractor, replaced, take) for take in silo)
            else:
                moves.append(UseTractor(tractor, replaced))
    moves.extend(Discard(tractor) for tractor in player.tractors)
    moves.extend(discards)
    if state.plays >= 1:
        if may_draw(state, seat):
            moves.extend(draw_moves(state, seat))
        moves.append(Done())
    return moves


def draw_moves(state: DuoState, seat: int) -> list[DuoMove]:
    """One draw per way of sharing the cards out between the wells, each written W1 first, then
    W2, then W3 (the order never matters for what is taken, only for when W3 opens)."""
    sizes, revealed = state.wells, state.revealed
    moves: list[DuoMove] = []
    for count in draw_sizes(state, seat):
        for first in range(min(count, len(sizes[0])) + 1):
            for second in range(min(count - first, len(sizes[1])) + 1):
                third = count - first - second
                if third > len(sizes[2]):
                    continue
                if third and not revealed and first < len(sizes[0]) and second < len(sizes[1]):
                    continue  # W3 opens only when W1 or W2 runs out (R4)
                # W3 still face down when the draw begins: its cards are named by their pile, so
                # that the moves offered never show what nobody may see yet (Ruling 4).
                from_w3 = _tops(sizes[2], third) if revealed else [WELLS[2]] * third
                picks = _tops(sizes[0], first) + _tops(sizes[1], second) + from_w3
                moves.append(Draw(tuple(picks)))
    return moves


def _tops(pile: list[str], count: int) -> list[str]:
    """The ``count`` cards taken one by one from the top of ``pile``."""
    return pile[::-1][:count]


def resolve_draw(state: DuoState, picks: Sequence[str]) -> tuple[list[tuple[str, int]] | None, str]:
    """Follow a draw pick by pick on copies of the wells: the cards with their well index, or None
    and the reason. A card that is not free is refused in the same words wherever it lies, so that
    the refusal never tells whether it is in the face-down W3."""
    wells = [list(well) for well in state.wells]
    revealed = state.revealed
    taken: list[tuple[str, int]] = []
    for pick in picks:
        if pick in WELLS:
            index = WELLS.index(pick)
            if index == 2 and not revealed:
                return None, tr("W3 stays face down until W1 or W2 runs out.")
            if not wells[index]:
                return None, tr("{pile} is empty.", pile=pick)
        else:
            tops = [i for i, well in enumerate(wells) if well and well[-1] == pick and (i < 2 or revealed)]
            if not tops:
                free = [well[-1] for i, well in enumerate(wells) if well and (i < 2 or revealed)]
                return None, tr(
                    "{card} is not a free card of a well (free now: {cards}).", card=pick, cards=" ".join(free) or tr_ctx("vegetables", "none")
                )
            index = tops[0]
        taken.append((wells[index].pop(), index))
        if not wells[0] or not wells[1]:
            revealed = True
    return taken, ""


# ----- reading the accepted spellings ---------------------------------------------------------------


def normalize(state: DuoState, seat: int, move: DuoMove) -> DuoMove:
    """The canonical move a spelling stands for: a base named without its Silo card takes the only
    free one (§11). Anything else is returned as it is."""
    if isinstance(move, Play) and move.row is None and move.card in NUMBER and SLOT[move.card] == 1:
        silo = free_silo_cards(state)
        if len(silo) == 1:
            return PlayGround(move.card, silo[0])
    if (
        isinstance(move, UseTractor)
        and move.row is None
        and move.replaced in NUMBER
        and SLOT[move.replaced] == 1
    ):
        silo = free_silo_cards(state)
        if len(silo) == 1:
            return TractorGround(move.tractor, move.replaced, silo[0])
    return move


def is_legal(state: DuoState, seat: int, move: DuoMove) -> bool:
    move = normalize(state, seat, move)
    if isinstance(move, Draw):
        if not may_draw(state, seat):
            return False
        taken, _ = resolve_draw(state, move.picks)
        return taken is not None and len(taken) in draw_sizes(state, seat)
    return move in legal_moves(state, seat)


# ----- the default for a player who runs out of time ----------------------------------------------


def default_move(state: DuoState, seat: int) -> DuoMove:
    """Done when allowed, a forced pass, the smallest draw from the lowest-numbered wells (§6.3
    notes), else the first sequence card, Ground, Tractor move or Tractor discard."""
    moves = legal_moves(state, seat)
    ending = done_or_pass(moves)
    if ending is not None:
        return ending
    draws = [move for move in moves if isinstance(move, Draw)]
    if draws:
        smallest = min(len(move.picks) for move in draws)
        return next(move for move in reversed(draws) if len(move.picks) == smallest)
    for kind in (Play, PlayGround, UseTractor, TractorGround):
        for move in moves:
            if isinstance(move, kind):
                return move
    return moves[0]


# ----- where every card is (for checks and tests) -------------------------------------------------


def card_places(state: DuoState) -> list[tuple[str, str]]:
    """Every card with its place, e.g. ("R7", "hand 1"); a card listed twice is a bug."""
    places: list[tuple[str, str]] = []
    for index, player in enumerate(state.seats):
        for name in ("grounds", "hand", "exposed", "tractors", "locked"):
            places.extend((card, f"{name} {index}") for card in getattr(player, name))
    for index, silo in enumerate(state.silos):
        places.extend((card, f"S{index + 1}") for card in silo)
    for index, well in enumerate(state.wells):
        places.extend((card, WELLS[index]) for card in well)
    for sequence, stack in state.stacks.items():
        places.extend((card, f"stack {sequence}") for card in stack)
    places.extend((card, "discard") for card in state.discard)
    return places


def expected_cards() -> list[str]:
    return list(NUMBERED) + list(TRACTORS_P1) + list(TRACTORS_P2)
