"""What each seat may see (1.14): the public board, and one seat's private part.

Public: every farm, the market, buildings and rows, building-order markers, siesta stacks,
turn order, dice, this round's face-up roofs, the discard pile, deck size, hand sizes and the
donkey markers already revealed. Private: the seat's hand and its pending secret choice.
Never shown: the deck order, other hands, future or removed roofs, the random generator, and
any part of a secret choice before its reveal (including tasks that belong to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.core import ranks_from_keys
from engine.i18n import SOURCE, tr, tr_n, use_language

from .cards import CARDS
from .config import BUILDINGS, CONFIG, MARKET
from .effects import effect_args
from .model import (
    F1_PLAY,
    F3_PROMPT,
    OVER,
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
from .terms import building_name, building_short, helper_label, phase_name
from .words import describe_move


def card_faces(card_id: str) -> dict[str, Any]:
    card = CARDS[card_id]
    return {
        "card": card.id,
        "field": card.field,
        "barrow": list(card.barrow),
        "barrow_vp": card.barrow_vp,
        "helper": card.helper,
        "helper_label": helper_label(card.helper),
        "param": card.param,
        "extension": card.extension,
    }


# The printed helper face of every card (all but the usage marker and its label, which is in the
# reader's language), so that a view copies it rather than looking the card up field by field.
HELPER_FACES: dict[str, dict[str, str]] = {
    card.id: {"card": card.id, "type": card.helper, "param": card.param} for card in CARDS.values()
}


def _helper_face(card: str, used: bool) -> dict[str, Any]:
    face = HELPER_FACES[card]
    return {"card": card, "type": face["type"], "label": helper_label(face["type"]), "param": face["param"], "used": used}


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
        "helpers": [_helper_face(h.card, h.used) for h in farm.helpers],
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
        return tr("Play a card from your hand: play CARD field|barrow|helper|ext.")
    if kind == "discard":
        card = task.items[0]
        if task.items[1] == "helper":
            if task.secret:
                return tr("Your helper slots are full: choose the card {card} replaces (discard CARD), or back.", card=card)
            return tr("Your helper slots are full: choose the card {card} replaces (discard CARD).", card=card)
        if task.secret:
            return tr("Your barrow slots are full: choose the card {card} replaces (discard CARD), or back.", card=card)
        return tr("Your barrow slots are full: choose the card {card} replaces (discard CARD).", card=card)
    if kind == "pay":
        paid = ", ".join(task.items[1:]) or tr("nothing yet")
        back = " " + tr("(back to choose another play)") if task.secret else ""
        if task.count > 1:
            return tr(
                "Pay {n} farm goods (all of different types) for extension {card}; paid: {paid}{back}.",
                n=task.count, card=task.items[0], paid=paid, back=back,
            )
        return tr(
            "Pay {n} farm good (any type) for extension {card}; paid: {paid}{back}.",
            n=task.count, card=task.items[0], paid=paid, back=back,
        )
    if kind == "upgrade":
        if task.optional:
            return tr("Upgrade a resource for free (upgrade GR...), or pass.")
        return tr("Upgrade a resource for free (upgrade GR...).")
    if kind == "deliver":
        if task.optional:
            return tr("Carry out one delivery (Wagon Maker), or pass: deliver GOOD TARGET.")
        return tr("Carry out one delivery: deliver GOOD TARGET.")
    if kind == "gain":
        return tr("Choose a good to gain: {goods} (gain GR...).", goods=", ".join(task.items))
    if kind == "market":
        return tr("Place a market marker on a hex of value {value} (hex M05...).", value=task.items[0])
    if kind == "die":
        return die_prompt(int(task.items[0]), shared=False)
    return kind


def die_prompt(face: int, shared: bool) -> str:
    """The options of a die: one's own (R2, R3) or the shared one (R4)."""
    choices = "; ".join(
        f"{option_text(template)} (die {' '.join(args)})"
        for template in CONFIG.die_effects[face]
        for args in effect_args(template)[:1]
    )
    if shared:
        return tr("The shared die shows {face}: {choices}; or pass.", face=face, choices=choices)
    return tr("Your die shows {face}: {choices}; or pass.", face=face, choices=choices)


