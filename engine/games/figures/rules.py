"""Figures: state, moves, legality, the flow of a hand, scoring and the match.

Seats: the engine's seats (0-3) are the players in lobby order. Where they sit at the table is
drawn at setup and kept in ``FiguresState.table`` (table position -> seat); every "next player"
follows that table order. Pairs mode always partners seats 0 and 2 against seats 1 and 3, which
keeps partners opposite whatever the draw.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from engine.core import Event, Rng, SetupError
from engine.core.text import quote

from .cards import CARD_SET, DECK, FIGURES, KINGS, VALUE, normalize_card, sorted_hand

PLAYERS = 4
HAND_SIZE = 10

# Phases. FREE, OPEN, BEAT and GIRO are what the player on turn faces; OVER means the match ended.
FREE = "FREE"
OPEN = "OPEN"
BEAT = "BEAT"
GIRO = "GIRO"
OVER = "OVER"

INDIVIDUAL = "individual"
PAIRS = "pairs"
BY_TARGET = "target"
BY_HANDS = "hands"

INDIVIDUAL_WINNER_POINTS = 10
INDIVIDUAL_PLACE_POINTS = (5, 3, 1)  # second, third and fourth place
PAIRS_BASE_POINTS = 5
PASSES_TO_CLEAR = 3
GIRO_TURNS = PLAYERS - 1

# ----- moves ------------------------------------------------------------------------------------


class Single(msgspec.Struct, frozen=True):
    """Discard one card."""

    card: str


class Pass(msgspec.Struct, frozen=True):
    """Discard nothing (only when no single is legal)."""


class ThreeKings(msgspec.Struct, frozen=True):
    """The three-kings privilege: three cards discarded in this order in one turn."""

    cards: tuple[str, str, str]


FiguresMove = Single | Pass | ThreeKings

PASS = Pass()
SINGLES: dict[str, Single] = {card: Single(card) for card in DECK}

# ----- what may be played -----------------------------------------------------------------------
# A "bar" summarises what the table demands: 0 means anything goes (FREE or OPEN), v in 1..6 means
# BEAT(v). Against bar v a card is playable when it is a figure or a number card above v.
ALLOWED_OVER_BAR: tuple[frozenset[str], ...] = tuple(
    frozenset(card for card in DECK if card in FIGURES or VALUE[card] > bar) for bar in range(7)
)
# The bar a card leaves behind it: a 1-6 must be beaten; a 7 or a figure leaves the table open.
BAR_AFTER: dict[str, int] = {card: (VALUE[card] if 1 <= VALUE[card] <= 6 else 0) for card in DECK}
NO_CARDS: frozenset[str] = frozenset()

# ----- state ------------------------------------------------------------------------------------


class Entry(msgspec.Struct, frozen=True, array_like=True):
    """One move of the current hand's public history: a card, ``pass`` or a three-kings play."""

    seat: int
    move: str
    clears: bool = False  # this move ended a giro or was the third pass, clearing the table


class HandResult(msgspec.Struct, kw_only=True):
    number: int
    dealer: int
    winner: int
    cards_left: list[int]  # per seat
    points: list[int]  # per seat; in pairs mode both partners show their pair's points
    history: list[Entry] = []  # the hand's public record, kept once the next hand is dealt (2.11)


class FiguresState(msgspec.Struct, kw_only=True):
    mode: str
    match_end: str
    target_score: int
    number_of_hands: int
    rng: Rng
    table: list[int]  # table position (0 = table seat 1) -> seat
    hand_number: int
    dealer: int
    hands: list[list[str]]  # per seat, kept in display order
    phase: str
    turn: int
    top: str | None = None
    owner: int | None = None
    passes: int = 0
    giro_starter: int | None = None
    giro_left: int = 0
    kings_used: list[int] = []
    history: list[Entry] = []
    totals: list[int] = []  # per seat; partners carry the same total
    results: list[HandResult] = []
    decks: list[list[str]] = []  # stacked decks (option decks) for the hands still to be dealt


# ----- seats ------------------------------------------------------------------------------------


def next_seat(state: FiguresState, seat: int) -> int:
    table = state.table
    return table[(table.index(seat) + 1) % PLAYERS]


def partner_of(state: FiguresState, seat: int) -> int:
    table = state.table
    return table[(table.index(seat) + 2) % PLAYERS]


def sides(state: FiguresState) -> list[list[int]]:
    """Who scores together: each seat alone, or the two pairs (the pair at table seats 1 and 3 first)."""
    if state.mode == PAIRS:
        table = state.table
        return [sorted((table[0], table[2])), sorted((table[1], table[3]))]
    return [[seat] for seat in range(PLAYERS)]


