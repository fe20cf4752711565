"""Legal moves and playing a move in Vege tables for 3 to 5 players.

The state and move types are in ``model``, the deal in ``setup``, refusals in ``reasons``, the
views in ``views``, and the scoring and the end of the game (shared with ``duo``) in ``scoring``.

The rules are docs/rules/vegetables.md; their section numbers (§) and rulings (R) are cited
where a line of code exists because of them.

Where every card lives:
- a player's Farmland row (face up), hidden hand, exposed cards (face up after a pass) or well
  (face down, unseen even by its owner until collected);
- a face-down field cell (``cells``), until a base is placed there;
- a stack on the field (``stacks``: sequence -> cards in slot order, Tractors included);
- the discard pile, or out of the game (the family removed in the 3-player house variant).
Dead cards are only flagged (``dead``): they stay where they are until their holder discards them.

A turn is several moves by the same seat. Everything automatic (ending a turn, collecting a well,
starting the next turn and its pending discards, scoring, the end of the game) happens inside the
move that triggers it. A forced pass is left to the player as the move ``pass``; the game object
offers it as an automatic move when it leaves no choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.core import Event
from engine.i18n import N_, tr, tr_ctx, tr_n

from .cards import (
    FAMILY,
    NUMBER,
    NUMBERED,
    PRECEDING,
    SEQUENCE,
    SLOT,
    SLOTS,
    TRACTORS_H3,
    TRACTORS_H5,
    TRACTORS_OFFICIAL,
    column_of,
    family_name,
    is_tractor,
    sorted_cards,
)
from .events import card_played, dead_discarded, player_done, seat_field, tractor_discarded, tractor_played
from .model import (
    COLUMNS,
    EMPTY_PASS_PENALTY,
    H3,
    H5,
    MUST_PASS,
    OFFICIAL,
    OVER,
    PLAYING,
    WELL_POINTS_PER_PLAYER,
    Discard,
    Done,
    Move,
    Pass,
    Play,
    PlayerState,
    TakeWell,
    UseTractor,
    VegetablesState,
)
from .scoring import expose_or_pay, finish, next_turn, open_turn, score_closing

M = TypeVar("M")


# ----- small questions ----------------------------------------------------------------------------


def row_of(state: VegetablesState, family: str) -> int | None:
    """0-based field row of a family, or None while it has none."""
    try:
        return state.rows.index(family)
    except ValueError:
        return None


def free_rows(state: VegetablesState) -> list[int]:
    return [index for index, family in enumerate(state.rows) if not family]


def determined_row(state: VegetablesState, family: str) -> int | None:
    """0-based row a base of ``family`` goes to without being named: the family's row, or the
    only free row (§3). None while the player must choose."""
    assigned = row_of(state, family)
    if assigned is not None:
        return assigned
    free = free_rows(state)
    return free[0] if len(free) == 1 else None


def canonical_move(state: VegetablesState, move: Move) -> Move:
    """The move without a row it names needlessly. M1 forbids naming *another* row only, so
    ``play K2 row 1`` with row 1 Black's (or the only free row) is the plain ``play K2``, and is
    stored and shown as such."""
    if isinstance(move, Play) and move.row is not None and move.card in NUMBER:
        if NUMBER[move.card] <= 4 and determined_row(state, FAMILY[move.card]) == move.row - 1:
            return Play(move.card)
    if isinstance(move, UseTractor) and move.row is not None and move.replaced in SLOT:
        if SLOT[move.replaced] == 1 and determined_row(state, FAMILY[move.replaced]) == move.row - 1:
            return UseTractor(move.tractor, move.replaced)
    return move


def base_row_choices(state: VegetablesState, family: str) -> list[int | None]:
    """The ``row`` values a legal base move of ``family`` carries (§3): a choice only while the
    family has no row and more than one row is free."""
    if family in state.rows:
        return [None]
    free = free_rows(state)
    if len(free) == 1:
        return [None]
    return [index + 1 for index in free]


def holdings(player: PlayerState) -> list[str]:
    """Everything a player could still play or discard (the well aside)."""
    return player.farmland + player.hand + player.exposed


def is_out(player: PlayerState) -> bool:
    return not player.farmland and not player.hand and not player.exposed and player.well_taken


def only_well_left(player: PlayerState) -> bool:
    return not player.farmland and not player.hand and not player.exposed and not player.well_taken


def well_eligible(state: VegetablesState, seat: int) -> bool:
    """A1's conditions: own turn, a play made, well uncollected, hidden count below W."""
    player = state.seats[seat]
    return (
        state.phase == PLAYING
        and seat == state.turn
        and state.plays >= 1
        and not player.well_taken
        and len(player.hand) < state.well_threshold
    )


