"""Buttons and select menus that survive restarts.

Every control is a ``discord.ui.DynamicItem``: its custom id carries what it acts on (the game id
and, for moves, the state version the player saw), and the classes are registered once in
``setup_hook``. After a restart, a click on any old lobby, board or hand message is parsed from
its custom id alone; no view object has to be kept in memory.

Each control declares its custom id once, as a format (``Control``): the same declaration builds
the ids and reads them back, so the two cannot drift apart. The formats must never change: the
buttons already posted carry them (tests/discord/test_custom_ids.py pins every one).

Custom ids (at most 100 characters):

    ref:lobby:<game>:<action>          lobby buttons (join, leave, ai, unai, start, cancel)
    ref:lobbyai:<game>                 the lobby's "Add an AI seat" select (values: easy, normal, strong)
    ref:hand:<game>                    "Show my hand" on board messages
    ref:turn:<game>:<version>          "Play your turn" on a board that asks people to act
    ref:hint:<game>:<version>          "Hint" on a private turn view (unrated games)
    ref:mv:<game>:<version>:<move>     one move as a button
    ref:ms:<game>:<version>:<n>        a select of moves (the values are the moves)
    ref:mg:<game>:<version>            first step of a two-step choice: pick a group of moves
    ref:back:<game>:<version>          back from the moves of a group to the list of groups
    ref:skip:<game>:<seat>             skip a seat that ran out of time (an AI plays it)
    ref:return:<game>                  "I'm back": a skipped player takes their seat again
    ref:rematch:<game>                 "Rematch" on the game-over message: open or find the rematch lobby
    ref:lb:<game name>:<page>:<dir>    previous/next page of a leaderboard (dir: prev or next)
    ref:lbs:<game name>:<season>:<page>:<dir>  the same, of a season's leaderboard (its number)
    ref:export                         a select of finished games (values: game ids) to export
    ref:forget:<user id>               confirm /settings forget-me (only that user may press it)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import discord

from engine.i18n import N_, tr, tr_ctx, use_language
from engine.referee import DEFAULT_LEVEL, LEVEL_HELP, LEVELS, use_public_language

from . import render
from .actions import DeskActions, PrivacyActions, ScoreActions
from .language import reader_language, server_language
from .layout import ControlPlan, MoveGroup, plan_controls
from .replies import reply

if TYPE_CHECKING:
    from engine.referee import GameResult

BUTTON_LABEL_LIMIT = 80  # Discord refuses a longer button label

LOBBY_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "unai": (N_("Remove AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}

_FIELD = re.compile(r"\{(\w+)\}")
NO_ID = r"(?!)"  # the template of the base classes: it matches no custom id
NUMBER = r"\d+"  # a field's pattern unless its control says otherwise; read back as an int


class CustomId:
    """One custom id format, such as ``ref:mv:{table_id}:{version}:{move}``: it builds the ids
    (``build``) and the pattern that reads them back (``pattern``, ``read``). ``patterns``: the
    pattern of each field that is not a number."""

    def __init__(self, form: str, patterns: Mapping[str, str]) -> None:
        self.form = form
        self.fields = _FIELD.findall(form)
        self.numbers = {name for name in self.fields if name not in patterns}
        parts = _FIELD.split(form)  # text, field, text, field, ..., text
        self.pattern = "".join(
            re.escape(part) if index % 2 == 0 else f"(?P<{part}>{patterns.get(part, NUMBER)})"
            for index, part in enumerate(parts)
        )

    def build(self, **values: object) -> str:
        return self.form.format(**values)

    def read(self, match: re.Match[str]) -> dict[str, Any]:
        return {name: int(match[name]) if name in self.numbers else match[name] for name in self.fields}


ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]")


class Control(discord.ui.DynamicItem[ItemT], template=NO_ID):
    """A control whose custom id is declared once, with its class:
    ``class HandButton(Control[discord.ui.Button[Any]], custom_id="ref:hand:{table_id}")``.
    A click on any message, older than the process or not, makes the control again from its id:
    ``restore`` gets the id's fields as keywords, named as the control's parameters. (The base
    matches no id and is never registered.)"""

    ids: ClassVar[CustomId]

    def __init_subclass__(cls, *, custom_id: str | None = None, **patterns: str) -> None:
        # A base of controls (SelectControl) declares no id: it matches none, as this one.
        cls.ids = CustomId(custom_id or "", patterns)
        super().__init_subclass__(template=cls.ids.pattern if custom_id else NO_ID)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.restore(item, **cls.ids.read(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The click's action, answered whatever happens (``answered``), in the clicker's language.
        # What the referee writes for the whole table (the board, a move's log) is in the server's.
        public = await server_language(interaction.client, interaction.guild_id)
        with use_language(await reader_language(interaction)), use_public_language(public):
            await answered(interaction, self.act(interaction))

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        """What the click asks of a desk (the GameDesk: ``desk_of``; the ScoreDesk: ``scores_of``)."""
        raise NotImplementedError

    @classmethod
    def restore(cls, item: discord.ui.Item[Any], **fields: Any) -> Self:
        """A button is made anew from its fields (a select, from the clicked one: see SelectControl)."""
        return cls(**fields)


class SelectControl(Control[discord.ui.Select[Any]]):
    """A select keeps the clicked item (its chosen values)."""

    @classmethod
    def restore(cls, item: discord.ui.Item[Any], **fields: Any) -> Self:
        return cls(item, **fields)  # type: ignore[arg-type]  # discord.py hands back the Select clicked


def button(label: str, style: discord.ButtonStyle, custom_id: str, **kwargs: Any) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, **kwargs)


def desk_of(client: discord.Client) -> DeskActions:
    """The GameDesk the bot set up in setup_hook (components are created without arguments)."""
    return client.desk  # type: ignore[attr-defined, no-any-return]


def scores_of(client: discord.Client) -> ScoreActions:
    return client.scores  # type: ignore[attr-defined, no-any-return]


def privacy_of(client: discord.Client) -> PrivacyActions:
    return client.privacy  # type: ignore[attr-defined, no-any-return]


async def answered(interaction: discord.Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; if it fails unexpectedly, the player still gets an answer.

    The error is re-raised for discord.py to log: a bug must stay visible, not be swallowed.
    """
    try:
        await action
    except Exception:
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, tr("Something went wrong on my side (it is logged). Try again, or use /board."))
        raise


