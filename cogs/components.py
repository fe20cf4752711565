"""Buttons and select menus that survive restarts.

Every control is a ``discord.ui.DynamicItem``: its custom id carries what it acts on (the game id
and, for moves, the state version the player saw), and the classes are registered once in
``setup_hook``. After a restart, a click on any old lobby, board or hand message is parsed from
its custom id alone; no view object has to be kept in memory.

Custom ids (at most 100 characters):

    ref:lobby:<game>:<action>          lobby buttons (join, leave, ai, unai, start, cancel)
    ref:hand:<game>                    "Show my hand" on board messages
    ref:turn:<game>:<version>          "Play your turn" on a board that asks people to act
    ref:mv:<game>:<version>:<move>     one move as a button
    ref:ms:<game>:<version>:<n>        a select of moves (the values are the moves)
    ref:mg:<game>:<version>            first step of a two-step choice: pick a group of moves
    ref:back:<game>:<version>          back from the moves of a group to the list of groups
    ref:skip:<game>:<seat>             skip a seat that ran out of time (an AI plays it)
    ref:return:<game>                  "I'm back": a skipped player takes their seat again
    ref:lb:<game name>:<page>:<dir>    previous/next page of a leaderboard (dir: prev or next)
    ref:export                         a select of finished games (values: game ids) to export
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from . import render
from .actions import DeskActions, ScoreActions
from .layout import ControlPlan, MoveGroup, plan_controls
from .replies import reply

if TYPE_CHECKING:
    from engine.referee import GameResult

BUTTON_LABEL_LIMIT = 80  # Discord refuses a longer button label

LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "unai": ("Remove AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def desk_of(client: discord.Client) -> DeskActions:
    """The GameDesk the bot set up in setup_hook (components are created without arguments)."""
    return client.desk  # type: ignore[attr-defined, no-any-return]


def scores_of(client: discord.Client) -> ScoreActions:
    return client.scores  # type: ignore[attr-defined, no-any-return]


async def answered(interaction: discord.Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; if it fails unexpectedly, the player still gets an answer.

    The error is re-raised for discord.py to log: a bug must stay visible, not be swallowed.
    """
    try:
        await action
    except Exception:
        with contextlib.suppress(discord.HTTPException):
            await reply(
                interaction, "Something went wrong on my side (it is logged). Try again, or use /board."
            )
        raise


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:lobby:(?P<game>\d+):(?P<action>[a-z]+)"
):
    def __init__(self, table_id: int, action: str) -> None:
        label, style = LOBBY_ACTIONS.get(action, (action, discord.ButtonStyle.secondary))
        row = 0 if action in ("join", "leave", "ai", "unai") else 1
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"ref:lobby:{table_id}:{action}", row=row)
        )
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction, desk_of(interaction.client).lobby_action(interaction, self.table_id, self.action)
        )


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:hand:(?P<game>\d+)"):
    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show my hand", style=discord.ButtonStyle.primary, custom_id=f"ref:hand:{table_id}"
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, desk_of(interaction.client).show_hand(interaction, self.table_id))


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:turn:(?P<game>\d+):(?P<version>\d+)"
):
    """On a board that pings the players to act: their hand and moves, only to them. The board
    is their turn's announcement (the ping notifies them), so no DM is needed for it."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play your turn",
                style=discord.ButtonStyle.success,
                custom_id=f"ref:turn:{table_id}:{version}",
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction, desk_of(interaction.client).open_turn(interaction, self.table_id, self.version)
        )


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ref:mv:(?P<game>\d+):(?P<version>\d+):(?P<move>.+)",
):
    def __init__(self, table_id: int, version: int, move: str, about: str = "") -> None:
        # The label may say what the move does ("take 4 (4 $)"); the custom id keeps the move.
        label = f"{move} ({about})" if about else move
        super().__init__(
            discord.ui.Button(
                label=label if len(label) <= BUTTON_LABEL_LIMIT else label[: BUTTON_LABEL_LIMIT - 1] + "…",
                style=discord.ButtonStyle.primary,
                custom_id=f"ref:mv:{table_id}:{version}:{move}",
            )
        )
        self.table_id = table_id
        self.version = version
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction,
            desk_of(interaction.client).play_from_control(
                interaction, self.table_id, self.version, self.move
            ),
        )


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ref:ms:(?P<game>\d+):(?P<version>\d+):(?P<n>\d+)",
):
    def __init__(self, select: discord.ui.Select[Any], table_id: int, version: int) -> None:
        super().__init__(select)
        self.table_id = table_id
        self.version = version

    @classmethod
    def build(
        cls,
        table_id: int,
        version: int,
        number: int,
        group: MoveGroup,
        about: Mapping[str, str] | None = None,
    ) -> MoveSelect:
        """``about``: what a move does, when its notation does not say, shown under it."""
        about = about or {}
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ref:ms:{table_id}:{version}:{number}",
            placeholder=group.label[:150],
            options=[
                discord.SelectOption(label=move, value=move, description=_clip(about.get(move, "")) or None)
                for move in group.moves
            ],
        )
        return cls(select, table_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        return cls(item, int(match["game"]), int(match["version"]))  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        move = self.item.values[0]
        await answered(
            interaction,
            desk_of(interaction.client).play_from_control(interaction, self.table_id, self.version, move),
        )


class GroupSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ref:mg:(?P<game>\d+):(?P<version>\d+)"
):
    """First step of a two-step choice: the option values are page numbers of the move plan."""

    def __init__(self, select: discord.ui.Select[Any], table_id: int, version: int) -> None:
        super().__init__(select)
        self.table_id = table_id
        self.version = version

    @classmethod
    def build(cls, table_id: int, version: int, groups: Sequence[MoveGroup]) -> GroupSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ref:mg:{table_id}:{version}",
            placeholder="Choose a group of moves, then your move",
            options=[
                discord.SelectOption(label=group.label[:100], value=str(number), description=_preview(group))
                for number, group in enumerate(groups)
            ],
        )
        return cls(select, table_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GroupSelect:
        return cls(item, int(match["game"]), int(match["version"]))  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        page = int(self.item.values[0])
        await answered(
            interaction,
            desk_of(interaction.client).show_move_group(interaction, self.table_id, self.version, page),
        )


class BackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:back:(?P<game>\d+):(?P<version>\d+)"
):
    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Back", style=discord.ButtonStyle.secondary, custom_id=f"ref:back:{table_id}:{version}"
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BackButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction,
            desk_of(interaction.client).show_move_group(interaction, self.table_id, self.version, None),
        )


class SkipButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:skip:(?P<game>\d+):(?P<seat>\d+)"
):
    """On the notice that a seat ran out of time: the other players skip it."""

    def __init__(self, table_id: int, seat: int, name: str = "") -> None:
        label = f"Skip {name}" if name else "Skip"
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.danger, custom_id=f"ref:skip:{table_id}:{seat}"
            )
        )
        self.table_id = table_id
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SkipButton:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction, desk_of(interaction.client).skip_seat(interaction, self.table_id, self.seat)
        )


class ReturnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ref:return:(?P<game>\d+)"):
    """ "I'm back": a skipped player takes their seat back from the AI."""

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="I'm back", style=discord.ButtonStyle.success, custom_id=f"ref:return:{table_id}"
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReturnButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, desk_of(interaction.client).return_to_seat(interaction, self.table_id))


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ref:lb:(?P<game>[\w-]+):(?P<page>\d+):(?P<dir>prev|next)",
):
    """Previous or next page of a leaderboard; ``page`` is the page it shows."""

    def __init__(self, game: str, page: int, direction: str, *, disabled: bool = False) -> None:
        label = "Previous" if direction == "prev" else "Next"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ref:lb:{game}:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(match["game"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(
            interaction,
            scores_of(interaction.client).turn_leaderboard_page(interaction, self.game, self.page),
        )


class ExportSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ref:export"):
    """Pick a finished game; its JSON record comes back as a file only the caller sees."""

    def __init__(self, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)

    @classmethod
    def build(cls, options: list[discord.SelectOption]) -> ExportSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id="ref:export", placeholder="Export a game's record (JSON)", options=options
        )
        return cls(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ExportSelect:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        table_id = int(self.item.values[0])
        await answered(interaction, scores_of(interaction.client).export(interaction, table_id))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    HandButton,
    TurnButton,
    MoveButton,
    MoveSelect,
    GroupSelect,
    BackButton,
    SkipButton,
    ReturnButton,
    LeaderboardButton,
    ExportSelect,
)


def _preview(group: MoveGroup) -> str:
    return _clip(", ".join(group.moves))


def _clip(text: str, limit: int = 100) -> str:
    """Within a select option's label or description limit (100 characters)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def persistent_view() -> discord.ui.View:
    # No timeout: the items are dynamic and dispatched by custom id, so nothing expires.
    return discord.ui.View(timeout=None)


