"""AI levels and the thinker: levels map to what each game offers, searching seats (and the
takeover of an absent seat, at normal) think through the injected thinker with their level's
budget, a fixed budget gives the same move every time, and a time budget stops the search."""

from __future__ import annotations

import random

import pytest

from engine.games import get_game
from engine.referee import Budget, InlineThinker, LobbyError, level_label
from engine.referee.levels import player_kind
from engine.referee.thinking import TIME_BOUND_ITERATIONS, ThinkRequest, Thought, think

from ..registered import registered_game
from ..toy_game import GAME as NIM
from .helpers import HOUR
from .thinking_nim import NORMAL_PLAYOUTS, STRONG_PLAYOUTS


@pytest.fixture
def thinking_nim(monkeypatch: pytest.MonkeyPatch):
    yield from registered_game(monkeypatch, "thinking-nim", "tests.referee.thinking_nim")


class SpyThinker(InlineThinker):
    """Thinks inline, and keeps every request it was given."""

    def __init__(self, budgets: dict[str, Budget] | None = None) -> None:
        super().__init__(budgets)
        self.requests: list[ThinkRequest] = []

    async def think(self, request: ThinkRequest) -> Thought:
        self.requests.append(request)
        return await super().think(request)


def request(state: bytes, kind: str, budget: Budget, seed: int = 11) -> ThinkRequest:
    return ThinkRequest(game="thinking-nim", state=state, seat=0, kind=kind, seed=seed, budget=budget)


def test_levels_map_to_what_each_game_offers(thinking_nim) -> None:
    # A game with search levels plays each level with its own player...
    assert [player_kind(thinking_nim, level) for level in ("easy", "normal", "strong")] == ["easy", "normal", "strong"]
    # ...one with a greedy player only plays every level with it; one with nothing else, randomly.
    figures = get_game("figures")
    offered = figures.ai_players()
    for level in ("easy", "normal", "strong"):
        assert player_kind(figures, level) == (level if level in offered else "greedy")
    assert player_kind(NIM, "strong") == "random"
    # Tables stored before the levels keep their kinds, shown as levels.
    assert player_kind(figures, "greedy") == "greedy" and level_label("greedy") == "easy"


async def test_a_lobby_seats_levels_and_refuses_unknown_ones(referee, toy_game) -> None:
    table = await referee.create_table("nim", "alice", "Alice", ai_seats=["strong"])
    table = await referee.add_ai(table.id, "alice", "easy")
    assert [seat.ai_kind for seat in table.seats] == [None, "strong", "easy"]
    with pytest.raises(LobbyError, match="Unknown AI level 'genius'; choose easy, normal, strong"):
        await referee.add_ai(table.id, "alice", "genius")


def test_a_fixed_budget_runs_exactly_its_playouts_and_repeats_its_move(thinking_nim) -> None:
    state = thinking_nim.encode_state(thinking_nim.new_game(2, 1, {"tokens": 10}))
    first = think(request(state, "strong", Budget(iterations=7)))
    assert first.iterations == 7
    assert [think(request(state, "strong", Budget(iterations=7))).move for _ in range(3)] == [first.move] * 3
    moves = {think(request(state, "strong", Budget(iterations=7), seed=seed)).move for seed in range(20)}
    assert len(moves) > 1  # the seed decides, nothing else
    # Without a budget of its own a level plays its fixed count of playouts.
    assert think(request(state, "normal", Budget())).iterations == NORMAL_PLAYOUTS
    assert think(request(state, "strong", Budget())).iterations == STRONG_PLAYOUTS


def test_a_time_budget_stops_the_search_at_its_deadline(thinking_nim) -> None:
    state = thinking_nim.encode_state(thinking_nim.new_game(2, 1, {"tokens": 10}))
    thought = think(request(state, "strong", Budget(cpu_ms=30.0)))
    # Without the deadline it would run TIME_BOUND_ITERATIONS playouts (tens of seconds); the
    # bounds are wide: a loaded machine only makes the wall-clock guard stop it sooner.
    assert 1 <= thought.iterations < TIME_BOUND_ITERATIONS
    assert thought.cpu_ms < 30.0 * 40


async def test_searching_seats_and_the_takeover_think_through_the_thinker(tmp_path, clock, thinking_nim) -> None:
    from db import SqliteStore
    from engine.referee import Referee

    spy = SpyThinker({"normal": Budget(iterations=3), "strong": Budget(iterations=4)})
    referee = Referee(await SqliteStore.open(tmp_path / "r.sqlite3"), clock=clock, ai_rng=random.Random(3), thinker=spy)
    try:
        table = await referee.create_table("thinking-nim", "alice", "Alice", ai_seats=["strong", "easy"], options={"tokens": 30})
        await referee.start(table.id, "alice", seed=1)
        await referee.play(table.id, "alice", "take 1")
        # The strong seat asked the thinker with its budget; the easy seat chose in-process.
        assert [(r.kind, r.seat, r.budget) for r in spy.requests] == [("strong", 1, Budget(iterations=4))]

        # A person who runs out of time and is skipped is played at normal.
        table = await referee.create_table("thinking-nim", "bob", "Bob", speed="daily-2", options={"tokens": 30})
        await referee.join(table.id, "carol", "Carol")
        await referee.start(table.id, "bob", seed=1)
        clock.advance(40 * HOUR)
        await referee.skip(table.id, "carol", 0)
        assert [(r.kind, r.seat) for r in spy.requests[1:]] == [("normal", 0)]
        assert spy.requests[-1].budget == Budget(iterations=3)
    finally:
        await referee.store.close()


def test_a_searching_hint_gives_the_moves_expected_share_of_the_win(thinking_nim) -> None:
    # Two tokens left: taking both wins at once (a share of 100%); the easy player takes both too.
    state = thinking_nim.new_game(2, 1, {"tokens": 2})
    hint = ThinkRequest(
        game="thinking-nim", state=thinking_nim.encode_state(state), seat=0, kind="normal", seed=2,
        budget=Budget(iterations=3), explain=True,
    )  # fmt: skip
    thoughts = {(thought.move, thought.reason) for thought in (think(hint) for _ in range(3))}
    assert len(thoughts) == 1  # the same move and words every time, with a fixed budget
    [(move, reason)] = thoughts
    if move == "take 2":
        assert reason == "expected share of the win about 100%"
    else:  # take 1: the other then takes the last token, whatever the rollouts do
        assert reason == "expected share of the win about 0%"  # the easy choice fares better: not named
    # Three tokens: whatever the search takes, the easy choice (all three) wins, and the easy
    # choice is named only when it fares worse.
    state = thinking_nim.new_game(2, 1, {"tokens": 3})
    reasons = {
        think(ThinkRequest(game="thinking-nim", state=thinking_nim.encode_state(state), seat=0, kind="normal",
                           seed=seed, budget=Budget(iterations=3), explain=True)).reason
        for seed in range(8)
    }  # fmt: skip
    assert reasons and all(reason.startswith("expected share of the win about") for reason in reasons)
    assert not any("easy choice" in reason for reason in reasons)
