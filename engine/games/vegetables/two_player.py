"""Vege tables for two players: the 2-player game Board Game Arena offers (state, deal, moves and
their legality; ``two_player_turns`` carries moves out: turns, draws, releases, scoring).

The rules are docs/rules/vegetables-2p.md; its section numbers (§) and rulings (R) are cited where a
line exists because of them. What the 2-player game shares with the 4-player one (sequences, the
step of 4, closing and family points, the closure points) is done by the functions of ``rules``.

Where every card lives (§6.1):
- a player's Grounds row (face up), Hand (hidden), exposed cards (face up after a pass) or Tractor
  reserve (``tractors`` available, ``locked`` not yet released);
- a Silo column (``silos``, bottom to top, all face up) or a well (``wells``: W1, W2 face up, W3
  face down until ``revealed``), the last card of a pile being its top, the only free card;
- a stack on the board, or the discard pile.
Rows are fixed by family (K, G, R, Y: R5) and nobody names one; no cell holds a face-down card.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.core import Rng, SetupError

from .cards import (
    FOLLOWING,
    NUMBER,
    NUMBERED,
    PRECEDING,
    SEQUENCE,
    SEQUENCES,
    SLOT,
    back_of,
)
from .model import MUST_PASS, OVER, PLAYING, Discard, Done, Move, Pass, Play, UseTractor

TWO = "two"  # the ``variant`` of a 2-player state
MUST_DRAW = "must_draw"
GROUNDS = 8
HAND_DEAL = 12
MAY_DRAW_BELOW = 12  # §4.2: a draw brings the Hand to 8 or 12
MUST_DRAW_BELOW = 8
SILO_COLUMNS = 4
WELLS = ("W1", "W2", "W3")
TRACTORS_P1 = ("T1", "T2", "T3", "T4", "T5")
TRACTORS_P2 = ("T6", "T7", "T8", "T9", "T10")
RELEASE_AT = (4, 8)  # used Grounds at which two more Tractors become available (§5.1, R10)
VALVE_TURNS = 2  # §9: two turns in a row ending in a pass with no draw end the game
EMPTY_PASS_PENALTY = 50


# ----- moves of their own (§11); the others are the 4-player moves --------------------------------


class PlayGround(msgspec.Struct, frozen=True):
    """M1: play a Ground from the Grounds row and take the free Silo card ``take`` (§3.2)."""

    card: str
    take: str


class TractorGround(msgspec.Struct, frozen=True):
    """M3 as a base: a Tractor stands for the Ground ``replaced``, its next card follows, and the
    mover takes the free Silo card ``take``."""

    tractor: str
    replaced: str
    take: str

    @property
    def following(self) -> str | None:
        return FOLLOWING.get(self.replaced)


class Draw(msgspec.Struct, frozen=True):
    """A1: cards taken one at a time from the wells, in pick order. Each pick is a card (the free
    top of a well when taken) or a pile name W1-W3 (its free top then)."""

    picks: tuple[str, ...]


DuoMove = Move | PlayGround | TractorGround | Draw


# ----- state --------------------------------------------------------------------------------------


class DuoPlayer(msgspec.Struct, kw_only=True):
    grounds: list[str] = []  # face up, not yet played
    hand: list[str] = []  # hidden: the owner only
    exposed: list[str] = []  # face up after a pass, still the player's cards
    tractors: list[str] = []  # available (usable) Tractors of the reserve, in id order
    locked: list[str] = []  # not released yet (public)
    used_grounds: int = 0  # Grounds that left the row: played as a base, or discarded dead (R10)
    released: int = 0  # release steps done (0, 1, 2)
    score: int = 0
    passes: int = 0
    pending: list[str] = []  # dead cards asked to be discarded off turn (secret until applied)


class DuoState(msgspec.Struct, kw_only=True):
    players: int = 2
    variant: str = TWO
    silos: list[list[str]]  # S1-S4, bottom to top
    wells: list[list[str]]  # W1, W2, W3, bottom to top
    revealed: bool = False  # W3 face up (§4.1, R4)
    stacks: dict[str, list[str]]  # sequence -> cards in slot order
    seats: list[DuoPlayer]
    dead: list[str]  # announced in order; their holder is public too (R11)
    discard: list[str]
    turn: int
    phase: str  # PLAYING, MUST_PASS, MUST_DRAW or OVER
    plays: int = 0  # plays made in the current turn
    valve: int = 0  # consecutive turns ending in a pass with no draw (§9)
    went_out: int | None = None


# ----- set-up (§2) --------------------------------------------------------------------------------


def new_state(seed: int, stacked: Sequence[str] = ()) -> DuoState:
    """Shuffle and deal: Red to the Grounds rows (8 each), White to the Hands (12 each) and the 8
    left to W3, Green to the Silos (four columns of 4, S1 first, bottom to top) then W1 and W2 (8
    each). ``stacked`` cards go on top of their pile in the given order, the rest of each pile is
    shuffled below them; P1 is always dealt first."""
    rng = Rng(seed=seed)
    codes = _read_stacked(stacked)

    def pile(members: list[str]) -> list[str]:
        member_set = set(members)
        on_top = [code for code in codes if code in member_set]
        chosen = set(on_top)
        rest = [code for code in members if code not in chosen]
        rng.shuffle(rest)
        return on_top + rest

    red = pile([code for code in NUMBERED if back_of(code) == "red"])
    white = pile([code for code in NUMBERED if back_of(code) == "white"])
    green = pile([code for code in NUMBERED if back_of(code) == "green"])
    seats = [
        DuoPlayer(
            grounds=red[:GROUNDS],
            hand=white[:HAND_DEAL],
            tractors=[TRACTORS_P1[0]],
            locked=list(TRACTORS_P1[1:]),
        ),
        DuoPlayer(
            grounds=red[GROUNDS:],
            hand=white[HAND_DEAL : 2 * HAND_DEAL],
            tractors=[TRACTORS_P2[0]],
            locked=list(TRACTORS_P2[1:]),
        ),
    ]
    silos = [green[4 * column : 4 * column + 4] for column in range(SILO_COLUMNS)]
    wells = [green[16:24], green[24:32], white[2 * HAND_DEAL :]]
    assert len(wells[2]) == 8 and len(green) == 32 and len(red) == 2 * GROUNDS
    first = 0 if "K1" in seats[0].grounds else 1  # R21: whoever holds K1 starts
    state = DuoState(
        silos=silos,
        wells=wells,
        stacks={sequence: [] for sequence in SEQUENCES},
        seats=seats,
        dead=[],
        discard=[],
        turn=first,
        phase=PLAYING,  # TURN_START at the deal: nothing pending, live Grounds to play
    )
    return state


def _read_stacked(stacked: Sequence[str]) -> list[str]:
    known = set(NUMBERED)
    codes: list[str] = []
    for raw in stacked:
        code = str(raw).strip().upper()
        if code not in known:
            raise SetupError(
                f"Deck option: {raw!r} is not a card of the deal (K1-K20, G1-G20, R1-R20, Y1-Y20; "
                "the Tractors are given out, not dealt)."
            )
        if code in codes:
            raise SetupError(f"Deck option: {code} is named twice; every card exists once.")
        codes.append(code)
    return codes


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
                picks = _tops(sizes[0], first) + _tops(sizes[1], second) + _tops(sizes[2], third)
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
                return None, "W3 stays face down until W1 or W2 runs out."
            if not wells[index]:
                return None, f"{pick} is empty."
        else:
            tops = [i for i, well in enumerate(wells) if well and well[-1] == pick and (i < 2 or revealed)]
            if not tops:
                free = [well[-1] for i, well in enumerate(wells) if well and (i < 2 or revealed)]
                return None, f"{pick} is not a free card of a well (free now: {' '.join(free) or 'none'})."
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
    if not moves:
        raise ValueError("this seat has no move to make")
    for wanted in (Done, Pass):
        for move in moves:
            if isinstance(move, wanted):
                return move
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
