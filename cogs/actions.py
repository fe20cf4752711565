"""What the persistent controls (cogs/components.py) and the announcer ask of the desks behind them.

A click is handled by the GameDesk (lobby, hands, moves, seats) or the ScoreDesk (leaderboards,
exports) that the bot sets on its client in ``setup_hook``. The controls know them by these
interfaces only, so components.py imports neither desk while both desks import components.py
to build their views: no import circle (issue 15).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import discord

from engine.referee import Outbox, Referee, Table


class DeskActions(Protocol):
    """The GameDesk's side of a click (cogs/desk.py, made of the rooms cogs/lobby.py, play.py, dms.py)."""

    async def lobby_action(
        self, interaction: discord.Interaction, table_id: int, action: str, level: str | None = None
    ) -> None: ...

    async def hint(self, interaction: discord.Interaction, table_id: int, version: int) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, table_id: int, header: str = "") -> None: ...

    async def open_turn(self, interaction: discord.Interaction, table_id: int, version: int) -> None: ...

    async def play_from_control(
        self, interaction: discord.Interaction, table_id: int, version: int, move: str
    ) -> None: ...

    async def show_move_group(
        self, interaction: discord.Interaction, table_id: int, version: int, page: int | None
    ) -> None: ...

    async def skip_seat(self, interaction: discord.Interaction, table_id: int, seat: int) -> None: ...

    async def return_to_seat(self, interaction: discord.Interaction, table_id: int) -> None: ...

    async def set_turn_dms(self, interaction: discord.Interaction, enabled: bool) -> None: ...

    async def answer_undo(self, interaction: discord.Interaction, table_id: int, version: int, agree: bool) -> None: ...
    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None: ...


class ScoreActions(Protocol):
    """The ScoreDesk's side of a click (cogs/scores.py implements it)."""

    async def turn_leaderboard_page(
        self, interaction: discord.Interaction, game_name: str, page: int, season: int | None = None
    ) -> None: ...

    async def export(self, interaction: discord.Interaction, table_id: int) -> None: ...


class PrivacyActions(Protocol):
    """The PrivacyDesk's side of a click (cogs/privacy.py implements it)."""

    async def ask(self, interaction: discord.Interaction) -> None: ...

    async def confirm(self, interaction: discord.Interaction, user_id: str) -> None: ...


class PublishingDesk(Protocol):
    """What the announcer (cogs/announcer.py) uses of the GameDesk that owns it: the board, the
    thread and the DMs. The desk builds its announcer; the announcer knows it by this only."""

    bot: discord.Client
    referee: Referee

    async def dms_closed(self, user_id: str) -> bool: ...

    async def ensure_thread(self, table: Table, lobby_message: discord.Message | None) -> Table: ...

    def note_thread(self, thread_id: str, table_id: int) -> None: ...

    async def post_board(
        self, outbox: Outbox, *, ping: Iterable[str] | None = None, nonce: str | None = None
    ) -> discord.Message | None: ...

    async def seats_to_act(self, table: Table) -> tuple[int, ...]: ...

    # The announcer DMs a seat its view with the moves' log (the desk's ``send_dm`` also takes
    # a header and a view, which the announcer does not use).
    async def send_dm(self, table: Table, user_id: str, log_lines: Sequence[str] | Callable[[], Sequence[str]]) -> bool: ...

    async def send_private(
        self, table: Table, user_id: str, header: str, view: discord.ui.View | None = None
    ) -> bool: ...
