"""Each seat's chance to win a Figures match to a target from the current totals (individual
scoring), for the search's evaluation at the end of a hand.

The model: every hand gives its four places' points (10, 5, 3, 1) to the seats in an order drawn
at random, all 24 orders alike; the match ends after a hand when someone has the target or more
and leads alone (§3.3). That is what turns a hand's points into what they are worth for the
match: 5 points matter less to a seat far behind than to one close to the target, and a
leader's 10 points can end the match at once.
"""

from __future__ import annotations

from itertools import permutations

from .model import INDIVIDUAL_PLACE_POINTS, INDIVIDUAL_WINNER_POINTS

_ORDERS = sorted(set(permutations((INDIVIDUAL_WINNER_POINTS, *INDIVIDUAL_PLACE_POINTS))))
_OVERTIME = 40  # points past the target where a still-tied lead is simply shared (never reached in practice)
# Cache: (target, totals sorted high to low) -> each of those seats' chances. Pure: the same
# totals always give the same chances, so it only saves work.
_CACHE: dict[tuple[int, tuple[int, ...]], tuple[float, ...]] = {}


def _chances_sorted(target: int, totals: tuple[int, ...]) -> tuple[float, ...]:
    key = (target, totals)
    known = _CACHE.get(key)
    if known is not None:
        return known
    best = totals[0]
    if best >= target:
        leaders = sum(1 for total in totals if total == best)
        if leaders == 1 or best >= target + _OVERTIME:
            result = tuple((1.0 / leaders) if total == best else 0.0 for total in totals)
            _CACHE[key] = result
            return result
    sums = [0.0] * len(totals)
    for order in _ORDERS:
        after = [total + gained for total, gained in zip(totals, order, strict=True)]
        ranked = sorted(range(len(after)), key=lambda index: -after[index])
        chances = _chances_sorted(target, tuple(after[index] for index in ranked))
        for place, index in enumerate(ranked):
            sums[index] += chances[place]
    result = tuple(value / len(_ORDERS) for value in sums)
    _CACHE[key] = result
    return result


def match_chances(totals: list[int], target: int) -> list[float]:
    """Each seat's chance to win the match from these totals (see the module docstring)."""
    ranked = sorted(range(len(totals)), key=lambda seat: -totals[seat])
    chances = _chances_sorted(target, tuple(totals[seat] for seat in ranked))
    result = [0.0] * len(totals)
    for place, seat in enumerate(ranked):
        result[seat] = chances[place]
    return result
