"""The 60 farm cards of Granja, original to this project (spec 1.12).

Every card has four faces; where it is played decides which one counts:
  field (left): one crop type;  barrow (top): goods to deliver and the VP they earn;
  helper (bottom): an ability (1.12.3);  extension (right): +1 hand limit and two icons.
The table below is the data, one card a line:
  id, field crop, barrow goods, barrow VP, helper type and parameter ("-" for none), extension.
C001-C008 are the spec's eight example cards. ``deck_problems`` checks every authoring
constraint of 1.12.4, the independence of helper faces from the other faces included; a test
runs it on this deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DECK_TABLE = """\
C001  GR  GR+OL        2  H02 -       E-DI
C002  OL  GP+GP+PG     4  H05 -       E-IP
C003  GP  WN+FD+GR     6  H08 -       E-DP
C004  GR  OL+FD        3  H03 silver  E-IP
C005  OL  MT+GP        4  H11 OL      E-DI
C006  GP  GR+OL+GP     3  H04 2$>PG   E-DP
C007  GR  PG+MT        5  H12 -       E-IP
C008  OL  TG+WN+GR     6  H09 -       E-DI
C009  OL  OL+GR        2  H03 silver  E-IP
C010  GP  GP+OL        2  H06 -       E-DI
C011  OL  GR+GP        2  H17 -       E-IP
C012  GR  OL+OL        2  H03 crop    E-DI
C013  GP  GR+GP        2  H06 -       E-DP
C014  GR  GP+GR        2  H08 -       E-IP
C015  GR  OL+OL        2  H04 GR>OL   E-IP
C016  OL  GP+GR        2  H04 OL>GP   E-IP
C017  GR  GP+OL        2  H09 -       E-IP
C018  GP  GR+GR        2  H09 -       E-DP
C019  GR  GP+OL        2  H04 3$>TG   E-DI
C020  GR  OL+GR        2  H05 -       E-IP
C021  GP  GP+OL        2  H05 -       E-DI
C022  GP  GP+GR+OL     3  H12 -       E-DI
C023  OL  GP+GR+GR     3  H10 -       E-DI
C024  GP  GP+OL+GR     3  H02 -       E-DP
C025  OL  OL+GP+OL     3  H08 -       E-DI
C026  OL  GR+GP+GR     3  H14 -       E-DI
C027  OL  GP+FD        3  H02 -       E-IP
C028  GR  OL+FD        3  H01 -       E-DP
C029  OL  OL+FD        3  H15 -       E-IP
C030  GP  GR+PG        3  H03 crop    E-DI
C031  OL  GP+PG        3  H01 -       E-DI
C032  OL  GR+TG        3  H13 -       E-IP
C033  GP  GP+TG        3  H15 -       E-DP
C034  GP  OL+OL+FD     4  H13 -       E-DI
C035  GR  GR+GP+FD     4  H13 -       E-DP
C036  GP  GP+OL+PG     4  H16 -       E-IP
C037  OL  GR+WN        4  H05 -       E-DP
C038  GP  GR+WN        4  H17 -       E-DI
C039  GR  OL+MT        4  H05 -       E-DP
C040  GP  FD+FD        4  H04 GP>GR   E-DI
C041  GP  PG+PG        4  H01 -       E-IP
C042  GR  GP+GR+GP+OL  4  H07 vp      E-DI
C043  GP  OL+GP+GR+GP  4  H02 -       E-IP
C044  OL  WN+FD        5  H06 -       E-DP
C045  OL  WN+FD        5  H12 -       E-DP
C046  GR  WN+FD        5  H14 -       E-DP
C047  GR  MT+FD        5  H11 GP      E-DP
C048  GR  MT+FD        5  H06 -       E-DI
C049  OL  PG+MT        5  H07 vp      E-DP
C050  GP  GR+OL+GP+FD  5  H10 -       E-IP
C051  GP  GR+OL+GR+FD  5  H11 GR      E-IP
C052  OL  OL+PG+FD     5  H16 -       E-DP
C053  GR  GP+TG+FD     5  H17 -       E-DP
C054  GP  WN+MT        6  H14 -       E-IP
C055  GR  WN+MT        6  H15 -       E-DI
C056  GR  WN+FD+GP     6  H10 -       E-DP
C057  GP  WN+FD+OL     6  H07 silver  E-IP
C058  OL  MT+PG+GR     6  H02 -       E-DP
C059  GR  FD+FD+FD     6  H16 -       E-DI
C060  OL  FD+FD+FD     6  H04 1VP>2$  E-DP
"""


@dataclass(frozen=True)
class Card:
    id: str
    field: str  # GR, OL or GP
    barrow: tuple[str, ...]  # goods to deliver, in printed order
    barrow_vp: int
    helper: str  # H01..H17
    param: str  # helper parameter ("" for none): H03 silver|crop, H04 pair, H07 vp|silver, H11 crop
    extension: str  # E-DI, E-DP or E-IP

    def record(self) -> dict[str, Any]:
        """The spec's card record format (1.12.4)."""
        params: dict[str, str] = {}
        if self.param:
            key = {"H03": "reward", "H04": "pair", "H07": "reward", "H11": "crop"}[self.helper]
            params[key] = self.param
        return {
            "id": self.id,
            "field": self.field,
            "barrow": {"goods": list(self.barrow), "vp": self.barrow_vp},
            "helper": {"type": self.helper, "params": params},
            "extension": {"type": self.extension},
        }