def well_points(state: VegetablesState, seat: int) -> int:
    """What collecting the well is worth to ``seat`` now: 10 per other uncollected well."""
    others = sum(1 for index, player in enumerate(state.seats) if index != seat and not player.well_taken)
    return WELL_POINTS_PER_PLAYER * others


def dead_held(state: VegetablesState, seat: int) -> list[str]:
    dead = state.dead
    return [card for card in holdings(state.seats[seat]) if card in dead]


def has_play(state: VegetablesState, seat: int) -> bool:
    """Whether any of M1-M4 is open to ``seat`` on the current field (§5: else it must pass)."""
    player = state.seats[seat]
    dead = state.dead
    if any(card not in dead for card in player.farmland):
        return True  # a live Farmland's cell never has a base yet
    stacks = state.stacks
    for card in player.hand + player.exposed:
        if card[0] == "T":
            return True  # discarding a Tractor is always possible
        if card not in dead and len(stacks[SEQUENCE[card]]) == SLOT[card] - 1:
            return True
    return False


# ----- legal moves --------------------------------------------------------------------------------


def legal_moves(state: VegetablesState, seat: int) -> list[Move]:
    if state.phase == OVER or not 0 <= seat < state.players:
        return []
    player = state.seats[seat]
    dead = state.dead
    if seat != state.turn:
        # Off turn, only a request to discard a dead card (it takes effect at the next turn).
        return [Discard(card) for card in holdings(player) if card in dead and card not in player.pending]
    if state.phase == MUST_PASS:
        moves: list[Move] = [Pass()]
        moves.extend(Discard(card) for card in holdings(player) if card in dead)
        return moves

    moves = []
    for card in player.farmland:
        if card not in dead:
            for row in base_row_choices(state, FAMILY[card]):
                moves.append(Play(card, row))
    stacks = state.stacks
    tractors: list[str] = []
    followers: list[str] = []  # live cards that could follow a Tractor standing for the card below
    for card in player.hand + player.exposed:
        if card[0] == "T":
            tractors.append(card)
            continue
        if card in dead:
            continue
        height = len(stacks[SEQUENCE[card]])
        slot = SLOT[card]
        if height == slot - 1:
            moves.append(Play(card))
        elif height == slot - 2:
            followers.append(card)
    if tractors:
        for card in followers:
            replaced = PRECEDING[card]
            assert replaced is not None
            rows = base_row_choices(state, FAMILY[card]) if SLOT[replaced] == 1 else [None]
            for tractor in tractors:
                for row in rows:
                    moves.append(UseTractor(tractor, replaced, row))
        moves.extend(Discard(tractor) for tractor in tractors)
    moves.extend(Discard(card) for card in holdings(player) if card in dead)
    if state.plays >= 1:
        if not player.well_taken and len(player.hand) < state.well_threshold:
            moves.append(TakeWell())
        moves.append(Done())
    return moves


def _tractors_of(state: VegetablesState) -> tuple[str, ...]:
    return {OFFICIAL: TRACTORS_OFFICIAL, H3: TRACTORS_H3, H5: TRACTORS_H5}[state.variant]


# ----- carrying out moves -------------------------------------------------------------------------


