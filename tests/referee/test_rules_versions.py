"""Rules versions (issue 20): every table keeps the rules version it started with, and a bot whose
rules would change a game in progress refuses to start instead of playing it on other rules."""

from __future__ import annotations

import pytest

from engine.games import REGISTRY, get_game
from engine.referee import RulesChanged
from tests.toy_game import Nim, Take

from .helpers import open_referee, two_player_nim


async def nim_after_two_moves(referee) -> int:
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 3")
    await referee.play(table_id, "bob", "take 1")
    return table_id


async def test_tables_store_the_rules_version_they_start_with(referee, toy_game, monkeypatch):
    monkeypatch.setattr(Nim, "rules_version", 4)
    lobby = await referee.create_table("nim", "alice", "Alice")
    assert lobby.rules_version == 4
    await referee.join(lobby.id, "bob", "Bob")
    monkeypatch.setattr(Nim, "rules_version", 5)  # upgraded between the lobby and the start
    await referee.start(lobby.id, "alice", seed=1)
    referee.forget_cache()
    assert (await referee.table(lobby.id)).rules_version == 5


async def test_games_on_the_current_rules_are_not_replayed(referee, toy_game):
    await nim_after_two_moves(referee)
    assert (await referee.check_rules_versions()).replayed == 0


async def test_a_new_version_whose_rules_replay_the_same_is_accepted(referee, toy_game, monkeypatch):
    table_id = await nim_after_two_moves(referee)
    monkeypatch.setattr(Nim, "rules_version", 2)  # bumped, but nothing a logged game meets changed
    assert (await referee.check_rules_versions()).replayed == 1
    # The game goes on under the rules it replays the same with; it keeps its starting version.
    await referee.play(table_id, "alice", "take 2")
    assert (await referee.table(table_id)).rules_version == 1


async def test_a_changed_rule_that_refuses_a_logged_move_stops_the_start(referee, toy_game, monkeypatch):
    table_id = await nim_after_two_moves(referee)
    monkeypatch.setattr(Nim, "rules_version", 2)
    # The deliberate change: at most 2 tokens a turn now, so the logged "take 3" is refused.
    monkeypatch.setattr(Nim, "legal_moves", lambda self, state, seat: [Take(n) for n in (1, 2)][: state.tokens])
    with pytest.raises(RulesChanged) as refused:
        await referee.check_rules_versions()
    [change] = refused.value.changed
    assert (change.table_id, change.game, change.started_with, change.now) == (table_id, "nim", 1, 2)
    assert "move 1 is refused now" in change.why
    assert f"table {table_id} (nim, rules v1 -> v2)" in str(refused.value)
    assert "previous release" in str(refused.value)


async def test_a_changed_rule_that_moves_the_position_stops_the_start(referee, toy_game, monkeypatch):
    table_id = await nim_after_two_moves(referee)
    monkeypatch.setattr(Nim, "rules_version", 2)
    original = Nim.setup

    def setup_with_more_tokens(self, players, seed, options):
        state = original(self, players, seed, options)
        state.tokens += 1  # the deliberate change: one token more on the table
        return state

    monkeypatch.setattr(Nim, "setup", setup_with_more_tokens)
    with pytest.raises(RulesChanged) as refused:
        await referee.check_rules_versions()
    assert [(c.table_id, c.why) for c in refused.value.changed] == [(table_id, "the position after its moves differs")]


async def test_finished_games_and_lobbies_are_never_replayed(referee, toy_game, monkeypatch):
    finished = await two_player_nim(referee, tokens=2, speed="untimed")
    await referee.play(finished, "alice", "take 2")
    await referee.create_table("nim", "carol", "Carol")
    monkeypatch.setattr(Nim, "rules_version", 2)
    monkeypatch.setattr(Nim, "legal_moves", lambda self, state, seat: [])
    assert (await referee.check_rules_versions()).replayed == 0


async def test_the_real_games_replay_their_running_games_the_same(tmp_path, clock, monkeypatch):
    referee = await open_referee(tmp_path / "real.sqlite3", clock)
    try:
        for game in ("figures", "vegetables", "orchard", "granja"):
            table = await referee.create_table(game, "alice", "Alice", ai_seats=["random"] * 3)
            await referee.start(table.id, "alice", seed=7)
            monkeypatch.setattr(type(get_game(game)), "rules_version", 99)
        assert (await referee.check_rules_versions()).replayed == 4
    finally:
        await referee.store.close()


async def test_a_running_game_of_a_game_this_version_lacks_does_not_stop_the_others(referee, toy_game, monkeypatch):
    await nim_after_two_moves(referee)
    monkeypatch.delitem(REGISTRY, "nim")
    get_game.cache_clear()
    # Refused in words when opened (the local table and Discord say "Unknown game"), not here.
    assert (await referee.check_rules_versions()).replayed == 0
