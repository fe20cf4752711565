"""Hypothesis profiles of the fuzz tests: a quick default, so that the suite stays fast, and a
long run on demand: ``HYPOTHESIS_PROFILE=fuzz pytest tests/fuzz`` (about 40 times the examples)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "quick",
    max_examples=60,
    deadline=None,  # a shared 2-core machine: timing is not what these tests look at
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz",
    max_examples=2_500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))
