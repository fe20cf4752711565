"""The set-up of Granja (docs/rules/granja.md 2.1): farms, market, buildings, deck and first hands."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Rng, SetupError
from engine.core.text import quote
from engine.i18n import tr

from .cards import CARDS, DECK
from .config import (
    BUILDINGS,
    CONFIG,
    ITEMS,
    MARKET,
    START_HEXES,
)
from .model import (
    F1_PLAY,
    BuildingState,
    Farm,
    GranjaState,
    SeatChoice,
)

# ----- set-up (2.1) ---------------------------------------------------------------------------------


def new_state(players: int, seed: int, stacked: Sequence[str] = ()) -> GranjaState:
    """A fresh game. ``stacked`` card ids go on top of the deck in that order (for tests and
    tutorials); the rest is shuffled below them. Cards are dealt four at a time, seat 0 first."""
    if players < 2:
        raise SetupError(tr("Granja needs 2 to 4 players; the solo mode (an automated rival) is not available yet."))
    unknown = [card for card in stacked if card not in CARDS]
    if unknown:
        raise SetupError(tr("Deck option: unknown card {card}; cards are C001 to C060.", card=quote(unknown[0])))
    if len(set(stacked)) != len(stacked):
        raise SetupError(tr("Deck option: a card is named twice; every card exists once."))
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
