"""Why a move is refused, in a player's words (``Game.why_illegal``).

``explain`` returns None exactly for legal moves. For anything else it looks for the most
specific reason it can name (wrong step, missing goods, closed building...), and falls back on
what the seat is being asked right now.
"""

from __future__ import annotations

from engine.i18n import tr

from .cards import CARDS
from .config import CONFIG, CROPS, DONKEY_BLOCKS, MARKET, UPGRADE_RESULT
from .effects import ANYTIME_KINDS, effect_args
from .farm import (
    can_draw,
    extension_cost,
    has_item,
    payable_types,
    projected_farm,
    slot_cards,
    upgrade_price,
    upgrade_sources,
)
from .market import delivery_targets, market_choices
from .model import (
    DICE_PHASES,
    F1_PLAY,
    F3_PROMPT,
    F4_ROOFS,
    OVER,
    PICK_PHASES,
    R4_SHARED,
    SEQUENTIAL_PHASES,
    T1_DONKEY,
    T4_DELIVER,
    T5_EXTRA,
    Farm,
    GranjaState,
    Move,
    Task,
    hexes_in_play,
    roof_round,
)
from .notation import format_move
from .rules import active_seat, available_donkeys, legal_moves, to_act
from .terms import building_name, good_name
from .views import describe_task, private_prompt

WINDOW_PHASES = (F1_PLAY, T1_DONKEY, *SEQUENTIAL_PHASES)


def explain(state: GranjaState, seat: int, move: Move) -> str | None:
    if move in legal_moves(state, seat):
        return None
    if state.phase == OVER:
        return tr("The game is over.")
    if seat not in to_act(state):
        return not_acting(state, seat)
    stack = state.tasks[seat]
    reason = task_reason(state, seat, stack[-1], move) if stack else phase_reason(state, seat, move)
    if reason:
        return reason
    return tr("{move} is not possible now. {prompt}", move=format_move(move), prompt=private_prompt(state, seat))


def not_acting(state: GranjaState, seat: int) -> str:
    if state.phase == F1_PLAY:
        if not state.choices[seat].plays:
            return tr("You had no card to play and ended your window; the reveal comes when everyone has chosen.")
        return tr("You have committed your card play; the reveal comes when everyone has chosen.")
    if state.phase == T1_DONKEY:
        return tr("You have chosen your donkey marker; the reveal comes when everyone has chosen.")
    if state.phase == F3_PROMPT:
        return tr("You have nothing to choose in this harvest; waiting for the others.")
    active = active_seat(state)
    return tr("It is not your turn; seat {seat} is to act.", seat=active + 1 if active is not None else "?")


# ----- answers to a pending task ----------------------------------------------------------------------


def task_reason(state: GranjaState, seat: int, task: Task, move: Move) -> str | None:
    farm = projected_farm(state, seat) if task.secret else state.farms[seat]
    expected = {
        "play": ("play",), "discard": ("discard",), "pay": ("pay",), "upgrade": ("upgrade", "pass"),
        "deliver": ("deliver", "pass"), "gain": ("gain",), "market": ("hex",), "die": ("die", "nudge", "pass"),
    }[task.kind]  # fmt: skip
    if move.kind == "back":
        return tr("Only an unfinished secret card play can be taken back; this choice must be answered.")
    if move.kind not in expected:
        return tr("First finish what you started: {task}", task=describe_task(task))
    if move.kind == "pass":
        return tr("This choice is not optional: {task}", task=describe_task(task))
    if task.kind == "play":
        return play_reason(state, seat, farm, move)
    if task.kind == "discard":
        cards = ", ".join(slot_cards(farm, task.items[1]))
        if task.items[1] == "helper":
            return tr("{card} is not one of your helpers; replace one of {cards}.", card=move.args[0], cards=cards)
        return tr("{card} is not one of your barrows; replace one of {cards}.", card=move.args[0], cards=cards)
    if task.kind == "pay":
        return pay_reason(farm, task, move.args[0])
    if task.kind == "upgrade":
        return upgrade_reason(farm, move.args[0], paid=False)
    if task.kind == "deliver":
        return delivery_reason(state, seat, move)
    if task.kind == "gain":
        return tr("Choose one of {goods}.", goods=", ".join(task.items))
    if task.kind == "market":
        value = int(task.items[0])
        allowed = ", ".join(MARKET[index].id for index in market_choices(state, seat, value))
        spec = next(spec for spec in MARKET if spec.id == move.args[0])
        if spec.value != value:
            return tr(
                "{hex} has value {value}; your barrow is worth {worth}: choose {allowed}.",
                hex=spec.id, value=spec.value, worth=value, allowed=allowed,
            )
        if MARKET.index(spec) >= hexes_in_play(state.players):
            return tr("{hex} is only in play with 4 players; choose {allowed}.", hex=spec.id, allowed=allowed)
        return tr(
            "While a hex of value {value} is empty you must use an empty one ({allowed}); you never displace "
            "your own marker.",
            value=value, allowed=allowed,
        )
    if task.kind == "die":
        face = int(task.items[0])
        if move.kind == "nudge":
            if task.count:
                return tr("The die has already been nudged.")
            if farm.unused_helper("H09") is None:
                return tr("Nudging a die needs an unused Die nudge helper (H09).")
            return tr("A die cannot go below 1 or above 6.")
        return effect_reason(state, seat, CONFIG.die_effects[face], move.args, tr("A die showing {face}", face=face))
    return None


