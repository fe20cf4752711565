"""Rules of Granja: set-up, the six-round state machine, every effect, legality and scoring.

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
from collections.abc import Iterable, Iterator, Sequence

import msgspec

from engine.core import Event, Rng, SetupError
from engine.core.text import quote

from .cards import CARDS, DECK
from .config import (
    BUILDINGS,
    BUTCHER,
    CONFIG,
    CROPS,
    DELICATESSEN,
    DONKEY_BLOCKS,
    DONKEYS,
    EXCHANGES,
    GOOD_NAMES,
    GREENGROCER,
    HEX_DIRECTIONS,
    ITEMS,
    MARKET,
    RESOURCES,
    START_HEXES,
    TRADING_HOUSE,
    UPGRADE_RESULT,
    VILLAGE_SHOP,
    WAGON_MAKER,
)
from .model import (
    END_WINDOW,
    F1_PLAY,
    F3_PROMPT,
    F4_ROOFS,
    OVER,
    POSITIONS,
    R2_PICK,
    R3_PICK,
    R4_SHARED,
    SEQUENTIAL_PHASES,
    T1_DONKEY,
    T4_DELIVER,
    T5_EXTRA,
    Barrow,
    BuildingState,
    CardPlay,
    Farm,
    Field,
    GranjaState,
    Helper,
    Move,
    Roof,
    SeatChoice,
    Task,
)

Events = list[Event]

DONE = Move("done")
PASS = Move("pass")
BACK = Move("back")

# ----- small utilities ------------------------------------------------------------------------------


def say(events: Events, text: str, actor: int | None = None, visible_to: Sequence[int] | None = None) -> None:
    events.append(Event(text=text, actor=actor, visible_to=None if visible_to is None else tuple(visible_to)))


def p(seat: int) -> str:
    return f"{{p{seat}}}"


def good_name(token: str) -> str:
    base, _, where = token.partition("@")
    name = GOOD_NAMES.get(base, base)
    return f"{name} from a field" if where else name


HEXES_FOR_FOUR = len(MARKET)
HEXES_FOR_FEWER = sum(1 for spec in MARKET if not spec.four_players_only)


def hexes_in_play(players: int) -> int:
    """The outer hexes come last in the map and exist only with four players (Ruling 15)."""
    return HEXES_FOR_FOUR if players >= 4 else HEXES_FOR_FEWER


HEX_INDEX = {(spec.q, spec.r): index for index, spec in enumerate(MARKET)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        HEX_INDEX[spec.q + dq, spec.r + dr] for dq, dr in HEX_DIRECTIONS if (spec.q + dq, spec.r + dr) in HEX_INDEX
    )
    for spec in MARKET
)


def neighbours(state: GranjaState, hex_index: int) -> list[int]:
    limit = hexes_in_play(state.players)
    return [other for other in NEIGHBOURS[hex_index] if other < limit]


def hex_id(index: int) -> str:
    return MARKET[index].id


def roof_round(roof_id: str) -> int:
    return CONFIG.roofs[roof_id][0]


# ----- set-up (2.1) ---------------------------------------------------------------------------------


def new_state(players: int, seed: int, stacked: Sequence[str] = ()) -> GranjaState:
    """A fresh game. ``stacked`` card ids go on top of the deck in that order (for tests and
    tutorials); the rest is shuffled below them. Cards are dealt four at a time, seat 0 first."""
    if players < 2:
        raise SetupError("Granja needs 2 to 4 players; the solo mode (an automated rival) is not available yet.")
    unknown = [card for card in stacked if card not in CARDS]
    if unknown:
        raise SetupError(f"Deck option: unknown card {quote(unknown[0])}; cards are C001 to C060.")
    if len(set(stacked)) != len(stacked):
        raise SetupError("Deck option: a card is named twice; every card exists once.")
    rng = Rng(seed=seed)
    start = rng.randint(0, players - 1)
    order = [(start + offset) % players for offset in range(players)]
    rest = [card.id for card in DECK if card.id not in set(stacked)]
    rng.shuffle(rest)
    deck = list(stacked) + rest
    farms = []
    for _seat in range(players):
        hand, deck = deck[: CONFIG.start_hand], deck[CONFIG.start_hand :]
        farms.append(
            Farm(
                silver=CONFIG.start_silver,
                vp=CONFIG.start_vp,
                goods=dict.fromkeys(ITEMS, 0) | {"TG": CONFIG.start_trade_goods},
                hand=hand,
            )
        )
    # Roofs: N of the four markers of each round stay in the game, unseen until their round.
    roofs_future: list[list[str]] = []
    for round_number in range(1, CONFIG.rounds + 1):
        ids = sorted(roof for roof, (number, _) in CONFIG.roofs.items() if number == round_number)
        rng.shuffle(ids)
        roofs_future.append(sorted(ids[:players]))
    buildings = [
        BuildingState(rows=[[False] * len(spec.row) for _ in range(players)]) for spec in BUILDINGS
    ]
    # Building-order markers: a die per marker, rolled again when it names a blocked building.
    for marker in range(1, CONFIG.order_markers + 1):
        while True:
            number = rng.randint(1, 6)
            if buildings[number - 1].order_marker == 0:
                buildings[number - 1].order_marker = marker
                break
    market = [-1] * len(MARKET)
    for position, seat in enumerate(order):
        market[START_HEXES[position]] = seat
    state = GranjaState(
        players=players,
        round=1,
        phase=F1_PLAY,
        order=order,
        turn=0,
        acted=False,
        budget=0,
        farms=farms,
        choices=[SeatChoice(waiting=True) for _ in range(players)],  # every seat has an F1 window
        tasks=[[] for _ in range(players)],
        deck=deck,
        discard=[],
        roofs_future=roofs_future,
        roofs_offer=list(roofs_future[0]),
        buildings=buildings,
        market=market,
        siesta_space=[0] * players,
        siesta_stamp=[0] * players,
        siesta_clock=0,
        dice=[],
        start_player=start,
        rng=rng,
    )
    stack_discs_in_turn_order(state)
    return state


def stack_discs_in_turn_order(state: GranjaState) -> None:
    """All discs on space 0, the start player's on top (2.1 step 8, 3.9 S2)."""
    for position, seat in enumerate(reversed(state.order)):
        state.siesta_space[seat] = 0
        state.siesta_stamp[seat] = position + 1
    state.siesta_clock = state.players


