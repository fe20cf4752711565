"""State, moves, legality and scoring of Vege tables (registry name ``vegetables``).

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

import msgspec

from engine.core import Event, Rng, SetupError
from engine.core.text import quote

from .cards import (
    ALL_TRACTORS,
    FAMILIES,
    FAMILY,
    FAMILY_NAMES,
    FOLLOWING,
    NUMBER,
    NUMBERED,
    PRECEDING,
    SEQUENCE,
    SEQUENCES,
    SLOT,
    SLOTS,
    TRACTOR,
    TRACTORS_H3,
    TRACTORS_H5,
    TRACTORS_OFFICIAL,
    back_of,
    column_of,
    is_tractor,
    sequence_card,
    sorted_cards,
)

PLAYING, MUST_PASS, OVER = "playing", "must_pass", "over"
OFFICIAL, H3, H5 = "official", "h3", "h5"
COLUMNS = 4
CLOSING_POINTS = 10
FAMILY_POINTS = 30
WELL_POINTS_PER_PLAYER = 10
CLOSURE_POINTS_PER_SEQUENCE = 10
EMPTY_PASS_PENALTY = 50


# ----- moves ------------------------------------------------------------------------------------


class Play(msgspec.Struct, frozen=True):
    """Play a live card: a Farmland from the row (M1) or a sequence card 5-20 (M2).

    ``row`` (1-based, as people count field rows) is named only for the first base of a family
    while more than one row is still free; otherwise the row is determined and left out.
    """

    card: str
    row: int | None = None


class UseTractor(msgspec.Struct, frozen=True):
    """M3: a Tractor stands for ``replaced`` (1-16) and its next card follows at once."""

    tractor: str
    replaced: str
    row: int | None = None  # as for Play, when the Tractor is the first base of a family

    @property
    def following(self) -> str | None:
        return FOLLOWING.get(self.replaced)


class Discard(msgspec.Struct, frozen=True):
    """Discard a Tractor (M4, the turn's play, ends the turn) or a dead card (A3)."""

    card: str


class TakeWell(msgspec.Struct, frozen=True):
    """A1: collect the well (after a play, with fewer hidden cards than the threshold)."""


class Done(msgspec.Struct, frozen=True):
    """A2: end the turn after at least one play (collects the well instead when eligible)."""


class Pass(msgspec.Struct, frozen=True):
    """A4: only when no play is possible at all."""


Move = Play | UseTractor | Discard | TakeWell | Done | Pass


# ----- state ------------------------------------------------------------------------------------


class PlayerState(msgspec.Struct, kw_only=True):
    farmland: list[str] = []  # face up, not yet played
    hand: list[str] = []  # hidden: the owner only
    exposed: list[str] = []  # face up after a pass, still the player's cards
    well: list[str] = []  # face down, seen by nobody until collected
    well_taken: bool = False
    score: int = 0
    passes: int = 0
    pending: list[str] = []  # dead cards asked to be discarded off turn; they leave at the next turn


class VegetablesState(msgspec.Struct, kw_only=True):
    players: int
    variant: str  # OFFICIAL, H3 or H5
    expert_jokers: bool
    families: list[str]  # the families in play, in K, G, R, Y order
    removed_family: str | None  # H3 only
    well_threshold: int  # the hidden count must be below this to take the well
    rows: list[str]  # family of each field row, "" while unassigned
    cells: list[str]  # face-down card of each cell (row * 4 + column), "" once taken
    stacks: dict[str, list[str]]  # sequence -> cards in slot order
    seats: list[PlayerState]
    dead: list[str]  # announced in order; identities are public, holders are not
    discard: list[str]
    removed: list[str]  # cards out of the game (H3)
    deal_start: int  # the seat dealt first (rotated at random in H5, see setup)
    turn: int
    phase: str
    plays: int = 0  # plays made in the current turn
    valve: int = 0  # consecutive turns ending in a pass that collected no well (§7)
    went_out: int | None = None
    rng: Rng


# ----- set-up -----------------------------------------------------------------------------------


def variant_for(players: int) -> str:
    return {3: H3, 4: OFFICIAL, 5: H5}[players]


def new_state(players: int, seed: int, expert_jokers: bool, stacked: Sequence[str] = ()) -> VegetablesState:
    """Shuffle and deal (§2).

    The deck is split by back into three piles (Red 1-4, White 5-12, Green 13-20 with the
    Tractors); with Expert jokers the Tractors form a fourth pile. ``stacked`` cards go on top of
    their pile in the given order, the rest of each pile is shuffled below them. Piles are dealt in
    blocks, seat by seat from the first dealt seat: Farmland rows, hidden hands, wells, then the
    field cells row by row, left to right. With a stacked deck the first dealt seat is seat 1.
    """
    variant = variant_for(players)
    rng = Rng(seed=seed)
    codes = _read_stacked(stacked)

    removed_family: str | None = None
    tractors = TRACTORS_OFFICIAL
    if variant == H3:
        named = {FAMILY[code] for code in codes if not is_tractor(code)}
        candidates = [family for family in FAMILIES[1:] if family not in named]
        if not candidates:
            raise SetupError(
                "Deck option: the 3-player variant removes the Green, Red or Yellow family, "
                "so the stacked deck must leave out every card of at least one of them."
            )
        removed_family = rng.choice(candidates)
        tractors = TRACTORS_H3
    elif variant == H5:
        tractors = TRACTORS_H5
    families = [family for family in FAMILIES if family != removed_family]
    in_play = [code for code in NUMBERED if FAMILY[code] in families] + list(tractors)
    in_play_set = set(in_play)
    for code in codes:
        if code not in in_play_set:
            if is_tractor(code):
                raise SetupError(
                    f"Deck option: {code} is not used with {players} players (Tractors {tractors[0]}-{tractors[-1]})."
                )
            raise SetupError(f"Deck option: {code} is out of the game (its family was removed).")

    def pile(members: list[str]) -> list[str]:
        member_set = set(members)
        on_top = [code for code in codes if code in member_set]
        chosen = set(on_top)
        rest = [code for code in members if code not in chosen]
        rng.shuffle(rest)
        return on_top + rest

    red = pile([code for code in in_play if back_of(code) == "red"])
    white = pile([code for code in in_play if back_of(code) == "white"])
    if expert_jokers:
        green = pile([code for code in in_play if back_of(code) == "green" and not is_tractor(code)])
        jokers = pile(list(tractors))
    else:
        green = pile([code for code in in_play if back_of(code) == "green"])
        jokers = []

    # H5 deals unequal numbers: seat 1 of the deal gets the extra Red card, seats 2 and 3 the extra
    # White ones. Seats are randomised for that variant (§2.3); the engine cannot reorder the
    # players, so it rotates which seat is dealt first instead (not with a stacked deck).
    deal_start = rng.randint(0, players - 1) if variant == H5 and not codes else 0
    if variant == H5:
        red_counts, white_counts, well_size, threshold = [4, 3, 3, 3, 3], [6, 7, 7, 6, 6], 5, 4
    else:
        red_counts, white_counts, well_size, threshold = [4] * players, [8] * players, 6, 6
    seats = [PlayerState() for _ in range(players)]
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        seat.farmland = _take(red, red_counts[offset])
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        seat.hand = _take(white, white_counts[offset])
    for offset in range(players):
        seat = seats[(deal_start + offset) % players]
        if expert_jokers:
            seat.well = _take(green, well_size - 2) + _take(jokers, 2)
        else:
            seat.well = _take(green, well_size)
    rows = len(families)
    cells = _take(green, rows * COLUMNS)
    assert not red and not white and not green and not jokers, "the deal must use every card"

    first = next(index for index, seat in enumerate(seats) if "K1" in seat.farmland)
    state = VegetablesState(
        players=players,
        variant=variant,
        expert_jokers=expert_jokers,
        families=families,
        removed_family=removed_family,
        well_threshold=threshold,
        rows=[""] * rows,
        cells=cells,
        stacks={sequence: [] for sequence in SEQUENCES if sequence[0] in families},
        seats=seats,
        dead=[],
        discard=[],
        removed=[code for code in NUMBERED if FAMILY[code] == removed_family],
        deal_start=deal_start,
        turn=first,
        phase=PLAYING,
        rng=rng,
    )
    begin_turn(state, [])
    return state


def _read_stacked(stacked: Sequence[str]) -> list[str]:
    known = set(NUMBERED) | set(ALL_TRACTORS)
    codes: list[str] = []
    seen: set[str] = set()
    for raw in stacked:
        code = str(raw).strip().upper()
        if code not in known:
            raise SetupError(
                f"Deck option: {quote(raw)} is not a card (cards are K1-K20, G1-G20, R1-R20, Y1-Y20, T1-T9)."
            )
        if code in seen:
            raise SetupError(f"Deck option: {code} is named twice; every card exists once.")
        seen.add(code)
        codes.append(code)
    return codes


def _take(pile: list[str], count: int) -> list[str]:
    taken = pile[:count]
    del pile[:count]
    return taken


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


def closed_count(state: VegetablesState) -> int:
    closed = 0
    for stack in state.stacks.values():  # a plain loop: every view asks
        if len(stack) == SLOTS:
            closed += 1
    return closed


def family_complete(state: VegetablesState, family: str) -> bool:
    return all(len(state.stacks[f"{family}{base}"]) == SLOTS for base in range(1, 5))


def sequences_in_play(state: VegetablesState) -> int:
    return len(state.stacks)


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


def _tractors_of(state: VegetablesState) -> tuple[str, ...]:
    return {OFFICIAL: TRACTORS_OFFICIAL, H3: TRACTORS_H3, H5: TRACTORS_H5}[state.variant]


def _slot_problem(state: VegetablesState, card: str) -> str | None:
    """Why ``card`` (5-20) does not fit on its sequence now, if it does not."""
    sequence = SEQUENCE[card]
    stack = state.stacks[sequence]
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
            problem = _slot_problem(state, card)
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
        sequence = SEQUENCE[replaced]
        stack = state.stacks[sequence]
        slot = SLOT[replaced]
        if len(stack) != slot - 1:
            if len(stack) == SLOTS:
                return f"Sequence {sequence} is closed."
            if not stack:
                return (
                    f"Sequence {sequence} has no base yet: a Tractor can only stand for its base {sequence}."
                )
            needed = sequence_card(sequence, len(stack) + 1)
            return f"A Tractor only fills the next place of a sequence: sequence {sequence} needs {needed} next, not {replaced}."
        if following not in player.hand and following not in player.exposed:
            return f"To use a Tractor for {replaced} you must hold {following} to play right after it."
        if following in dead:
            return f"{following} is dead and cannot follow the Tractor."
        if slot == 1:
            problem = _base_row_problem(
                state, FAMILY[replaced], move.row, f"tractor {tractor} for {replaced} then {following}"
            )
            if problem:
                return problem
        elif move.row is not None:
            return "A row is named only when the Tractor is the first base of a family."
        return "That Tractor move is not possible now."

    return "That is not a move of this game."


# ----- carrying out moves -------------------------------------------------------------------------


def play_move(state: VegetablesState, seat: int, move: Move) -> list[Event]:
    """Carry out a legal move in place; returns the events (public unless ``visible_to`` is set)."""
    events: list[Event] = []
    player = state.seats[seat]
    if seat != state.turn:
        # A3 off turn: the request stays secret and waits for the holder's next turn (R13, R34).
        assert isinstance(move, Discard)
        player.pending.append(move.card)
        events.append(
            Event(
                text=f"You asked to discard the dead card {move.card}; it leaves your cards at the start of your next turn.",
                actor=seat,
                visible_to=(seat,),
            )
        )
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
            events.append(
                Event(text=f"{{p{seat}}} discards a Tractor ({move.card}) and ends the turn.", actor=seat)
            )
            if is_out(player):
                _finish(state, seat, events)
            else:
                _end_turn(state, events)
        else:
            _discard_dead(state, seat, move.card, events, asked_earlier=False)
            if is_out(player):
                _finish(state, seat, events)
            elif state.phase == PLAYING and state.plays >= 1 and only_well_left(player):
                _collect_well(state, seat, events)
                _next_turn(state, events)
    elif isinstance(move, TakeWell):
        _collect_well(state, seat, events)
        _next_turn(state, events)
    elif isinstance(move, Done):
        if well_eligible(state, seat):
            events.append(
                Event(
                    text=f"{{p{seat}}} is done and, with fewer than {state.well_threshold} hidden cards, must take the well.",
                    actor=seat,
                )
            )
            _collect_well(state, seat, events)
        else:
            events.append(Event(text=f"{{p{seat}}} is done.", actor=seat))
        _next_turn(state, events)
    elif isinstance(move, Pass):
        _resolve_pass(state, seat, events)
    else:  # pragma: no cover - legality is checked first
        raise AssertionError(f"unknown move {move!r}")
    return events


def _remove_held(player: PlayerState, card: str) -> None:
    """Take a card out of the hidden hand, the exposed cards or the Farmland row."""
    for place in (player.hand, player.exposed, player.farmland):
        if card in place:
            place.remove(card)
            return
    raise AssertionError(f"{card} is not held")


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
            Event(text=f"Row {row_index + 1} now belongs to the {FAMILY_NAMES[family]} family.", actor=seat)
        )
    state.stacks[sequence].append(base_card)
    cell = row_index * COLUMNS + column_of(sequence)
    hidden = state.cells[cell]
    state.cells[cell] = ""
    state.seats[seat].hand.append(hidden)
    note = " It is dead (a Tractor took its place)." if hidden in state.dead else ""
    events.append(
        Event(text=f"You take the face-down field card {hidden}.{note}", actor=seat, visible_to=(seat,))
    )