def play_reason(state: GranjaState, seat: int, farm: Farm, move: Move) -> str | None:
    card, position = move.args
    if state.phase == F1_PLAY and card in {play.card for play in state.choices[seat].plays}:
        return tr("You already committed {card} this round; choose another card.", card=card)
    if card not in farm.hand:
        return tr("{card} is not in your hand.", card=card)
    if position == "ext":
        return extension_cost_reason(extension_cost(farm), payable_types(farm))
    return None


def extension_cost_reason(cost: int, types: set[str] | list[str] | tuple[str, ...]) -> str:
    """Why the next extension cannot be paid: its cost, and the farm-good types there are."""
    have = ", ".join(sorted(types)) or tr("nothing")
    fields = {"cost": cost, "count": len(types), "have": have}
    if cost == 1:
        return tr(
            "Your 1st extension costs 1 farm good (goods, silver or VP; not trade goods), and you have "
            "{count} type(s): {have}.",
            **fields,
        )
    if cost == 2:
        text = tr(
            "Your 2nd extension costs {cost} farm goods of {cost} different types (goods, silver or VP; not "
            "trade goods), and you have {count} type(s): {have}.",
            **fields,
        )
    elif cost == 3:
        text = tr(
            "Your 3rd extension costs {cost} farm goods of {cost} different types (goods, silver or VP; not "
            "trade goods), and you have {count} type(s): {have}.",
            **fields,
        )
    else:
        text = tr(
            "Your {cost}th extension costs {cost} farm goods of {cost} different types (goods, silver or VP; "
            "not trade goods), and you have {count} type(s): {have}.",
            **fields,
        )
    return text


def pay_reason(farm: Farm, task: Task, token: str) -> str:
    base = token.partition("@")[0]
    if base == "TG":
        return tr("A trade good is not a farm good: it cannot pay for an extension.")
    chosen = {item.partition("@")[0] for item in task.items[1:]}
    if task.count > 1 and base in chosen:
        return tr(
            "Every good paying for this extension must be of a different type, and you already pay with {good}.",
            good=good_name(base),
        )
    if not has_item(farm, token):
        return missing(token)
    return tr("Pay one good at a time until the cost is covered.")


def missing(token: str) -> str:
    base, _, where = token.partition("@")
    if token == "$":
        return tr("You have no silver.")
    if token == "VP":
        return tr("You have no victory points to pay with.")
    if where:
        return tr("None of your {good} fields holds a crop.", good=good_name(base))
    if base in CROPS:
        return tr("You have no {good} in your store.", good=good_name(base))
    return tr("You have no {good}.", good=good_name(base))


