"""A move written with a redundant detail is stored and shown in its one canonical form."""

from __future__ import annotations

import pytest

from engine.games import get_game

from .helpers import MONDAY, ManualClock, open_referee

pytestmark = pytest.mark.both_backends


async def test_a_base_naming_its_determined_row_is_stored_as_the_plain_move(tmp_path):
    # Vege tables M1 forbids naming *another* row only: "play K2 row 3" with row 3 Black's is
    # accepted, and the log keeps "play K2" (the row adds nothing).
    referee = await open_referee(tmp_path / "v.sqlite3", ManualClock(MONDAY))
    table = await referee.create_table("vegetables", "u0", "U0", options={"deck": "K1 K2 G2 Y4"})
    for user in ("u1", "u2", "u3"):
        await referee.join(table.id, user, user.upper())
    await referee.start(table.id, "u0", seed=11)
    game = get_game("vegetables")
    seat = game.to_act(await referee.state(table.id))[0]
    user = (await referee.table(table.id)).seats[seat].user_id
    await referee.play(table.id, user, "play K1 row 3")
    await referee.play(table.id, user, "play K2 row 3")
    moves = [recorded.move for recorded in await referee.store.move_log(table.id)]
    assert moves[-2:] == ["play K1 row 3", "play K2"]
    await referee.store.close()
