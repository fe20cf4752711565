"""Every tunable number of Granja in one place.

The rules (docs/rules/granja.md) mark values as taken from the seed [S], the published
game [P] or our own decision [D]. All [D] values live here (section 1.13 lists them), together
with the [S]/[P] numbers the rules need, so the game can be tuned without touching the code.
The card list itself is data in ``cards.py``; ``CONFIG.deck`` points at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import DECK, Card

# ----- goods vocabulary (1.1) ------------------------------------------------------------------------

CROPS: tuple[str, ...] = ("GR", "OL", "GP")
RESOURCES: tuple[str, ...] = ("GR", "OL", "GP", "PG")
UPGRADED: tuple[str, ...] = ("FD", "WN", "MT")
# Deliverable items, in the order defaults and lists use (Ruling 55).
ITEMS: tuple[str, ...] = ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG")
# The nine farm-good types an extension may be paid with (trade goods excluded).
FARM_GOOD_TYPES: tuple[str, ...] = ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "$", "VP")
UPGRADE_RESULT: dict[str, str] = {"GR": "FD", "OL": "FD", "GP": "WN", "PG": "MT"}

# ----- buildings (1.7) -------------------------------------------------------------------------------

WAGON_MAKER, VILLAGE_SHOP, TRADING_HOUSE, GREENGROCER, DELICATESSEN, BUTCHER = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class BuildingSpec:
    number: int
    name: str
    short: str  # for the compact board
    row: tuple[str, ...]  # one player's delivery row [D]


BUILDINGS: tuple[BuildingSpec, ...] = (
    BuildingSpec(WAGON_MAKER, "Wagon Maker", "Wagon", ("GR", "OL", "WN", "TG")),
    BuildingSpec(VILLAGE_SHOP, "Village Shop", "Shop", ("GR", "GP", "PG", "FD")),
    BuildingSpec(TRADING_HOUSE, "Trading House", "Trade", ("OL", "GP", "TG", "TG")),
    BuildingSpec(GREENGROCER, "Greengrocer", "Green", ("GR", "OL", "GP", "FD")),
    BuildingSpec(DELICATESSEN, "Delicatessen", "Deli", ("GR", "OL", "FD", "WN")),
    BuildingSpec(BUTCHER, "Butcher", "Butch", ("PG", "PG", "MT")),
)

# ----- market map (1.9) [D] --------------------------------------------------------------------------


@dataclass(frozen=True)
class HexSpec:
    id: str
    q: int
    r: int
    value: int
    four_players_only: bool


# id, q, r, value; M20-M29 are the outer hexes used only with 4 players.
MARKET: tuple[HexSpec, ...] = tuple(
    HexSpec(f"M{index + 1:02d}", q, r, value, index >= 19)
    for index, (q, r, value) in enumerate(
        [
            (0, 0, 2), (1, 0, 3), (0, 1, 4), (1, -1, 5), (0, -1, 6), (-1, 0, 4), (-1, 1, 6),
            (2, 0, 2), (2, -1, 4), (2, -2, 3), (1, -2, 2), (0, -2, 5), (-1, -1, 3), (-2, 0, 2),
            (-2, 1, 5), (-2, 2, 3), (-1, 2, 2), (0, 2, 6), (1, 1, 2),
            (3, -2, 4), (2, -3, 2), (1, -3, 6), (-1, -2, 5), (-2, -1, 3), (-3, 2, 4), (-2, 3, 5),
            (-1, 3, 3), (1, 2, 6), (2, 1, 2),
        ]
    )
)  # fmt: skip
START_HEXES: tuple[int, ...] = (0, 1, 2, 3)  # S1-S4 = M01-M04, by initial turn order [P]
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

# ----- roofs (1.6) [D allocation] --------------------------------------------------------------------
# Effect templates (shared with dice and trade goods, see effects.effect_moves):
#   pig | crop:A,B,... (one crop among those) | crops (two different crops) | silver:K | vp:K
#   draw | play | upgrade:1 | upgrade:2 (up to two) | upgrade+siesta | siesta:K | deliver

ROOFS: dict[str, tuple[int, tuple[str, ...]]] = {
    "R1-A": (1, ("deliver",)),
    "R1-B": (1, ("crops",)),
    "R1-C": (1, ("play", "draw")),
    "R1-D": (1, ("pig",)),
    "R2-A": (2, ("upgrade:1",)),
    "R2-B": (2, ("siesta:1", "siesta:2")),
    "R2-C": (2, ("crop:GR,OL,GP",)),
    "R2-D": (2, ("pig", "crop:GR,OL,GP")),
    "R3-A": (3, ("deliver",)),
    "R3-B": (3, ("silver:2",)),
    "R3-C": (3, ("crop:GR,OL,GP",)),
    "R3-D": (3, ("upgrade:1",)),
    "R4-A": (4, ("pig",)),
    "R4-B": (4, ("play", "draw")),
    "R4-C": (4, ("siesta:1", "siesta:2")),
    "R4-D": (4, ("crop:GR,OL",)),
    "R5-A": (5, ("silver:2",)),
    "R5-B": (5, ("vp:1",)),
    "R5-C": (5, ("crop:OL,GP",)),
    "R5-D": (5, ("upgrade:1",)),
    "R6-A": (6, ("vp:1",)),
    "R6-B": (6, ("crop:GP",)),
    "R6-C": (6, ("crop:OL",)),
    "R6-D": (6, ("silver:2",)),
}

# ----- revenue dice (1.10) and trade-good exchange (1.11) [P] ----------------------------------------

DIE_EFFECTS: dict[int, tuple[str, ...]] = {
    1: ("pig",),
    2: ("play", "draw", "crop:GR,OL,GP"),
    3: ("crops",),
    4: ("silver:4",),
    5: ("upgrade:2", "upgrade+siesta", "siesta:2"),
    6: ("deliver", "silver:2"),
}
TRADE_GOOD_EFFECTS: tuple[str, ...] = ("silver:4", "crops", "play", "draw", "pig", "upgrade:2")

# ----- donkey markers (1.3) [S] ----------------------------------------------------------------------

DONKEYS: dict[str, int] = {"D1": 1, "D2": 2, "D3": 3, "D4": 4}  # marker -> donkeys; hats = 4 - donkeys
DONKEY_BLOCKS: tuple[tuple[int, ...], ...] = ((1, 2, 3), (4, 5, 6))

# ----- extensions (1.12.2) [S] -----------------------------------------------------------------------

EXTENSION_ICONS: dict[str, frozenset[str]] = {
    "E-DI": frozenset({"delivery", "income"}),
    "E-DP": frozenset({"delivery", "pigsty"}),
    "E-IP": frozenset({"income", "pigsty"}),
}

# ----- helpers (1.12.3) ------------------------------------------------------------------------------

# Helper labels are words in the reader's language: terms.helper_label.
# Helpers used once per round (they carry a usage marker after use).
ONCE_PER_ROUND_HELPERS: frozenset[str] = frozenset(
    {"H02", "H04", "H05", "H06", "H08", "H09", "H10", "H15", "H16", "H17"}
)
# H04 pairs: give (item, amount) -> get (item, amount).
EXCHANGES: dict[str, tuple[str, int, str, int]] = {
    "GR>OL": ("GR", 1, "OL", 1),
    "OL>GP": ("OL", 1, "GP", 1),
    "GP>GR": ("GP", 1, "GR", 1),
    "2$>PG": ("$", 2, "PG", 1),
    "3$>TG": ("$", 3, "TG", 1),
    "1VP>2$": ("VP", 1, "$", 2),
}


# ----- the configuration table (1.13) ----------------------------------------------------------------


@dataclass(frozen=True)
class GranjaConfig:
    rounds: int = 6  # [S]
    # Siesta track: spaces 0..top; VP of the section each space belongs to [D layout].
    siesta_top: int = 8
    siesta_section_vp: tuple[int, ...] = (0, 1, 1, 2, 2, 3, 3, 4, 4)
    roof_space_vp: tuple[int, ...] = (1, 2, 3, 4, 5)  # five spaces [S], values [D]
    base_hand_limit: int = 3  # [S]
    base_extra_deliveries: int = 1  # [S]
    base_income: int = 0  # [P]
    base_pigsties: int = 1  # [D]
    pigsty_size: int = 2  # [D]
    barrow_slots: int = 3  # [S]
    helper_slots: int = 3  # [S]
    start_silver: int = 1  # [P]
    start_vp: int = 1  # [P]
    start_trade_goods: int = 1  # [P]
    start_hand: int = 4  # [P]
    cards_in_round_one: int = 2  # [S]
    cards_per_round: int = 1  # [S]
    extra_delivery_price: int = 1  # [S]
    # Anytime prices (1.11) [D] except the published upgrade costs GR/OL->FD 2 and GP->WN 3.
    buy_price: dict[str, int] = field(default_factory=lambda: {"GR": 2, "OL": 2, "GP": 2, "PG": 3})
    sell_price: dict[str, int] = field(
        default_factory=lambda: {"GR": 1, "OL": 1, "GP": 1, "PG": 2, "FD": 3, "WN": 4, "MT": 3}
    )
    upgrade_cost: dict[str, int] = field(default_factory=lambda: {"GR": 2, "OL": 2, "GP": 3, "PG": 1})
    trade_good_end_value: int = 4  # [P] liquidation of a trade good
    end_silver_per_vp: int = 5  # [P]
    # Barrow value rule (1.12.1) [D]: a barrow's VP is the sum of its symbols' weights.
    barrow_weights: dict[str, int] = field(
        default_factory=lambda: {"GR": 1, "OL": 1, "GP": 1, "PG": 2, "FD": 2, "TG": 2, "WN": 3, "MT": 3}
    )
    # Helper numbers (Ruling 56) [D].
    h01_discount: int = 1
    h03_silver: int = 1
    h07_vp: int = 1
    h07_silver: int = 2
    h11_min_fields: int = 1
    h12_min_pigs: int = 1
    h12_max_piglets: int = 2
    h13_silver: int = 2
    h15_bonus: int = 1
    breeding_min_pigs: int = 2  # [S]
    # Building effects (1.7) [S].
    village_shop_now_vp: int = 2
    village_shop_bonus_vp: int = 2
    trading_house_silver: int = 3
    butcher_bonus_vp: int = 1
    first_finisher_vp: int = 1  # the token on each ownership hex [S]
    order_marker_vp: int = 1  # the token lying with each building-order marker [S/P]
    order_markers: int = 3  # [S]
    # Tables kept here so that the whole game is described by one object.
    buildings: tuple[BuildingSpec, ...] = BUILDINGS
    market: tuple[HexSpec, ...] = MARKET
    roofs: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=lambda: dict(ROOFS))
    die_effects: dict[int, tuple[str, ...]] = field(default_factory=lambda: dict(DIE_EFFECTS))
    trade_good_effects: tuple[str, ...] = TRADE_GOOD_EFFECTS
    deck: tuple[Card, ...] = DECK  # the 60 card records (data in cards.py)

    donkey_symbols: int = 4  # donkeys + straw hats on every donkey marker [S]

    def section_vp(self, space: int) -> int:
        return self.siesta_section_vp[space]

    def dice_count(self, players: int) -> int:
        return 2 * players + 1  # [P]


CONFIG = GranjaConfig()