def play_move(state: VegetablesState, seat: int, move: Move) -> list[Event]:
    """Carry out a legal move in place; returns the events (public unless ``visible_to`` is set)."""
    events: list[Event] = []
    player = state.seats[seat]
    if seat != state.turn:
        # A3 off turn: the request stays secret and waits for the holder's next turn (R13, R34).
        assert isinstance(move, Discard)
        ask_to_discard(player.pending, seat, move.card, events)
        return events

    if isinstance(move, Play):
        _play_card(state, seat, move, events)
    elif isinstance(move, UseTractor):
        _use_tractor(state, seat, move, events)
    elif isinstance(move, Discard):
        if is_tractor(move.card):
            _remove_held(player, move.card)
            state.discard.append(move.card)
            state.plays += 1
            events.append(tractor_discarded(seat, move.card))
            if is_out(player):
                finish(state, seat, events)
            else:
                _end_turn(state, events)
        else:
            _discard_dead(state, seat, move.card, events, asked_earlier=False)
            if is_out(player):
                finish(state, seat, events)
            elif state.phase == PLAYING and state.plays >= 1 and only_well_left(player):
                _collect_well(state, seat, events)
                next_turn(state, events, begin_turn)
    elif isinstance(move, TakeWell):
        _collect_well(state, seat, events)
        next_turn(state, events, begin_turn)
    elif isinstance(move, Done):
        _done(state, seat, events)
    else:
        assert isinstance(move, Pass), move  # legality is checked first
        _resolve_pass(state, seat, events)
    return events


def ask_to_discard(pending: list[str], seat: int, card: str, events: list[Event]) -> None:
    """An off-turn discard request (A3): kept secret, carried out at the start of the seat's turn."""
    pending.append(card)
    events.append(
        Event(
            text=tr(
                "You asked to discard the dead card {card}; it leaves your cards at the start of your next turn.",
                card=card,
            ),
            actor=seat,
            visible_to=(seat,),
        )
    )


def remove_from(places: tuple[list[str], ...], card: str) -> None:
    """Take a card out of the first of a player's ``places`` that holds it."""
    for place in places:
        if card in place:
            place.remove(card)
            return
    raise AssertionError(f"{card} is not held")


def _remove_held(player: PlayerState, card: str) -> None:
    """Take a card out of the hidden hand, the exposed cards or the Farmland row."""
    remove_from((player.hand, player.exposed, player.farmland), card)


def _base_row(state: VegetablesState, family: str, row: int | None) -> int:
    """0-based row where a base of ``family`` goes: its row, the named one, or the last free one."""
    assigned = row_of(state, family)
    if assigned is not None:
        return assigned
    return row - 1 if row is not None else free_rows(state)[0]


def _place_base(
    state: VegetablesState, seat: int, sequence: str, base_card: str, row_index: int, events: list[Event]
) -> None:
    """Put a base (a Farmland or a Tractor for one) on its cell and hand its face-down card to the
    player (§3, R11)."""
    family = sequence[0]
    if not state.rows[row_index]:
        state.rows[row_index] = family
        events.append(
            Event(
                text=tr("Row {row} now belongs to the {family} family.", row=row_index + 1, family=family_name(family)),
                actor=seat,
            )
        )
    state.stacks[sequence].append(base_card)
    cell = row_index * COLUMNS + column_of(sequence)
    hidden = state.cells[cell]
    state.cells[cell] = ""
    state.seats[seat].hand.append(hidden)
    if hidden in state.dead:
        text = tr("You take the face-down field card {card}. It is dead (a Tractor took its place).", card=hidden)
    else:
        text = tr("You take the face-down field card {card}.", card=hidden)
    events.append(Event(text=text, actor=seat, visible_to=(seat,)))


