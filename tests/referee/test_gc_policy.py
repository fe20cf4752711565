"""The bot's garbage-collector settings: applied, and undoable (so this test leaves none behind)."""

from __future__ import annotations

import gc

from engine.referee.gc_policy import THRESHOLDS, tune_garbage_collector


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