class LobbyButton(Control[discord.ui.Button[Any]], custom_id="ref:lobby:{table_id}:{action}", action="[a-z]+"):
    def __init__(self, table_id: int, action: str) -> None:
        label, style = LOBBY_ACTIONS.get(action, (action, discord.ButtonStyle.secondary))
        row = 0 if action in ("join", "leave", "ai", "unai") else 2
        text = tr(label) if action in LOBBY_ACTIONS else label
        super().__init__(button(text, style, self.ids.build(table_id=table_id, action=action), row=row))
        self.table_id = table_id
        self.action = action

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).lobby_action(interaction, self.table_id, self.action)


class AiLevelSelect(SelectControl, custom_id="ref:lobbyai:{table_id}"):
    """The lobby's "Add an AI seat": one option per level; choosing one seats an AI of it."""

    def __init__(self, select: discord.ui.Select[Any], table_id: int) -> None:
        super().__init__(select)
        self.table_id = table_id

    @classmethod
    def build(cls, table_id: int) -> AiLevelSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.ids.build(table_id=table_id),
            placeholder=tr_ctx("select", "Add an AI seat: choose its level"),
            options=[
                discord.SelectOption(
                    label=_clip(
                        tr_ctx("select", "{level} (the usual)", level=level_name(level))
                        if level == DEFAULT_LEVEL
                        else level_name(level)
                    ),
                    value=level,
                    description=_clip(tr(LEVEL_HELP[level])),
                )
                for level in LEVELS
            ],
            row=1,
        )
        return cls(select, table_id)

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        level = self.item.values[0]
        return desk_of(interaction.client).lobby_action(interaction, self.table_id, "ai", level)