# ----- goods ----------------------------------------------------------------------------------------


def has_item(farm: Farm, token: str) -> bool:
    """Whether the farm holds the item a token names: GR (store), GR@field, PG, TG, $, VP..."""
    if token == "$":
        return farm.silver >= 1
    if token == "VP":
        return farm.vp >= 1
    base, _, where = token.partition("@")
    if where:
        return farm.field_crop(base) is not None
    return farm.goods.get(base, 0) >= 1


def take_item(farm: Farm, token: str) -> None:
    if token == "$":
        farm.silver -= 1
    elif token == "VP":
        farm.vp -= 1
    else:
        base, _, where = token.partition("@")
        if where:
            field = farm.field_crop(base)
            assert field is not None
            field.crop = False
        else:
            farm.goods[base] -= 1
    assert farm.silver >= 0 and farm.vp >= 0 and min(farm.goods.values()) >= 0


FIELD_TOKENS = {crop: f"{crop}@field" for crop in CROPS}


def crop_sources(farm: Farm, crop: str) -> list[str]:
    """Where a crop can be taken from, store before field (Ruling 55)."""
    sources = [crop] if farm.goods[crop] > 0 else []
    if farm.field_crop(crop) is not None:
        sources.append(FIELD_TOKENS[crop])
    return sources


def upgrade_sources(farm: Farm) -> list[str]:
    sources = [source for crop in CROPS for source in crop_sources(farm, crop)]
    if farm.goods["PG"] > 0:
        sources.append("PG")
    return sources


def upgrade_price(farm: Farm, resource: str) -> int:
    discount = CONFIG.h01_discount if farm.has("H01") else 0
    return max(0, CONFIG.upgrade_cost[resource] - discount)


def gain_pigs(state: GranjaState, seat: int, count: int, events: Events) -> None:
    """Pigs go into free pigsty spaces; a pig without room is sold at once (3.2 pig overflow)."""
    farm = state.farms[seat]
    for _ in range(count):
        if farm.free_pig_spaces > 0:
            farm.goods["PG"] += 1
        else:
            farm.silver += CONFIG.sell_price["PG"]
            say(events, f"{p(seat)} has no room for a pig and sells it for {CONFIG.sell_price['PG']} $.")
            record_sale(state, seat, events)


def record_sale(state: GranjaState, seat: int, events: Events) -> None:
    """Haggler (H15) reacts to the seat's first sale of the round only (Ruling 51). Each copy is its
    own 1x ability (1.12.3 copies), so every unused copy on the farm at that sale pays; a copy
    played after that sale waits for the next round."""
    farm = state.farms[seat]
    if farm.sold:
        return
    farm.sold = True
    for helper in farm.helpers_of("H15"):
        if not helper.used:
            helper.used = True
            farm.silver += CONFIG.h15_bonus
            say(events, f"{p(seat)}'s Haggler ({helper.card}) adds {CONFIG.h15_bonus} $ to the first sale of the round.")


def upgrade(state: GranjaState, seat: int, source: str, paid: bool, events: Events) -> None:
    farm = state.farms[seat]
    resource = source.partition("@")[0]
    price = upgrade_price(farm, resource) if paid else 0
    take_item(farm, source)
    farm.silver -= price
    result = UPGRADE_RESULT[resource]
    farm.goods[result] += 1
    how = f"for {price} $" if paid else "for free"
    say(events, f"{p(seat)} upgrades {good_name(source)} to {good_name(result)} {how}.", seat)


def advance_disc(state: GranjaState, seat: int, steps: int) -> int:
    """Move a siesta disc up; it lands on top of any stack. A disc on the top space stays where it
    is, and movement beyond the top is lost (1.4, Ruling 48). Returns the spaces moved."""
    space = state.siesta_space[seat]
    if steps <= 0 or space >= CONFIG.siesta_top:
        return 0
    target = min(CONFIG.siesta_top, space + steps)
    state.siesta_space[seat] = target
    state.siesta_clock += 1
    state.siesta_stamp[seat] = state.siesta_clock
    return target - space


def draw_cards(state: GranjaState, seat: int, count: int, events: Events) -> int:
    """Draw from the deck, reshuffling the discard pile when the deck runs out (Ruling 43)."""
    drawn: list[str] = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            say(events, "The discard pile is shuffled into a new deck.")
        drawn.append(state.deck.pop(0))
    state.farms[seat].hand.extend(drawn)
    if drawn:
        say(events, f"{p(seat)} draws {len(drawn)} card{'s' if len(drawn) > 1 else ''}.", seat)
        say(events, f"You draw {', '.join(drawn)}.", seat, visible_to=[seat])
    return len(drawn)


def can_draw(state: GranjaState) -> bool:
    return bool(state.deck or state.discard)


# ----- card plays (3.2 F1, 3.4) ----------------------------------------------------------------------


def extension_cost(farm: Farm) -> int:
    """The n-th extension costs n farm goods (all of different types from the second on)."""
    return len(farm.extensions) + 1


def payment_tokens(farm: Farm) -> list[str]:
    """Every farm good the farm could pay with, one token per source, in default order."""
    tokens = [token for crop in CROPS for token in crop_sources(farm, crop)]
    tokens += [good for good in ("PG", "FD", "WN", "MT") if farm.goods[good] > 0]
    tokens += [token for token in ("$", "VP") if has_item(farm, token)]
    return tokens


def payable_types(farm: Farm) -> set[str]:
    return {token.partition("@")[0] for token in payment_tokens(farm)}


def can_pay_extension(farm: Farm) -> bool:
    # One good of any type for the first; n different types for the n-th: both need n types.
    return len(payable_types(farm)) >= extension_cost(farm)


def payment_choices(farm: Farm, chosen: Sequence[str]) -> list[str]:
    taken = {token.partition("@")[0] for token in chosen}
    return [token for token in payment_tokens(farm) if token.partition("@")[0] not in taken]


