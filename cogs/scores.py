"""Turns waiting, leaderboards, player stats, history with exports, and quiet hours.

The ScoreDesk sits between the slash commands (cogs/community.py) and the referee, like the
GameDesk does for games: it asks the referee, renders the ready-made reports it returns, and
answers every refusal ephemerally. The text helpers at the bottom are pure.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord
import msgspec

from engine.core import Game, GameError
from engine.games import get_game
from engine.i18n import tr
from engine.referee import (
    ABANDONED_BOARD,
    FINISHED,
    SOLO_BOARD,
    WITH_AI_BOARD,
    GameResult,
    HighScore,
    LeaderboardPage,
    PlayerStats,
    Referee,
    TableLinks,
    WaitingTurn,
    presentation,
)
from engine.referee.announcements import Announcements
from engine.referee.seasons import Season

from . import render
from .announcer import UNREACHABLE_NOTE
from .components import export_view, leaderboard_view
from .pictures import RATING_FILE, rating_drawing, show
from .replies import reply

log = logging.getLogger(__name__)

PAGE_SIZE = 10
HISTORY_SIZE = 10
MAX_STATS_GAMES = 10
MAX_TURNS = 25


class ScoreDesk:
    def __init__(self, bot: discord.Client, referee: Referee) -> None:
        self.bot = bot
        self.referee = referee

    # ----- /turns -------------------------------------------------------------------------------

    async def show_turns(self, interaction: discord.Interaction) -> None:
        """In a server: its games; in DMs: the games of every server the bot shares with the user."""
        user = str(interaction.user.id)
        if interaction.guild_id is not None:
            turns = await self.referee.turns_waiting(user, str(interaction.guild_id))
            where = "on this server"
        else:
            guilds = [str(guild.id) for guild in self.bot.guilds]
            turns = await self.referee.turns_waiting(user, guild_ids=guilds)
            where = "in the servers we share"
        if not turns:
            await reply(interaction, f"It is not your turn in any game {where}.")
            return
        shown = turns[:MAX_TURNS]
        unreachable = await Announcements(self.referee).unreachable([turn.links.table_id for turn in shown])
        lines = [turn_line(turn, unreachable=turn.links.table_id in unreachable) for turn in shown]
        more = f"\n…and {len(turns) - MAX_TURNS} more." if len(turns) > MAX_TURNS else ""
        embed = discord.Embed(
            title=f"Your turn in {len(turns)} game{'s' if len(turns) != 1 else ''}",
            description=render.clip("\n".join(lines) + more, render.DESCRIPTION_LIMIT),
            colour=render.BOARD_COLOUR,
        )
        embed.set_footer(text="Oldest waiting first")
        await reply(interaction, embeds=[embed])

    # ----- /leaderboard -------------------------------------------------------------------------

    async def show_leaderboard(
        self, interaction: discord.Interaction, game_name: str | None, season_name: str | None = None
    ) -> None:
        """The current season's leaderboard (all time on a server without seasons), or the
        season asked for, or all time (``season_name`` "all")."""
        guild = str(interaction.guild_id) if interaction.guild_id else None
        try:
            if game_name is None:
                latest = await self.referee.history(guild, limit=1)
                if not latest:
                    raise GameError("No game has finished here yet: play one with `/game new`.")
                game_name = latest[0].game
            game = get_game(game_name)
            season = None
            if guild is not None:
                seasons = self.referee.seasons
                wanted = seasons.current(guild) if season_name is None else seasons.find(guild, season_name)
                season = await wanted
            embed, view = await self.leaderboard_message(guild, game, 0, season)
        except GameError as error:
            await reply(interaction, str(error))
            return
        # discord.py's send_message takes a view or none at all: view=None fails after sending.
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none(), **extra
        )

    async def turn_leaderboard_page(
        self, interaction: discord.Interaction, game_name: str, page: int, season_number: int | None = None
    ) -> None:
        """Prev/next on a leaderboard (works on messages from before a restart); ``season_number``:
        a season's leaderboard, else all time."""
        guild = str(interaction.guild_id) if interaction.guild_id else None
        try:
            season = None
            if season_number is not None and guild is not None:
                season = await self.referee.seasons.find(guild, str(season_number))
            embed, view = await self.leaderboard_message(guild, get_game(game_name), page, season)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await interaction.response.edit_message(embed=embed, view=view)

    async def leaderboard_message(
        self, guild: str | None, game: Game[Any, Any], page: int, season: Season | None = None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        async def read(page: int) -> LeaderboardPage:
            offset = page * PAGE_SIZE
            if season is None:
                return await self.referee.leaderboard(guild, game.name, offset=offset, limit=PAGE_SIZE)
            return await self.referee.seasons.leaderboard(season, game.name, offset=offset, limit=PAGE_SIZE)

        board = await read(page)
        pages = max(1, -(-board.total // PAGE_SIZE))
        if page >= pages and page > 0:  # the board shrank since the button was made
            page = pages - 1
            board = await read(page)
        high = await self.referee.high_scores(guild, game.name, WITH_AI_BOARD, limit=5)
        solo = await self.referee.high_scores(guild, game.name, SOLO_BOARD, limit=5)
        scope = None if season is None else season.name
        if season is None and guild is not None and await self.referee.seasons.seasons(guild):
            scope = "all time"  # a server with seasons: say which board this is
        embed = leaderboard_embed(game, board, page, pages, high, solo, scope=scope)
        number = None if season is None else season.number
        view = leaderboard_view(game.name, page, pages, number) if pages > 1 else None
        return embed, view

    # ----- /stats -------------------------------------------------------------------------------

    async def show_stats(self, interaction: discord.Interaction, user: discord.abc.User | None) -> None:
        who = user or interaction.user
        guild = str(interaction.guild_id) if interaction.guild_id else None
        stats = await self.referee.player_stats(str(who.id), guild)
        embed = stats_embed(who.display_name, stats)
        files = []
        if any(entry.rating is not None for entry in stats.games):
            # The rating chart is drawn off the loop, but may take longer than Discord waits.
            await interaction.response.defer(ephemeral=True, thinking=True)
            drawn = await rating_drawing(self.referee, guild, str(who.id), who.display_name)
            if drawn is not None:
                files.append(show(embed, drawn, RATING_FILE))
        await reply(interaction, embeds=[embed], files=files)

    # ----- /history and exports -----------------------------------------------------------------

    async def show_history(self, interaction: discord.Interaction, game_name: str | None) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        try:
            game = get_game(game_name).name if game_name else None
            results = await self.referee.history(guild, game=game, limit=HISTORY_SIZE)
        except GameError as error:
            await reply(interaction, str(error))
            return
        if not results:
            await reply(interaction, "No game has finished here yet: play one with `/game new`.")
            return
        await reply(interaction, embeds=[history_embed(results)], view=export_view(results))

    async def export(self, interaction: discord.Interaction, table_id: int) -> None:
        """The JSON record of an ended game, as a file only the caller sees."""
        try:
            table = await self.referee.table(table_id)
            if interaction.guild_id is not None and table.guild_id != str(interaction.guild_id):
                raise GameError(f"There is no game #{table_id} on this server.")
            record = await self.referee.record(table_id)
        except GameError as error:
            await reply(interaction, str(error))
            return
        data = msgspec.json.encode(record)
        name = f"{table.game}-{table.id}.json"
        finished = "finished" if table.status == FINISHED else "cancelled"
        await interaction.response.send_message(
            f"The record of {render.game_label(table, get_game(table.game))} ({finished}, "
            f"{len(record.moves)} moves). Replay it with `python -m engine.replay {name}`.",
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
        )

    # ----- /settings quiet-hours ----------------------------------------------------------------

    async def set_quiet_hours(
        self, interaction: discord.Interaction, time_zone: str, start: int, end: int
    ) -> None:
        try:
            quiet = await self.referee.set_quiet_hours(str(interaction.user.id), time_zone, start, end)
        except GameError as error:
            await reply(interaction, str(error))
            return
        await reply(
            interaction,
            f"Quiet hours set: {quiet.start_hour:02d}:00 to {quiet.end_hour:02d}:00 ({quiet.time_zone}). "
            "No reminders then, and daily clocks stop.",
        )

    async def clear_quiet_hours(self, interaction: discord.Interaction) -> None:
        await self.referee.clear_quiet_hours(str(interaction.user.id))
        await reply(interaction, "Quiet hours cleared: reminders may come at any hour.")


# ----- text ---------------------------------------------------------------------------------------


def table_url(links: TableLinks) -> str | None:
    channel = links.thread_id or links.channel_id
    if channel is None:
        return None
    return f"https://discord.com/channels/{links.guild_id or '@me'}/{channel}"


def turn_line(turn: WaitingTurn, *, unreachable: bool = False) -> str:
    label = f"{render.game_title(turn.links.game)} #{turn.links.table_id}"
    url = table_url(turn.links)
    parts = [
        f"[{label}]({url})" if url else f"**{label}**",
        f"waiting since {render.timestamp(turn.waiting_since)}",
    ]
    if turn.ran_out:
        parts.append("**out of time**: play now to keep your seat")
    elif turn.remaining is not None:
        deadline = f" (runs out {render.timestamp(turn.deadline)})" if turn.deadline is not None else ""
        parts.append(f"{presentation.time_left(turn.remaining)}{deadline}")
    if unreachable:  # its board is refused and DMs are closed: a person must fix the channel
        parts.append(tr(UNREACHABLE_NOTE))
    return " · ".join(parts)


def score_text(score: float | None) -> str:
    if score is None:
        return "-"
    return str(int(score)) if float(score).is_integer() else f"{score:.1f}"


def leaderboard_embed(
    game: Game[Any, Any],
    board: LeaderboardPage,
    page: int,
    pages: int,
    high: Sequence[HighScore] = (),
    solo: Sequence[HighScore] = (),
    *,
    scope: str | None = None,
) -> discord.Embed:
    """``scope``: which ladder this is ("Season 2 (March 2026)", "all time"), on a server with seasons."""
    lines = [
        f"**{row.position}.** {row.name}: {row.rating:.1f}{'*' if row.provisional else ''} · "
        f"{row.games} games · {row.wins} wins · best {score_text(row.best_score)}"
        for row in board.rows
    ]
    embed = discord.Embed(
        # (256: an embed title's limit)
        title=render.clip(f"{game.title}: leaderboard" + (f" · {scope}" if scope else ""), 256),
        description=render.clip("\n".join(lines), render.DESCRIPTION_LIMIT)
        if lines
        else "No rated game yet: rated games are timed, with two or more people and no AI seat.",
        colour=render.LOBBY_COLOUR,
    )
    for name, scores in (("High scores with AI seats", high), ("Solo high scores", solo)):
        if scores:
            embed.add_field(
                name=name,
                value=render.clip(
                    "\n".join(f"{score.position}. {score.name}: {score_text(score.score)}" for score in scores),
                    render.FIELD_LIMIT,
                ),
                inline=False,
            )
    embed.set_footer(text=f"Page {page + 1} of {pages} · rating = mu - 3 sigma · * provisional (few games)")
    return embed


def stats_embed(name: str, stats: PlayerStats) -> discord.Embed:
    embed = discord.Embed(title=f"{name}: stats", colour=render.LOBBY_COLOUR)
    if not stats.games and not stats.recent:
        embed.description = "No finished game yet."
        return embed
    for entry in stats.games[:MAX_STATS_GAMES]:
        rating = "unrated"
        if entry.rating is not None:
            rating = f"rating {entry.rating:.1f}{' (provisional)' if entry.provisional else ''}"
        value = (
            f"{entry.games} games · {entry.wins} wins · average {entry.average_score:.1f} · "
            f"best {score_text(entry.best_score)} · {rating}"
        )
        if entry.forfeits:
            value += f" · {entry.forfeits} forfeits"
        embed.add_field(
            name=render.game_title(entry.game), value=render.clip(value, render.FIELD_LIMIT), inline=False
        )
    if stats.recent:
        lines = []
        for result in stats.recent:
            change = f", rating {result.rating_change:+.1f}" if result.rating_change is not None else ""
            forfeit = ", forfeited" if result.forfeited else ""
            # Alone at the table there is no winner: a solo game is a score, not "1st of 1".
            place = "solo" if result.players == 1 else f"{ordinal(result.rank)} of {result.players}"
            score = f"score {score_text(result.score)}{change}{forfeit}"
            if result.board == ABANDONED_BOARD:
                place, score = "abandoned by vote", "unrated"
            lines.append(
                f"{render.game_title(result.game)} #{result.table_id}: {place}, "
                f"{score} ({render.timestamp(result.finished_at)})"
            )
        embed.add_field(
            name="Recent games", value=render.clip("\n".join(lines), render.FIELD_LIMIT), inline=False
        )
    return embed


def ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def result_line(result: GameResult) -> str:
    """One finished game: its seats best first, ties and pairs as the game-over message has them."""
    by_index = {seat.seat: seat for seat in result.seats}
    teams = presentation.team_short_labels(result.outcome)
    shown = presentation.result_lines(result.outcome, [by_index[index].name for index in sorted(by_index)])
    players = ", ".join(
        f"{line.rank}. {line.name} {line.score}"
        f"{f' ({teams[line.seat]})' if line.seat in teams else ''}"
        f"{' (forfeit)' if by_index[line.seat].forfeited else ''}"
        for line in shown
    )
    kind = "rated" if result.rated else "unrated"
    if result.board == ABANDONED_BOARD:
        kind = "abandoned by vote, unrated"
        players = ", ".join(seat.name for seat in result.seats)
    return f"**{render.game_title(result.game)} #{result.table_id}** ({kind}, {render.timestamp(result.finished_at)}): {players}"


def history_embed(results: Iterable[GameResult]) -> discord.Embed:
    lines = [result_line(result) for result in results]
    embed = discord.Embed(
        title="Recent games",
        description=render.clip("\n".join(lines), render.DESCRIPTION_LIMIT),
        colour=render.OVER_COLOUR,
    )
    embed.set_footer(text="Export a game's record below; replay it with python -m engine.replay")
    return embed
