"""Granja's effects shared by dice, trade goods and roofs (docs/rules/granja.md 1.6, 1.10, 1.11),
the anytime actions (1.11, 3.1) and the tasks that arise while something resolves."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from engine.i18n import tr, tr_n

from .cards import CARDS
from .config import (
    CONFIG,
    CROPS,
    EXCHANGES,
    RESOURCES,
)
from .farm import (
    advance_disc,
    can_draw,
    crop_sources,
    draw_cards,
    finish_play,
    gain_pigs,
    payment_choices,
    payment_tokens,
    play_moves,
    projected_farm,
    record_sale,
    slot_cards,
    start_play,
    take_item,
    upgrade,
    upgrade_price,
    upgrade_sources,
)
from .market import deliver, delivery_options, market_choices, place_market_marker
from .model import (
    BACK,
    PASS,
    CardPlay,
    Events,
    GranjaState,
    Move,
    Task,
    good_name,
    hex_id,
    p,
    say,
)

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


def disc_moves(seat: int, moved: int) -> str:
    return tr_n(
        "{player}'s siesta disc moves {n} space.", "{player}'s siesta disc moves {n} spaces.", moved, player=p(seat)
    )


def apply_effect(state: GranjaState, seat: int, templates: Iterable[str], args: Sequence[str], events: Events) -> None:
    farm = state.farms[seat]
    template = template_for(templates, args)
    name, _, param = template.partition(":")
    if name == "pig":
        say(events, tr("{player} gains a pig.", player=p(seat)), seat)
        gain_pigs(state, seat, 1, events)
    elif name == "crop":
        farm.goods[args[1]] += 1
        say(events, tr("{player} gains {good}.", player=p(seat), good=good_name(args[1])), seat)
    elif name == "crops":
        farm.goods[args[1]] += 1
        farm.goods[args[2]] += 1
        say(events, tr("{player} gains {good} and {other}.", player=p(seat), good=good_name(args[1]), other=good_name(args[2])), seat)
    elif name == "silver":
        farm.silver += int(param)
        say(events, tr("{player} gains {n} $.", player=p(seat), n=param), seat)
    elif name == "vp":
        farm.vp += int(param)
        say(events, tr("{player} gains {n} VP.", player=p(seat), n=param), seat)
    elif name == "draw":
        draw_cards(state, seat, 1, events)
    elif name == "play":
        state.tasks[seat].append(Task(kind="play"))
    elif name == "upgrade":
        state.tasks[seat].append(Task(kind="upgrade", count=int(param)))
    elif name == "upgrade+siesta":
        moved = advance_disc(state, seat, 1)
        say(events, disc_moves(seat, moved), seat)
        state.tasks[seat].append(Task(kind="upgrade", count=1))
    elif name == "siesta":
        moved = advance_disc(state, seat, int(param))
        say(events, disc_moves(seat, moved), seat)
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
        say(events, tr("{player} buys {good} for {price} $.", player=p(seat), good=good_name(good), price=CONFIG.buy_price[good]), seat)
    elif move.kind == "sell":
        good = move.args[0]
        farm.goods[good] -= 1
        farm.silver += CONFIG.sell_price[good]
        say(events, tr("{player} sells {good} for {price} $.", player=p(seat), good=good_name(good), price=CONFIG.sell_price[good]), seat)
        record_sale(state, seat, events)
    elif move.kind == "upgrade":
        upgrade(state, seat, move.args[0], True, events)
    elif move.kind == "tg":
        farm.goods["TG"] -= 1
        say(events, tr("{player} spends a trade good.", player=p(seat)), seat)
        apply_effect(state, seat, CONFIG.trade_good_effects, move.args, events)
    elif move.kind == "use" and move.args[0] in CONFIG.roofs:
        roof = next(roof for roof in farm.roofs if roof.id == move.args[0])
        roof.used = True
        say(events, tr("{player} uses roof {roof} and turns it face down.", player=p(seat), roof=roof.id), seat)
        apply_effect(state, seat, CONFIG.roofs[roof.id][1], move.args[1:], events)
    elif move.kind == "use":
        use_helper(state, seat, move, events)


def use_helper(state: GranjaState, seat: int, move: Move, events: Events) -> None:
    farm = state.farms[seat]
    helper = next(helper for helper in farm.helpers if helper.card == move.args[0])
    card = CARDS[helper.card]
    helper.used = True
    if card.helper == "H02":
        say(events, tr("{player} uses Free upgrade ({card}).", player=p(seat), card=card.id), seat)
        state.tasks[seat].append(Task(kind="upgrade", count=1))
    elif card.helper == "H10":
        farm.vp -= 1
        say(events, tr("{player} pays 1 VP for Quick planting ({card}).", player=p(seat), card=card.id), seat)
        state.tasks[seat].append(Task(kind="play"))
    elif card.helper == "H04":
        give, amount, get, got = EXCHANGES[card.param]
        if give in CROPS:
            take_item(farm, move.args[1])
            given = good_name(move.args[1])
        elif give == "$":
            farm.silver -= amount
            given = tr("{n} $", n=amount)
        else:
            farm.vp -= amount
            given = tr("{n} VP", n=amount)
        if get == "$":
            farm.silver += got
        elif get == "PG":
            farm.goods["PG"] += got
        else:
            farm.goods[get] += got
        say(
            events,
            tr("{player} exchanges {given} for {got} {good} ({card}).", player=p(seat), given=given, got=got, good=good_name(get), card=card.id),
            seat,
        )
    elif card.helper == "H05":
        state.budget += 1
        say(events, tr("{player} uses Extra donkey ({card}): one more delivery.", player=p(seat), card=card.id), seat)


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
        say(events, tr("You take back the play of {card}.", card=task.items[0]), seat, visible_to=[seat])
        return
    if move == PASS:
        stack.pop()
        if task.kind == "die":
            # Declining changes nothing the window before the pick did not offer: the turn ends.
            state.acted = True
            say(events, tr("{player} takes no action with the die.", player=p(seat)), seat)
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
        say(events, tr("{player} gains {good}.", player=p(seat), good=good_name(good)), seat)
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
            say(events, tr("{player} uses Die nudge: the die counts as {face}.", player=p(seat), face=face), seat)
        else:
            stack.pop()
            apply_effect(state, seat, CONFIG.die_effects[int(task.items[0])], move.args, events)
