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