def upgrade_reason(farm: Farm, token: str, paid: bool) -> str | None:
    base = token.partition("@")[0]
    if base not in UPGRADE_RESULT:
        return tr("Only grain, olives, grapes and pigs can be upgraded, not {good}.", good=good_name(base))
    if not has_item(farm, token):
        return missing(token)
    if paid:
        price = upgrade_price(farm, base)
        if farm.silver < price:
            return tr("Upgrading {good} costs {price} $; you have {silver} $.", good=good_name(base), price=price, silver=farm.silver)
    return None


def delivery_reason(state: GranjaState, seat: int, move: Move) -> str | None:
    farm = state.farms[seat]
    source, target = move.args[0], move.args[1]
    symbol = move.args[2] if len(move.args) > 2 else source.partition("@")[0]
    if not has_item(farm, source):
        return missing(source)
    if len(move.args) > 2 and farm.unused_helper("H16") is None:
        return tr("Only an unused Crate substitute (H16) lets a trade good stand for another symbol.")
    if target.startswith("b"):
        number = int(target[1:])
        building = state.buildings[number - 1]
        name = building_name(number)
        if building.order_marker:
            return tr(
                "The {building} is blocked by building-order marker {marker}: nobody may deliver there yet.",
                building=name, marker=building.order_marker,
            )
        if seat in building.finishers:
            return tr("You have completed the {building}; you cannot deliver there again.", building=name)
        return tr("Your row of the {building} needs no more {good}.", building=name, good=good_name(symbol))
    if target not in {barrow.card for barrow in farm.barrows}:
        return tr(
            "{card} is not one of your barrows; you deliver only to your own barrows and to buildings.", card=target
        )
    needed = dict(delivery_targets(state, seat))[target]
    return tr(
        "Barrow {card} needs no more {good}; it still needs {needed}.",
        card=target, good=good_name(symbol), needed=" ".join(needed),
    )


def effect_reason(state: GranjaState, seat: int, templates: tuple[str, ...], args: tuple[str, ...], what: str) -> str:
    offered = [option for template in templates for option in effect_args(template)]
    if tuple(args) not in offered:
        names = sorted({" ".join(option[:1]) for option in offered})
        if not args:
            return tr("{what} offers {options}; not that.", what=what, options=", ".join(names))
        return tr("{what} offers {options}; not {option}.", what=what, options=", ".join(names), option=" ".join(args))
    farm = state.farms[seat]
    name = args[0]
    if name == "draw" and not can_draw(state):
        return tr("There is no card left to draw (deck and discard pile are empty).")
    if name == "play" and not farm.hand:
        return tr("You have no card in hand to play.")
    if name == "upgrade" and not upgrade_sources(farm):
        return tr("You have no grain, olive, grape or pig to upgrade.")
    if name == "siesta":
        return tr("Your siesta disc is on the top space and cannot advance.")
    if name == "deliver":
        return tr("No delivery is possible now: nothing you own fits an open row or one of your barrows.")
    return tr("{option} is not possible now.", option=" ".join(args))


# ----- moves of the current step ----------------------------------------------------------------------


