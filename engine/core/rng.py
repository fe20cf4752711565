"""Seeded randomness kept inside the game state, so a game replays exactly from its seed."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

import msgspec

T = TypeVar("T")


class Rng(msgspec.Struct, kw_only=True):
    """A tiny, serialisable source of randomness.

    Rather than storing a Mersenne Twister state (about 5 KB), we store the seed and how many
    draws were made: each draw seeds a fresh generator from ``(seed, counter)``. That keeps the
    state small, JSON-friendly and exactly reproducible across processes and Python runs.
    """

    seed: int
    counter: int = 0

    def _next(self) -> random.Random:
        generator = random.Random(f"{self.seed}/{self.counter}")
        self.counter += 1
        return generator

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._next().shuffle(items)

    def randint(self, low: int, high: int) -> int:
        return self._next().randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return self._next().choice(items)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        generator = self._next()
        return [generator.randint(1, sides) for _ in range(count)]