def slot_cards(farm: Farm, position: str) -> list[str]:
    if position == "barrow":
        return [barrow.card for barrow in farm.barrows]
    if position == "helper":
        return [helper.card for helper in farm.helpers]
    return []


def slots_full(farm: Farm, position: str) -> bool:
    limit = CONFIG.barrow_slots if position == "barrow" else CONFIG.helper_slots
    return position in ("barrow", "helper") and len(slot_cards(farm, position)) >= limit


def put_card(farm: Farm, play: CardPlay) -> list[str]:
    """Place a card on the farm (payment taken, a full slot emptied); returns the discarded cards."""
    if play.card in farm.hand:
        farm.hand.remove(play.card)
    discarded: list[str] = []
    if play.position == "field":
        farm.fields.append(Field(card=play.card))
    elif play.position == "ext":
        for token in play.payment:
            take_item(farm, token)
        farm.extensions.append(play.card)
    else:
        cards = farm.barrows if play.position == "barrow" else farm.helpers
        new: Barrow | Helper = (
            Barrow(card=play.card, covered=[False] * len(CARDS[play.card].barrow))
            if play.position == "barrow"
            else Helper(card=play.card)
        )
        slot = len(cards)
        if play.discard:
            # The new card takes the slot of the one it replaces; markers on the old card return.
            slot = next(index for index, old in enumerate(cards) if old.card == play.discard)
            cards.pop(slot)
            discarded.append(play.discard)
        cards.insert(slot, new)  # type: ignore[arg-type]
    return discarded


def describe_play(play: CardPlay) -> str:
    where = {"field": "a field", "barrow": "a barrow", "helper": "a helper", "ext": "an extension"}[play.position]
    text = f"{play.card} as {where}"
    if play.discard:
        text += f" (discarding {play.discard})"
    if play.payment:
        text += f", paying {', '.join(good_name(token) for token in play.payment)}"
    return text


def carry_out_play(state: GranjaState, seat: int, play: CardPlay, events: Events) -> None:
    farm = state.farms[seat]
    state.discard.extend(put_card(farm, play))
    say(events, f"{p(seat)} plays {describe_play(play)}.", seat)


def projected_farm(state: GranjaState, seat: int) -> Farm:
    """The seat's farm as it will be after its committed F1 plays (what the next play must fit)."""
    farm = state.farms[seat]
    plays = state.choices[seat].plays
    if state.phase != F1_PLAY or not plays:
        return farm
    copy = msgspec.msgpack.decode(msgspec.msgpack.encode(farm), type=Farm)
    for play in plays:
        put_card(copy, play)
    return copy


def f1_plays_needed(state: GranjaState, seat: int) -> int:
    """Plays a seat must commit this F1: 2 in round 1, else 1, fewer with a smaller hand (Ruling 4)."""
    wanted = CONFIG.cards_in_round_one if state.round == 1 else CONFIG.cards_per_round
    # Committed cards stay in hand until the reveal, so the hand size covers them too.
    return min(wanted, len(state.farms[seat].hand))


def f1_waiting(state: GranjaState, seat: int) -> bool:
    """Whether the seat still acts in F1: it owes a play, or it has no card to play and keeps its
    window (3.1) until ``done`` (``choices[seat].waiting``, set when F1 begins)."""
    needed = f1_plays_needed(state, seat)
    if needed == 0:
        return state.choices[seat].waiting
    return len(state.choices[seat].plays) < needed


def play_moves(farm: Farm) -> list[Move]:
    if not farm.hand:
        return []
    positions = POSITIONS if can_pay_extension(farm) else POSITIONS[:3]  # "ext" comes last
    return [Move("play", (card, position)) for card in farm.hand for position in positions]


def start_play(state: GranjaState, seat: int, card: str, position: str, secret: bool, events: Events) -> None:
    """First step of a play: ask for the card to replace or the payment when needed."""
    farm = projected_farm(state, seat) if secret else state.farms[seat]
    if slots_full(farm, position):
        state.tasks[seat].append(Task(kind="discard", items=[card, position], secret=secret))
    elif position == "ext":
        state.tasks[seat].append(Task(kind="pay", items=[card], count=extension_cost(farm), secret=secret))
    else:
        finish_play(state, seat, CardPlay(card=card, position=position), secret, events)


def finish_play(state: GranjaState, seat: int, play: CardPlay, secret: bool, events: Events) -> None:
    if secret:
        state.choices[seat].plays.append(play)
        say(events, f"You commit {describe_play(play)}.", seat, visible_to=[seat])
        if not f1_waiting(state, seat):
            say(events, f"{p(seat)} has chosen their card play.", seat)
    else:
        carry_out_play(state, seat, play, events)


# ----- deliveries (3.6), building completion (3.7), barrows and market (3.8) -------------------------


def open_for(state: GranjaState, seat: int, number: int) -> bool:
    building = state.buildings[number - 1]
    return building.order_marker == 0 and seat not in building.finishers


def uncovered_symbols(symbols: Sequence[str], covered: Sequence[bool]) -> list[str]:
    """The distinct symbols not covered yet, in ITEMS order."""
    open_symbols = {symbol for symbol, done in zip(symbols, covered, strict=True) if not done}
    return [good for good in ITEMS if good in open_symbols]


def delivery_targets(state: GranjaState, seat: int) -> list[tuple[str, list[str]]]:
    """(target, distinct uncovered symbols): open buildings by number, then barrows from the left."""
    targets: list[tuple[str, list[str]]] = []
    for spec, building in zip(BUILDINGS, state.buildings, strict=True):
        if open_for(state, seat, spec.number):
            targets.append((f"b{spec.number}", uncovered_symbols(spec.row, building.rows[seat])))
    for barrow in state.farms[seat].barrows:
        targets.append((barrow.card, uncovered_symbols(CARDS[barrow.card].barrow, barrow.covered)))
    return targets


def delivery_options(state: GranjaState, seat: int) -> list[tuple[str, ...]]:
    """Every legal delivery: (item source, target) or (TG, target, symbol it stands for, H16)."""
    farm = state.farms[seat]
    targets = delivery_targets(state, seat)
    options: list[tuple[str, ...]] = []
    for good in ITEMS:
        sources = crop_sources(farm, good) if good in CROPS else ([good] if farm.goods[good] > 0 else [])
        for source in sources:
            for target, symbols in targets:
                if good in symbols:
                    options.append((source, target))
    if farm.goods["TG"] > 0 and farm.unused_helper("H16") is not None:
        for target, symbols in targets:
            for symbol in symbols:
                if symbol != "TG":
                    options.append(("TG", target, symbol))
    return options