class HandButton(Control[discord.ui.Button[Any]], custom_id="ref:hand:{table_id}"):
    def __init__(self, table_id: int) -> None:
        super().__init__(button(tr_ctx("button", "Show my hand"), discord.ButtonStyle.primary, self.ids.build(table_id=table_id)))
        self.table_id = table_id

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).show_hand(interaction, self.table_id)


class TurnButton(Control[discord.ui.Button[Any]], custom_id="ref:turn:{table_id}:{version}"):
    """On a board that pings the players to act: their hand and moves, only to them. The board
    is their turn's announcement (the ping notifies them), so no DM is needed for it."""

    def __init__(self, table_id: int, version: int) -> None:
        custom_id = self.ids.build(table_id=table_id, version=version)
        super().__init__(button(tr_ctx("button", "Play your turn"), discord.ButtonStyle.success, custom_id))
        self.table_id = table_id
        self.version = version

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).open_turn(interaction, self.table_id, self.version)


class HintButton(Control[discord.ui.Button[Any]], custom_id="ref:hint:{table_id}:{version}"):
    """On a private turn view of an unrated game: what the normal AI would play, and why."""

    def __init__(self, table_id: int, version: int) -> None:
        custom_id = self.ids.build(table_id=table_id, version=version)
        super().__init__(button(tr_ctx("button", "Hint"), discord.ButtonStyle.secondary, custom_id))
        self.table_id = table_id
        self.version = version

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).hint(interaction, self.table_id, self.version)


class MoveButton(Control[discord.ui.Button[Any]], custom_id="ref:mv:{table_id}:{version}:{move}", move=".+"):
    def __init__(self, table_id: int, version: int, move: str, about: str = "") -> None:
        # The label may say what the move does ("take 4 (4 $)"); the custom id keeps the move.
        label = f"{move} ({about})" if about else move
        label = label if len(label) <= BUTTON_LABEL_LIMIT else label[: BUTTON_LABEL_LIMIT - 1] + "…"
        custom_id = self.ids.build(table_id=table_id, version=version, move=move)
        super().__init__(button(label, discord.ButtonStyle.primary, custom_id))
        self.table_id = table_id
        self.version = version
        self.move = move

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        desk = desk_of(interaction.client)
        return desk.play_from_control(interaction, self.table_id, self.version, self.move)


class MoveSelect(SelectControl, custom_id="ref:ms:{table_id}:{version}:{number}"):
    def __init__(self, select: discord.ui.Select[Any], table_id: int, version: int, number: int = 0) -> None:
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
            custom_id=cls.ids.build(table_id=table_id, version=version, number=number),
            placeholder=group.label[:150],
            options=[
                discord.SelectOption(label=move, value=move, description=_clip(about.get(move, "")) or None)
                for move in group.moves
            ],
        )
        return cls(select, table_id, version)

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        move = self.item.values[0]
        return desk_of(interaction.client).play_from_control(interaction, self.table_id, self.version, move)


class GroupSelect(SelectControl, custom_id="ref:mg:{table_id}:{version}"):
    """First step of a two-step choice: the option values are page numbers of the move plan."""

    def __init__(self, select: discord.ui.Select[Any], table_id: int, version: int) -> None:
        super().__init__(select)
        self.table_id = table_id
        self.version = version

    @classmethod
    def build(cls, table_id: int, version: int, groups: Sequence[MoveGroup]) -> GroupSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.ids.build(table_id=table_id, version=version),
            placeholder=tr_ctx("select", "Choose a group of moves, then your move"),
            options=[
                discord.SelectOption(label=group.label[:100], value=str(number), description=_preview(group))
                for number, group in enumerate(groups)
            ],
        )
        return cls(select, table_id, version)

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        page = int(self.item.values[0])
        return desk_of(interaction.client).show_move_group(interaction, self.table_id, self.version, page)


class BackButton(Control[discord.ui.Button[Any]], custom_id="ref:back:{table_id}:{version}"):
    def __init__(self, table_id: int, version: int) -> None:
        custom_id = self.ids.build(table_id=table_id, version=version)
        super().__init__(button(tr_ctx("button", "Back"), discord.ButtonStyle.secondary, custom_id))
        self.table_id = table_id
        self.version = version

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).show_move_group(interaction, self.table_id, self.version, None)


