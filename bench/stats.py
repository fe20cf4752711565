"""Small helpers: medians, percentiles, resident memory, timing."""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Sequence


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p99 of 1,000 samples is the 990th smallest)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc; falls back to the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def rounded(value: float, digits: int = 3) -> float:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return value
    return round(value, digits)