def target_name(target: str) -> str:
    if target.startswith("b"):
        return f"the {BUILDINGS[int(target[1:]) - 1].name}"
    return f"barrow {target}"


def deliver(state: GranjaState, seat: int, option: Sequence[str], events: Events) -> None:
    """Carry out one delivery; a completed row or barrow resolves at once."""
    farm = state.farms[seat]
    source, target = option[0], option[1]
    symbol = option[2] if len(option) > 2 else source.partition("@")[0]
    if len(option) > 2:
        helper = farm.unused_helper("H16")
        assert helper is not None
        helper.used = True
    take_item(farm, source)
    extra = f" as {good_name(symbol)} (Crate substitute)" if len(option) > 2 else ""
    say(events, f"{p(seat)} delivers {good_name(source)}{extra} to {target_name(target)}.", seat)
    if target.startswith("b"):
        number = int(target[1:])
        row = state.buildings[number - 1].rows[seat]
        spec_row = BUILDINGS[number - 1].row
        index = next(i for i, (s, c) in enumerate(zip(spec_row, row, strict=True)) if s == symbol and not c)
        row[index] = True
        if all(row):
            complete_building(state, seat, number, events)
    else:
        barrow_index = next(i for i, barrow in enumerate(farm.barrows) if barrow.card == target)
        barrow = farm.barrows[barrow_index]
        goods = CARDS[barrow.card].barrow
        index = next(i for i, (s, c) in enumerate(zip(goods, barrow.covered, strict=True)) if s == symbol and not c)
        barrow.covered[index] = True
        if all(barrow.covered):
            complete_barrow(state, seat, barrow_index, events)


def complete_building(state: GranjaState, seat: int, number: int, events: Events) -> None:
    """3.7 steps 1-8, in order."""
    building = state.buildings[number - 1]
    farm = state.farms[seat]
    name = BUILDINGS[number - 1].name
    first = not building.finishers
    building.finishers.append(seat)
    building.rows[seat] = [False] * len(building.rows[seat])  # the other row markers go home
    say(events, f"{p(seat)} completes the {name}.", seat)
    if first and building.hex_vp:
        building.hex_vp = False
        farm.vp += CONFIG.first_finisher_vp
        say(events, f"{p(seat)} is the first to finish the {name}: +{CONFIG.first_finisher_vp} VP.", seat)
    if first:
        blocked = [b for b in state.buildings if b.order_marker]
        if blocked:
            lowest = min(blocked, key=lambda b: b.order_marker)
            opened = BUILDINGS[state.buildings.index(lowest)].name
            say(events, f"Building-order marker {lowest.order_marker} leaves: the {opened} is open. "
                f"{p(seat)} gains {CONFIG.order_marker_vp} VP.", seat)
            lowest.order_marker = 0
            farm.vp += CONFIG.order_marker_vp
    had_village_shop = VILLAGE_SHOP in farm.buildings
    farm.buildings.append(number)
    farm.vp += state.round
    say(events, f"{p(seat)} takes the {name} building marker: +{state.round} VP.", seat)
    if had_village_shop:
        farm.vp += CONFIG.village_shop_bonus_vp
        say(events, f"{p(seat)}'s Village Shop adds {CONFIG.village_shop_bonus_vp} VP.", seat)
    if farm.has("H13"):
        farm.silver += CONFIG.h13_silver
        say(events, f"{p(seat)}'s Guild patron pays {CONFIG.h13_silver} $.", seat)
    # Immediate effect (step 8).
    if number == WAGON_MAKER:
        gained = CONFIG.section_vp(state.siesta_space[seat])
        farm.vp += gained
        say(events, f"{p(seat)} gains {gained} VP for their siesta disc.", seat)
        if delivery_options(state, seat):
            state.tasks[seat].append(Task(kind="deliver", optional=True, items=["wagon"]))
    elif number == VILLAGE_SHOP:
        farm.vp += CONFIG.village_shop_now_vp
        say(events, f"{p(seat)} gains {CONFIG.village_shop_now_vp} VP.", seat)
    elif number == TRADING_HOUSE:
        farm.silver += CONFIG.trading_house_silver
        say(events, f"{p(seat)} gains {CONFIG.trading_house_silver} $.", seat)
    elif number == GREENGROCER:
        state.tasks[seat].append(Task(kind="gain", items=list(RESOURCES)))
    elif number == DELICATESSEN:
        farm.goods["TG"] += 1
        say(events, f"{p(seat)} gains a trade good.", seat)
    elif number == BUTCHER:
        gained = len(farm.barrows)
        farm.vp += gained
        say(events, f"{p(seat)} gains {gained} VP for their barrows.", seat)


def complete_barrow(state: GranjaState, seat: int, index: int, events: Events) -> None:
    """3.8 steps 1-3; market placement (step 4) becomes a task, under any H03 crop choice."""
    farm = state.farms[seat]
    barrow = farm.barrows[index]
    card = CARDS[barrow.card]
    gained = card.barrow_vp + (CONFIG.butcher_bonus_vp if BUTCHER in farm.buildings else 0)
    farm.vp += gained
    farm.goods["TG"] += 1
    say(events, f"{p(seat)} completes barrow {card.id}: +{gained} VP and a trade good.", seat)
    rewards = farm.passive("H03")
    if "silver" in rewards:
        farm.silver += CONFIG.h03_silver
        say(events, f"{p(seat)}'s Barrow bonus pays {CONFIG.h03_silver} $.", seat)
    farm.barrows.pop(index)
    state.discard.append(card.id)
    if market_choices(state, seat, card.barrow_vp):
        state.tasks[seat].append(Task(kind="market", items=[str(card.barrow_vp)]))
    else:
        say(events, f"Every market hex of value {card.barrow_vp} holds {p(seat)}'s marker: no placement.", seat)
    if "crop" in rewards:
        state.tasks[seat].append(Task(kind="gain", items=list(CROPS), count=1))