# ----- set-up -----------------------------------------------------------------------------------


def read_deck(codes: list[Any]) -> list[str]:
    """Check a stacked deck: distinct card codes, all 40 or the first few (the rest is shuffled)."""
    deck: list[str] = []
    for raw in codes:
        card = normalize_card(str(raw))
        if card is None:
            raise SetupError(f"deck: {quote(raw)} is not a card code (examples: 1d, 7c, Jd, Nb, Ks).")
        if card in deck:
            raise SetupError(f"deck: {card} appears twice.")
        deck.append(card)
    return deck


def stacked_decks(options: Mapping[str, Any]) -> list[list[str]] | None:
    """The decks the options stack, one per hand from the first (None when nothing is stacked).
    ``deck`` stacks the first hand only; ``decks`` one hand after another, the later hands
    shuffled once the list runs out."""
    if "deck" in options and "decks" in options:
        raise SetupError("Stack with deck (the first hand) or decks (one per hand), not both.")
    if "decks" in options:
        decks = [read_deck(list(deck)) for deck in options["decks"]]
        if not decks:
            raise SetupError("decks: give at least one deck (decks separated by |).")
        return decks
    if "deck" in options:
        return [read_deck(list(options["deck"]))]
    return None


def new_match(seed: int, options: Mapping[str, Any]) -> FiguresState:
    rng = Rng(seed=seed)
    mode = options.get("mode", INDIVIDUAL)
    decks = stacked_decks(options)
    first_dealer = options.get("first_dealer")
    if first_dealer is not None and not 1 <= int(first_dealer) <= PLAYERS:
        raise SetupError(f"first_dealer is a seat number from 1 to {PLAYERS}, not {first_dealer}.")
    if decks is not None or first_dealer is not None:
        # A stacked deal must land in known hands, so the seating is not drawn: seat n sits at
        # table seat n + 1 (tutorials and tests rely on it).
        table = list(range(PLAYERS))
    elif mode == PAIRS:
        # Partners (seats 0 and 2, seats 1 and 3) always sit opposite; the draw decides which pair
        # holds table seats 1 and 3, and so deals first.
        table = [0, 1, 2, 3] if rng.randint(0, 1) == 0 else [1, 0, 3, 2]
    else:
        table = list(range(PLAYERS))
        rng.shuffle(table)
    state = FiguresState(
        mode=mode,
        match_end=options.get("match_end", BY_TARGET),
        target_score=int(options.get("target_score", 31)),
        number_of_hands=int(options.get("number_of_hands", 8)),
        rng=rng,
        table=table,
        hand_number=0,
        # The seat before the first dealer (table seat 1 unless stacked), as the deal moves on first.
        dealer=table[(int(first_dealer or 1) - 2) % PLAYERS],
        hands=[[] for _ in range(PLAYERS)],
        phase=FREE,
        turn=table[0],
        totals=[0] * PLAYERS,
        decks=decks or [],
    )
    deal_hand(state)
    return state


def deal_hand(state: FiguresState) -> None:
    """Start the next hand: pass the deal on, shuffle (or take the next stacked deck), deal one
    card at a time, starting after the dealer."""
    state.hand_number += 1
    state.dealer = next_seat(state, state.dealer)
    stacked = state.decks.pop(0) if state.decks else None
    if stacked is not None and len(stacked) == len(DECK):
        deck = list(stacked)
    else:
        given = stacked or []
        rest = [card for card in DECK if card not in given]
        state.rng.shuffle(rest)
        deck = given + rest
    table = state.table
    first = (table.index(state.dealer) + 1) % PLAYERS
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for index, card in enumerate(deck):
        hands[table[(first + index) % PLAYERS]].append(card)
    state.hands = [sorted_hand(hand) for hand in hands]
    state.phase = FREE
    state.turn = table[first]
    state.top = None
    state.owner = None
    state.passes = 0
    state.giro_starter = None
    state.giro_left = 0
    state.kings_used = []
    state.history = []


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


def _against(bar: int, before: str | None = None) -> str:
    return f"the {bar} on the table" if before is None else f"the {before} played before it"


def _not_playable(card: str, bar: int, before: str | None = None, subject: str | None = None) -> str:
    """Why ``card`` cannot follow the bar; ``subject`` replaces the bare card code as the subject."""
    who = subject or card
    if VALUE[card] == bar:
        return f"{who} only equals {_against(bar, before)}; a card must be strictly higher"
    return f"{who} does not beat {_against(bar, before)}"