def phase_reason(state: GranjaState, seat: int, move: Move) -> str | None:
    phase = state.phase
    farm = state.farms[seat]
    kind = move.kind
    if kind in ANYTIME_KINDS and not (kind == "use" and is_extra_donkey(move)):
        if phase not in WINDOW_PHASES:
            return tr("The harvest prompt is not a window: anytime actions wait for your next window (Ruling 53).")
        if phase == F1_PLAY and state.choices[seat].plays:
            return tr("Your card play is under way; the F1 window closed when you committed your first play.")
        return anytime_reason(state, seat, move)
    if kind == "play":
        if phase != F1_PLAY:
            return tr(
                "Cards are played in F1, or through an effect that lets you play one (die 2, trade good, roof, "
                "Quick planting)."
            )
        return play_reason(state, seat, projected_farm(state, seat), move)
    if kind == "use":  # Extra donkey
        helper = next((h for h in farm.helpers if h.card == move.args[0]), None)
        if phase != T4_DELIVER:
            return tr("Extra donkey (H05) works only in your T4 turn.")
        if helper is None:
            return tr("{card} is not one of your helpers.", card=move.args[0])
        if helper.used:
            return tr("This Extra donkey has already been used this round.")
        return tr("An extra donkey is useless now: no delivery is possible.")
    if kind in ("take", "die", "pass") and phase in DICE_PHASES and state.die_used:
        return tr("You have already had your die this turn; take anytime actions if you like, then done.")
    if kind == "take":
        if phase not in PICK_PHASES:
            return tr("Dice are taken in the revenue phase, in turn order (R2 and R3).")
        faces = " ".join(map(str, state.dice))
        return tr("No die shows {face}; the dice are {dice}.", face=move.args[0], dice=faces)
    if kind == "die":
        if phase != R4_SHARED:
            return tr("Take a die first (take N); its options come afterwards.")
        shared = tr("The shared die ({face})", face=state.dice[0])
        return effect_reason(state, seat, CONFIG.die_effects[state.dice[0]], move.args, shared)
    if kind == "roof":
        return roof_reason(state, seat, move.args[0])
    if kind == "donkey":
        if phase != T1_DONKEY:
            return tr("Donkey markers are chosen in T1, after the revenue phase.")
        return donkey_reason(state, seat, move)
    if kind in ("deliver", "extra"):
        return delivery_phase_reason(state, seat, move)
    if kind in ("gain", "flex"):
        if phase != F3_PROMPT:
            return tr("There is nothing to choose: that answer belongs to the harvest prompt or an effect.")
        if kind == "gain":
            return tr("The Greengrocer gives grain, olive, grape or a pig; or you have already chosen.")
        if move.args[0] != "none":
            return tr(
                "A Flexible field needs an unused Flexible field helper (H17) and an empty {good} field that is "
                "not already declared.",
                good=good_name(move.args[0]),
            )
    return closing_reason(state, seat, kind)


def delivery_phase_reason(state: GranjaState, seat: int, move: Move) -> str | None:
    """Why a delivery (``deliver``, ``extra``) is refused: no allowance now, none left, or the good."""
    kind, phase = move.kind, state.phase
    if kind == "deliver" and phase != T4_DELIVER:
        return tr("Deliveries need an allowance: your T4 turn, an extra delivery in T5, die 6 or an ability.")
    if kind == "extra" and phase != T5_EXTRA:
        return tr("Extra deliveries (1 $ each) come in T5.")
    if state.budget <= 0:
        if kind == "deliver":
            return tr("You have no deliveries left this turn.")
        return tr("You have reached your extra-delivery limit.")
    if kind == "extra" and state.farms[seat].silver < CONFIG.extra_delivery_price:
        return tr("An extra delivery costs {price} $; you have none.", price=CONFIG.extra_delivery_price)
    return delivery_reason(state, seat, move)


def closing_reason(state: GranjaState, seat: int, kind: str) -> str | None:
    """Why ``done``, ``pass`` or an answer nothing asked for is refused now."""
    phase = state.phase
    if kind == "done" and phase in PICK_PHASES:
        return tr("Take a die first (take N); done ends your turn after that.")
    if kind == "done" and phase == R4_SHARED:
        return tr("Use the shared die (die ...) or decline it (pass) first.")
    if kind == "done" and phase == F1_PLAY:
        return tr("Your card play is not optional: commit it (play CARD POSITION); done is for a seat without cards.")
    if kind == "done":
        return tr("There is no turn of yours to end now: {prompt}", prompt=private_prompt(state, seat))
    if kind == "pass":
        if phase in PICK_PHASES:
            return tr("You must take a die (its action is optional once taken).")
        return tr("There is nothing to decline now: {prompt}", prompt=private_prompt(state, seat))
    if kind in ("discard", "pay", "hex", "nudge", "back"):
        return tr("Nothing asks for that now: {prompt}", prompt=private_prompt(state, seat))
    return None


def is_extra_donkey(move: Move) -> bool:
    card = CARDS.get(move.args[0]) if move.args else None
    return card is not None and card.helper == "H05" and len(move.args) == 1