def _parse_table(text: str) -> tuple[Card, ...]:
    cards = []
    for line in text.strip().splitlines():
        card_id, crop, goods, vp, helper, param, extension = line.split()
        cards.append(
            Card(card_id, crop, tuple(goods.split("+")), int(vp), helper, "" if param == "-" else param, extension)
        )
    return tuple(cards)


DECK: tuple[Card, ...] = _parse_table(DECK_TABLE)
CARDS: dict[str, Card] = {card.id: card for card in DECK}

# ----- authoring constraints (1.12.4) --------------------------------------------------------------

BARROW_VP_COUNTS = {2: 14, 3: 14, 4: 12, 5: 11, 6: 9}
HELPER_COUNTS = {
    "H01": 3, "H02": 5, "H03": 4, "H04": 6, "H05": 5, "H06": 4, "H07": 3, "H08": 3, "H09": 3,
    "H10": 3, "H11": 3, "H12": 3, "H13": 3, "H14": 3, "H15": 3, "H16": 3, "H17": 3,
}  # fmt: skip
HELPER_PARAM_COUNTS = {
    "H03": {"silver": 2, "crop": 2},
    "H04": {"GR>OL": 1, "OL>GP": 1, "GP>GR": 1, "2$>PG": 1, "3$>TG": 1, "1VP>2$": 1},
    "H07": {"vp": 2, "silver": 1},
    "H11": {"GR": 1, "OL": 1, "GP": 1},
}
EXAMPLE_CARDS = (
    Card("C001", "GR", ("GR", "OL"), 2, "H02", "", "E-DI"),
    Card("C002", "OL", ("GP", "GP", "PG"), 4, "H05", "", "E-IP"),
    Card("C003", "GP", ("WN", "FD", "GR"), 6, "H08", "", "E-DP"),
    Card("C004", "GR", ("OL", "FD"), 3, "H03", "silver", "E-IP"),
    Card("C005", "OL", ("MT", "GP"), 4, "H11", "OL", "E-DI"),
    Card("C006", "GP", ("GR", "OL", "GP"), 3, "H04", "2$>PG", "E-DP"),
    Card("C007", "GR", ("PG", "MT"), 5, "H12", "", "E-IP"),
    Card("C008", "OL", ("TG", "WN", "GR"), 6, "H09", "", "E-DI"),
)