def why_illegal(state: FiguresState, seat: int, move: Any) -> str | None:
    """None for exactly the moves ``legal_moves`` lists; otherwise the reason, for the player."""
    if state.phase == OVER:
        return "The match is over."
    if seat != state.turn:
        return "It is not your turn."
    hand = state.hands[seat]
    if isinstance(move, Single):
        return _why_single_illegal(state, hand, move.card)
    if isinstance(move, Pass):
        return _why_pass_illegal(state, seat)
    if isinstance(move, ThreeKings):
        return _why_kings_illegal(state, seat, move.cards)
    return "That is not a Figures move: play a card (like 7c), pass, or kings <card> <card> <card>."


def _why_single_illegal(state: FiguresState, hand: list[str], card: str) -> str | None:
    if card not in CARD_SET:
        return f"{card} is not a card (examples: 1d, 7c, Jd, Nb, Ks)."
    if card not in hand:
        return f"You do not hold {card}."
    if card in allowed_cards(state):
        return None
    if state.phase == GIRO:
        figures = [held for held in hand if held in FIGURES]
        if figures:
            return f"{card} is not a figure: on a giro turn discard a figure ({', '.join(figures)})."
        return f"{card} is not a figure: on a giro turn you may only discard a figure, so you must pass."
    bar = current_bar(state)
    others = [held for held in hand if held in ALLOWED_OVER_BAR[bar]]
    if others:
        return f"{_not_playable(card, bar)}: play a higher number card or a figure ({', '.join(others)})."
    return f"{_not_playable(card, bar)}, and you hold no higher card and no figure: you must pass."


def _why_pass_illegal(state: FiguresState, seat: int) -> str | None:
    playable = legal_singles(state, seat)
    if not playable:
        return None
    if state.phase == FREE:
        return "You cannot pass: the table is clear, so discard any card."
    if state.phase == OPEN:
        return "You cannot pass: the table is open, so discard any card."
    if state.phase == GIRO:
        return f"You cannot pass on a giro turn while you hold a figure: discard one ({', '.join(playable)})."
    return f"You cannot pass while you can play: {', '.join(playable)}."


def _why_kings_illegal(state: FiguresState, seat: int, cards: tuple[str, ...]) -> str | None:
    if state.phase == GIRO:
        return "Three kings cannot be used on a giro turn: discard a figure, or pass if you hold none."
    if seat in state.kings_used:
        return "You have already used three kings in this hand (once per hand)."
    hand = state.hands[seat]
    held = kings_held(hand)
    if held < 3:
        return f"Three kings needs at least three kings in your hand; you hold {held}."
    if len(cards) != 3:
        return "Three kings discards exactly three cards: kings <card> <card> <card>."
    if len(set(cards)) != 3:
        return "The three cards of a three-kings play must be different cards."
    for card in cards:
        if card not in hand:
            return f"You do not hold {card}."
    bar = current_bar(state)
    before: str | None = None
    for position, card in zip(("first", "second", "third"), cards, strict=True):
        if card not in ALLOWED_OVER_BAR[bar]:
            reason = _not_playable(card, bar, before, subject=f"the {position} card, {card},")
            return f"Three kings refused (nothing was played): {reason}."
        bar, before = BAR_AFTER[card], card
    return None


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
        events = [Event(text=f"{{p{seat}}} answers the giro with {card}.", actor=seat)]
        if not state.hands[seat]:
            return events + end_hand(state, seat)
        state.giro_left -= 1
        if state.giro_left == 0:
            _clear_table(state)
            events.append(Event(text=f"The giro is over and the table is cleared: {{p{following}}} leads."))
        state.turn = following
        return events
    state.passes = 0
    if not state.hands[seat]:
        return [Event(text=f"{{p{seat}}} plays {card}.", actor=seat), *end_hand(state, seat)]
    value = VALUE[card]
    if card in FIGURES:
        state.phase = GIRO
        state.giro_starter = seat
        state.giro_left = GIRO_TURNS
        text = f"{{p{seat}}} plays {card} and starts a giro di figure: each other player must discard a figure."
    elif value == 7:
        state.phase = OPEN
        text = f"{{p{seat}}} plays {card}: the table is open."
    else:
        state.phase = BEAT
        text = f"{{p{seat}}} plays {card}."
    state.turn = following
    return [Event(text=text, actor=seat)]


