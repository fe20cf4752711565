"""Why a move is refused, in a player's words (``Game.why_illegal``).

``explain`` returns None exactly for legal moves. For anything else it looks for the most
specific reason it can name (wrong step, missing goods, closed building...), and falls back on
what the seat is being asked right now.
"""

from __future__ import annotations

from .cards import CARDS
from .config import BUILDINGS, CONFIG, CROPS, DONKEY_BLOCKS, MARKET, UPGRADE_RESULT
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
    good_name,
    hexes_in_play,
    roof_round,
)
from .notation import format_move
from .rules import active_seat, available_donkeys, legal_moves, to_act
from .views import describe_task, private_prompt

WINDOW_PHASES = (F1_PLAY, T1_DONKEY, *SEQUENTIAL_PHASES)
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def explain(state: GranjaState, seat: int, move: Move) -> str | None:
    if move in legal_moves(state, seat):
        return None
    if state.phase == OVER:
        return "The game is over."
    if seat not in to_act(state):
        return not_acting(state, seat)
    stack = state.tasks[seat]
    reason = task_reason(state, seat, stack[-1], move) if stack else phase_reason(state, seat, move)
    if reason:
        return reason
    return f"{format_move(move)} is not possible now. {private_prompt(state, seat)}"


def not_acting(state: GranjaState, seat: int) -> str:
    if state.phase == F1_PLAY:
        if not state.choices[seat].plays:
            return "You had no card to play and ended your window; the reveal comes when everyone has chosen."
        return "You have committed your card play; the reveal comes when everyone has chosen."
    if state.phase == T1_DONKEY:
        return "You have chosen your donkey marker; the reveal comes when everyone has chosen."
    if state.phase == F3_PROMPT:
        return "You have nothing to choose in this harvest; waiting for the others."
    active = active_seat(state)
    return f"It is not your turn; seat {active + 1 if active is not None else '?'} is to act."


# ----- answers to a pending task ----------------------------------------------------------------------


def task_reason(state: GranjaState, seat: int, task: Task, move: Move) -> str | None:
    farm = projected_farm(state, seat) if task.secret else state.farms[seat]
    expected = {
        "play": ("play",), "discard": ("discard",), "pay": ("pay",), "upgrade": ("upgrade", "pass"),
        "deliver": ("deliver", "pass"), "gain": ("gain",), "market": ("hex",), "die": ("die", "nudge", "pass"),
    }[task.kind]  # fmt: skip
    if move.kind == "back":
        return "Only an unfinished secret card play can be taken back; this choice must be answered."
    if move.kind not in expected:
        return f"First finish what you started: {describe_task(task)}"
    if move.kind == "pass":
        return "This choice is not optional: " + describe_task(task)
    if task.kind == "play":
        return play_reason(state, seat, farm, move)
    if task.kind == "discard":
        cards = slot_cards(farm, task.items[1])
        return f"{move.args[0]} is not one of your {task.items[1]}s; replace one of {', '.join(cards)}."
    if task.kind == "pay":
        return pay_reason(farm, task, move.args[0])
    if task.kind == "upgrade":
        return upgrade_reason(farm, move.args[0], paid=False)
    if task.kind == "deliver":
        return delivery_reason(state, seat, move)
    if task.kind == "gain":
        return f"Choose one of {', '.join(task.items)}."
    if task.kind == "market":
        value = int(task.items[0])
        allowed = ", ".join(MARKET[index].id for index in market_choices(state, seat, value))
        spec = next(spec for spec in MARKET if spec.id == move.args[0])
        if spec.value != value:
            return f"{spec.id} has value {spec.value}; your barrow is worth {value}: choose {allowed}."
        if MARKET.index(spec) >= hexes_in_play(state.players):
            return f"{spec.id} is only in play with 4 players; choose {allowed}."
        return f"While a hex of value {value} is empty you must use an empty one ({allowed}); you never displace your own marker."
    if task.kind == "die":
        face = int(task.items[0])
        if move.kind == "nudge":
            if task.count:
                return "The die has already been nudged."
            if farm.unused_helper("H09") is None:
                return "Nudging a die needs an unused Die nudge helper (H09)."
            return "A die cannot go below 1 or above 6."
        return effect_reason(state, seat, CONFIG.die_effects[face], move.args, f"A die showing {face}")
    return None


