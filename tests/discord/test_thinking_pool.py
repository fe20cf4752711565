"""The bot's thinking processes: none until a search (or a hint) needs one, and gone when the bot
closes."""

from __future__ import annotations

import dataclasses

import pytest

from config import Settings
from engine.referee import PoolThinker

from . import helpers as H
from .conftest import World
from .test_play import start_sprint


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # As deployed: worker processes (one is enough here), with fixed playouts for reproducibility.
    return dataclasses.replace(settings, ai_workers=1)


async def test_the_bot_starts_its_pool_on_demand_and_closes_it_with_itself(world: World) -> None:
    bot = world.env.bot
    pool = bot.thinker
    assert isinstance(pool, PoolThinker) and not pool.running
    thread = await start_sprint(world, [world.alice], ai=1)
    turn = await H.open_my_turn(world.alice, thread)
    hint = next(cid for cid in H.custom_ids(turn) if cid.startswith("ref:hint:"))
    answered = await world.alice.click(turn, custom_id=hint)
    assert answered.response.content.startswith("normal would choose ")
    assert pool.running
    processes = list(pool._executor._processes.values())  # type: ignore[union-attr]
    assert processes and all(process.is_alive() for process in processes)
    await bot.close()
    assert pool.closed and not pool.running
    assert not any(process.is_alive() for process in processes)