def roof_reason(state: GranjaState, seat: int, roof_id: str) -> str:
    farm = state.farms[seat]
    if state.phase != F4_ROOFS:
        return tr("Roofs are bought in F4, at the end of the farm phase.")
    if any(roof_round(roof.id) == state.round for roof in farm.roofs):
        return tr("You have already bought a roof this round.")
    if len(farm.roofs) >= len(CONFIG.roof_space_vp):
        return tr("All five of your roof spaces are filled.")
    if roof_id not in state.roofs_offer:
        if not state.roofs_offer:
            return tr("{roof} is not on offer; this round's roofs are gone.", roof=roof_id)
        return tr(
            "{roof} is not on offer; this round's roofs are {roofs}.", roof=roof_id, roofs=" ".join(state.roofs_offer)
        )
    return tr("A roof costs {price} $ this round; you have {silver} $.", price=state.round, silver=farm.silver)


def donkey_reason(state: GranjaState, seat: int, move: Move) -> str:
    marker = move.args[0]
    available = available_donkeys(state, seat)
    if marker not in available:
        block = next(block for block in DONKEY_BLOCKS if state.round in block)
        return tr(
            "You already chose {marker} in rounds {first}-{last}; available now: {available}.",
            marker=marker, first=block[0], last=block[-1], available=" ".join(available),
        )
    unused = sum(not helper.used for helper in state.farms[seat].helpers_of("H06"))
    return tr("You have {n} unused Siesta push helper(s) (H06) to declare.", n=unused)


def anytime_reason(state: GranjaState, seat: int, move: Move) -> str:
    farm = state.farms[seat]
    kind, args = move.kind, move.args
    if kind == "buy":
        good = args[0]
        if farm.silver < CONFIG.buy_price[good]:
            return tr(
                "{good} costs {price} $; you have {silver} $.",
                good=good_name(good).capitalize(), price=CONFIG.buy_price[good], silver=farm.silver,
            )
        return tr("Your pigsty is full: build an extension with a pigsty first.")
    if kind == "sell":
        good = args[0]
        if good in CROPS and farm.field_crop(good) is not None and farm.goods[good] == 0:
            return tr("Crops on fields cannot be sold (Ruling 26); only crops in a store.")
        return tr("You have no {good} to sell.", good=good_name(good))
    if kind == "upgrade":
        return upgrade_reason(farm, args[0], paid=True) or tr("That upgrade is not possible now.")
    if kind == "tg":
        if farm.goods["TG"] < 1:
            return tr("You have no trade good to spend.")
        return effect_reason(state, seat, CONFIG.trade_good_effects, args, tr("A trade good"))
    if kind == "use" and args and args[0] in CONFIG.roofs:
        roof = next((roof for roof in farm.roofs if roof.id == args[0]), None)
        if roof is None:
            return tr("You do not own roof {roof}.", roof=args[0])
        if roof.used:
            return tr("Roof {roof} is already face down: each roof ability works once per game.", roof=args[0])
        return effect_reason(state, seat, CONFIG.roofs[roof.id][1], args[1:], tr("Roof {roof}", roof=roof.id))
    if kind == "use":
        return helper_reason(farm, args[0])
    return tr("That anytime action is not possible now.")


def helper_reason(farm: Farm, card_id: str) -> str:
    """Why a helper card cannot be used as an anytime action now."""
    helper = next((h for h in farm.helpers if h.card == card_id), None)
    if helper is None:
        return tr("{card} is not one of your helpers.", card=card_id)
    card = CARDS[helper.card]
    if helper.used:
        return tr("{card} already carries a usage marker this round.", card=card.id)
    if card.helper not in ("H02", "H04", "H10"):
        return tr(
            "{card} ({helper}) is not used as an action; it works by itself when its moment comes.",
            card=card.id, helper=card.helper,
        )
    if card.helper == "H02":
        return tr("You have nothing to upgrade.")
    if card.helper == "H10":
        return tr("Quick planting needs 1 VP to pay and a card in hand.")
    pig = card.param.endswith("PG")
    crop = card.param[:2] in CROPS
    fields = {"pair": card.param, "card": card.id}
    if pig:
        return tr("This Exchange ({pair}) needs what it gives away, a free pig space.", **fields)
    if crop:
        return tr(
            "This Exchange ({pair}) needs what it gives away; name the crop's source (use {card} GR or GR@field).",
            **fields,
        )
    return tr("This Exchange ({pair}) needs what it gives away.", **fields)


__all__ = ["explain"]
