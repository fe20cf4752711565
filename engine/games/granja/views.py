"""What each seat may see (1.14): the public board, and one seat's private part.

Public: every farm, the market, buildings and rows, building-order markers, siesta stacks,
turn order, dice, this round's face-up roofs, the discard pile, deck size, hand sizes and the
donkey markers already revealed. Private: the seat's hand and its pending secret choice.
Never shown: the deck order, other hands, future or removed roofs, the random generator, and
any part of a secret choice before its reveal (including tasks that belong to it).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.core import ranks_from_keys

from .cards import CARDS
from .config import BUILDINGS, CONFIG, HELPER_LABELS, MARKET
from .effects import effect_args
from .model import (
    F1_PLAY,
    F3_PROMPT,
    OVER,
    PHASE_NAMES,
    T1_DONKEY,
    T4_DELIVER,
    T5_EXTRA,
    GranjaState,
    Move,
    Task,
    hexes_in_play,
)
from .notation import format_move, option_text, roof_text
from .rules import active_seat, available_donkeys, legal_moves, phase_order, to_act
from .scoring import final_keys
from .words import describe_move


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"

def card_faces(card_id: str) -> dict[str, Any]:
    card = CARDS[card_id]
    return {
        "card": card.id,
        "field": card.field,
        "barrow": list(card.barrow),
        "barrow_vp": card.barrow_vp,
        "helper": card.helper,
        "helper_label": HELPER_LABELS[card.helper],
        "param": card.param,
        "extension": card.extension,
    }


# The printed helper face of every card (all but the usage marker), so that a view copies it
# rather than looking the card up field by field.
HELPER_FACES: dict[str, dict[str, str]] = {
    card.id: {"card": card.id, "type": card.helper, "label": HELPER_LABELS[card.helper], "param": card.param}
    for card in CARDS.values()
}


def farm_view(state: GranjaState, seat: int, market_markers: int | None = None) -> dict[str, Any]:
    """One farm, public part. ``market_markers`` may be passed when already counted."""
    farm = state.farms[seat]
    if market_markers is None:
        market_markers = sum(owner == seat for owner in state.market)
    return {
        "silver": farm.silver,
        "vp": farm.vp,
        "goods": dict(farm.goods),
        "fields": [{"card": f.card, "crop": CARDS[f.card].field, "full": f.crop} for f in farm.fields],
        "barrows": [
            {"card": b.card, "goods": list(CARDS[b.card].barrow), "vp": CARDS[b.card].barrow_vp, "covered": list(b.covered)}
            for b in farm.barrows
        ],
        "helpers": [{**HELPER_FACES[h.card], "used": h.used} for h in farm.helpers],
        "extensions": [{"card": card, "type": CARDS[card].extension} for card in farm.extensions],
        "roofs": [{"id": roof.id, "used": roof.used} for roof in farm.roofs],
        "buildings": list(farm.buildings),
        "hand_size": len(farm.hand),
        "donkeys_used": list(farm.donkeys),
        "hand_limit": farm.hand_limit,
        "extra_delivery_limit": farm.extra_delivery_limit,
        "income": farm.income,
        "pig_capacity": farm.pig_capacity,
        "market_markers": market_markers,
    }


def describe_task(task: Task) -> str:
    kind = task.kind
    if kind == "play":
        return "Play a card from your hand: play CARD field|barrow|helper|ext."
    if kind == "discard":
        return f"Your {task.items[1]} slots are full: choose the card {task.items[0]} replaces (discard CARD)" + (
            ", or back." if task.secret else "."
        )
    if kind == "pay":
        paid = ", ".join(task.items[1:]) or "nothing yet"
        rule = "all of different types" if task.count > 1 else "any type"
        back = " (back to choose another play)" if task.secret else ""
        return f"Pay {task.count} farm good{'s' if task.count > 1 else ''} ({rule}) for extension {task.items[0]}; paid: {paid}{back}."
    if kind == "upgrade":
        return "Upgrade a resource for free (upgrade GR...)" + (", or pass." if task.optional else ".")
    if kind == "deliver":
        extra = " (Wagon Maker), or pass" if task.optional else ""
        return f"Carry out one delivery{extra}: deliver GOOD TARGET."
    if kind == "gain":
        return f"Choose a good to gain: {', '.join(task.items)} (gain GR...)."
    if kind == "market":
        return f"Place a market marker on a hex of value {task.items[0]} (hex M05...)."
    if kind == "die":
        face = int(task.items[0])
        choices = "; ".join(
            f"{option_text(template)} (die {' '.join(args)})"
            for template in CONFIG.die_effects[face]
            for args in effect_args(template)[:1]
        )
        return f"Your die shows {face}: {choices}; or pass."
    return kind


# What the acting seat is choosing, in words for the other players.
PUBLIC_TASK = {
    "play": "choosing a card to play", "discard": "choosing the card to replace",
    "pay": "paying for an extension", "upgrade": "choosing a free upgrade", "deliver": "choosing a delivery",
    "gain": "choosing a good", "market": "placing a market marker", "die": "choosing the die's option",
}  # fmt: skip


def public_prompt(state: GranjaState, waiting: tuple[int, ...] | None = None) -> str:
    """What the table waits for; ``waiting`` is ``to_act(state)`` when the caller has it already."""
    phase = state.phase
    if phase == OVER:
        return "The game is over."
    if waiting is None:
        waiting = to_act(state)
    seats = ", ".join(f"{{p{seat}}}" for seat in waiting)
    if phase == F1_PLAY:
        return f"Secret card plays: waiting for {seats}."
    if phase == F3_PROMPT:
        return f"Harvest choices: waiting for {seats}."
    if phase == T1_DONKEY:
        return f"Secret donkey markers: waiting for {seats}."
    seat = active_seat(state)
    text = f"{PHASE_NAMES[phase].capitalize()}: {{p{seat}}} to act"
    if phase == T4_DELIVER:
        text += f" ({plural(state.budget, 'delivery', 'deliveries')} left)"
    elif phase == T5_EXTRA:
        text += f" ({plural(state.budget, 'extra delivery', 'extra deliveries')} left)"
    text += "."
    stack = state.tasks[seat] if seat is not None else []
    if stack and not stack[-1].secret:
        text += f" Now: {PUBLIC_TASK.get(stack[-1].kind, 'a choice')}."
    return text


# Roof abilities in words depend on the roof alone.
ROOF_TEXTS: dict[str, str] = {roof: roof_text(roof) for roof in CONFIG.roofs}


# The fixed part of each market hex, in map order; a view copies it and adds the owner.
MARKET_CELLS: tuple[dict[str, Any], ...] = tuple(
    {"hex": spec.id, "value": spec.value, "q": spec.q, "r": spec.r} for spec in MARKET
)


def public_view(state: GranjaState) -> dict[str, Any]:
    over = state.phase == OVER
    limit = hexes_in_play(state.players)
    acting = to_act(state)
    markers = [0] * state.players
    for owner in state.market:
        if owner >= 0:
            markers[owner] += 1
    stacks: dict[str, list[int]] = {}
    for seat in sorted(range(state.players), key=state.siesta_stamp.__getitem__):
        stacks.setdefault(str(state.siesta_space[seat]), []).append(seat)
    open_tasks = {
        str(seat): describe_task(stack[-1]) for seat, stack in enumerate(state.tasks) if stack and not stack[-1].secret
    }
    view: dict[str, Any] = {
        "game": "granja",
        "players": state.players,
        "round": state.round,
        "rounds": CONFIG.rounds,
        "phase": state.phase,
        "phase_name": PHASE_NAMES[state.phase],
        "over": over,
        "order": list(state.order),
        "turn_order": phase_order(state),  # a new list already
        "active": active_seat(state),
        "to_act": list(acting),
        "start_player": state.start_player,
        "dice": list(state.dice),
        "budget": state.budget if state.phase in (T4_DELIVER, T5_EXTRA) else None,
        "roofs_offer": list(state.roofs_offer),
        "roof_abilities": {
            roof: ROOF_TEXTS[roof] for roof in [*state.roofs_offer, *(r.id for farm in state.farms for r in farm.roofs)]
        },
        "roof_price": state.round,
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "market": [
            dict(cell, owner=None if owner < 0 else owner)
            for cell, owner in zip(MARKET_CELLS[:limit], state.market[:limit], strict=True)
        ],
        "buildings": [
            {
                "number": spec.number,
                "name": spec.name,
                "short": spec.short,
                "row": list(spec.row),
                "blocked": building.order_marker,
                "hex_vp": building.hex_vp,
                "finishers": list(building.finishers),
                "rows": list(map(list, building.rows)),
            }
            for spec, building in zip(BUILDINGS, state.buildings, strict=True)
        ],
        "siesta": list(state.siesta_space),
        "siesta_stacks": stacks,  # space -> seats from bottom to top
        "farms": [farm_view(state, seat, markers[seat]) for seat in range(state.players)],
        "scores": [farm.vp for farm in state.farms],
        "silver": [farm.silver for farm in state.farms],
        "tasks": open_tasks,
        "prompt": public_prompt(state, acting),
    }
    if over:
        ranks = ranks_from_keys(final_keys(state))
        view["ranks"] = ranks
        view["winners"] = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return view


def seat_view(state: GranjaState, seat: int) -> dict[str, Any]:
    view = public_view(state)
    farm = state.farms[seat]
    choice = state.choices[seat]
    stack = state.tasks[seat]
    view["seat"] = seat
    view["hand"] = [card_faces(card) for card in farm.hand]
    view["choice"] = {
        "plays": [
            {"card": play.card, "position": play.position, "discard": play.discard, "payment": list(play.payment)}
            for play in choice.plays
        ],
        "donkey": choice.donkey,
        "push": choice.push,
        "resource": choice.resource,
        "flex": list(choice.flex),
    }
    view["task"] = describe_task(stack[-1]) if stack else None
    view["available_donkeys"] = available_donkeys(state, seat)
    moves = legal_moves(state, seat)
    view["options"] = [format_move(move) for move in moves]
    your_turn = seat in view["to_act"]  # the public view's to_act(state)
    view["your_turn"] = your_turn
    view["private_prompt"] = private_prompt(state, seat, your_turn, moves)
    return view


def private_prompt(
    state: GranjaState, seat: int, your_turn: bool | None = None, moves: list[Move] | None = None
) -> str:
    """The seat's prompt; ``your_turn`` and ``moves`` (its legal moves) may be passed when the
    caller has worked them out already."""
    if your_turn is None:
        your_turn = seat in to_act(state)
    if not your_turn:
        return "Nothing to do right now."
    stack = state.tasks[seat]
    if stack:
        return describe_task(stack[-1])
    phase = state.phase
    if phase == F1_PLAY and not state.farms[seat].hand:
        return "You have no card to play: take anytime actions if you like, then done."
    if phase == F1_PLAY:
        done = len(state.choices[seat].plays)
        return f"Choose your secret card play {done + 1} (play CARD field|barrow|helper|ext); nobody sees it before the reveal."
    if phase == F3_PROMPT:
        if (moves if moves is not None else legal_moves(state, seat))[0].kind == "gain":
            return "Harvest: choose the Greengrocer's resource (gain GR, OL, GP or PG)."
        return "Harvest: an empty field may yield another crop with Flexible field (flex GR OL), or flex none."
    if phase in ("R2", "R3", "R4") and state.die_used:
        return "Your die is resolved: anytime actions (a helper you just played works now), then done."
    if phase == T1_DONKEY:
        return "Choose your donkey marker in secret (donkey D1..D4); anytime actions first if you like."
    if phase in ("R2", "R3"):
        # What each die on offer gives, since a button or a list shows "take 4" alone.
        offered = [move for move in (moves if moves is not None else legal_moves(state, seat)) if move.kind == "take"]
        faces = "; ".join(f"take {move.args[0]}: {describe_move(move)}" for move in offered)
        return f"Take a die ({faces}); anytime actions first if you like."
    return {
        "F4": f"Buy one roof for {state.round} $ (roof R..), take anytime actions, then done.",
        "R4": describe_task(Task(kind="die", items=[str(state.dice[0])])).replace("Your die", "The shared die")
        if state.dice else "",
        "T4": f"Deliver (deliver GOOD TARGET), {state.budget} left; done when finished.",
        "T5": f"Extra deliveries at {CONFIG.extra_delivery_price} $ each (extra GOOD TARGET), {state.budget} left; or done.",
        "END": "Final anytime actions, then done.",
    }.get(phase, "")


def secret_view(state: GranjaState, seat: int) -> dict[str, Any]:
    # 1.14: the hand and the pending secret choice (with the tasks that belong to it); card
    # ids and plain values are enough to tell a change. Whether a seat still has to answer a
    # simultaneous step is public (the board names who is waited for), so it is left out.
    choice = state.choices[seat]
    return {
        "hand": list(state.farms[seat].hand),
        "choice": [
            [msgspec.to_builtins(play) for play in choice.plays],
            choice.donkey,
            choice.push,
            choice.resource,
            list(choice.flex),
        ],
        "tasks": [msgspec.to_builtins(task) for task in state.tasks[seat] if task.secret],
    }