def _play_card(state: VegetablesState, seat: int, move: Play, events: list[Event]) -> None:
    player = state.seats[seat]
    card = move.card
    sequence = SEQUENCE[card]
    _remove_held(player, card)
    if SLOT[card] == 1:
        row_index = _base_row(state, FAMILY[card], move.row)
        events.append(
            Event(
                text=tr(
                    "{player} plays the Farmland {card} (row {row}, column {column}) and takes the face-down card there.",
                    player=seat_field(seat), card=card, row=row_index + 1, column=NUMBER[card],
                ),  # fmt: skip
                actor=seat,
            )
        )
        _place_base(state, seat, sequence, card, row_index, events)
    else:
        state.stacks[sequence].append(card)
        events.append(card_played(seat, card, sequence))
    _played(state, seat, sequence, card, events)


def _use_tractor(state: VegetablesState, seat: int, move: UseTractor, events: list[Event]) -> None:
    player = state.seats[seat]
    replaced, following = move.replaced, move.following
    assert following is not None
    sequence = SEQUENCE[replaced]
    _remove_held(player, move.tractor)
    _remove_held(player, following)
    events.append(tractor_played(seat, move.tractor, replaced, following))
    if SLOT[replaced] == 1:
        row_index = _base_row(state, sequence[0], move.row)
        events.append(
            Event(
                text=tr(
                    "The Tractor is the base of sequence {sequence} (row {row}, column {column}); {player} takes "
                    "the face-down card there.",
                    sequence=sequence, row=row_index + 1, column=NUMBER[replaced], player=seat_field(seat),
                ),  # fmt: skip
                actor=seat,
            )
        )
        _place_base(state, seat, sequence, move.tractor, row_index, events)
    else:
        state.stacks[sequence].append(move.tractor)
    state.dead.append(replaced)
    state.stacks[sequence].append(following)
    _played(state, seat, sequence, following, events)


def _played(state: VegetablesState, seat: int, sequence: str, top: str, events: list[Event]) -> None:
    """A play ends with ``top`` on ``sequence``: the closure's points when it is the last card, one
    more play this turn, and what follows a play."""
    if SLOT[top] == SLOTS:
        score_closing(state, seat, sequence, events)
    state.plays += 1
    _after_play(state, seat, events)


def _after_play(state: VegetablesState, seat: int, events: list[Event]) -> None:
    """After M1-M3 (§4.4): going out ends the game; a well as the only cards left is collected."""
    player = state.seats[seat]
    if is_out(player):
        finish(state, seat, events)
    elif only_well_left(player):
        _collect_well(state, seat, events)
        next_turn(state, events, begin_turn)


def _discard_dead(
    state: VegetablesState, seat: int, card: str, events: list[Event], asked_earlier: bool
) -> None:
    _remove_held(state.seats[seat], card)
    state.discard.append(card)
    events.append(dead_discarded(seat, card, asked_earlier))


def _collect_well(state: VegetablesState, seat: int, events: list[Event]) -> None:
    player = state.seats[seat]
    points = well_points(state, seat)
    cards = player.well
    player.hand.extend(cards)
    player.well = []
    player.well_taken = True
    player.score += points
    events.append(
        Event(
            text=tr_n(
                "{player} takes the well: {n} card (+{points}).",
                "{player} takes the well: {n} cards (+{points}).",
                len(cards), player=seat_field(seat), points=points,
            ),  # fmt: skip
            actor=seat,
        )
    )
    dead = [card for card in cards if card in state.dead]
    listed = " ".join(sorted_cards(cards)) or tr_ctx("vegetables", "nothing")
    if dead:
        text = tr("Your well: {cards}. Dead: {dead}.", cards=listed, dead=" ".join(sorted_cards(dead)))
    else:
        text = tr("Your well: {cards}.", cards=listed)
    events.append(Event(text=text, actor=seat, visible_to=(seat,)))