def play_reason(state: GranjaState, seat: int, farm: Farm, move: Move) -> str | None:
    card, position = move.args
    if state.phase == F1_PLAY and card in {play.card for play in state.choices[seat].plays}:
        return f"You already committed {card} this round; choose another card."
    if card not in farm.hand:
        return f"{card} is not in your hand."
    if position == "ext":
        cost = extension_cost(farm)
        types = payable_types(farm)
        have = ", ".join(sorted(types)) or "nothing"
        rule = "farm good" if cost == 1 else f"farm goods of {cost} different types"
        return (
            f"Your {ORDINAL.get(cost, f'{cost}th')} extension costs {cost} {rule} "
            f"(goods, silver or VP; not trade goods), and you have {len(types)} type(s): {have}."
        )
    return None


def pay_reason(farm: Farm, task: Task, token: str) -> str:
    base = token.partition("@")[0]
    if base == "TG":
        return "A trade good is not a farm good: it cannot pay for an extension."
    chosen = {item.partition("@")[0] for item in task.items[1:]}
    if task.count > 1 and base in chosen:
        return (
            f"Every good paying for this extension must be of a different type, and you already pay "
            f"with {good_name(base)}."
        )
    if not has_item(farm, token):
        return missing(token)
    return "Pay one good at a time until the cost is covered."


def missing(token: str) -> str:
    base, _, where = token.partition("@")
    if token == "$":
        return "You have no silver."
    if token == "VP":
        return "You have no victory points to pay with."
    if where:
        return f"None of your {good_name(base)} fields holds a crop."
    return f"You have no {good_name(base)}" + (" in your store." if base in CROPS else ".")


def upgrade_reason(farm: Farm, token: str, paid: bool) -> str | None:
    base = token.partition("@")[0]
    if base not in UPGRADE_RESULT:
        return f"Only grain, olives, grapes and pigs can be upgraded, not {good_name(base)}."
    if not has_item(farm, token):
        return missing(token)
    if paid:
        price = upgrade_price(farm, base)
        if farm.silver < price:
            return f"Upgrading {good_name(base)} costs {price} $; you have {farm.silver} $."
    return None


def delivery_reason(state: GranjaState, seat: int, move: Move) -> str | None:
    farm = state.farms[seat]
    source, target = move.args[0], move.args[1]
    symbol = move.args[2] if len(move.args) > 2 else source.partition("@")[0]
    if not has_item(farm, source):
        return missing(source)
    if len(move.args) > 2 and farm.unused_helper("H16") is None:
        return "Only an unused Crate substitute (H16) lets a trade good stand for another symbol."
    if target.startswith("b"):
        number = int(target[1:])
        building = state.buildings[number - 1]
        name = BUILDINGS[number - 1].name
        if building.order_marker:
            return f"The {name} is blocked by building-order marker {building.order_marker}: nobody may deliver there yet."
        if seat in building.finishers:
            return f"You have completed the {name}; you cannot deliver there again."
        return f"Your row of the {name} needs no more {good_name(symbol)}."
    if target not in {barrow.card for barrow in farm.barrows}:
        return f"{target} is not one of your barrows; you deliver only to your own barrows and to buildings."
    needed = dict(delivery_targets(state, seat))[target]
    return f"Barrow {target} needs no more {good_name(symbol)}; it still needs {' '.join(needed)}."


def effect_reason(state: GranjaState, seat: int, templates: tuple[str, ...], args: tuple[str, ...], what: str) -> str:
    offered = [option for template in templates for option in effect_args(template)]
    if tuple(args) not in offered:
        names = sorted({" ".join(option[:1]) for option in offered})
        return f"{what} offers {', '.join(names)}; not {' '.join(args) or 'that'}."
    farm = state.farms[seat]
    name = args[0]
    if name == "draw" and not can_draw(state):
        return "There is no card left to draw (deck and discard pile are empty)."
    if name == "play" and not farm.hand:
        return "You have no card in hand to play."
    if name == "upgrade" and not upgrade_sources(farm):
        return "You have no grain, olive, grape or pig to upgrade."
    if name == "siesta":
        return "Your siesta disc is on the top space and cannot advance."
    if name == "deliver":
        return "No delivery is possible now: nothing you own fits an open row or one of your barrows."
    return f"{' '.join(args)} is not possible now."