def _play_card(state: VegetablesState, seat: int, move: Play, events: list[Event]) -> None:
    player = state.seats[seat]
    card = move.card
    sequence = SEQUENCE[card]
    _remove_held(player, card)
    if SLOT[card] == 1:
        row_index = _base_row(state, FAMILY[card], move.row)
        events.append(
            Event(
                text=f"{{p{seat}}} plays the Farmland {card} (row {row_index + 1}, column {NUMBER[card]}) "
                "and takes the face-down card there.",
                actor=seat,
            )
        )
        _place_base(state, seat, sequence, card, row_index, events)
    else:
        state.stacks[sequence].append(card)
        events.append(Event(text=f"{{p{seat}}} plays {card} on sequence {sequence}.", actor=seat))
        if SLOT[card] == SLOTS:
            _score_closing(state, seat, sequence, events)
    state.plays += 1
    _after_play(state, seat, events)


def _use_tractor(state: VegetablesState, seat: int, move: UseTractor, events: list[Event]) -> None:
    player = state.seats[seat]
    replaced, following = move.replaced, move.following
    assert following is not None
    sequence = SEQUENCE[replaced]
    _remove_held(player, move.tractor)
    _remove_held(player, following)
    events.append(
        Event(
            text=f"{{p{seat}}} plays Tractor {move.tractor} for {replaced}, then {following}. "
            f"{replaced} is now dead: whoever holds it can only discard it.",
            actor=seat,
        )
    )
    if SLOT[replaced] == 1:
        row_index = _base_row(state, sequence[0], move.row)
        events.append(
            Event(
                text=f"The Tractor is the base of sequence {sequence} (row {row_index + 1}, column "
                f"{NUMBER[replaced]}); {{p{seat}}} takes the face-down card there.",
                actor=seat,
            )
        )
        _place_base(state, seat, sequence, move.tractor, row_index, events)
    else:
        state.stacks[sequence].append(move.tractor)
    state.dead.append(replaced)
    state.stacks[sequence].append(following)
    if SLOT[following] == SLOTS:
        _score_closing(state, seat, sequence, events)
    state.plays += 1
    _after_play(state, seat, events)