def deck_problems(deck: Sequence[Card], weights: Mapping[str, int]) -> list[str]:
    """Every way ``deck`` breaks the composition rules of 1.12.4 (empty when it is valid)."""
    problems: list[str] = []

    def expect(condition: bool, message: str) -> None:
        if not condition:
            problems.append(message)

    expect(len(deck) == 60, f"{len(deck)} cards instead of 60")
    expect(len({card.id for card in deck}) == len(deck), "card ids repeat")
    expect(tuple(deck[:8]) == EXAMPLE_CARDS, "C001-C008 are not the spec's example cards")
    fields = Counter(card.field for card in deck)
    expect(fields == Counter({"GR": 20, "OL": 20, "GP": 20}), f"field faces {dict(fields)}")
    extensions = Counter(card.extension for card in deck)
    expect(extensions == Counter({"E-DI": 20, "E-DP": 20, "E-IP": 20}), f"extension faces {dict(extensions)}")
    pairs = Counter((card.field, card.extension) for card in deck)
    for crop in ("GR", "OL", "GP"):
        for extension in ("E-DI", "E-DP", "E-IP"):
            expect(pairs[crop, extension] in (6, 7), f"{crop} x {extension} occurs {pairs[crop, extension]} times")
    vps = Counter(card.barrow_vp for card in deck)
    expect(vps == Counter(BARROW_VP_COUNTS), f"barrow VP counts {dict(sorted(vps.items()))}")
    symbols: Counter[str] = Counter()
    wine = pig_or_meat = trade = 0
    for card in deck:
        goods = card.barrow
        expect(2 <= len(goods) <= 5, f"{card.id}: {len(goods)} barrow symbols")
        expect(all(good in weights for good in goods), f"{card.id}: unknown barrow symbol")
        expect(sum(weights.get(good, 0) for good in goods) == card.barrow_vp, f"{card.id}: VP breaks the weight rule")
        expect(set(goods) != {card.field}, f"{card.id}: barrow shows only its own field crop")
        expect(goods.count("TG") <= 1, f"{card.id}: more than one trade good on the barrow")
        symbols.update(goods)
        wine += "WN" in goods
        pig_or_meat += "PG" in goods or "MT" in goods
        trade += "TG" in goods
    for crop in ("GR", "OL", "GP"):
        expect(28 <= symbols[crop] <= 36, f"{crop} appears {symbols[crop]} times on barrows")
    expect(20 <= symbols["FD"] <= 28, f"FD appears {symbols['FD']} times on barrows")
    expect(10 <= wine <= 14, f"WN on {wine} barrows")
    expect(12 <= pig_or_meat <= 18, f"PG or MT on {pig_or_meat} barrows")
    expect(trade <= 6, f"TG on {trade} barrows")
    helpers = Counter(card.helper for card in deck)
    expect(helpers == Counter(HELPER_COUNTS), f"helper counts {dict(sorted(helpers.items()))}")
    for helper, wanted in HELPER_PARAM_COUNTS.items():
        found = Counter(card.param for card in deck if card.helper == helper)
        expect(found == Counter(wanted), f"{helper} parameters {dict(found)}")
    plain = [card.id for card in deck if card.helper not in HELPER_PARAM_COUNTS and card.param]
    expect(not plain, f"parameters on helpers that take none: {plain}")
    problems.extend(helper_spread_problems(deck))
    return problems


def helper_spread_problems(deck: Sequence[Card]) -> list[str]:
    """"Helper type is independent of the other faces" (1.12.4), checked on every helper type:
    its n copies are spread as evenly as possible over the three extension types and the three
    field crops (at most ceil(n/3) on any one), and at most half of them (rounded up) share a
    barrow value. Otherwise playing a card for one face would tell which helper it hides, and a
    helper would come with the same extension every time."""
    problems: list[str] = []
    by_helper: dict[str, list[Card]] = {}
    for card in deck:
        by_helper.setdefault(card.helper, []).append(card)
    for helper, cards in sorted(by_helper.items()):
        copies = len(cards)
        faces = (
            ("extension", Counter(card.extension for card in cards), -(-copies // 3)),
            ("field", Counter(card.field for card in cards), -(-copies // 3)),
            ("barrow VP", Counter(str(card.barrow_vp) for card in cards), -(-copies // 2)),
        )
        for face, counts, most in faces:
            value, count = counts.most_common(1)[0]
            if count > most:
                problems.append(f"{helper}: {count} of its {copies} copies share {face} {value} (at most {most})")
    return problems
