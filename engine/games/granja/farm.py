"""A Granja farm's goods and its card plays (docs/rules/granja.md 3.2 F1, 3.4): the steps that
``rules`` builds moves from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.i18n import tr, tr_n

from .cards import CARDS
from .config import (
    CONFIG,
    CROPS,
    UPGRADE_RESULT,
)
from .model import (
    F1_PLAY,
    POSITIONS,
    Barrow,
    CardPlay,
    Events,
    Farm,
    Field,
    GranjaState,
    Helper,
    Move,
    Task,
    copy_farm,
    good_name,
    p,
    say,
)

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
            say(events, tr("{player} has no room for a pig and sells it for {price} $.", player=p(seat), price=CONFIG.sell_price["PG"]))
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
            say(
                events,
                tr(
                    "{player}'s Haggler ({card}) adds {n} $ to the first sale of the round.",
                    player=p(seat), card=helper.card, n=CONFIG.h15_bonus,
                ),
            )


def upgrade(state: GranjaState, seat: int, source: str, paid: bool, events: Events) -> None:
    farm = state.farms[seat]
    resource = source.partition("@")[0]
    price = upgrade_price(farm, resource) if paid else 0
    take_item(farm, source)
    farm.silver -= price
    result = UPGRADE_RESULT[resource]
    farm.goods[result] += 1
    fields = {"player": p(seat), "good": good_name(source), "result": good_name(result)}
    if paid:
        say(events, tr("{player} upgrades {good} to {result} for {price} $.", price=price, **fields), seat)
    else:
        say(events, tr("{player} upgrades {good} to {result} for free.", **fields), seat)


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
            say(events, tr("The discard pile is shuffled into a new deck."))
        drawn.append(state.deck.pop(0))
    state.farms[seat].hand.extend(drawn)
    if drawn:
        say(events, tr_n("{player} draws {n} card.", "{player} draws {n} cards.", len(drawn), player=p(seat)), seat)
        say(events, tr("You draw {cards}.", cards=", ".join(drawn)), seat, visible_to=[seat])
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
    elif play.position == "barrow":
        barrow = Barrow(card=play.card, covered=[False] * len(CARDS[play.card].barrow))
        _into_slot(farm.barrows, barrow, play.discard, discarded)
    else:
        _into_slot(farm.helpers, Helper(card=play.card), play.discard, discarded)
    return discarded


# A barrow row or a helper row: one function for both, each list keeping its own card type.
_SlotCard = TypeVar("_SlotCard", Barrow, Helper)


def _into_slot(cards: list[_SlotCard], new: _SlotCard, discard: str, discarded: list[str]) -> None:
    """Put ``new`` at the end of its row, or in the slot of the ``discard`` it replaces."""
    slot = len(cards)
    if discard:
        # The new card takes the slot of the one it replaces; markers on the old card return.
        slot = next(index for index, old in enumerate(cards) if old.card == discard)
        cards.pop(slot)
        discarded.append(discard)
    cards.insert(slot, new)


def describe_play(play: CardPlay) -> str:
    """"C012 as a barrow (discarding C003)", "C020 as an extension, paying grain, silver"."""
    text = {
        "field": tr("{card} as a field", card=play.card),
        "barrow": tr("{card} as a barrow", card=play.card),
        "helper": tr("{card} as a helper", card=play.card),
        "ext": tr("{card} as an extension", card=play.card),
    }[play.position]
    if play.discard:
        text = tr("{play} (discarding {card})", play=text, card=play.discard)
    if play.payment:
        text = tr("{play}, paying {goods}", play=text, goods=", ".join(good_name(token) for token in play.payment))
    return text


def carry_out_play(state: GranjaState, seat: int, play: CardPlay, events: Events) -> None:
    farm = state.farms[seat]
    state.discard.extend(put_card(farm, play))
    say(events, tr("{player} plays {play}.", player=p(seat), play=describe_play(play)), seat)


def projected_farm(state: GranjaState, seat: int) -> Farm:
    """The seat's farm as it will be after its committed F1 plays (what the next play must fit)."""
    farm = state.farms[seat]
    plays = state.choices[seat].plays
    if state.phase != F1_PLAY or not plays:
        return farm
    copy = copy_farm(farm)
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
        say(events, tr("You commit {play}.", play=describe_play(play)), seat, visible_to=[seat])
        if not f1_waiting(state, seat):
            say(events, tr("{player} has chosen their card play.", player=p(seat)), seat)
    else:
        carry_out_play(state, seat, play, events)