def _score_closing(state: VegetablesState, seat: int, sequence: str, events: list[Event]) -> None:
    """§6 and R20: +10 for the closure, then +30 when it completes the family."""
    player = state.seats[seat]
    player.score += CLOSING_POINTS
    events.append(Event(text=f"{{p{seat}}} closes sequence {sequence} (+{CLOSING_POINTS}).", actor=seat))
    family = sequence[0]
    if family_complete(state, family):
        player.score += FAMILY_POINTS
        events.append(
            Event(
                text=f"{{p{seat}}} completes the {FAMILY_NAMES[family]} family (+{FAMILY_POINTS}).",
                actor=seat,
            )
        )


def _after_play(state: VegetablesState, seat: int, events: list[Event]) -> None:
    """After M1-M3 (§4.4): going out ends the game; a well as the only cards left is collected."""
    player = state.seats[seat]
    if is_out(player):
        _finish(state, seat, events)
    elif only_well_left(player):
        _collect_well(state, seat, events)
        _next_turn(state, events)


def _discard_dead(
    state: VegetablesState, seat: int, card: str, events: list[Event], asked_earlier: bool
) -> None:
    _remove_held(state.seats[seat], card)
    state.discard.append(card)
    when = " (asked earlier)" if asked_earlier else ""
    events.append(Event(text=f"{{p{seat}}} discards the dead card {card}{when}.", actor=seat))


