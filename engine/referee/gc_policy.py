"""How the bot process sets Python's cyclic garbage collector and its thread switching (both
called once at start-up).

A referee move allocates thousands of short-lived objects (views, events, copies of the state).
With CPython's default first-generation threshold (700 allocations) many of them are collected
several times and some survive into the oldest generation, which is then walked in full far more
often; each full walk visits every long-lived object: the imported libraries and the cached
games. Measured with `python -m bench` (referee, 1,000 active La Granja games): the default
settings cost about half the CPU of a move and produced the p99 latency outliers.
"""

from __future__ import annotations

import gc
import sys

# Young objects collected every 50,000 net allocations instead of 700; the older generations
# keep their default ratio of ten to one below the top.
THRESHOLDS = (50_000, 10, 10)


def tune_garbage_collector(*, freeze: bool = True) -> None:
    """Raise the collection thresholds and, with ``freeze``, move every object alive now (the
    imported modules, mostly) out of the collector's sight: they live as long as the process."""
    gc.set_threshold(*THRESHOLDS)
    if freeze:
        gc.freeze()  # no collection first: it would cost start-up time to free a few objects


# The longest a thread waiting for the interpreter lock waits before the running one must let go:
# 1 ms instead of CPython's 5. The SQLite thread gives up the lock inside every statement and then
# needs it back, while the event loop thread, busy with the next moves, holds it: each statement
# of a group commit waited up to 5 ms, and the groups waited for the disk's thread instead of the
# other way round. Measured with the bench (1,000 active games, one session): La Granja 2,222 ->
# 2,341 durable moves/s, vegetables 2,454 -> 2,478; shorter intervals brought no more.
SWITCH_INTERVAL = 0.001


def tune_thread_switching() -> None:
    sys.setswitchinterval(SWITCH_INTERVAL)