def lobby_view(table_id: int) -> discord.ui.View:
    view = persistent_view()
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(table_id, action))
    return view


def board_view(
    table_id: int, *, turn_version: int | None = None, someone_away: bool = False
) -> discord.ui.View:
    """"Play your turn" when the board asks people to act (``turn_version``: the board's
    version), Show my hand; and "I'm back" while an AI plays a skipped player's seat."""
    view = persistent_view()
    if turn_version is not None:
        view.add_item(TurnButton(table_id, turn_version))
    view.add_item(HandButton(table_id))
    if someone_away:
        view.add_item(ReturnButton(table_id))
    return view


def skip_view(table_id: int, seat: int, name: str) -> discord.ui.View:
    view = persistent_view()
    view.add_item(SkipButton(table_id, seat, name))
    return view


def return_view(table_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(ReturnButton(table_id))
    return view


def move_view(
    table_id: int, version: int, moves: Sequence[str], about: Mapping[str, str] | None = None
) -> tuple[discord.ui.View | None, ControlPlan]:
    """Controls for a seat's legal moves (None when there is nothing to click); ``about`` says
    what a move does when its notation does not (Game.describe_move)."""
    about = about or {}
    plan = plan_controls(moves)
    if plan.kind == "none":
        return None, plan
    view = persistent_view()
    if plan.kind == "buttons":
        for move in plan.buttons:
            view.add_item(MoveButton(table_id, version, move, about.get(move, "")))
    elif plan.kind == "select":
        for number, group in enumerate(plan.groups):
            view.add_item(MoveSelect.build(table_id, version, number, group, about))
    else:
        view.add_item(GroupSelect.build(table_id, version, plan.groups))
    return view, plan


def group_moves_view(
    table_id: int, version: int, group: MoveGroup, about: Mapping[str, str] | None = None
) -> discord.ui.View:
    """Second step of a two-step choice: the moves of one group, and a way back."""
    view = persistent_view()
    view.add_item(MoveSelect.build(table_id, version, 0, group, about))
    view.add_item(BackButton(table_id, version))
    return view


def leaderboard_view(game: str, page: int, pages: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(LeaderboardButton(game, max(0, page - 1), "prev", disabled=page == 0))
    view.add_item(LeaderboardButton(game, min(pages - 1, page + 1), "next", disabled=page >= pages - 1))
    return view


def export_view(results: Sequence[GameResult]) -> discord.ui.View:
    options = [
        discord.SelectOption(
            label=f"#{result.table_id} {render.game_title(result.game)}"[:100],
            value=str(result.table_id),
            description=", ".join(f"{seat.name} {seat.score:g}" for seat in result.seats)[:100],
        )
        for result in results[:25]
    ]
    view = persistent_view()
    view.add_item(ExportSelect.build(options))
    return view