def _collect_well(state: VegetablesState, seat: int, events: list[Event]) -> None:
    player = state.seats[seat]
    points = well_points(state, seat)
    cards = player.well
    player.hand.extend(cards)
    player.well = []
    player.well_taken = True
    player.score += points
    events.append(Event(text=f"{{p{seat}}} takes the well: {len(cards)} cards (+{points}).", actor=seat))
    dead = [card for card in cards if card in state.dead]
    note = f" Dead: {' '.join(sorted_cards(dead))}." if dead else ""
    listed = " ".join(sorted_cards(cards)) or "nothing"
    events.append(Event(text=f"Your well: {listed}.{note}", actor=seat, visible_to=(seat,)))


def _end_turn(state: VegetablesState, events: list[Event]) -> None:
    """END_TURN (§4.4): a player still eligible for the well collects it before leaving."""
    if well_eligible(state, state.turn):
        _collect_well(state, state.turn, events)
    _next_turn(state, events)


def _next_turn(state: VegetablesState, events: list[Event]) -> None:
    if state.plays >= 1:
        state.valve = 0  # a turn with a play restarts the safety valve (§7)
    state.turn = (state.turn + 1) % state.players
    begin_turn(state, events)


def begin_turn(state: VegetablesState, events: list[Event]) -> None:
    """TURN_START (§4.4): pending discards, the out check, then PLAYING or MUST_PASS."""
    seat = state.turn
    player = state.seats[seat]
    for card in player.pending:
        _discard_dead(state, seat, card, events, asked_earlier=True)
    player.pending = []
    state.plays = 0
    if is_out(player):
        _finish(state, seat, events)
        return
    state.phase = PLAYING if has_play(state, seat) else MUST_PASS


