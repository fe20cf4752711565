"""Rules of Granja: the six-round state machine, who acts, legal moves and playing a move.

It builds on ``farm`` (goods and card plays), ``market`` (deliveries, buildings, barrows, market)
and ``effects`` (dice, trade goods, roofs, anytime actions and tasks); the deal is in ``setup``,
the scoring of a round and of the end in ``scoring``.

Section numbers (1.x, 2.x, 3.x) and ruling numbers refer to docs/rules/granja.md.

Shape of the machine. ``state.phase`` names the step that waits for moves; every automatic step
(reveal, refill, income, harvest, dice, siesta, order, scoring, clean-up) runs inside ``advance``,
called at the end of the move that completes the step before. A choice that arises while
something resolves (market hex, a free upgrade, the card an effect plays...) is a ``Task`` on the
acting seat's stack; a seat answers its tasks before anything else. Secret simultaneous steps
(F1 card plays, T1 donkey markers, the F3 prompt) store each seat's answer in ``state.choices``
and carry them out together once the last seat has answered.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.i18n import tr, tr_n

from .cards import CARDS
from .config import (
    CONFIG,
    CROPS,
    DELICATESSEN,
    DONKEY_BLOCKS,
    DONKEYS,
    GREENGROCER,
    RESOURCES,
    TRADING_HOUSE,
    WAGON_MAKER,
)
from .effects import (
    ANYTIME_KINDS,
    SeatFacts,
    _anytime_moves,
    apply_effect,
    do_anytime,
    do_task_move,
    effect_moves,
    task_moves,
)
from .effects import effect_args as effect_args  # notation.py imports it from here
from .farm import (
    advance_disc,
    carry_out_play,
    draw_cards,
    f1_waiting,
    gain_pigs,
    play_moves,
    projected_farm,
    start_play,
)
from .market import deliver
from .model import (
    DICE_PHASES,
    DONE,
    END_WINDOW,
    F1_PLAY,
    F3_PROMPT,
    F4_ROOFS,
    OVER,
    PASS,
    PICK_PHASES,
    R2_PICK,
    R3_PICK,
    R4_SHARED,
    SEQUENTIAL_PHASES,
    T1_DONKEY,
    T4_DELIVER,
    T5_EXTRA,
    Events,
    Field,
    GranjaState,
    Move,
    Roof,
    Task,
    good_name,
    p,
    roof_round,
    say,
)
from .scoring import liquidate, score_round
from .setup import stack_discs_in_turn_order

# ----- who acts, and what they may do ---------------------------------------------------------------


def phase_order(state: GranjaState) -> list[int]:
    """Seats in the order the current sequential phase takes them (F4 of round 1 is reversed)."""
    if state.phase == F4_ROOFS and state.round == 1:
        return list(reversed(state.order))
    return list(state.order)


def active_seat(state: GranjaState) -> int | None:
    if state.phase not in SEQUENTIAL_PHASES:
        return None
    order = state.order
    turn = state.turn
    if turn >= len(order):
        return None
    if state.phase == F4_ROOFS and state.round == 1:  # phase_order, without building the list
        return order[-1 - turn]
    return order[turn]


def to_act(state: GranjaState) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == F1_PLAY:
        return tuple(seat for seat in range(state.players) if state.tasks[seat] or f1_waiting(state, seat))
    if state.phase in (F3_PROMPT, T1_DONKEY):
        return tuple(seat for seat in range(state.players) if state.tasks[seat] or state.choices[seat].waiting)
    seat = active_seat(state)
    return () if seat is None else (seat,)


def available_donkeys(state: GranjaState, seat: int) -> list[str]:
    """Markers not chosen earlier in the current block of rounds (3.5 T1, Ruling 22)."""
    block = next(block for block in DONKEY_BLOCKS if state.round in block)
    history = state.farms[seat].donkeys
    used = {history[number - 1] for number in block if number < state.round and number - 1 < len(history)}
    return [marker for marker in DONKEYS if marker not in used]


def f3_prompt_moves(state: GranjaState, seat: int) -> list[Move]:
    farm = state.farms[seat]
    choice = state.choices[seat]
    if GREENGROCER in farm.buildings and not choice.resource:
        return [Move("gain", (good,)) for good in RESOURCES]
    return [Move("flex", (field, crop)) for field in flex_fields(state, seat) for crop in CROPS] + [Move("flex", ("none",))]


def flex_fields(state: GranjaState, seat: int) -> list[str]:
    """Crop types of empty fields that a further Flexible field declaration may name."""
    farm = state.farms[seat]
    choice = state.choices[seat]
    unused = sum(not helper.used for helper in farm.helpers_of("H17"))
    if unused <= len(choice.flex):
        return []
    declared = [entry.partition(">")[0] for entry in choice.flex]
    return [crop for crop in CROPS if len(farm.empty_fields(crop)) > declared.count(crop)]


def f3_needs_prompt(state: GranjaState, seat: int) -> bool:
    farm = state.farms[seat]
    return GREENGROCER in farm.buildings or bool(flex_fields(state, seat))


def phase_moves(state: GranjaState, seat: int) -> list[Move]:
    return list(_phase_moves(state, seat))


def _phase_moves(state: GranjaState, seat: int) -> Iterator[Move]:
    farm = state.farms[seat]
    phase = state.phase
    facts = SeatFacts(state, seat)
    if phase == F1_PLAY:
        plays = state.choices[seat].plays
        if not plays:
            # The window closes when the seat starts its commitment (3.1, 3.2); a seat without a
            # card commits nothing and ends its window with done.
            yield from play_moves(farm)
            yield from _anytime_moves(state, seat, facts)
            if not farm.hand:
                yield DONE
            return
        committed = {play.card for play in plays}
        yield from (move for move in play_moves(projected_farm(state, seat)) if move.args[0] not in committed)
        return
    if phase == F3_PROMPT:
        yield from f3_prompt_moves(state, seat)
        return
    if phase == T1_DONKEY:
        pushes = sum(not helper.used for helper in farm.helpers_of("H06"))
        for marker in available_donkeys(state, seat):
            for push in range(pushes + 1):
                yield Move("donkey", (marker,) + ((f"+{push}",) if push else ()))
        yield from _anytime_moves(state, seat, facts)
        return
    if phase == F4_ROOFS:
        bought = any(roof_round(roof.id) == state.round for roof in farm.roofs)
        if not bought and farm.silver >= state.round and len(farm.roofs) < len(CONFIG.roof_space_vp):
            yield from (Move("roof", (roof,)) for roof in state.roofs_offer)
        yield from _anytime_moves(state, seat, facts)
        yield DONE
        return
    if phase in DICE_PHASES and state.die_used:
        # The die is resolved; the window lasts until done (1.12.3: a helper works in the step
        # in which it was played).
        yield from _anytime_moves(state, seat, facts)
        yield DONE
        return
    if phase in PICK_PHASES:
        yield from (Move("take", (str(face),)) for face in sorted(set(state.dice)))
        yield from _anytime_moves(state, seat, facts)
        return
    if phase == R4_SHARED:
        yield from effect_moves(state, seat, CONFIG.die_effects[state.dice[0]], "die", facts=facts)
        yield PASS
        yield from _anytime_moves(state, seat, facts)
        return
    if phase == T4_DELIVER:
        options = facts.delivery_options()
        if state.budget > 0:
            yield from (Move("deliver", option) for option in options)
        if options:
            yield from (Move("use", (helper.card,)) for helper in farm.helpers_of("H05") if not helper.used)
        yield from _anytime_moves(state, seat, facts)
        yield DONE
        return
    if phase == T5_EXTRA:
        if state.budget > 0 and farm.silver >= CONFIG.extra_delivery_price:
            yield from (Move("extra", option) for option in facts.delivery_options())
        yield from _anytime_moves(state, seat, facts)
        yield DONE
        return
    if phase == END_WINDOW:
        yield from _anytime_moves(state, seat, facts)
        yield DONE


def legal_moves(state: GranjaState, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    if state.tasks[seat]:
        return task_moves(state, seat, state.tasks[seat][-1])
    return phase_moves(state, seat)


def only_move(state: GranjaState, seat: int) -> Move | None:
    """The seat's legal move when it has exactly one, else None: what legal_moves would say, but
    the phase's moves are looked at only until a second one turns up (the referee asks this for
    every seat to act after every move)."""
    if seat not in to_act(state):
        return None
    if state.tasks[seat]:
        moves = task_moves(state, seat, state.tasks[seat][-1])
    else:
        moves = list(itertools.islice(_phase_moves(state, seat), 2))
    return moves[0] if len(moves) == 1 else None


# ----- carrying out a move --------------------------------------------------------------------------


def play_move(state: GranjaState, seat: int, move: Move) -> Events:
    """Carry out a legal move in place, then every automatic step it unlocks."""
    events: Events = []
    if state.tasks[seat]:
        do_task_move(state, seat, move, events)
    elif move.kind in ANYTIME_KINDS:  # including Extra donkey (H05), a "use" offered in T4
        do_anytime(state, seat, move, events)
    else:
        do_phase_move(state, seat, move, events)
    advance(state, events)
    return events


def do_phase_move(state: GranjaState, seat: int, move: Move, events: Events) -> None:
    farm = state.farms[seat]
    phase = state.phase
    if move.kind == "play":
        start_play(state, seat, move.args[0], move.args[1], True, events)
    elif move.kind == "gain":  # F3 prompt: Greengrocer resource
        state.choices[seat].resource = move.args[0]
        say(events, tr("You choose {good} from the Greengrocer.", good=good_name(move.args[0])), seat, visible_to=[seat])
        if not flex_fields(state, seat):
            state.choices[seat].waiting = False
    elif move.kind == "flex":
        choice = state.choices[seat]
        if move.args[0] == "none":
            choice.waiting = False
        else:
            choice.flex.append(f"{move.args[0]}>{move.args[1]}")
            text = tr(
                "Your empty {good} field will yield {crop}.", good=good_name(move.args[0]), crop=good_name(move.args[1])
            )
            say(events, text, seat, visible_to=[seat])
            if not flex_fields(state, seat):
                choice.waiting = False
    elif move.kind == "donkey":
        choice = state.choices[seat]
        choice.donkey = move.args[0]
        choice.push = int(move.args[1][1:]) if len(move.args) > 1 else 0
        choice.waiting = False
        if choice.push:
            text = tr("You choose donkey marker {marker} with {n} Siesta push.", marker=move.args[0], n=choice.push)
        else:
            text = tr("You choose donkey marker {marker}.", marker=move.args[0])
        say(events, text, seat, visible_to=[seat])
        say(events, tr("{player} has chosen a donkey marker.", player=p(seat)), seat)
    elif move.kind == "roof":
        roof_id = move.args[0]
        farm.silver -= state.round
        vp = CONFIG.roof_space_vp[len(farm.roofs)]
        farm.roofs.append(Roof(id=roof_id))
        farm.vp += vp
        state.roofs_offer.remove(roof_id)
        say(events, tr("{player} buys roof {roof} for {price} $ and gains {n} VP.", player=p(seat), roof=roof_id, price=state.round, n=vp), seat)
    elif move.kind == "take":
        face = int(move.args[0])
        state.dice.remove(face)
        state.die_used = True
        say(events, tr("{player} takes a die showing {face}.", player=p(seat), face=face), seat)
        state.tasks[seat].append(Task(kind="die", items=[str(face)]))
    elif move.kind == "die":  # R4: the shared die
        state.die_used = True
        apply_effect(state, seat, CONFIG.die_effects[state.dice[0]], move.args, events)
    elif move.kind == "deliver":
        state.budget -= 1
        deliver(state, seat, move.args, events)
    elif move.kind == "extra":
        state.budget -= 1
        farm.silver -= CONFIG.extra_delivery_price
        say(events, tr("{player} pays {n} $ for an extra delivery.", player=p(seat), n=CONFIG.extra_delivery_price), seat)
        deliver(state, seat, move.args, events)
    elif move == PASS:
        state.acted = True
        if phase == R4_SHARED:
            say(events, tr("{player} does not use the shared die.", player=p(seat)), seat)
    elif move == DONE and phase == F1_PLAY:  # a seat without a card ends its window (3.1)
        state.choices[seat].waiting = False
        say(events, tr("{player} has no card to play and ends their window.", player=p(seat)), seat)
    elif move == DONE:
        state.acted = True


# ----- automatic steps ------------------------------------------------------------------------------


def advance(state: GranjaState, events: Events) -> None:
    """Run automatic steps until some seat must decide (or the game is over)."""
    while state.phase != OVER:
        if any(state.tasks):
            return
        phase = state.phase
        if phase == F1_PLAY:
            if any(f1_waiting(state, seat) for seat in range(state.players)):
                return
            reveal_plays(state, events)
            pay_income(state, events)
            start_harvest(state, events)
        elif phase in (F3_PROMPT, T1_DONKEY):
            if any(choice.waiting for choice in state.choices):
                return
            if phase == F3_PROMPT:
                harvest(state, events)
                start_sequential(state, F4_ROOFS)
            else:
                reveal_donkeys(state, events)
        else:
            if active_seat(state) is not None:
                if not state.acted:
                    return
                state.turn += 1
                state.acted = False
                start_turn(state)
                continue
            end_sequential_phase(state, events)


def start_sequential(state: GranjaState, phase: str) -> None:
    state.phase = phase
    state.turn = 0
    state.acted = False
    start_turn(state)


def start_turn(state: GranjaState) -> None:
    state.die_used = False
    seat = active_seat(state)
    if seat is None:
        return
    farm = state.farms[seat]
    if state.phase == T4_DELIVER:
        marker = farm.donkeys[state.round - 1]
        state.budget = DONKEYS[marker] + (1 if WAGON_MAKER in farm.buildings else 0)
    elif state.phase == T5_EXTRA:
        state.budget = farm.extra_delivery_limit  # fixed at the start of the turn (Ruling 29)
    else:
        state.budget = 0


def end_sequential_phase(state: GranjaState, events: Events) -> None:
    phase = state.phase
    if phase == F4_ROOFS:
        if state.roofs_offer:
            say(events, tr("Unbought roofs leave the game: {roofs}.", roofs=", ".join(state.roofs_offer)))
        state.roofs_offer = []
        state.dice = sorted(state.rng.dice(CONFIG.dice_count(state.players)))
        say(events, tr("Revenue dice: {dice}.", dice=" ".join(map(str, state.dice))))
        start_sequential(state, R2_PICK)
    elif phase == R2_PICK:
        start_sequential(state, R3_PICK)
    elif phase == R3_PICK:
        say(events, tr("The shared die shows {face}.", face=state.dice[0]))
        start_sequential(state, R4_SHARED)
    elif phase == R4_SHARED:
        state.dice = []
        state.phase = T1_DONKEY
        for choice in state.choices:
            choice.donkey, choice.push, choice.waiting = "", 0, True
    elif phase == T4_DELIVER:
        start_sequential(state, T5_EXTRA)
    elif phase == T5_EXTRA:
        score_round(state, events)
        clean_up(state, events)
    elif phase == END_WINDOW:
        liquidate(state, events)
        state.phase = OVER
        state.turn = 0


def reveal_plays(state: GranjaState, events: Events) -> None:
    """F1 REVEAL: every committed play, in turn order; then refills in turn order."""
    for seat in state.order:
        for play in state.choices[seat].plays:
            carry_out_play(state, seat, play, events)
        state.choices[seat].plays = []
    for seat in state.order:
        farm = state.farms[seat]
        missing = farm.hand_limit - len(farm.hand)
        if missing > 0:
            draw_cards(state, seat, missing, events)


def pay_income(state: GranjaState, events: Events) -> None:
    """F2: extension income plus Steward (H14)."""
    for seat in state.order:
        farm = state.farms[seat]
        gained = farm.income + (len(farm.barrows) if farm.has("H14") else 0)
        if gained:
            farm.silver += gained
            say(events, tr("{player} receives {n} $ income.", player=p(seat), n=gained), seat)


def start_harvest(state: GranjaState, events: Events) -> None:
    state.phase = F3_PROMPT
    for seat in range(state.players):
        choice = state.choices[seat]
        choice.resource, choice.flex = "", []
        choice.waiting = f3_needs_prompt(state, seat)
    if not any(choice.waiting for choice in state.choices):
        harvest(state, events)
        start_sequential(state, F4_ROOFS)


def harvest(state: GranjaState, events: Events) -> None:
    """F3a building income, F3b fields (with H17 and H11), F3c pig breeding (H12)."""
    for seat in state.order:
        farm = state.farms[seat]
        choice = state.choices[seat]
        if TRADING_HOUSE in farm.buildings:
            farm.silver += CONFIG.trading_house_silver
            say(events, tr("{player}'s Trading House pays {n} $.", player=p(seat), n=CONFIG.trading_house_silver), seat)
        if DELICATESSEN in farm.buildings:
            farm.goods["TG"] += 1
            say(events, tr("{player}'s Delicatessen gives a trade good.", player=p(seat)), seat)
        if GREENGROCER in farm.buildings and choice.resource:
            say(events, tr("{player}'s Greengrocer gives {good}.", player=p(seat), good=good_name(choice.resource)), seat)
            if choice.resource == "PG":
                gain_pigs(state, seat, 1, events)
            else:
                farm.goods[choice.resource] += 1
        flexed: list[Field] = []
        for entry in choice.flex:
            field_crop, _, crop = entry.partition(">")
            field = next(f for f in farm.empty_fields(field_crop) if all(f is not g for g in flexed))
            flexed.append(field)
            helper = farm.unused_helper("H17")
            assert helper is not None
            helper.used = True
            farm.goods[crop] += 1
            text = tr(
                "{player}'s Flexible field: an empty {good} field yields {crop} into the store.",
                player=p(seat), good=good_name(field_crop), crop=good_name(crop),
            )
            say(events, text, seat)
        grown = 0
        for field in farm.fields:
            if not field.crop and all(field is not other for other in flexed):
                field.crop = True
                grown += 1
        if grown:
            say(events, tr_n("{n} of {player}'s fields grows a crop.", "{n} of {player}'s fields grow a crop.", grown, player=p(seat)), seat)
        for crop in sorted(farm.passive("H11")):
            if sum(CARDS[field.card].field == crop for field in farm.fields) >= CONFIG.h11_min_fields:
                farm.goods[crop] += 1
                say(events, tr("{player}'s Crop specialist adds {good}.", player=p(seat), good=good_name(crop)), seat)
        prolific = farm.has("H12")
        needed = CONFIG.h12_min_pigs if prolific else CONFIG.breeding_min_pigs
        most = CONFIG.h12_max_piglets if prolific else 1
        piglets = min(most, farm.free_pig_spaces) if farm.goods["PG"] >= needed else 0
        if piglets:
            farm.goods["PG"] += piglets
            say(events, tr_n("{player}'s pigs breed: +{n} pig.", "{player}'s pigs breed: +{n} pigs.", piglets, player=p(seat)), seat)
        choice.resource, choice.flex = "", []


def reveal_donkeys(state: GranjaState, events: Events) -> None:
    """T1 reveal, T2 siesta, T3 new order; then T4 starts."""
    for seat in state.order:
        choice = state.choices[seat]
        farm = state.farms[seat]
        farm.donkeys.append(choice.donkey)
        for _ in range(choice.push):
            helper = farm.unused_helper("H06")
            assert helper is not None
            helper.used = True
        if choice.push:
            text = tr(
                "{player} reveals donkey marker {marker} and {n} Siesta push.",
                player=p(seat), marker=choice.donkey, n=choice.push,
            )
        else:
            text = tr("{player} reveals donkey marker {marker}.", player=p(seat), marker=choice.donkey)
        say(events, text, seat)
    for seat in state.order:
        choice = state.choices[seat]
        farm = state.farms[seat]
        hats = CONFIG.donkey_symbols - DONKEYS[choice.donkey]
        steps = hats + (1 if WAGON_MAKER in farm.buildings else 0) + choice.push
        moved = advance_disc(state, seat, steps)
        if steps:
            say(events, tr("{player}'s siesta disc moves {n} to space {space}.", player=p(seat), n=moved, space=state.siesta_space[seat]), seat)
        choice.donkey, choice.push = "", 0
    state.order = sorted(range(state.players), key=lambda s: (-state.siesta_space[s], -state.siesta_stamp[s]))
    say(events, tr("New turn order: {order}.", order=", ".join(p(seat) for seat in state.order)))
    start_sequential(state, T4_DELIVER)


def clean_up(state: GranjaState, events: Events) -> None:
    """S2: discs back to 0 in turn order, usage markers off, next round or the end."""
    stack_discs_in_turn_order(state)
    for farm in state.farms:
        farm.sold = False
        for helper in farm.helpers:
            helper.used = False
    if state.round < CONFIG.rounds:
        state.round += 1
        state.roofs_offer = list(state.roofs_future[state.round - 1])
        state.phase = F1_PLAY
        state.turn = 0
        state.acted = False
        for choice in state.choices:
            choice.waiting = True  # every seat has an F1 window (3.1)
        say(events, tr("Round {n} begins. Roofs on offer: {roofs}.", n=state.round, roofs=", ".join(state.roofs_offer)))
    else:
        say(events, tr("The sixth round is over: last chance for anytime actions."))
        start_sequential(state, END_WINDOW)


# ----- defaults for a seat that runs out of time (Rulings 42 and 55) ---------------------------------


def default_move(state: GranjaState, seat: int) -> Move:
    moves = legal_moves(state, seat)
    stack = state.tasks[seat]
    if stack:
        task = stack[-1]
        if task.kind == "play":  # an effect's card play: cards by id, the field first (Ruling 55)
            return Move("play", (min(state.farms[seat].hand), "field"))
        if task.optional or task.kind == "die":
            return PASS
        return moves[0]  # lists are built in the default order: goods, store first, ids, slots
    phase = state.phase
    if phase == F1_PLAY:
        committed = {play.card for play in state.choices[seat].plays}
        card = next((card for card in state.farms[seat].hand if card not in committed), None)
        return DONE if card is None else Move("play", (card, "field"))
    if phase == F3_PROMPT:
        return Move("gain", ("GR",)) if moves[0].kind == "gain" else Move("flex", ("none",))
    if phase == T1_DONKEY:
        best = max(available_donkeys(state, seat), key=lambda marker: DONKEYS[marker])
        return Move("donkey", (best,))
    if phase in PICK_PHASES and not state.die_used:
        return Move("take", (str(min(state.dice)),))
    if phase == R4_SHARED and not state.die_used:
        return PASS
    return DONE
