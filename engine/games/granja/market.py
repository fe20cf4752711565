"""Granja's deliveries (docs/rules/granja.md 3.6), building completion (3.7), barrows and the
market (3.8): the steps that ``rules`` builds moves from."""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import tr

from .cards import CARDS
from .config import (
    BUILDINGS,
    BUTCHER,
    CONFIG,
    CROPS,
    DELICATESSEN,
    GREENGROCER,
    ITEMS,
    MARKET,
    RESOURCES,
    TRADING_HOUSE,
    VILLAGE_SHOP,
    WAGON_MAKER,
)
from .farm import crop_sources, take_item
from .model import (
    NEIGHBOURS,
    Events,
    GranjaState,
    Task,
    good_name,
    hex_id,
    hexes_in_play,
    neighbours,
    p,
    say,
)
from .terms import building_name

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


def delivery_text(seat: int, source: str, target: str, symbol: str | None) -> str:
    """"Ann delivers grain to the Butcher." (``symbol``: what a trade good stands for, H16)."""
    fields = {"player": p(seat), "good": good_name(source)}
    if target.startswith("b"):
        fields["building"] = building_name(int(target[1:]))
        if symbol is None:
            return tr("{player} delivers {good} to the {building}.", **fields)
        return tr("{player} delivers {good} as {symbol} (Crate substitute) to the {building}.", symbol=good_name(symbol), **fields)
    if symbol is None:
        return tr("{player} delivers {good} to barrow {card}.", card=target, **fields)
    return tr(
        "{player} delivers {good} as {symbol} (Crate substitute) to barrow {card}.",
        card=target, symbol=good_name(symbol), **fields,
    )


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
    say(events, delivery_text(seat, source, target, symbol if len(option) > 2 else None), seat)
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
    name = building_name(number)
    first = not building.finishers
    building.finishers.append(seat)
    building.rows[seat] = [False] * len(building.rows[seat])  # the other row markers go home
    say(events, tr("{player} completes the {building}.", player=p(seat), building=name), seat)
    if first and building.hex_vp:
        building.hex_vp = False
        farm.vp += CONFIG.first_finisher_vp
        say(events, tr("{player} is the first to finish the {building}: +{n} VP.", player=p(seat), building=name, n=CONFIG.first_finisher_vp), seat)
    if first:
        blocked = [b for b in state.buildings if b.order_marker]
        if blocked:
            lowest = min(blocked, key=lambda b: b.order_marker)
            opened = building_name(state.buildings.index(lowest) + 1)
            text = tr(
                "Building-order marker {marker} leaves: the {building} is open. {player} gains {n} VP.",
                marker=lowest.order_marker, building=opened, player=p(seat), n=CONFIG.order_marker_vp,
            )
            say(events, text, seat)
            lowest.order_marker = 0
            farm.vp += CONFIG.order_marker_vp
    had_village_shop = VILLAGE_SHOP in farm.buildings
    farm.buildings.append(number)
    farm.vp += state.round
    say(events, tr("{player} takes the {building} building marker: +{n} VP.", player=p(seat), building=name, n=state.round), seat)
    if had_village_shop:
        farm.vp += CONFIG.village_shop_bonus_vp
        say(events, tr("{player}'s Village Shop adds {n} VP.", player=p(seat), n=CONFIG.village_shop_bonus_vp), seat)
    if farm.has("H13"):
        farm.silver += CONFIG.h13_silver
        say(events, tr("{player}'s Guild patron pays {n} $.", player=p(seat), n=CONFIG.h13_silver), seat)
    # Immediate effect (step 8).
    if number == WAGON_MAKER:
        gained = CONFIG.section_vp(state.siesta_space[seat])
        farm.vp += gained
        say(events, tr("{player} gains {n} VP for their siesta disc.", player=p(seat), n=gained), seat)
        if delivery_options(state, seat):
            state.tasks[seat].append(Task(kind="deliver", optional=True, items=["wagon"]))
    elif number == VILLAGE_SHOP:
        farm.vp += CONFIG.village_shop_now_vp
        say(events, tr("{player} gains {n} VP.", player=p(seat), n=CONFIG.village_shop_now_vp), seat)
    elif number == TRADING_HOUSE:
        farm.silver += CONFIG.trading_house_silver
        say(events, tr("{player} gains {n} $.", player=p(seat), n=CONFIG.trading_house_silver), seat)
    elif number == GREENGROCER:
        state.tasks[seat].append(Task(kind="gain", items=list(RESOURCES)))
    elif number == DELICATESSEN:
        farm.goods["TG"] += 1
        say(events, tr("{player} gains a trade good.", player=p(seat)), seat)
    elif number == BUTCHER:
        gained = len(farm.barrows)
        farm.vp += gained
        say(events, tr("{player} gains {n} VP for their barrows.", player=p(seat), n=gained), seat)


def complete_barrow(state: GranjaState, seat: int, index: int, events: Events) -> None:
    """3.8 steps 1-3; market placement (step 4) becomes a task, under any H03 crop choice."""
    farm = state.farms[seat]
    barrow = farm.barrows[index]
    card = CARDS[barrow.card]
    gained = card.barrow_vp + (CONFIG.butcher_bonus_vp if BUTCHER in farm.buildings else 0)
    farm.vp += gained
    farm.goods["TG"] += 1
    say(events, tr("{player} completes barrow {card}: +{n} VP and a trade good.", player=p(seat), card=card.id, n=gained), seat)
    rewards = farm.passive("H03")
    if "silver" in rewards:
        farm.silver += CONFIG.h03_silver
        say(events, tr("{player}'s Barrow bonus pays {n} $.", player=p(seat), n=CONFIG.h03_silver), seat)
    farm.barrows.pop(index)
    state.discard.append(card.id)
    if market_choices(state, seat, card.barrow_vp):
        state.tasks[seat].append(Task(kind="market", items=[str(card.barrow_vp)]))
    else:
        say(events, tr("Every market hex of value {value} holds {player}'s marker: no placement.", player=p(seat), value=card.barrow_vp), seat)
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
    say(events, tr("{player} places a market marker on {hex} (value {value}).", player=p(seat), hex=hex_id(hex_index), value=value), seat)
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
            say(
                events,
                tr(
                    "{player}'s Market refuge moves their marker from {hex} to {target}.",
                    player=p(owner), hex=hex_id(other), target=hex_id(target),
                ),
                owner,
            )
            continue
        state.farms[seat].vp += 1
        say(events, tr("{player} removes {owner}'s marker from {hex}: +1 VP.", player=p(seat), owner=p(owner), hex=hex_id(other)), seat)
        rewards = owner_farm.passive("H07")
        if "vp" in rewards:
            owner_farm.vp += CONFIG.h07_vp
            say(events, tr("{player}'s Market compensation gives {n} VP.", player=p(owner), n=CONFIG.h07_vp), owner)
        if "silver" in rewards:
            owner_farm.silver += CONFIG.h07_silver
            say(events, tr("{player}'s Market compensation gives {n} $.", player=p(owner), n=CONFIG.h07_silver), owner)