# ----- moves of the current step ----------------------------------------------------------------------


def phase_reason(state: GranjaState, seat: int, move: Move) -> str | None:
    phase = state.phase
    farm = state.farms[seat]
    kind = move.kind
    if kind in ANYTIME_KINDS and not (kind == "use" and is_extra_donkey(move)):
        if phase not in WINDOW_PHASES:
            return "The harvest prompt is not a window: anytime actions wait for your next window (Ruling 53)."
        if phase == F1_PLAY and state.choices[seat].plays:
            return "Your card play is under way; the F1 window closed when you committed your first play."
        return anytime_reason(state, seat, move)
    if kind == "play":
        if phase != F1_PLAY:
            return "Cards are played in F1, or through an effect that lets you play one (die 2, trade good, roof, Quick planting)."
        return play_reason(state, seat, projected_farm(state, seat), move)
    if kind == "use":  # Extra donkey
        helper = next((h for h in farm.helpers if h.card == move.args[0]), None)
        if phase != T4_DELIVER:
            return "Extra donkey (H05) works only in your T4 turn."
        if helper is None:
            return f"{move.args[0]} is not one of your helpers."
        if helper.used:
            return "This Extra donkey has already been used this round."
        return "An extra donkey is useless now: no delivery is possible."
    if kind in ("take", "die", "pass") and phase in DICE_PHASES and state.die_used:
        return "You have already had your die this turn; take anytime actions if you like, then done."
    if kind == "take":
        if phase not in PICK_PHASES:
            return "Dice are taken in the revenue phase, in turn order (R2 and R3)."
        faces = " ".join(map(str, state.dice))
        return f"No die shows {move.args[0]}; the dice are {faces}."
    if kind == "die":
        if phase != R4_SHARED:
            return "Take a die first (take N); its options come afterwards."
        return effect_reason(state, seat, CONFIG.die_effects[state.dice[0]], move.args, f"The shared die ({state.dice[0]})")
    if kind == "roof":
        return roof_reason(state, seat, move.args[0])
    if kind == "donkey":
        if phase != T1_DONKEY:
            return "Donkey markers are chosen in T1, after the revenue phase."
        return donkey_reason(state, seat, move)
    if kind in ("deliver", "extra"):
        if kind == "deliver" and phase != T4_DELIVER:
            return "Deliveries need an allowance: your T4 turn, an extra delivery in T5, die 6 or an ability."
        if kind == "extra" and phase != T5_EXTRA:
            return "Extra deliveries (1 $ each) come in T5."
        if state.budget <= 0:
            return "You have no deliveries left this turn." if kind == "deliver" else "You have reached your extra-delivery limit."
        if kind == "extra" and farm.silver < CONFIG.extra_delivery_price:
            return f"An extra delivery costs {CONFIG.extra_delivery_price} $; you have none."
        return delivery_reason(state, seat, move)
    if kind in ("gain", "flex"):
        if phase != F3_PROMPT:
            return "There is nothing to choose: that answer belongs to the harvest prompt or an effect."
        if kind == "gain":
            return "The Greengrocer gives grain, olive, grape or a pig; or you have already chosen."
        if move.args[0] != "none":
            return (
                f"A Flexible field needs an unused Flexible field helper (H17) and an empty "
                f"{good_name(move.args[0])} field that is not already declared."
            )
    if kind == "done" and phase in PICK_PHASES:
        return "Take a die first (take N); done ends your turn after that."
    if kind == "done" and phase == R4_SHARED:
        return "Use the shared die (die ...) or decline it (pass) first."
    if kind == "done" and phase == F1_PLAY:
        return "Your card play is not optional: commit it (play CARD POSITION); done is for a seat without cards."
    if kind == "done":
        return "There is no turn of yours to end now: " + private_prompt(state, seat)
    if kind == "pass":
        if phase in PICK_PHASES:
            return "You must take a die (its action is optional once taken)."
        return "There is nothing to decline now: " + private_prompt(state, seat)
    if kind in ("discard", "pay", "hex", "nudge", "back"):
        return "Nothing asks for that now: " + private_prompt(state, seat)
    return None


