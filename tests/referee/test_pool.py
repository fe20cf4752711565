"""The pool of thinking processes: started at the first request only, the same move as thinking
in-process for the same request (a move depends on the seed and the budget, not on where it is
thought), and closed for good (its processes end) when its owner closes it."""

from __future__ import annotations

import pytest

from engine.games import get_game
from engine.referee import Budget, PoolThinker
from engine.referee.thinking import ThinkRequest, think


def orchard_request(seed: int) -> ThinkRequest:
    game = get_game("orchard")
    state = game.new_game(3, seed, {})
    seat = game.to_act(state)[0]
    kind = "normal" if "normal" in game.ai_players() else "greedy"
    return ThinkRequest(
        game="orchard", state=game.encode_state(state), seat=seat, kind=kind, seed=seed, budget=Budget(iterations=3)
    )


async def test_the_pool_starts_lazily_thinks_like_in_process_and_closes() -> None:
    pool = PoolThinker(workers=1)
    assert not pool.running and pool.started == 0  # nothing to start before anyone searches
    try:
        requests = [orchard_request(seed) for seed in (1, 2, 3)]
        thoughts = [await pool.think(request) for request in requests]
        assert [thought.move for thought in thoughts] == [think(request).move for request in requests]
        assert pool.running and pool.started == 1  # one pool, kept for every request
        processes = list(pool._executor._processes.values())  # type: ignore[union-attr]
        assert processes and all(process.is_alive() for process in processes)
    finally:
        await pool.close()
    assert not pool.running and not any(process.is_alive() for process in processes)
    with pytest.raises(RuntimeError, match="closed"):
        await pool.think(requests[0])
    await pool.close()  # closing twice is harmless


async def test_a_dead_worker_is_replaced() -> None:
    pool = PoolThinker(workers=1)
    try:
        request = orchard_request(4)
        expected = (await pool.think(request)).move
        for process in pool._executor._processes.values():  # type: ignore[union-attr]
            process.kill()
            process.join()
        assert (await pool.think(request)).move == expected
        assert pool.started == 2
    finally:
        await pool.close()