def market_choices(state: GranjaState, seat: int, value: int) -> list[int]:
    """3.8 step 4: empty hexes of the value, else hexes of the value held by other players."""
    in_play = range(hexes_in_play(state.players))
    of_value = [index for index in in_play if MARKET[index].value == value]
    empty = [index for index in of_value if state.market[index] == -1]
    if empty:
        return empty
    return [index for index in of_value if state.market[index] != seat]


def relocation_target(state: GranjaState, from_value: int, placed: int) -> int | None:
    """Market refuge (H08): the best empty hex not above the old value, away from the new marker."""
    candidates = [
        index
        for index in range(hexes_in_play(state.players))
        if state.market[index] == -1
        and index != placed
        and index not in NEIGHBOURS[placed]
        and MARKET[index].value <= from_value
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda index: (-MARKET[index].value, index))


def place_market_marker(state: GranjaState, seat: int, hex_index: int, events: Events) -> None:
    """3.8 steps 4-6 with H08 relocations and H07 compensation (Rulings 11-13, 50)."""
    value = MARKET[hex_index].value
    hit: list[tuple[int, int]] = []  # (hex, owner) of markers this placement removes
    if state.market[hex_index] not in (-1, seat):
        hit.append((hex_index, state.market[hex_index]))
    state.market[hex_index] = seat
    say(events, f"{p(seat)} places a market marker on {hex_id(hex_index)} (value {value}).", seat)
    for other in neighbours(state, hex_index):
        owner = state.market[other]
        if owner not in (-1, seat) and MARKET[other].value < value:
            hit.append((other, owner))
    for other, _owner in hit:
        if other != hex_index:
            state.market[other] = -1
    hit.sort(key=lambda entry: (-MARKET[entry[0]].value, entry[0]))
    for other, owner in hit:
        owner_farm = state.farms[owner]
        refuge = owner_farm.unused_helper("H08")
        target = relocation_target(state, MARKET[other].value, hex_index) if refuge is not None else None
        if refuge is not None and target is not None:
            refuge.used = True
            state.market[target] = owner
            say(events, f"{p(owner)}'s Market refuge moves their marker from {hex_id(other)} to {hex_id(target)}.", owner)
            continue
        state.farms[seat].vp += 1
        say(events, f"{p(seat)} removes {p(owner)}'s marker from {hex_id(other)}: +1 VP.", seat)
        rewards = owner_farm.passive("H07")
        if "vp" in rewards:
            owner_farm.vp += CONFIG.h07_vp
            say(events, f"{p(owner)}'s Market compensation gives {CONFIG.h07_vp} VP.", owner)
        if "silver" in rewards:
            owner_farm.silver += CONFIG.h07_silver
            say(events, f"{p(owner)}'s Market compensation gives {CONFIG.h07_silver} $.", owner)


# ----- effects shared by dice, trade goods and roofs (1.6, 1.10, 1.11) -------------------------------

CROP_PAIRS: tuple[tuple[str, str], ...] = (("GR", "OL"), ("GR", "GP"), ("OL", "GP"))


def effect_args(template: str) -> list[tuple[str, ...]]:
    """The move arguments a template offers, before checking whether each can have an effect."""
    name, _, param = template.partition(":")
    if name == "crop":
        return [("crop", crop) for crop in param.split(",")]
    if name == "crops":
        return [("crops", *pair) for pair in CROP_PAIRS]
    if name == "upgrade":
        return [("upgrade",)] if param == "1" else [("upgrade", "2")]
    if name == "upgrade+siesta":
        return [("upgrade", "siesta")]
    if name == "siesta":
        return [("siesta", param)]
    return [(name,)]


