"""Every control's custom id, pinned: the buttons and selects already posted on Discord carry
these exact strings, and a click on one of them, even from before an upgrade, must still reach
the same control with the same fields (cogs/components.py declares each format once)."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.components import (
    DYNAMIC_ITEMS,
    AiLevelSelect,
    BackButton,
    ExportSelect,
    ForgetButton,
    GroupSelect,
    HandButton,
    HintButton,
    LeaderboardButton,
    LobbyButton,
    MoveButton,
    MoveSelect,
    RematchButton,
    ReturnButton,
    SeasonLeaderboardButton,
    SkipButton,
    TurnButton,
    UndoAnswerButton,
)
from cogs.layout import MoveGroup

GROUP = MoveGroup("Play", ("play a03", "play b12"))

# (the control as the bot builds it, its id, the fields a click on that id must give back)
PINNED: list[tuple[Any, str, dict[str, Any]]] = [
    (LobbyButton(7, "join"), "ref:lobby:7:join", {"table_id": 7, "action": "join"}),
    (LobbyButton(12, "cancel"), "ref:lobby:12:cancel", {"table_id": 12, "action": "cancel"}),
    (AiLevelSelect.build(7), "ref:lobbyai:7", {"table_id": 7}),
    (HandButton(7), "ref:hand:7", {"table_id": 7}),
    (HintButton(7, 31), "ref:hint:7:31", {"table_id": 7, "version": 31}),
    (TurnButton(7, 31), "ref:turn:7:31", {"table_id": 7, "version": 31}),
    (MoveButton(7, 31, "take 4", "4 $"), "ref:mv:7:31:take 4", {"table_id": 7, "version": 31, "move": "take 4"}),
    (MoveButton(3, 0, "a:b c"), "ref:mv:3:0:a:b c", {"table_id": 3, "version": 0, "move": "a:b c"}),
    (MoveSelect.build(7, 31, 2, GROUP), "ref:ms:7:31:2", {"table_id": 7, "version": 31}),
    (GroupSelect.build(7, 31, [GROUP]), "ref:mg:7:31", {"table_id": 7, "version": 31}),
    (BackButton(7, 31), "ref:back:7:31", {"table_id": 7, "version": 31}),
    (SkipButton(7, 2, "Bob"), "ref:skip:7:2", {"table_id": 7, "seat": 2}),
    (ReturnButton(7), "ref:return:7", {"table_id": 7}),
    (RematchButton(7), "ref:rematch:7", {"table_id": 7}),
    (LeaderboardButton("orchard", 3, "next"), "ref:lb:orchard:3:next", {"game": "orchard", "page": 3}),
    (LeaderboardButton("la-granja", 0, "prev"), "ref:lb:la-granja:0:prev", {"game": "la-granja", "page": 0}),
    (
        SeasonLeaderboardButton("orchard", 2, 3, "next"),
        "ref:lbs:orchard:2:3:next",
        {"game": "orchard", "season": 2, "page": 3},
    ),
    (ForgetButton("123456789"), "ref:forget:123456789", {"user_id": "123456789"}),
    (ExportSelect.build([discord.SelectOption(label="#1", value="1")]), "ref:export", {}),
    (UndoAnswerButton(7, 31, "yes"), "ref:undo:7:31:yes", {"table_id": 7, "version": 31, "answer": "yes"}),
    (UndoAnswerButton(7, 31, "no"), "ref:undo:7:31:no", {"table_id": 7, "version": 31, "answer": "no"}),
]


def test_every_registered_control_is_pinned():
    assert {type(control) for control, _id, _fields in PINNED} == set(DYNAMIC_ITEMS)


@pytest.mark.parametrize(("control", "custom_id", "fields"), PINNED, ids=[row[1] for row in PINNED])
async def test_each_custom_id_is_exactly_as_posted_before(control, custom_id, fields):
    assert control.custom_id == custom_id
    # As discord.py dispatches a click: the first registered template that matches the whole id.
    matching = [item for item in DYNAMIC_ITEMS if item.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert matching == [type(control)]
    match = type(control).__discord_ui_compiled_template__.fullmatch(custom_id)
    clicked = control.item if isinstance(control.item, discord.ui.Select) else discord.ui.Button(custom_id=custom_id)
    restored = await type(control).from_custom_id(None, clicked, match)  # type: ignore[arg-type]
    assert type(restored) is type(control) and restored.custom_id == custom_id
    assert {name: getattr(restored, name) for name in fields} == fields


@pytest.mark.parametrize(
    "custom_id",
    ["ref:lobby:7:Join", "ref:hand:x", "ref:rematch:x", "ref:turn:7", "ref:mv:7:31:", "ref:lb:orchard:1:up", "ref:export:1"],
)
def test_ids_of_no_control_are_not_taken_for_one(custom_id):
    assert not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def test_the_templates_read_the_same_ids_as_before():
    # The patterns the controls were registered with before each format was declared once.
    before = {
        LobbyButton: r"ref:lobby:(?P<game>\d+):(?P<action>[a-z]+)",
        HandButton: r"ref:hand:(?P<game>\d+)",
        TurnButton: r"ref:turn:(?P<game>\d+):(?P<version>\d+)",
        MoveButton: r"ref:mv:(?P<game>\d+):(?P<version>\d+):(?P<move>.+)",
        MoveSelect: r"ref:ms:(?P<game>\d+):(?P<version>\d+):(?P<n>\d+)",
        GroupSelect: r"ref:mg:(?P<game>\d+):(?P<version>\d+)",
        BackButton: r"ref:back:(?P<game>\d+):(?P<version>\d+)",
        SkipButton: r"ref:skip:(?P<game>\d+):(?P<seat>\d+)",
        ReturnButton: r"ref:return:(?P<game>\d+)",
        RematchButton: r"ref:rematch:(?P<game>\d+)",
        LeaderboardButton: r"ref:lb:(?P<game>[\w-]+):(?P<page>\d+):(?P<dir>prev|next)",
        ExportSelect: r"ref:export",
    }
    unnamed = re.compile(r"\(\?P<\w+>")
    for item, pattern in before.items():
        assert unnamed.sub("(", item.__discord_ui_compiled_template__.pattern) == unnamed.sub("(", pattern)