def public_task(kind: str) -> str:
    """What the acting seat is choosing, in words for the other players."""
    return {
        "play": tr("choosing a card to play"), "discard": tr("choosing the card to replace"),
        "pay": tr("paying for an extension"), "upgrade": tr("choosing a free upgrade"),
        "deliver": tr("choosing a delivery"), "gain": tr("choosing a good"),
        "market": tr("placing a market marker"), "die": tr("choosing the die's option"),
    }.get(kind, tr("a choice"))  # fmt: skip


def public_prompt(state: GranjaState, waiting: tuple[int, ...] | None = None) -> str:
    """What the table waits for; ``waiting`` is ``to_act(state)`` when the caller has it already."""
    phase = state.phase
    if phase == OVER:
        return tr("The game is over.")
    if waiting is None:
        waiting = to_act(state)
    if phase in (F1_PLAY, F3_PROMPT, T1_DONKEY):
        return prompt_text(phase, waiting, None, 0, None)
    seat = active_seat(state)
    stack = state.tasks[seat] if seat is not None else []
    task = stack[-1].kind if stack and not stack[-1].secret else None
    return prompt_text(phase, waiting, seat, state.budget, task)


def prompt_text(phase: str, waiting: Sequence[int], seat: int | None, budget: int, task: str | None) -> str:
    """The public prompt from what the public view holds (the phase, the seats waited for, the
    acting seat, its deliveries left and its open public task), so that a board rendered in
    another language than its view was read in says it in the board's language."""
    if phase == OVER:
        return tr("The game is over.")
    seats = ", ".join(f"{{p{seat}}}" for seat in waiting)
    if phase == F1_PLAY:
        return tr("Secret card plays: waiting for {seats}.", seats=seats)
    if phase == F3_PROMPT:
        return tr("Harvest choices: waiting for {seats}.", seats=seats)
    if phase == T1_DONKEY:
        return tr("Secret donkey markers: waiting for {seats}.", seats=seats)
    fields = {"phase": phase_name(phase).capitalize(), "player": f"{{p{seat}}}"}
    if phase == T4_DELIVER:
        text = tr_n(
            "{phase}: {player} to act ({n} delivery left).", "{phase}: {player} to act ({n} deliveries left).",
            budget, **fields,
        )
    elif phase == T5_EXTRA:
        text = tr_n(
            "{phase}: {player} to act ({n} extra delivery left).",
            "{phase}: {player} to act ({n} extra deliveries left).",
            budget, **fields,
        )
    else:
        text = tr("{phase}: {player} to act.", **fields)
    if task is not None:
        text += " " + tr("Now: {task}.", task=public_task(task))
    return text


def view_prompt(view: dict[str, Any]) -> str:
    """``prompt_text`` of a public (or seat) view, in the current language."""
    active = view["active"]
    task = view["task_kinds"].get(str(active)) if active is not None else None
    return prompt_text(view["phase"], view["to_act"], active, view["budget"] or 0, task)


# The fixed part of each market hex, in map order; a view copies it and adds the owner.
MARKET_CELLS: tuple[dict[str, Any], ...] = tuple(
    {"hex": spec.id, "value": spec.value, "q": spec.q, "r": spec.r} for spec in MARKET
)


def public_view(state: GranjaState) -> dict[str, Any]:
    """The public view. Its few texts are in the source language whoever asks, so that a view
    is the same for every reader (the referee compares and shares views): boards and pictures
    word everything from the view's data in their reader's language."""
    with use_language(SOURCE):
        return _public_view(state)


def _public_view(state: GranjaState) -> dict[str, Any]:
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
        str(seat): stack[-1] for seat, stack in enumerate(state.tasks) if stack and not stack[-1].secret
    }
    view: dict[str, Any] = {
        "game": "granja",
        "players": state.players,
        "round": state.round,
        "rounds": CONFIG.rounds,
        "phase": state.phase,
        "phase_name": phase_name(state.phase),
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
            roof: roof_text(roof) for roof in [*state.roofs_offer, *(r.id for farm in state.farms for r in farm.roofs)]
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
                "name": building_name(spec.number),
                "short": building_short(spec.number),
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
        "tasks": {seat: describe_task(task) for seat, task in open_tasks.items()},
        "task_kinds": {seat: task.kind for seat, task in open_tasks.items()},  # what the prompt names
        "prompt": public_prompt(state, acting),
    }
    if over:
        ranks = ranks_from_keys(final_keys(state))
        view["ranks"] = ranks
        view["winners"] = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return view