class SkipButton(Control[discord.ui.Button[Any]], custom_id="ref:skip:{table_id}:{seat}"):
    """On the notice that a seat ran out of time: the other players skip it."""

    def __init__(self, table_id: int, seat: int, name: str = "") -> None:
        label = tr_ctx("button", "Skip {player}", player=name) if name else tr_ctx("button", "Skip")
        custom_id = self.ids.build(table_id=table_id, seat=seat)
        super().__init__(button(label[:80], discord.ButtonStyle.danger, custom_id))
        self.table_id = table_id
        self.seat = seat

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).skip_seat(interaction, self.table_id, self.seat)


class ReturnButton(Control[discord.ui.Button[Any]], custom_id="ref:return:{table_id}"):
    """ "I'm back": a skipped player takes their seat back from the AI."""

    def __init__(self, table_id: int) -> None:
        super().__init__(button(tr_ctx("button", "I'm back"), discord.ButtonStyle.success, self.ids.build(table_id=table_id)))
        self.table_id = table_id

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).return_to_seat(interaction, self.table_id)


class RematchButton(Control[discord.ui.Button[Any]], custom_id="ref:rematch:{table_id}"):
    """On the game-over message: the same table again, seats rotated (cogs/endings.py)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(button(tr_ctx("button", "Rematch"), discord.ButtonStyle.primary, self.ids.build(table_id=table_id)))
        self.table_id = table_id

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).rematch(interaction, self.table_id)


class LeaderboardButton(
    Control[discord.ui.Button[Any]],
    custom_id="ref:lb:{game}:{page}:{direction}",
    game=r"[\w-]+",
    direction="prev|next",
):
    """Previous or next page of a leaderboard; ``page`` is the page it shows."""

    def __init__(self, game: str, page: int, direction: str, *, disabled: bool = False) -> None:
        label = tr_ctx("button", "Previous") if direction == "prev" else tr_ctx("button", "Next")
        custom_id = self.ids.build(game=game, page=page, direction=direction)
        super().__init__(button(label, discord.ButtonStyle.secondary, custom_id, disabled=disabled))
        self.game = game
        self.page = page

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return scores_of(interaction.client).turn_leaderboard_page(interaction, self.game, self.page)


class SeasonLeaderboardButton(
    Control[discord.ui.Button[Any]],
    custom_id="ref:lbs:{game}:{season}:{page}:{direction}",
    game=r"[\w-]+",
    direction="prev|next",
):
    """Previous or next page of a season's leaderboard (``season``: its number on the server)."""

    def __init__(self, game: str, season: int, page: int, direction: str, *, disabled: bool = False) -> None:
        label = tr_ctx("button", "Previous") if direction == "prev" else tr_ctx("button", "Next")
        custom_id = self.ids.build(game=game, season=season, page=page, direction=direction)
        super().__init__(button(label, discord.ButtonStyle.secondary, custom_id, disabled=disabled))
        self.game = game
        self.season = season
        self.page = page

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return scores_of(interaction.client).turn_leaderboard_page(interaction, self.game, self.page, self.season)


class ForgetButton(Control[discord.ui.Button[Any]], custom_id="ref:forget:{user_id}", user_id=r"\d+"):
    """Confirms /settings forget-me: deletes the data of the user it was shown to."""

    def __init__(self, user_id: str) -> None:
        custom_id = self.ids.build(user_id=user_id)
        super().__init__(button(tr_ctx("button", "Delete my data"), discord.ButtonStyle.danger, custom_id))
        self.user_id = user_id

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return privacy_of(interaction.client).confirm(interaction, self.user_id)


class ExportSelect(SelectControl, custom_id="ref:export"):
    """Pick a finished game; its JSON record comes back as a file only the caller sees."""

    @classmethod
    def build(cls, options: list[discord.SelectOption]) -> ExportSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.ids.build(), placeholder=tr_ctx("select", "Export a game's record (JSON)"), options=options
        )
        return cls(select)

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        table_id = int(self.item.values[0])
        return scores_of(interaction.client).export(interaction, table_id)