def is_extra_donkey(move: Move) -> bool:
    card = CARDS.get(move.args[0]) if move.args else None
    return card is not None and card.helper == "H05" and len(move.args) == 1


def roof_reason(state: GranjaState, seat: int, roof_id: str) -> str:
    farm = state.farms[seat]
    if state.phase != F4_ROOFS:
        return "Roofs are bought in F4, at the end of the farm phase."
    if any(roof_round(roof.id) == state.round for roof in farm.roofs):
        return "You have already bought a roof this round."
    if len(farm.roofs) >= len(CONFIG.roof_space_vp):
        return "All five of your roof spaces are filled."
    if roof_id not in state.roofs_offer:
        return f"{roof_id} is not on offer; this round's roofs are {' '.join(state.roofs_offer) or 'gone'}."
    return f"A roof costs {state.round} $ this round; you have {farm.silver} $."


def donkey_reason(state: GranjaState, seat: int, move: Move) -> str:
    marker = move.args[0]
    available = available_donkeys(state, seat)
    if marker not in available:
        block = next(block for block in DONKEY_BLOCKS if state.round in block)
        return (
            f"You already chose {marker} in rounds {block[0]}-{block[-1]}; available now: {' '.join(available)}."
        )
    unused = sum(not helper.used for helper in state.farms[seat].helpers_of("H06"))
    return f"You have {unused} unused Siesta push helper(s) (H06) to declare."


def anytime_reason(state: GranjaState, seat: int, move: Move) -> str:
    farm = state.farms[seat]
    kind, args = move.kind, move.args
    if kind == "buy":
        good = args[0]
        if farm.silver < CONFIG.buy_price[good]:
            return f"{good_name(good).capitalize()} costs {CONFIG.buy_price[good]} $; you have {farm.silver} $."
        return "Your pigsty is full: build an extension with a pigsty first."
    if kind == "sell":
        good = args[0]
        if good in CROPS and farm.field_crop(good) is not None and farm.goods[good] == 0:
            return "Crops on fields cannot be sold (Ruling 26); only crops in a store."
        return f"You have no {good_name(good)} to sell."
    if kind == "upgrade":
        return upgrade_reason(farm, args[0], paid=True) or "That upgrade is not possible now."
    if kind == "tg":
        if farm.goods["TG"] < 1:
            return "You have no trade good to spend."
        return effect_reason(state, seat, CONFIG.trade_good_effects, args, "A trade good")
    if kind == "use" and args and args[0] in CONFIG.roofs:
        roof = next((roof for roof in farm.roofs if roof.id == args[0]), None)
        if roof is None:
            return f"You do not own roof {args[0]}."
        if roof.used:
            return f"Roof {args[0]} is already face down: each roof ability works once per game."
        return effect_reason(state, seat, CONFIG.roofs[roof.id][1], args[1:], f"Roof {roof.id}")
    if kind == "use":
        helper = next((h for h in farm.helpers if h.card == args[0]), None)
        if helper is None:
            return f"{args[0]} is not one of your helpers."
        card = CARDS[helper.card]
        if helper.used:
            return f"{card.id} already carries a usage marker this round."
        if card.helper not in ("H02", "H04", "H10"):
            return f"{card.id} ({card.helper}) is not used as an action; it works by itself when its moment comes."
        if card.helper == "H02":
            return "You have nothing to upgrade."
        if card.helper == "H10":
            return "Quick planting needs 1 VP to pay and a card in hand."
        return f"This Exchange ({card.param}) needs what it gives away" + (
            ", a free pig space" if card.param.endswith("PG") else ""
        ) + (f"; name the crop's source (use {card.id} GR or GR@field)" if card.param[:2] in CROPS else "") + "."
    return "That anytime action is not possible now."


__all__ = ["explain"]
