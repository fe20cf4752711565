"""Each seat's chance to win a Figures match to a target from the current totals (individual
scoring), for the search's evaluation at the end of a hand.

The model: every hand gives its four places' points (10, 5, 3, 1) to the seats in an order drawn
at random, all 24 orders alike; the match ends after a hand when someone has the target or more
and leads alone (§3.3). That is what turns a hand's points into what they are worth for the
match: 5 points matter less to a seat far behind than to one close to the target, and a
leader's 10 points can end the match at once.

The chances depend only on how far each seat is from the target (its deficit), so they are
worked out, and kept, by deficits. The sum over what can still happen grows with the fourth
power of the deficits (from 0-0-0-0, a target of 101 would weigh some 170,000 positions, 16 s of
CPU), and the target may be any positive integer. So the sum is made only once the leader is
within ``HORIZON`` points of the target, with a seat further than ``_DEEPEST`` from it weighed as
if it were ``_DEEPEST`` away: every position of a match to
``HORIZON`` (the default 31) or less is weighed exactly, and the cache never holds more
positions than such deficits allow, whatever targets a process searches. Further from the end
of a long match, the chances are estimated as shares of ``exp(total / spread)``, the spread
growing as the square root of the leader's deficit: the points still to come wander like a
random walk, whose reach grows with the square root of the hands left. ``_SPREAD`` makes the
estimate agree with the sum where the two meet (a 5-point lead from 0-0-0-0 in a match to 31 is
worth 0.40 either way).
"""

from __future__ import annotations

from itertools import permutations
from math import exp, sqrt

from .model import INDIVIDUAL_PLACE_POINTS, INDIVIDUAL_WINNER_POINTS

_ORDERS = sorted(set(permutations((INDIVIDUAL_WINNER_POINTS, *INDIVIDUAL_PLACE_POINTS))))
_OVERTIME = 40  # points past the target where a still-tied lead is simply shared (never reached in practice)
HORIZON = 31  # the exact sum applies once the leader is this close to the target
_SPREAD = 7.2  # the estimate's spread at HORIZON points from the end (see the module docstring)
# Deficits beyond this are weighed as this: a seat that far behind a leader within reach has
# next to no chance anyway, and it bounds the cache (a match fills a few thousand positions;
# every start at once, some 260,000 positions and 70 MB). Ten points past HORIZON, so that a
# lead of up to ten still counts when the leader comes within reach.
_DEEPEST = HORIZON + 10
# Cache: deficits sorted low to high (leader first) -> each of those seats' chances. Pure: the
# same deficits always give the same chances, so it only saves work.
_CACHE: dict[tuple[int, ...], tuple[float, ...]] = {}


def within_reach(totals: list[int], target: int) -> bool:
    """Whether the leader is close enough to the target for the exact sum."""
    return target - max(totals) <= HORIZON


def _estimate(totals: list[int], target: int) -> list[float]:
    spread = _SPREAD * sqrt((target - max(totals)) / HORIZON)
    best = max(totals)
    weights = [exp((total - best) / spread) for total in totals]  # from the best: never overflows
    return [weight / sum(weights) for weight in weights]


def _chances_sorted(deficits: tuple[int, ...]) -> tuple[float, ...]:
    known = _CACHE.get(deficits)
    if known is not None:
        return known
    best = deficits[0]
    if best <= 0:
        leaders = sum(1 for deficit in deficits if deficit == best)
        if leaders == 1 or best <= -_OVERTIME:
            result = tuple((1.0 / leaders) if deficit == best else 0.0 for deficit in deficits)
            _CACHE[deficits] = result
            return result
    sums = [0.0] * len(deficits)
    for order in _ORDERS:
        after = [deficit - gained for deficit, gained in zip(deficits, order, strict=True)]
        ranked = sorted(range(len(after)), key=lambda index: after[index])
        chances = _chances_sorted(tuple(after[index] for index in ranked))
        for place, index in enumerate(ranked):
            sums[index] += chances[place]
    result = tuple(value / len(_ORDERS) for value in sums)
    _CACHE[deficits] = result
    return result


def match_chances(totals: list[int], target: int) -> list[float]:
    """Each seat's chance to win the match from these totals (see the module docstring)."""
    if not within_reach(totals, target):
        return _estimate(totals, target)
    ranked = sorted(range(len(totals)), key=lambda seat: -totals[seat])
    chances = _chances_sorted(tuple(min(target - totals[seat], _DEEPEST) for seat in ranked))
    result = [0.0] * len(totals)
    for place, seat in enumerate(ranked):
        result[seat] = chances[place]
    return result
