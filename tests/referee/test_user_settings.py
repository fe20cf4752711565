"""A player's flags behind the referee (engine/referee/user_settings.py): stored, read through a
cache that every change keeps true, and the closed-DMs notice owed once."""

from __future__ import annotations

import pytest

from engine.referee import Referee

from ..stores import open_test_store

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def store(tmp_path):
    store = await open_test_store(tmp_path / "settings.sqlite3")
    yield store
    await store.close()


async def test_flags_are_stored_and_seen_by_a_new_referee(store):
    settings = Referee(store).user_settings
    assert not await settings.dms_closed("u1")
    assert not await settings.wants_turn_dms("u1")
    await settings.set_dms_closed("u1", True)
    await settings.set_turn_dms("u2", True)
    assert await settings.dms_closed("u1") and await settings.wants_turn_dms("u2")
    after_restart = Referee(store).user_settings
    assert await after_restart.dms_closed("u1")
    assert await after_restart.wants_turn_dms("u2")
    assert not await after_restart.dms_closed("u2") and not await after_restart.wants_turn_dms("u1")


async def test_asking_for_turn_dms_tries_closed_dms_again(store):
    settings = Referee(store).user_settings
    await settings.set_dms_closed("u1", True)
    await settings.set_turn_dms("u1", False)
    assert await settings.dms_closed("u1")  # turning them off says nothing about the DMs
    await settings.set_turn_dms("u1", True)
    assert not await settings.dms_closed("u1")
    assert not await store.get_user_flag("u1", "dm_closed")


async def test_the_closed_dms_notice_is_given_once_and_only_while_dms_are_closed(store):
    settings = Referee(store).user_settings
    await settings.owe_dm_notice("u1")
    assert not await settings.take_dm_notice("u1")  # DMs not closed: nothing to tell
    await settings.set_dms_closed("u1", True)
    assert await settings.take_dm_notice("u1")
    assert not await settings.take_dm_notice("u1")


async def test_pictures_are_on_until_turned_off_per_player_and_per_server(store):
    referee = Referee(store)
    assert await referee.user_settings.wants_pictures("u1")
    assert await referee.server_settings.pictures("g1")
    await referee.user_settings.set_pictures("u1", False)
    await referee.server_settings.set_pictures("g1", False)
    after_restart = Referee(store)
    assert not await after_restart.user_settings.wants_pictures("u1")
    assert await after_restart.user_settings.wants_pictures("u2")
    assert not await after_restart.server_settings.pictures("g1")
    assert await after_restart.server_settings.pictures("g2") and await after_restart.server_settings.pictures(None)
    # The server's setting sits beside its limits without changing them.
    assert await after_restart.admission.limits_for("g1") == after_restart.admission.defaults
    await after_restart.server_settings.set_pictures("g1", True)
    assert await Referee(store).server_settings.pictures("g1")


async def test_chosen_languages_are_stored_for_players_and_servers_and_seen_after_a_restart(store):
    referee = Referee(store)
    assert await referee.user_settings.language("u1") is None  # none chosen: the client's decides
    assert await referee.server_settings.language("g1") is None
    await referee.user_settings.set_language("u1", "pt-BR")  # a Discord locale finds its language
    await referee.server_settings.set_language("g1", "ja")
    await store.set_quiet_hours("u1", None)  # the quiet hours share the player's row: kept apart
    after_restart = Referee(store)
    assert await after_restart.user_settings.language("u1") == "pt_BR"
    assert await after_restart.server_settings.language("g1") == "ja"
    assert await after_restart.user_settings.language("u2") is None
    await after_restart.user_settings.set_language("u1", None)
    await after_restart.server_settings.set_language("g1", None)
    assert await Referee(store).user_settings.language("u1") is None
    assert await Referee(store).server_settings.language("g1") is None