class UndoAnswerButton(
    Control[discord.ui.Button[Any]], custom_id="ref:undo:{table_id}:{version}:{answer}", answer="yes|no"
):
    """Under a rated game's request to take a move back: the other players agree or refuse."""

    def __init__(self, table_id: int, version: int, answer: str) -> None:
        label, style = (tr_ctx("button", "Agree"), discord.ButtonStyle.success) if answer == "yes" else (tr_ctx("button", "Refuse"), discord.ButtonStyle.danger)
        super().__init__(button(label, style, self.ids.build(table_id=table_id, version=version, answer=answer)))
        self.table_id = table_id
        self.version = version
        self.answer = answer

    def act(self, interaction: discord.Interaction) -> Awaitable[None]:
        return desk_of(interaction.client).answer_undo(interaction, self.table_id, self.version, self.answer == "yes")


def undo_request_view(table_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoAnswerButton(table_id, version, "yes"))
    view.add_item(UndoAnswerButton(table_id, version, "no"))
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    AiLevelSelect,
    HandButton,
    TurnButton,
    HintButton,
    MoveButton,
    MoveSelect,
    GroupSelect,
    BackButton,
    SkipButton,
    ReturnButton,
    RematchButton,
    LeaderboardButton,
    SeasonLeaderboardButton,
    ExportSelect,
    UndoAnswerButton,
    ForgetButton,
)


def _preview(group: MoveGroup) -> str:
    return _clip(", ".join(group.moves))


def level_name(level: str) -> str:
    """A level's name on a control ("Easy", "Normal", "Strong")."""
    names = {"easy": N_("Easy"), "normal": N_("Normal"), "strong": N_("Strong")}
    return tr(names[level]) if level in names else level.capitalize()


def _clip(text: str, limit: int = 100) -> str:
    """Within a select option's label or description limit (100 characters)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def persistent_view() -> discord.ui.View:
    # No timeout: the items are dynamic and dispatched by custom id, so nothing expires.
    return discord.ui.View(timeout=None)


def lobby_view(table_id: int) -> discord.ui.View:
    """Join, Leave, Remove AI; the select that adds an AI seat at a level; Start, Cancel. (The
    "ai" button of lobbies posted before the levels still adds one, at the usual level.)"""
    view = persistent_view()
    for action in LOBBY_ACTIONS:
        if action != "ai":
            view.add_item(LobbyButton(table_id, action))
    view.add_item(AiLevelSelect.build(table_id))
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


def rematch_view(table_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(RematchButton(table_id))
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
    table_id: int,
    version: int,
    moves: Sequence[str],
    about: Mapping[str, str] | None = None,
    *,
    hint: bool = False,
) -> tuple[discord.ui.View | None, ControlPlan]:
    """Controls for a seat's legal moves (None when there is nothing to click); ``about`` says
    what a move does when its notation does not (Game.describe_move); ``hint``: a Hint button
    too (a turn in an unrated game)."""
    about = about or {}
    plan = plan_controls(moves, reserved=1 if hint else 0)
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
    if hint:
        view.add_item(HintButton(table_id, version))
    return view, plan


def group_moves_view(
    table_id: int, version: int, group: MoveGroup, about: Mapping[str, str] | None = None
) -> discord.ui.View:
    """Second step of a two-step choice: the moves of one group, and a way back."""
    view = persistent_view()
    view.add_item(MoveSelect.build(table_id, version, 0, group, about))
    view.add_item(BackButton(table_id, version))
    return view


def leaderboard_view(game: str, page: int, pages: int, season: int | None = None) -> discord.ui.View:
    """Prev/next of a leaderboard: all time (``season`` None), or of the season of that number."""
    view = persistent_view()
    for target, direction, disabled in (
        (max(0, page - 1), "prev", page == 0),
        (min(pages - 1, page + 1), "next", page >= pages - 1),
    ):
        if season is None:
            view.add_item(LeaderboardButton(game, target, direction, disabled=disabled))
        else:
            view.add_item(SeasonLeaderboardButton(game, season, target, direction, disabled=disabled))
    return view


def forget_view(user_id: str) -> discord.ui.View:
    view = persistent_view()
    view.add_item(ForgetButton(user_id))
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
