"""Positions along whole games for the drawing tests, and the checks every picture must pass."""

from __future__ import annotations

import io
import os
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from engine.core import Game, Picture

MAX_PNG_BYTES = 300_000
MAX_WIDTH = 800
NAMES = ["Alice", "Bartholomew the Magnificent", "Chiara", "Dario", "Eve", "Fay"]
REFERENCE = Path(__file__).parent / "reference"
# PICTURES_REGENERATE=1 rewrites the reference images instead of comparing with them.
REGENERATE = os.environ.get("PICTURES_REGENERATE") == "1"


def positions(
    game: Game[Any, Any], players: int, seed: int, options: Mapping[str, Any] | None = None, every: int = 1
) -> Iterator[Any]:
    """Every ``every``-th state of one game of seeded random legal moves, and the final one."""
    rng = random.Random(seed)
    state = game.new_game(players, seed, dict(options or {}))
    step = 0
    while not game.is_over(state):
        if step % every == 0:
            yield state
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        step += 1
    yield state


def drawn_positions(
    game: Game[Any, Any], players: int, seed: int, options: Mapping[str, Any] | None = None, every: int = 1
) -> Iterator[tuple[dict[str, Any], Picture, list[tuple[dict[str, Any], Picture]]]]:
    """Along one game (``positions``): the public view and its board picture, and each seat's view
    with its hand picture, every picture already checked for size."""
    names = NAMES[:players]
    for state in positions(game, players, seed, options, every):
        view = game.view(state, None)
        board = game.draw_board(view, names)
        check_size(board)
        hands = []
        for seat in range(players):
            seat_view = game.view(state, seat)
            hand = game.draw_hand(seat_view, names)
            check_size(hand)
            hands.append((seat_view, hand))
        yield view, board, hands


def state_after(game: Game[Any, Any], players: int, seed: int, moves: int, options: Mapping[str, Any] | None = None) -> Any:
    for index, state in enumerate(positions(game, players, seed, options)):
        if index >= moves:
            return state
    return state


def check_size(picture: Picture) -> None:
    """Small enough for Discord and a phone, and a real PNG of the size it says."""
    assert len(picture.png) < MAX_PNG_BYTES
    assert picture.width <= MAX_WIDTH
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG" and image.size == (picture.width, picture.height)
    for mark in picture.marks:  # every mark lies on the picture
        left, top, right, bottom = mark.box
        assert 0 <= left <= right <= picture.width + 8 and -8 <= top <= bottom <= picture.height, mark


def compare_with_reference(picture: Picture, name: str, tolerance: float = 0.01) -> None:
    """The picture against tests/pictures/reference/<name>.png: the same size and at most
    ``tolerance`` of its pixels different (fonts may render a shade apart between builds)."""
    path = REFERENCE / f"{name}.png"
    if REGENERATE or not path.exists():
        path.write_bytes(picture.png)
        if not REGENERATE:
            raise AssertionError(f"{path.name} was missing: written now, check it and run again")
        return
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(picture.png)).convert("RGB")
    assert actual.size == expected.size, f"{name}: {actual.size} against {expected.size}"
    difference = ImageChops.difference(actual, expected).convert("L").point(lambda value: 255 if value > 24 else 0)
    changed = sum(difference.histogram()[255:]) / (actual.width * actual.height)
    assert changed <= tolerance, f"{name}: {changed:.2%} of the pixels differ from the reference"
