"""Shared helpers for referee and store tests: a hand-driven clock and referee factories."""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

from engine.referee import Referee

from ..stores import open_test_store

HOUR = 3600.0
DAY = 24 * HOUR


class ManualClock:
    """Time stands still until a test moves it (no sleeping anywhere)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def at(text: str, zone: str = "UTC") -> float:
    """Epoch seconds of a local date and time: at("2024-03-04 09:00", "Europe/Rome")."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=ZoneInfo(zone)).timestamp()


# A Monday morning, far from any DST change.
MONDAY = at("2024-03-04 09:00")


async def open_referee(
    path, clock: ManualClock, seed: int = 5, *, shared: bool = False, max_ai_moves: int = 10_000
) -> Referee:
    """A referee on the store of ``path``; ``shared``: as one of several processes over it."""
    store = await open_test_store(path)
    return Referee(store, clock=clock, ai_rng=random.Random(seed), shared=shared, max_ai_moves=max_ai_moves)


async def two_player_nim(
    referee: Referee,
    *,
    speed: str = "daily-2",
    tokens: int = 10,
    first: str = "alice",
    second: str = "bob",
    guild_id: str | None = "g1",
) -> int:
    table = await referee.create_table(
        "nim", first, first.title(), options={"tokens": tokens}, guild_id=guild_id, speed=speed
    )
    await referee.join(table.id, second, second.title())
    await referee.start(table.id, first, seed=42)
    return table.id
