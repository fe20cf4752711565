"""Slash commands about players rather than one game: /turns, /leaderboard, /stats, /history and
/settings (quiet hours, vacations, turn DMs, pictures, languages). Each only reads its arguments and hands over to the ScoreDesk
(turn DMs: to the GameDesk, which sends the DMs)."""

from __future__ import annotations

import zoneinfo

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from engine.i18n import tr
from engine.referee.seasons import ALL_TIME

from .components import desk_of, privacy_of
from .games import MAX_CHOICES, game_names
from .language_settings import LANGUAGE_CHOICES, set_server_language, set_user_language
from .lobby import is_server_manager
from .pictures import set_server_pictures, set_user_pictures
from .scores import ScoreDesk
from .vacation import end_vacation, start_vacation


class CommunityCommands(commands.Cog):
    settings = app_commands.Group(name="settings", description=locale_str("Your own settings (and your server's pictures and language)"))

    def __init__(self, scores: ScoreDesk) -> None:
        self.scores = scores

    @app_commands.command(name="turns", description=locale_str("Every game where it is your turn, oldest waiting first"))
    async def turns(self, interaction: discord.Interaction) -> None:
        await self.scores.show_turns(interaction)

    @app_commands.command(name="leaderboard", description=locale_str("Ratings of this server's players in a game"))
    @app_commands.describe(
        game=locale_str("The game (default: the game finished last here)"),
        season=locale_str("A season, or all time (default: the current season, if this server has seasons)"),
    )
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_names)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        await self.scores.show_leaderboard(interaction, game, season)

    @leaderboard.autocomplete("season")
    async def season_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """All time, then this server's seasons, latest first (the value: its number)."""
        seasons = await self.scores.referee.seasons.seasons(str(interaction.guild_id))
        choices = [(tr("All time"), ALL_TIME)] + [(season.name, str(season.number)) for season in seasons]
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=name[:100], value=value)
            for name, value in choices
            if typed in name.lower()
        ][:MAX_CHOICES]

    @app_commands.command(name="stats", description=locale_str("A player's games, wins, scores and ratings here"))
    @app_commands.describe(user=locale_str("The player (default: you)"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        await self.scores.show_stats(interaction, user)

    @app_commands.command(name="history", description=locale_str("Recent finished games here, with their records"))
    @app_commands.describe(game=locale_str("Only this game"))
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_names)
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.scores.show_history(interaction, game)

    @settings.command(name="quiet-hours", description=locale_str("No reminders at night, and daily clocks stop"))
    @app_commands.describe(
        time_zone=locale_str("Your time zone, e.g. Europe/Rome or America/New_York"),
        start=locale_str("Local hour the quiet hours start (0-23)"),
        end=locale_str("Local hour they end (0-23)"),
    )
    async def quiet_hours(
        self,
        interaction: discord.Interaction,
        time_zone: str,
        start: app_commands.Range[int, 0, 23],
        end: app_commands.Range[int, 0, 23],
    ) -> None:
        await self.scores.set_quiet_hours(interaction, time_zone, start, end)

    @quiet_hours.autocomplete("time_zone")
    async def time_zone_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        zones = sorted(zone for zone in zoneinfo.available_timezones() if typed in zone.lower())
        return [app_commands.Choice(name=zone, value=zone) for zone in zones[:MAX_CHOICES]]

    @settings.command(name="quiet-hours-off", description=locale_str("Clear your quiet hours"))
    async def quiet_hours_off(self, interaction: discord.Interaction) -> None:
        await self.scores.clear_quiet_hours(interaction)

    @settings.command(name="forget-me", description=locale_str("Delete your data (asks you to confirm first)"))
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await privacy_of(interaction.client).ask(interaction)
    @settings.command(name="vacation", description=locale_str("Stop your clocks in every timed game for some days"))
    @app_commands.describe(days=locale_str("How many days (within your yearly vacation allowance)"))
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 365]) -> None:
        await start_vacation(self.scores.referee, interaction, days)

    @settings.command(name="vacation-off", description=locale_str("End your vacation early (the days not begun are given back)"))
    async def vacation_off(self, interaction: discord.Interaction) -> None:
        await end_vacation(self.scores.referee, interaction)

    @settings.command(name="turn-dms", description=locale_str("Also get your hand and moves by DM at each of your turns"))
    @app_commands.describe(enabled=locale_str("On: a DM at each turn besides the board's ping (default off)"))
    async def turn_dms(self, interaction: discord.Interaction, enabled: bool) -> None:
        await desk_of(interaction.client).set_turn_dms(interaction, enabled)

    @settings.command(name="pictures", description=locale_str("A picture of your hand in your private views, or text only"))
    @app_commands.describe(enabled=locale_str("On: your hand with a picture (default); off: text only"))
    async def pictures(self, interaction: discord.Interaction, enabled: bool) -> None:
        await set_user_pictures(self.scores.referee, interaction, enabled)

    @settings.command(
        name="language", description=locale_str("The language of your replies, hands and DMs (auto: your Discord's)")
    )
    @app_commands.describe(language=locale_str("A language, or auto to follow your Discord language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await set_user_language(self.scores.referee, interaction, language)

    @settings.command(
        name="server-language",
        description=locale_str("The language of this server's boards, threads and announcements (Manage Server)"),
    )
    @app_commands.describe(language=locale_str("A language, or auto to follow the server's preferred locale"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def server_language(self, interaction: discord.Interaction, language: str) -> None:
        await set_server_language(self.scores.referee, interaction, language, manager=is_server_manager(interaction))

    @settings.command(
        name="server-pictures", description=locale_str("Pictures with this server's boards, hands and results (Manage Server)")
    )
    @app_commands.describe(enabled=locale_str("On: pictures beside the text (default); off: text only, for everyone here"))
    async def server_pictures(self, interaction: discord.Interaction, enabled: bool) -> None:
        await set_server_pictures(
            self.scores.referee, interaction, enabled, manager=is_server_manager(interaction)
        )
