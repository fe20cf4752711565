"""The bot's garbage-collector settings: applied, and undoable (so this test leaves none behind)."""

from __future__ import annotations

import gc
import sys

from engine.referee.gc_policy import (
    SWITCH_INTERVAL,
    THRESHOLDS,
    tune_garbage_collector,
    tune_thread_switching,
)


def test_thresholds_are_raised_and_startup_objects_frozen():
    before = gc.get_threshold()
    try:
        tune_garbage_collector(freeze=True)
        assert gc.get_threshold() == THRESHOLDS
        assert THRESHOLDS[0] > 700  # CPython's default: young objects get a chance to die before promotion
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_waiting_thread_gets_the_interpreter_lock_sooner():
    before = sys.getswitchinterval()
    try:
        tune_thread_switching()
        assert sys.getswitchinterval() == SWITCH_INTERVAL < 0.005  # CPython's default: 5 ms
    finally:
        sys.setswitchinterval(before)