class SeatFacts:
    """What several parts of one seat's move list ask about its farm (upgrade sources, delivery
    options), each worked out at most once. Make one per list: it assumes the state stays as is."""

    __slots__ = ("state", "seat", "_upgrade_sources", "_delivery_options")

    def __init__(self, state: GranjaState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._upgrade_sources: list[str] | None = None
        self._delivery_options: list[tuple[str, ...]] | None = None

    def upgrade_sources(self) -> list[str]:
        if self._upgrade_sources is None:
            self._upgrade_sources = upgrade_sources(self.state.farms[self.seat])
        return self._upgrade_sources

    def delivery_options(self) -> list[tuple[str, ...]]:
        if self._delivery_options is None:
            self._delivery_options = delivery_options(self.state, self.seat)
        return self._delivery_options


def effect_possible(state: GranjaState, seat: int, args: tuple[str, ...], facts: SeatFacts | None = None) -> bool:
    """Options without an effect are not offered (Ruling 47)."""
    farm = state.farms[seat]
    facts = facts or SeatFacts(state, seat)
    name = args[0]
    if name == "draw":
        return can_draw(state)
    if name == "play":
        return bool(farm.hand)
    if name == "upgrade":
        return bool(facts.upgrade_sources())
    if name == "siesta":
        return state.siesta_space[seat] < CONFIG.siesta_top
    if name == "deliver":
        return bool(facts.delivery_options())
    return True


def effect_moves(
    state: GranjaState,
    seat: int,
    templates: Iterable[str],
    kind: str,
    prefix: tuple[str, ...] = (),
    facts: SeatFacts | None = None,
) -> list[Move]:
    facts = facts or SeatFacts(state, seat)
    return [
        Move(kind, prefix + args)
        for template in templates
        for args in effect_args(template)
        if effect_possible(state, seat, args, facts)
    ]


def template_for(templates: Iterable[str], args: Sequence[str]) -> str:
    for template in templates:
        if tuple(args) in effect_args(template):
            return template
    raise ValueError(f"no template offers {args}")


def apply_effect(state: GranjaState, seat: int, templates: Iterable[str], args: Sequence[str], events: Events) -> None:
    farm = state.farms[seat]
    template = template_for(templates, args)
    name, _, param = template.partition(":")
    if name == "pig":
        say(events, f"{p(seat)} gains a pig.", seat)
        gain_pigs(state, seat, 1, events)
    elif name == "crop":
        farm.goods[args[1]] += 1
        say(events, f"{p(seat)} gains {good_name(args[1])}.", seat)
    elif name == "crops":
        farm.goods[args[1]] += 1
        farm.goods[args[2]] += 1
        say(events, f"{p(seat)} gains {good_name(args[1])} and {good_name(args[2])}.", seat)
    elif name == "silver":
        farm.silver += int(param)
        say(events, f"{p(seat)} gains {param} $.", seat)
    elif name == "vp":
        farm.vp += int(param)
        say(events, f"{p(seat)} gains {param} VP.", seat)
    elif name == "draw":
        draw_cards(state, seat, 1, events)
    elif name == "play":
        state.tasks[seat].append(Task(kind="play"))
    elif name == "upgrade":
        state.tasks[seat].append(Task(kind="upgrade", count=int(param)))
    elif name == "upgrade+siesta":
        moved = advance_disc(state, seat, 1)
        say(events, f"{p(seat)}'s siesta disc moves {moved} space{'s' if moved != 1 else ''}.", seat)
        state.tasks[seat].append(Task(kind="upgrade", count=1))
    elif name == "siesta":
        moved = advance_disc(state, seat, int(param))
        say(events, f"{p(seat)}'s siesta disc moves {moved} space{'s' if moved != 1 else ''}.", seat)
    elif name == "deliver":
        state.tasks[seat].append(Task(kind="deliver"))


# ----- anytime actions (1.11, 3.1) ------------------------------------------------------------------

ANYTIME_KINDS = ("buy", "sell", "upgrade", "tg", "use")


def anytime_moves(state: GranjaState, seat: int, facts: SeatFacts | None = None) -> list[Move]:
    return list(_anytime_moves(state, seat, facts))


def _anytime_moves(state: GranjaState, seat: int, facts: SeatFacts | None = None) -> Iterator[Move]:
    # One at a time, so that only_move can stop at the second (each kind costs more to look at).
    farm = state.farms[seat]
    facts = facts or SeatFacts(state, seat)
    for good in RESOURCES:
        if farm.silver >= CONFIG.buy_price[good] and (good != "PG" or farm.free_pig_spaces > 0):
            yield Move("buy", (good,))
    for good in ("GR", "OL", "GP", "PG", "FD", "WN", "MT"):
        if farm.goods[good] > 0:
            yield Move("sell", (good,))
    for source in facts.upgrade_sources():
        if farm.silver >= upgrade_price(farm, source.partition("@")[0]):
            yield Move("upgrade", (source,))
    if farm.goods["TG"] > 0:
        yield from effect_moves(state, seat, CONFIG.trade_good_effects, "tg", facts=facts)
    for roof in farm.roofs:
        if not roof.used:
            yield from effect_moves(state, seat, CONFIG.roofs[roof.id][1], "use", (roof.id,), facts)
    for helper in farm.helpers:
        if not helper.used:
            yield from helper_window_moves(state, seat, helper.card, facts)


def helper_window_moves(state: GranjaState, seat: int, card_id: str, facts: SeatFacts | None = None) -> list[Move]:
    """Moves of an unused "any window" helper (H02, H04, H10)."""
    farm = state.farms[seat]
    card = CARDS[card_id]
    if card.helper == "H02":
        facts = facts or SeatFacts(state, seat)
        return [Move("use", (card_id,))] if facts.upgrade_sources() else []
    if card.helper == "H10":
        return [Move("use", (card_id,))] if farm.vp >= 1 and farm.hand else []
    if card.helper == "H04":
        give, amount, get, _ = EXCHANGES[card.param]
        if give in CROPS:
            return [Move("use", (card_id, source)) for source in crop_sources(farm, give)]
        if get == "PG" and farm.free_pig_spaces == 0:
            return []
        enough = farm.silver >= amount if give == "$" else farm.vp >= amount
        return [Move("use", (card_id,))] if enough else []
    return []


def do_anytime(state: GranjaState, seat: int, move: Move, events: Events) -> None:
    farm = state.farms[seat]
    if move.kind == "buy":
        good = move.args[0]
        farm.silver -= CONFIG.buy_price[good]
        if good == "PG":
            farm.goods["PG"] += 1
        else:
            farm.goods[good] += 1
        say(events, f"{p(seat)} buys {good_name(good)} for {CONFIG.buy_price[good]} $.", seat)
    elif move.kind == "sell":
        good = move.args[0]
        farm.goods[good] -= 1
        farm.silver += CONFIG.sell_price[good]
        say(events, f"{p(seat)} sells {good_name(good)} for {CONFIG.sell_price[good]} $.", seat)
        record_sale(state, seat, events)
    elif move.kind == "upgrade":
        upgrade(state, seat, move.args[0], True, events)
    elif move.kind == "tg":
        farm.goods["TG"] -= 1
        say(events, f"{p(seat)} spends a trade good.", seat)
        apply_effect(state, seat, CONFIG.trade_good_effects, move.args, events)
    elif move.kind == "use" and move.args[0] in CONFIG.roofs:
        roof = next(roof for roof in farm.roofs if roof.id == move.args[0])
        roof.used = True
        say(events, f"{p(seat)} uses roof {roof.id} and turns it face down.", seat)
        apply_effect(state, seat, CONFIG.roofs[roof.id][1], move.args[1:], events)
    elif move.kind == "use":
        use_helper(state, seat, move, events)


def use_helper(state: GranjaState, seat: int, move: Move, events: Events) -> None:
    farm = state.farms[seat]
    helper = next(helper for helper in farm.helpers if helper.card == move.args[0])
    card = CARDS[helper.card]
    helper.used = True
    if card.helper == "H02":
        say(events, f"{p(seat)} uses Free upgrade ({card.id}).", seat)
        state.tasks[seat].append(Task(kind="upgrade", count=1))
    elif card.helper == "H10":
        farm.vp -= 1
        say(events, f"{p(seat)} pays 1 VP for Quick planting ({card.id}).", seat)
        state.tasks[seat].append(Task(kind="play"))
    elif card.helper == "H04":
        give, amount, get, got = EXCHANGES[card.param]
        if give in CROPS:
            take_item(farm, move.args[1])
            given = good_name(move.args[1])
        elif give == "$":
            farm.silver -= amount
            given = f"{amount} $"
        else:
            farm.vp -= amount
            given = f"{amount} VP"
        if get == "$":
            farm.silver += got
        elif get == "PG":
            farm.goods["PG"] += got
        else:
            farm.goods[get] += got
        say(events, f"{p(seat)} exchanges {given} for {got} {good_name(get)} ({card.id}).", seat)
    elif card.helper == "H05":
        state.budget += 1
        say(events, f"{p(seat)} uses Extra donkey ({card.id}): one more delivery.", seat)


# ----- tasks: choices that arise while resolving -----------------------------------------------------


def task_moves(state: GranjaState, seat: int, task: Task) -> list[Move]:
    farm = projected_farm(state, seat) if task.secret else state.farms[seat]
    moves: list[Move] = []
    if task.kind == "play":
        moves = play_moves(farm)
    elif task.kind == "discard":
        moves = [Move("discard", (card,)) for card in slot_cards(farm, task.items[1])]
    elif task.kind == "pay":
        chosen = task.items[1:]
        choices = payment_choices(farm, chosen) if task.count > 1 else payment_tokens(farm)
        moves = [Move("pay", (token,)) for token in choices]
    if task.secret:
        # Nothing of a secret play happens before the reveal, so it may still be taken back.
        moves.append(BACK)
    elif task.kind == "upgrade":
        moves = [Move("upgrade", (source,)) for source in upgrade_sources(farm)]
        if task.optional:
            moves.append(PASS)
    elif task.kind == "deliver":
        moves = [Move("deliver", option) for option in delivery_options(state, seat)]
        if task.optional:
            moves.append(PASS)
    elif task.kind == "gain":
        moves = [Move("gain", (good,)) for good in task.items]
    elif task.kind == "market":
        moves = [Move("hex", (hex_id(index),)) for index in market_choices(state, seat, int(task.items[0]))]
    elif task.kind == "die":
        face = int(task.items[0])
        moves = effect_moves(state, seat, CONFIG.die_effects[face], "die")
        if task.count == 0 and farm.unused_helper("H09") is not None:
            if face < 6:
                moves.append(Move("nudge", ("up",)))
            if face > 1:
                moves.append(Move("nudge", ("down",)))
        moves.append(PASS)
    return moves or [PASS]  # never leave a seat without a move (only reachable if a rule is missed)


def do_task_move(state: GranjaState, seat: int, move: Move, events: Events) -> None:
    stack = state.tasks[seat]
    task = stack[-1]
    if move == BACK:
        stack.pop()
        say(events, f"You take back the play of {task.items[0]}.", seat, visible_to=[seat])
        return
    if move == PASS:
        stack.pop()
        if task.kind == "die":
            # Declining changes nothing the window before the pick did not offer: the turn ends.
            state.acted = True
            say(events, f"{p(seat)} takes no action with the die.", seat)
        return
    if task.kind == "play":
        stack.pop()
        start_play(state, seat, move.args[0], move.args[1], False, events)
    elif task.kind == "discard":
        stack.pop()
        play = CardPlay(card=task.items[0], position=task.items[1], discard=move.args[0])
        finish_play(state, seat, play, task.secret, events)
    elif task.kind == "pay":
        task.items.append(move.args[0])
        if len(task.items) - 1 >= task.count:
            stack.pop()
            play = CardPlay(card=task.items[0], position="ext", payment=tuple(task.items[1:]))
            finish_play(state, seat, play, task.secret, events)
    elif task.kind == "upgrade":
        stack.pop()
        upgrade(state, seat, move.args[0], False, events)
        if task.count > 1 and upgrade_sources(state.farms[seat]):
            stack.append(Task(kind="upgrade", count=task.count - 1, optional=True))
    elif task.kind == "deliver":
        stack.pop()
        deliver(state, seat, move.args, events)
    elif task.kind == "gain":
        stack.pop()
        good = move.args[0]
        say(events, f"{p(seat)} gains {good_name(good)}.", seat)
        if good == "PG":
            gain_pigs(state, seat, 1, events)
        else:
            state.farms[seat].goods[good] += 1
    elif task.kind == "market":
        stack.pop()
        place_market_marker(state, seat, int(move.args[0][1:]) - 1, events)
    elif task.kind == "die":
        if move.kind == "nudge":
            helper = state.farms[seat].unused_helper("H09")
            assert helper is not None
            helper.used = True
            face = int(task.items[0]) + (1 if move.args[0] == "up" else -1)
            task.items[0] = str(face)
            task.count = 1
            say(events, f"{p(seat)} uses Die nudge: the die counts as {face}.", seat)
        else:
            stack.pop()
            apply_effect(state, seat, CONFIG.die_effects[int(task.items[0])], move.args, events)


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
    if phase in (R2_PICK, R3_PICK, R4_SHARED) and state.die_used:
        # The die is resolved; the window lasts until done (1.12.3: a helper works in the step
        # in which it was played).
        yield from _anytime_moves(state, seat, facts)
        yield DONE
        return
    if phase in (R2_PICK, R3_PICK):
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
        say(events, f"You choose {good_name(move.args[0])} from the Greengrocer.", seat, visible_to=[seat])
        if not flex_fields(state, seat):
            state.choices[seat].waiting = False
    elif move.kind == "flex":
        choice = state.choices[seat]
        if move.args[0] == "none":
            choice.waiting = False
        else:
            choice.flex.append(f"{move.args[0]}>{move.args[1]}")
            say(events, f"Your empty {good_name(move.args[0])} field will yield {good_name(move.args[1])}.", seat,
                visible_to=[seat])
            if not flex_fields(state, seat):
                choice.waiting = False
    elif move.kind == "donkey":
        choice = state.choices[seat]
        choice.donkey = move.args[0]
        choice.push = int(move.args[1][1:]) if len(move.args) > 1 else 0
        choice.waiting = False
        say(events, f"You choose donkey marker {move.args[0]}" + (f" with {choice.push} Siesta push" if choice.push else "")
            + ".", seat, visible_to=[seat])
        say(events, f"{p(seat)} has chosen a donkey marker.", seat)
    elif move.kind == "roof":
        roof_id = move.args[0]
        farm.silver -= state.round
        vp = CONFIG.roof_space_vp[len(farm.roofs)]
        farm.roofs.append(Roof(id=roof_id))
        farm.vp += vp
        state.roofs_offer.remove(roof_id)
        say(events, f"{p(seat)} buys roof {roof_id} for {state.round} $ and gains {vp} VP.", seat)
    elif move.kind == "take":
        face = int(move.args[0])
        state.dice.remove(face)
        state.die_used = True
        say(events, f"{p(seat)} takes a die showing {face}.", seat)
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
        say(events, f"{p(seat)} pays {CONFIG.extra_delivery_price} $ for an extra delivery.", seat)
        deliver(state, seat, move.args, events)
    elif move == PASS:
        state.acted = True
        if phase == R4_SHARED:
            say(events, f"{p(seat)} does not use the shared die.", seat)
    elif move == DONE and phase == F1_PLAY:  # a seat without a card ends its window (3.1)
        state.choices[seat].waiting = False
        say(events, f"{p(seat)} has no card to play and ends their window.", seat)
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
            say(events, f"Unbought roofs leave the game: {', '.join(state.roofs_offer)}.")
        state.roofs_offer = []
        state.dice = sorted(state.rng.dice(CONFIG.dice_count(state.players)))
        say(events, f"Revenue dice: {' '.join(map(str, state.dice))}.")
        start_sequential(state, R2_PICK)
    elif phase == R2_PICK:
        start_sequential(state, R3_PICK)
    elif phase == R3_PICK:
        say(events, f"The shared die shows {state.dice[0]}.")
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
            say(events, f"{p(seat)} receives {gained} $ income.", seat)


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
            say(events, f"{p(seat)}'s Trading House pays {CONFIG.trading_house_silver} $.", seat)
        if DELICATESSEN in farm.buildings:
            farm.goods["TG"] += 1
            say(events, f"{p(seat)}'s Delicatessen gives a trade good.", seat)
        if GREENGROCER in farm.buildings and choice.resource:
            say(events, f"{p(seat)}'s Greengrocer gives {good_name(choice.resource)}.", seat)
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
            say(events, f"{p(seat)}'s Flexible field: an empty {good_name(field_crop)} field yields "
                f"{good_name(crop)} into the store.", seat)
        grown = 0
        for field in farm.fields:
            if not field.crop and all(field is not other for other in flexed):
                field.crop = True
                grown += 1
        if grown:
            say(events, f"{grown} of {p(seat)}'s fields {'grows' if grown == 1 else 'grow'} a crop.", seat)
        for crop in sorted(farm.passive("H11")):
            if sum(CARDS[field.card].field == crop for field in farm.fields) >= CONFIG.h11_min_fields:
                farm.goods[crop] += 1
                say(events, f"{p(seat)}'s Crop specialist adds {good_name(crop)}.", seat)
        prolific = farm.has("H12")
        needed = CONFIG.h12_min_pigs if prolific else CONFIG.breeding_min_pigs
        most = CONFIG.h12_max_piglets if prolific else 1
        piglets = min(most, farm.free_pig_spaces) if farm.goods["PG"] >= needed else 0
        if piglets:
            farm.goods["PG"] += piglets
            say(events, f"{p(seat)}'s pigs breed: +{piglets} pig{'s' if piglets > 1 else ''}.", seat)
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
        push = f" and {choice.push} Siesta push" if choice.push else ""
        say(events, f"{p(seat)} reveals donkey marker {choice.donkey}{push}.", seat)
    for seat in state.order:
        choice = state.choices[seat]
        farm = state.farms[seat]
        hats = CONFIG.donkey_symbols - DONKEYS[choice.donkey]
        steps = hats + (1 if WAGON_MAKER in farm.buildings else 0) + choice.push
        moved = advance_disc(state, seat, steps)
        if steps:
            say(events, f"{p(seat)}'s siesta disc moves {moved} to space {state.siesta_space[seat]}.", seat)
        choice.donkey, choice.push = "", 0
    state.order = sorted(range(state.players), key=lambda s: (-state.siesta_space[s], -state.siesta_stamp[s]))
    say(events, "New turn order: " + ", ".join(p(seat) for seat in state.order) + ".")
    start_sequential(state, T4_DELIVER)


def score_round(state: GranjaState, events: Events) -> None:
    """S1: market markers, then siesta sections (Ruling 45)."""
    for seat in state.order:
        farm = state.farms[seat]
        markers = sum(owner == seat for owner in state.market)
        section = CONFIG.section_vp(state.siesta_space[seat])
        farm.vp += markers + section
        say(events, f"{p(seat)} scores {markers} VP for market markers and {section} VP for the siesta.", seat)


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
        say(events, f"Round {state.round} begins. Roofs on offer: {', '.join(state.roofs_offer)}.")
    else:
        say(events, "The sixth round is over: last chance for anytime actions.")
        start_sequential(state, END_WINDOW)


def liquidate(state: GranjaState, events: Events) -> None:
    """3.10: goods and trade goods to silver, then silver to VP."""
    for seat in state.order:
        farm = state.farms[seat]
        earned = 0
        for good, price in CONFIG.sell_price.items():
            earned += farm.goods[good] * price
            farm.goods[good] = 0
        earned += farm.goods["TG"] * CONFIG.trade_good_end_value
        sold = earned > 0
        farm.goods["TG"] = 0
        farm.silver += earned
        if sold:
            record_sale(state, seat, events)
        points = farm.silver // CONFIG.end_silver_per_vp
        farm.vp += points
        farm.silver -= points * CONFIG.end_silver_per_vp
        say(events, f"{p(seat)} sells everything for {earned} $ and converts silver into {points} VP: "
            f"{farm.vp} VP, {farm.silver} $ left.", seat)


def final_keys(state: GranjaState) -> list[tuple[int, int]]:
    """Most VP wins; ties go to the most silver left, then stay shared (3.10)."""
    return [(farm.vp, farm.silver) for farm in state.farms]


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
    if phase in (R2_PICK, R3_PICK) and not state.die_used:
        return Move("take", (str(min(state.dice)),))
    if phase == R4_SHARED and not state.die_used:
        return PASS
    return DONE