def _play_pass(state: FiguresState, seat: int) -> list[Event]:
    state.history.append(Entry(seat, "pass"))
    events = [Event(text=f"{{p{seat}}}: Passo.", actor=seat)]
    following = next_seat(state, seat)
    if state.phase == GIRO:
        state.giro_left -= 1
        if state.giro_left == 0:
            _clear_table(state)
            events.append(Event(text=f"The giro is over and the table is cleared: {{p{following}}} leads."))
    else:
        state.passes += 1
        if state.passes == PASSES_TO_CLEAR:
            _clear_table(state)
            events.append(Event(text=f"Three passes: the table is cleared and {{p{following}}} leads."))
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
    events = [Event(text=f"{{p{seat}}}: three kings! Plays {' '.join(cards)}.", actor=seat)]
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
    left_text = ", ".join(f"{{p{seat}}} {cards_left[seat]}" for seat in order if seat != winner)
    if state.mode == PAIRS:
        partner = partner_of(state, winner)
        points_text = f"{{p{winner}}} and {{p{partner}}} score {points[winner]}"
    else:
        points_text = ", ".join(f"{{p{seat}}} {points[seat]}" for seat in order)
    totals_text = ", ".join(f"{{p{seat}}} {state.totals[seat]}" for seat in order)
    events = [
        Event(text=f"{{p{winner}}} goes out and wins hand {state.hand_number}!", actor=winner),
        Event(text=f"Cards left: {left_text}. Points: {points_text}. Totals: {totals_text}."),
    ]
    if match_decided(state):
        state.phase = OVER
        state.top = None
        state.owner = None
        state.giro_starter = None
        state.giro_left = 0
        (side,) = leaders(state)
        who = " and ".join(f"{{p{seat}}}" for seat in side)
        verb = "wins" if len(side) == 1 else "win"
        events.append(Event(text=f"Match over: {who} {verb} with {state.totals[side[0]]} points."))
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


# ----- views ------------------------------------------------------------------------------------


def table_prompt(state: FiguresState) -> str:
    """What the player on turn must do, in a few words (no hidden information)."""
    phase = state.phase
    if phase == OVER:
        return "The match is over."
    if phase == FREE:
        return "The table is clear: discard any card."
    if phase == OPEN:
        return f"The table is open after {state.top}: discard any card."
    if phase == BEAT:
        return f"Beat the {current_bar(state)}: a higher number card, or a figure to start a giro."
    turns = "turn" if state.giro_left == 1 else "turns"
    return f"Giro di figure: discard a figure, or pass without one ({state.giro_left} giro {turns} left)."


def public_view(state: FiguresState) -> dict[str, Any]:
    over = state.phase == OVER
    result_dicts = [
        dict(msgspec.to_builtins(result), history=list(map(msgspec.structs.asdict, result.history)))
        for result in state.results
    ]
    return {
        "game": "figures",
        "players": PLAYERS,
        "mode": state.mode,
        "match_end": state.match_end,
        "target_score": state.target_score,
        "number_of_hands": state.number_of_hands,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "table": list(state.table),
        "pairs": sides(state) if state.mode == PAIRS else None,
        "phase": state.phase,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "top": state.top,
        "owner": state.owner,
        "beat": current_bar(state) or None,
        "passes": state.passes,
        "giro_starter": state.giro_starter,
        "giro_left": state.giro_left,
        "card_counts": [len(hand) for hand in state.hands],
        "kings_used": list(state.kings_used),
        # {"seat", "move", "clears"}: an Entry's fields in order, copied in C (the history is long).
        "history": list(map(msgspec.structs.asdict, state.history)),
        # The finished hand's plays stay on the board until the next hand's first move (2.11).
        "previous_history": result_dicts[-1]["history"] if result_dicts and not state.history else [],
        "totals": list(state.totals),
        "results": result_dicts,
        "match_over": over,
        # The end condition is already met, so this hand is only played to break a tied lead.
        "tie_break": not over and end_condition_reached(state, finished=state.hand_number - 1),
        "winners": (leaders(state)[0] if over else []),
        "prompt": table_prompt(state),
    }


def seat_view(state: FiguresState, seat: int) -> dict[str, Any]:
    view = public_view(state)
    hand = list(state.hands[seat])
    on_turn = seat == state.turn and state.phase != OVER
    playable = legal_singles(state, seat)
    kings = may_use_kings(state, seat)
    view.update(
        seat=seat,
        hand=hand,
        playable=playable,
        must_pass=on_turn and not playable,
        can_use_kings=kings,
    )
    if on_turn:
        prompt = "Your turn. " + table_prompt(state)
        if not playable:
            prompt = "Your turn: you cannot discard anything, so you pass (Passo)."
        elif kings:
            prompt += " You may use three kings (once per hand): kings <card> <card> <card>, each legal after the one before."
        view["prompt"] = prompt
    return view