def _done(state: VegetablesState, seat: int, events: list[Event]) -> None:
    """The move done: END_TURN collects the well of a player still eligible for it (§4.4), and
    the event says so."""
    if well_eligible(state, seat):
        text = tr(
            "{player} is done and, with fewer than {threshold} hidden cards, must take the well.",
            player=seat_field(seat), threshold=state.well_threshold,
        )  # fmt: skip
    else:
        text = player_done(seat)
    events.append(Event(text=text, actor=seat))
    _end_turn(state, events)


def _end_turn(state: VegetablesState, events: list[Event]) -> None:
    """END_TURN (§4.4): a player still eligible for the well collects it before leaving."""
    if well_eligible(state, state.turn):
        _collect_well(state, state.turn, events)
    next_turn(state, events, begin_turn)


def begin_turn(state: VegetablesState, events: list[Event]) -> None:
    """TURN_START (§4.4): pending discards, the out check, then PLAYING or MUST_PASS."""
    open_turn(state, events, _discard_dead, lambda table, seat: is_out(table.seats[seat]), has_play)


def _resolve_pass(state: VegetablesState, seat: int, events: list[Event]) -> None:
    """§5: expose the hidden hand (or lose 50 when it is empty), then collect an uncollected well."""
    player = state.seats[seat]
    expose_or_pay(player, seat, events, EMPTY_PASS_PENALTY, N_("{player} cannot play and passes with no hidden card (-{penalty})."))
    if not player.well_taken:
        _collect_well(state, seat, events)
        state.valve = 0  # new cards may be playable: the round of passes starts again (R31)
    else:
        state.valve += 1
        if state.valve >= state.players:
            events.append(Event(text=tr("A full round of passes: nobody can play any more, and the game ends.")))
            finish(state, None, events)
            return
    next_turn(state, events, begin_turn)


# ----- the default for a player who runs out of time ----------------------------------------------


def done_or_pass(moves: Sequence[M]) -> M | None:
    """The first default of a timed-out seat: end the turn when allowed, pass when forced."""
    if not moves:
        raise ValueError("this seat has no move to make")
    for wanted in (Done, Pass):
        for move in moves:
            if isinstance(move, wanted):
                return move
    return None


def default_move(state: VegetablesState, seat: int) -> Move:
    """Keep a timed-out player's losses small: end the turn when allowed, pass when forced (keeping
    dead cards makes the pass free), else the first sequence card, Farmland, Tractor move, or
    Tractor discard."""
    moves = legal_moves(state, seat)
    ending = done_or_pass(moves)
    if ending is not None:
        return ending
    sequence_cards = [move for move in moves if isinstance(move, Play) and SLOT[move.card] > 1]
    farmland = [move for move in moves if isinstance(move, Play) and SLOT[move.card] == 1]
    tractor_moves = [move for move in moves if isinstance(move, UseTractor)]
    tractor_discards = [move for move in moves if isinstance(move, Discard) and is_tractor(move.card)]
    for group in (sequence_cards, farmland, tractor_moves, tractor_discards):
        if group:
            return group[0]
    return moves[0]


# ----- where every card is (for checks and tests) -------------------------------------------------


def card_places(state: VegetablesState) -> list[tuple[str, str]]:
    """Every card of the game with its place, e.g. ("R7", "hand 2"); a card listed twice is a bug."""
    places: list[tuple[str, str]] = []
    for index, player in enumerate(state.seats):
        places.extend((card, f"farmland {index}") for card in player.farmland)
        places.extend((card, f"hand {index}") for card in player.hand)
        places.extend((card, f"exposed {index}") for card in player.exposed)
        places.extend((card, f"well {index}") for card in player.well)
    places.extend((card, f"cell {cell}") for cell, card in enumerate(state.cells) if card)
    for sequence, stack in state.stacks.items():
        places.extend((card, f"stack {sequence}") for card in stack)
    places.extend((card, "discard") for card in state.discard)
    places.extend((card, "removed") for card in state.removed)
    return places


def expected_cards(state: VegetablesState) -> list[str]:
    """Every card the configuration uses; in H3 the removed family is there too, out of the game."""
    return list(NUMBERED) + list(_tractors_of(state))
