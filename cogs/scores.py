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
from engine.i18n import N_, ordinal, tr, tr_ctx, tr_n
from engine.referee import (
    ABANDONED,
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
from .announcer import unreachable_note
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
            nothing = N_("It is not your turn in any game on this server.")
        else:
            guilds = [str(guild.id) for guild in self.bot.guilds]
            turns = await self.referee.turns_waiting(user, guild_ids=guilds)
            nothing = N_("It is not your turn in any game in the servers we share.")
        if not turns:
            await reply(interaction, tr(nothing))
            return
        shown = turns[:MAX_TURNS]
        unreachable = await Announcements(self.referee).unreachable([turn.links.table_id for turn in shown])
        lines = [turn_line(turn, unreachable=turn.links.table_id in unreachable) for turn in shown]
        more = "\n" + tr("…and {n} more.", n=len(turns) - MAX_TURNS) if len(turns) > MAX_TURNS else ""
        embed = discord.Embed(
            title=tr_n("Your turn in {n} game", "Your turn in {n} games", len(turns)),
            description=render.clip("\n".join(lines) + more, render.DESCRIPTION_LIMIT),
            colour=render.BOARD_COLOUR,
        )
        embed.set_footer(text=tr("Oldest waiting first"))
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
                    raise GameError(tr("No game has finished here yet: play one with `/game new`."))
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
            scope = tr("all time")  # a server with seasons: say which board this is
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
            await reply(interaction, tr("No game has finished here yet: play one with `/game new`."))
            return
        await reply(interaction, embeds=[history_embed(results)], view=export_view(results))

    async def export(self, interaction: discord.Interaction, table_id: int) -> None:
        """The JSON record of an ended game, as a file only the caller sees."""
        try:
            table = await self.referee.table(table_id)
            if interaction.guild_id is not None and table.guild_id != str(interaction.guild_id):
                raise GameError(tr("There is no game #{number} on this server.", number=table_id))
            record = await self.referee.record(table_id)
        except GameError as error:
            await reply(interaction, str(error))
            return
        data = msgspec.json.encode(record)
        name = f"{table.game}-{table.id}.json"
        finished = render.status_text(FINISHED if table.status == FINISHED else ABANDONED)
        await interaction.response.send_message(
            tr_n(
                "The record of {game} ({status}, {n} move). Replay it with `python -m engine.replay {file}`.",
                "The record of {game} ({status}, {n} moves). Replay it with `python -m engine.replay {file}`.",
                len(record.moves),
                game=render.game_label(table, get_game(table.game)),
                status=finished,
                file=name,
            ),
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
            tr(
                "Quiet hours set: {start} to {end} ({zone}). No reminders then, and daily clocks stop.",
                start=f"{quiet.start_hour:02d}:00",
                end=f"{quiet.end_hour:02d}:00",
                zone=quiet.time_zone,
            ),
        )

    async def clear_quiet_hours(self, interaction: discord.Interaction) -> None:
        await self.referee.clear_quiet_hours(str(interaction.user.id))
        await reply(interaction, tr("Quiet hours cleared: reminders may come at any hour."))


# ----- text ---------------------------------------------------------------------------------------


def table_url(links: TableLinks) -> str | None:
    channel = links.thread_id or links.channel_id
    if channel is None:
        return None
    return f"https://discord.com/channels/{links.guild_id or '@me'}/{channel}"


def turn_line(turn: WaitingTurn, *, unreachable: bool = False) -> str:
    label = tr("{game} #{number}", game=render.game_title(turn.links.game), number=turn.links.table_id)
    url = table_url(turn.links)
    parts = [
        f"[{label}]({url})" if url else f"**{label}**",
        tr("waiting since {when}", when=render.timestamp(turn.waiting_since)),
    ]
    if turn.ran_out:
        parts.append(tr("**out of time**: play now to keep your seat"))
    elif turn.remaining is not None:
        left = presentation.time_left(turn.remaining)
        if turn.deadline is not None:
            left = tr("{left} (runs out {when})", left=left, when=render.timestamp(turn.deadline))
        parts.append(left)
    if unreachable:  # its board is refused and DMs are closed: a person must fix the channel
        parts.append(unreachable_note())
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
        + tr(
            "{games} games · {wins} wins · best {best}", games=row.games, wins=row.wins, best=score_text(row.best_score)
        )
        for row in board.rows
    ]
    title = tr("{game}: leaderboard", game=tr(game.title))
    embed = discord.Embed(
        # (256: an embed title's limit)
        title=render.clip(title + (f" · {scope}" if scope else ""), 256),
        description=render.clip("\n".join(lines), render.DESCRIPTION_LIMIT)
        if lines
        else tr("No rated game yet: rated games are timed, with two or more people and no AI seat."),
        colour=render.LOBBY_COLOUR,
    )
    for name, scores in ((N_("High scores with AI seats"), high), (N_("Solo high scores"), solo)):
        if scores:
            embed.add_field(
                name=tr(name),
                value=render.clip(
                    "\n".join(f"{score.position}. {score.name}: {score_text(score.score)}" for score in scores),
                    render.FIELD_LIMIT,
                ),
                inline=False,
            )
    embed.set_footer(
        text=tr("Page {page} of {pages} · rating = mu - 3 sigma · * provisional (few games)", page=page + 1, pages=pages)
    )
    return embed