def _resolve_pass(state: VegetablesState, seat: int, events: list[Event]) -> None:
    """§5: expose the hidden hand (or lose 50 when it is empty), then collect an uncollected well."""
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
                text=f"{{p{seat}}} cannot play and passes with no hidden card (-{EMPTY_PASS_PENALTY}).",
                actor=seat,
            )
        )
    if not player.well_taken:
        _collect_well(state, seat, events)
        state.valve = 0  # new cards may be playable: the round of passes starts again (R31)
    else:
        state.valve += 1
        if state.valve >= state.players:
            events.append(Event(text="A full round of passes: nobody can play any more, and the game ends."))
            _finish(state, None, events)
            return
    _next_turn(state, events)


def _finish(state: VegetablesState, went_out: int | None, events: list[Event]) -> None:
    """GAME_OVER (§7): closure points to the player who went out, after the move's own points."""
    state.phase = OVER
    state.went_out = went_out
    if went_out is not None:
        open_sequences = sequences_in_play(state) - closed_count(state)
        points = CLOSURE_POINTS_PER_SEQUENCE * open_sequences
        state.seats[went_out].score += points
        events.append(
            Event(
                text=f"{{p{went_out}}} has no cards left and ends the game: {open_sequences} sequences not closed (+{points}).",
                actor=went_out,
            )
        )
    best = max(player.score for player in state.seats)
    winners = [f"{{p{index}}}" for index, player in enumerate(state.seats) if player.score == best]
    events.append(
        Event(
            text=f"Game over. {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'} with {best}."
        )
    )


# ----- the default for a player who runs out of time ----------------------------------------------


def default_move(state: VegetablesState, seat: int) -> Move:
    """Keep a timed-out player's losses small: end the turn when allowed, pass when forced (keeping
    dead cards makes the pass free), else the first sequence card, Farmland, Tractor move, or
    Tractor discard."""
    moves = legal_moves(state, seat)
    if not moves:
        raise ValueError("this seat has no move to make")
    for wanted in (Done, Pass):
        for move in moves:
            if isinstance(move, wanted):
                return move
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


# ----- views --------------------------------------------------------------------------------------


# The sequence in each column of a family's row, left to right (R -> R1, R2, R3, R4).
ROW_SEQUENCES: dict[str, tuple[str, ...]] = {
    family: tuple(f"{family}{column + 1}" for column in range(COLUMNS)) for family in FAMILIES
}