def seat_view(state: GranjaState, seat: int) -> dict[str, Any]:
    """One seat's view: the public one and its private part, texts in the source language as
    in ``public_view`` (render_private words the prompt from ``prompt_parts``)."""
    with use_language(SOURCE):
        return _seat_view(state, seat)


def _seat_view(state: GranjaState, seat: int) -> dict[str, Any]:
    view = _public_view(state)
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
    view["prompt_parts"] = prompt_parts(state, seat, your_turn, moves)  # what render_private words
    view["private_prompt"] = prompt_of(view["prompt_parts"])
    return view


def private_prompt(
    state: GranjaState, seat: int, your_turn: bool | None = None, moves: list[Move] | None = None
) -> str:
    """The seat's prompt; ``your_turn`` and ``moves`` (its legal moves) may be passed when the
    caller has worked them out already."""
    return prompt_of(prompt_parts(state, seat, your_turn, moves))


def prompt_parts(
    state: GranjaState, seat: int, your_turn: bool | None = None, moves: list[Move] | None = None
) -> list[Any]:
    """What the seat's prompt says, as plain data (a kind and its values): a seat view keeps it so
    that the prompt is written in the language of whoever reads the view (``prompt_of``)."""
    if your_turn is None:
        your_turn = seat in to_act(state)
    if not your_turn:
        return ["idle"]
    stack = state.tasks[seat]
    if stack:
        return ["task", msgspec.to_builtins(stack[-1])]
    phase = state.phase
    if phase == F1_PLAY:
        return ["play", len(state.choices[seat].plays) + 1] if state.farms[seat].hand else ["no card"]
    if phase == F3_PROMPT:
        first = (moves if moves is not None else legal_moves(state, seat))[0]
        return ["greengrocer"] if first.kind == "gain" else ["flex"]
    if phase in ("R2", "R3", "R4") and state.die_used:
        return ["die used"]
    if phase == T1_DONKEY:
        return ["donkey"]
    if phase in ("R2", "R3"):
        offered = [move for move in (moves if moves is not None else legal_moves(state, seat)) if move.kind == "take"]
        return ["take", [move.args[0] for move in offered]]
    if phase == "R4":
        return ["shared die", state.dice[0]] if state.dice else ["none"]
    if phase in ("F4", "T4", "T5", "END"):
        return [phase, state.round if phase == "F4" else state.budget]
    return ["none"]


def prompt_of(parts: list[Any]) -> str:
    """The prompt ``prompt_parts`` describes, in the current language."""
    kind = parts[0]
    if kind == "idle":
        return tr("Nothing to do right now.")
    if kind == "task":
        return describe_task(msgspec.convert(parts[1], Task))
    if kind == "no card":
        return tr("You have no card to play: take anytime actions if you like, then done.")
    if kind == "play":
        return tr(
            "Choose your secret card play {n} (play CARD field|barrow|helper|ext); nobody sees it before the reveal.",
            n=parts[1],
        )
    if kind == "greengrocer":
        return tr("Harvest: choose the Greengrocer's resource (gain GR, OL, GP or PG).")
    if kind == "flex":
        return tr("Harvest: an empty field may yield another crop with Flexible field (flex GR OL), or flex none.")
    if kind == "die used":
        return tr("Your die is resolved: anytime actions (a helper you just played works now), then done.")
    if kind == "donkey":
        return tr("Choose your donkey marker in secret (donkey D1..D4); anytime actions first if you like.")
    if kind == "take":
        # What each die on offer gives, since a button or a list shows "take 4" alone.
        faces = "; ".join(f"take {face}: {describe_move(Move('take', (face,)))}" for face in parts[1])
        return tr("Take a die ({faces}); anytime actions first if you like.", faces=faces)
    if kind == "shared die":
        return die_prompt(parts[1], shared=True)
    if kind == "F4":
        return tr("Buy one roof for {price} $ (roof R..), take anytime actions, then done.", price=parts[1])
    if kind == "T4":
        return tr("Deliver (deliver GOOD TARGET), {n} left; done when finished.", n=parts[1])
    if kind == "T5":
        return tr(
            "Extra deliveries at {price} $ each (extra GOOD TARGET), {n} left; or done.",
            price=CONFIG.extra_delivery_price, n=parts[1],
        )
    if kind == "END":
        return tr("Final anytime actions, then done.")
    return ""


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