def stats_embed(name: str, stats: PlayerStats) -> discord.Embed:
    embed = discord.Embed(title=tr("{player}: stats", player=name), colour=render.LOBBY_COLOUR)
    if not stats.games and not stats.recent:
        embed.description = tr("No finished game yet.")
        return embed
    for entry in stats.games[:MAX_STATS_GAMES]:
        rating = tr_ctx("rating", "unrated")
        if entry.rating is not None:
            rating = (
                tr("rating {rating} (provisional)", rating=f"{entry.rating:.1f}")
                if entry.provisional
                else tr("rating {rating}", rating=f"{entry.rating:.1f}")
            )
        value = tr(
            "{games} games · {wins} wins · average {average} · best {best} · {rating}",
            games=entry.games,
            wins=entry.wins,
            average=f"{entry.average_score:.1f}",
            best=score_text(entry.best_score),
            rating=rating,
        )
        if entry.forfeits:
            value += " · " + tr_n("{n} forfeit", "{n} forfeits", entry.forfeits)
        embed.add_field(
            name=render.game_title(entry.game), value=render.clip(value, render.FIELD_LIMIT), inline=False
        )
    if stats.recent:
        lines = []
        for result in stats.recent:
            score = tr("score {score}", score=score_text(result.score))
            if result.rating_change is not None:
                score = tr("{score}, rating {change}", score=score, change=f"{result.rating_change:+.1f}")
            if result.forfeited:
                score = tr("{score}, forfeited", score=score)
            # Alone at the table there is no winner: a solo game is a score, not "1st of 1".
            place = (
                tr_ctx("result", "solo")
                if result.players == 1
                else tr("{place} of {count}", place=ordinal(result.rank), count=result.players)
            )
            if result.board == ABANDONED_BOARD:
                place, score = tr("abandoned by vote"), tr_ctx("rating", "unrated")
            lines.append(
                tr(
                    "{game} #{number}: {place}, {score} ({when})",
                    game=render.game_title(result.game),
                    number=result.table_id,
                    place=place,
                    score=score,
                    when=render.timestamp(result.finished_at),
                )
            )
        embed.add_field(
            name=tr("Recent games"), value=render.clip("\n".join(lines), render.FIELD_LIMIT), inline=False
        )
    return embed


def result_line(result: GameResult) -> str:
    """One finished game: its seats best first, ties and pairs as the game-over message has them."""
    by_index = {seat.seat: seat for seat in result.seats}
    teams = presentation.team_short_labels(result.outcome)
    shown = presentation.result_lines(result.outcome, [by_index[index].name for index in sorted(by_index)])
    players = ", ".join(
        f"{line.rank}. {line.name} {line.score}"
        f"{f' ({teams[line.seat]})' if line.seat in teams else ''}"
        f"{' ' + tr('(forfeit)') if by_index[line.seat].forfeited else ''}"
        for line in shown
    )
    kind = tr_ctx("rating", "rated") if result.rated else tr_ctx("rating", "unrated")
    if result.board == ABANDONED_BOARD:
        kind = tr("abandoned by vote, unrated")
        players = ", ".join(seat.name for seat in result.seats)
    label = tr("{game} #{number}", game=render.game_title(result.game), number=result.table_id)
    return f"**{label}** ({kind}, {render.timestamp(result.finished_at)}): {players}"


def history_embed(results: Iterable[GameResult]) -> discord.Embed:
    lines = [result_line(result) for result in results]
    embed = discord.Embed(
        title=tr("Recent games"),
        description=render.clip("\n".join(lines), render.DESCRIPTION_LIMIT),
        colour=render.OVER_COLOUR,
    )
    embed.set_footer(text=tr("Export a game's record below; replay it with python -m engine.replay"))
    return embed