def public_view(state: VegetablesState) -> dict[str, object]:
    """What everyone may see (§4.2): never a hidden hand, a well, a face-down cell, the holder of a
    dead card kept hidden, a pending discard, or the random generator."""
    over = state.phase == OVER
    rows = []
    for row_index, family in enumerate(state.rows):
        cells = []
        for column in range(COLUMNS):
            sequence = ROW_SEQUENCES[family][column] if family else None
            stack = list(state.stacks[sequence]) if sequence else []
            cells.append(
                {
                    "column": column + 1,
                    "sequence": sequence,
                    "stack": stack,
                    "top": stack[-1] if stack else None,
                    "face_down": bool(state.cells[row_index * COLUMNS + column]),
                    "closed": len(stack) == SLOTS,
                }
            )
        rows.append({"row": row_index + 1, "family": family or None, "cells": cells})
    seats = []
    for index, player in enumerate(state.seats):
        seats.append(
            {
                "seat": index,
                "score": player.score,
                "farmland": sorted_cards(player.farmland),
                "exposed": sorted_cards(player.exposed),
                "hidden": len(player.hand),
                "well": len(player.well),
                "well_taken": player.well_taken,
                "passes": player.passes,
            }
        )
    scores = [player.score for player in state.seats]
    view: dict[str, object] = {
        "game": "vegetables",
        "players": state.players,
        "variant": state.variant,
        "house_rules": state.variant != OFFICIAL,
        "expert_jokers": state.expert_jokers,
        "removed_family": state.removed_family,
        "families": list(state.families),
        "well_threshold": state.well_threshold,
        "phase": state.phase,
        "over": over,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "plays_this_turn": 0 if over else state.plays,
        "rows": rows,
        "closed": closed_count(state),
        "sequences": sequences_in_play(state),
        "seats": seats,
        "scores": scores,
        "dead": list(state.dead),
        "discard": list(state.discard),
        "next_well_points": WELL_POINTS_PER_PLAYER
        * max(0, sum(1 for p in state.seats if not p.well_taken) - 1),
        "passes_in_a_row": state.valve,
        "went_out": state.went_out,
        "prompt": _public_prompt(state),
    }
    if over:
        best = max(scores)
        view["winners"] = [index for index, score in enumerate(scores) if score == best]
        view["ranks"] = [1 + sum(1 for other in scores if other > score) for score in scores]
    return view


def _public_prompt(state: VegetablesState) -> str:
    if state.phase == OVER:
        return "The game is over."
    if state.phase == MUST_PASS:
        return "No play is possible: pass (a dead card may be discarded first)."
    if state.plays == 0:
        return "Play at least one card or Tractor."
    return "Play more cards, or say done."


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
            "prompt": _private_prompt(state, seat, held_dead) if state.phase != OVER else "The game is over.",
        }
    )
    return view


def _private_prompt(state: VegetablesState, seat: int, held_dead: list[str]) -> str:
    """``held_dead`` is ``dead_held(state, seat)``, which the caller has at hand."""
    if seat != state.turn:
        pending = state.seats[seat].pending
        text = "Not your turn."
        if pending:
            text += f" Asked to discard: {' '.join(sorted_cards(pending))} (leaves at the start of your next turn)."
        if any(card not in pending for card in held_dead):
            text += " You may ask to discard a dead card (it leaves at your next turn)."
        return text
    if state.phase == MUST_PASS:
        return _must_pass_prompt(state, seat)
    if well_eligible(state, seat):
        return f"Your turn. You have fewer than {state.well_threshold} hidden cards: play on, or take the well (done does it)."
    if state.plays == 0:
        return "Your turn: play at least one card or Tractor."
    return "Your turn: play more cards, or say done."


def _must_pass_prompt(state: VegetablesState, seat: int) -> str:
    """What the forced pass will do to this seat right now (§5), and the dead cards it may drop
    first. Only the hidden hand is exposed: a dead Farmland or exposed card saves nothing."""
    player = state.seats[seat]
    hidden = len(player.hand)
    if hidden:
        effect = f"The pass puts your {hidden} hidden card{'s' if hidden != 1 else ''} face up (no penalty)"
    else:
        effect = f"With no hidden card to show, the pass costs {EMPTY_PASS_PENALTY} points"
    if not player.well_taken:
        effect += f", then brings in your well (+{well_points(state, seat)})"
    text = f"You cannot play: pass. {effect}."
    dead = dead_held(state, seat)
    if dead:
        text += f" You may first discard a dead card: {' '.join(sorted_cards(dead))}."
        if player.hand and all(card in state.dead for card in player.hand):
            text += (
                f" Keep one in your hand and the pass is free; with none left it costs {EMPTY_PASS_PENALTY}."
            )
    return text
