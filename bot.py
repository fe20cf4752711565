"""Start the referee: the Discord bot when DISCORD_TOKEN is set, else the local terminal table.

    python bot.py        (or: make run)

Configuration comes from the environment and a .env file in the current directory (see
.env.example). Start-up problems (bad settings, a rejected token, no network) end with one line
that says what to do, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from dotenv import load_dotenv

from cogs.admin import AdminCommands
from cogs.clocks import ClockKeeper
from cogs.community import CommunityCommands
from cogs.components import DYNAMIC_ITEMS
from cogs.desk import GameDesk
from cogs.games import GameCommands
from cogs.language import reader_language, server_language
from cogs.privacy import PrivacyDesk
from cogs.replies import reply
from cogs.scores import ScoreDesk
from cogs.seasons import SeasonCommands, SeasonHerald
from cogs.translator import CatalogueTranslator
from config import DEVELOPER_PORTAL, ConfigError, Settings, load_settings, thinker_for
from db import StoreOpenError, open_store
from engine.i18n import N_, set_language, terminal_language, tr, use_language
from engine.referee import Referee, RulesChanged, Store, Thinker, set_public_language
from engine.referee.gc_policy import tune_garbage_collector, tune_thread_switching

log = logging.getLogger("bot")

NO_TOKEN_MESSAGE = N_(
    "DISCORD_TOKEN is not set, so the game opens here in the terminal; to run it on Discord, put "
    "DISCORD_TOKEN=<your bot token> in .env (see .env.example)."
)
# What the bot needs in a channel: post lobbies and boards, open a thread per game, embed boards.
# The one list: the invite link logged at start-up is built from it, and the README lists these
# labels (as Discord's invite screen names them; tests/discord/test_process.py compares the two).
BOT_PERMISSION_LABELS: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}
BOT_PERMISSIONS = discord.Permissions(**dict.fromkeys(BOT_PERMISSION_LABELS, True))
BOT_SCOPES = ("bot", "applications.commands")


def invite_link(application_id: int) -> str:
    """The link that adds the bot to a server with exactly the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=BOT_PERMISSIONS, scopes=BOT_SCOPES)


class ReaderTree(app_commands.CommandTree["RefereeBot"]):
    """The command tree: every command and autocomplete runs in its reader's language."""

    async def interaction_check(self, interaction: discord.Interaction[RefereeBot], /) -> bool:
        # discord.py runs each interaction in a task of its own, where the check comes first: the
        # language set here holds for that interaction's command (or autocomplete) and its errors.
        set_language(await reader_language(interaction))
        # What the referee writes for the whole table (a board, the log of a move) is in the
        # server's language, beside the reader's refusals and hand (engine/referee/audience.py).
        set_public_language(await server_language(interaction.client, interaction.guild_id))
        return True


class RefereeBot(commands.Bot):
    """The bot: slash commands and persistent components over one Referee and its SQLite store."""

    def __init__(
        self,
        settings: Settings,
        *,
        new_seed: Callable[[], int] | None = None,
        ai_rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        sharding: dict[str, object] = {}
        if settings.shard_count is not None:  # ShardedRefereeBot: these gateway shards in this process
            sharding["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            **sharding,  # type: ignore[arg-type]
            # Only mentions reach prefix commands: no privileged message-content intent needed.
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=ReaderTree,
            # Nothing pings unless a message names its pings explicitly (the seats to act).
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._new_seed = new_seed
        self._ai_rng = ai_rng
        self._clock = clock
        self.store: Store | None = None
        self.referee: Referee | None = None
        self.thinker: Thinker | None = None  # searching AI seats and hints (worker processes)
        self.desk: GameDesk | None = None
        self.scores: ScoreDesk | None = None
        self.privacy: PrivacyDesk | None = None
        self.clock_keeper: ClockKeeper | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._resumed = False

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database)  # PostgreSQL when DATABASE_URL is set
        # The pool of thinking processes starts with the first search, not here.
        self.thinker = thinker_for(self.settings)
        self.referee = Referee(
            self.store,
            clock=self._clock,
            new_seed=self._new_seed,
            ai_rng=self._ai_rng,
            vacation_days_per_year=self.settings.vacation_days_per_year,
            # Other processes run the other shards over the same database: the clocks and the
            # boards they all see are claimed before acting (engine/referee/claims.py).
            shared=self.settings.shares_store,
            thinker=self.thinker,
        )
        # Before any move: a release whose rules would change a game in progress must not play it
        # (RulesChanged ends the start with the list of those games).
        checked = await self.referee.check_rules_versions()
        if checked.replayed:
            log.info("replayed %d running games started on older rules: all unchanged", checked.replayed)
        # Before any command: the time the bot was down is owed to every running clock. Each
        # table gets it when first loaded, the others in one batch at the first clock poll, so
        # start-up does not wait for every game in progress.
        credited = await self.referee.credit_downtime(defer=True)
        if credited:
            log.info("giving %.0f seconds of downtime back to the running clocks", credited)
        self.referee.pictures.warm_up()  # Pillow and matplotlib loaded before the first picture
        self.desk = GameDesk(self, self.referee)
        self.scores = ScoreDesk(self, self.referee)
        self.privacy = PrivacyDesk(self, self.referee)
        self.clock_keeper = ClockKeeper(self.desk)
        # Each poll also rolls seasons over and posts the final standings owed (cogs/seasons.py).
        self.clock_keeper.chores.append(SeasonHerald(self, self.referee).poll)
        # Registered by class: clicks on messages sent before a restart are parsed from their ids.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(GameCommands(self.desk))
        await self.add_cog(CommunityCommands(self.scores))
        await self.add_cog(AdminCommands(self))
        await self.add_cog(SeasonCommands(self))
        self.tree.on_error = self.on_app_command_error
        # Before the sync: the commands' descriptions and choices in every language (cogs/translator.py).
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.sync_commands:
            count = await self.sync_application_commands(self.settings.dev_guild_id)
            where = f"server {self.settings.dev_guild_id}" if self.settings.dev_guild_id else "every server"
            log.info("synced %d slash commands to %s", count, where)
        else:
            await self.warn_if_unregistered()

    async def sync_application_commands(self, guild_id: int | None = None) -> int:
        """Register the slash commands: globally, or on one server (instant, for development)."""
        if guild_id is None:
            return len(await self.tree.sync())
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        return len(await self.tree.sync(guild=guild))

    async def warn_if_unregistered(self) -> None:
        """One cheap read at start-up, so a forgotten sync is reported instead of silently missing."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        try:
            registered = {command.name for command in await self.tree.fetch_commands(guild=guild)}
        except discord.HTTPException as error:
            log.warning("could not check the registered slash commands: %s", error)
            return
        missing = sorted({command.name for command in self.tree.get_commands(guild=None)} - registered)
        if missing:
            log.warning(
                "slash commands not registered with Discord: /%s. Start once with SYNC_COMMANDS=true, "
                "or send '@<bot> sync' as the bot's owner.",
                ", /".join(missing),
            )

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("logged in as %s (id %s) on %d servers", self.user, self.user.id, len(self.guilds))
        if self.settings.shard_count is not None:
            shards = self.settings.shard_ids or range(self.settings.shard_count)
            log.info("running shards %s of %d", ", ".join(map(str, shards)), self.settings.shard_count)
        if self.application_id:
            log.info("invite link: %s", invite_link(self.application_id))
        if not self._resumed and self.desk is not None:
            # Once per process (on_ready also follows reconnects): games interrupted by a restart
            # get their missing thread or their due AI moves.
            self._resumed = True
            touched = await self.desk.resume_running_games()
            if touched:
                log.info("resumed %d running games", touched)
            # Moves committed but never announced (a crash between the commit and the board).
            caught_up = await self.desk.announcer.catch_up_all()
            if caught_up:
                log.info("announced %d games whose boards were not posted before the restart", caught_up)
            if self.clock_keeper is not None and self._clock_task is None:
                # One task for every timer: reminders, timeouts and forfeits, all read from SQLite.
                self._clock_task = asyncio.create_task(self.clock_keeper.run(), name="referee clocks")

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error(
            "command /%s failed",
            interaction.command.qualified_name if interaction.command else "?",
            exc_info=error,
        )
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, tr("Something went wrong on my side (it is logged). Try again, or use /board."))

    async def close(self) -> None:
        if self._clock_task is not None:
            task, self._clock_task = self._clock_task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.desk is not None:
            await self.desk.announcer.close()
        if self.referee is not None:
            self.referee.pictures.close()  # a drawing under way is left to finish on its own
        try:
            await super().close()
        finally:
            if self.thinker is not None:
                thinker, self.thinker = self.thinker, None
                await thinker.close()  # the thinking processes end with the bot
            if self.store is not None:
                store, self.store = self.store, None
                await store.close()


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """The same bot on several gateway shards (SHARD_COUNT, SHARD_IDS): discord.py's
    AutoShardedBot, one connection per shard, all in this process."""


def create_bot(
    settings: Settings,
    *,
    new_seed: Callable[[], int] | None = None,
    ai_rng: random.Random | None = None,
    clock: Callable[[], float] = time.time,
) -> RefereeBot:
    """The bot; ``clock`` (seconds since the epoch) drives every game clock, so tests can pass a
    virtual one."""
    kind = RefereeBot if settings.shard_count is None else ShardedRefereeBot
    return kind(settings, new_seed=new_seed, ai_rng=ai_rng, clock=clock)


async def run_bot(settings: Settings, bot: RefereeBot | None = None) -> None:
    """Run until Discord closes the connection or the process gets SIGINT/SIGTERM (clean close)."""
    assert settings.token is not None
    bot = bot or create_bot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still raises KeyboardInterrupt
            loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(settings.token))
        stopping = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if running in done:
            stopping.cancel()
            running.result()
            return
        log.info("shutting down")
        await bot.close()
        await running
    log.info("stopped cleanly")


def run_local_table(argv: Sequence[str] | None = None) -> int:
    try:
        from console import main as console_main
    except ModuleNotFoundError as error:
        if error.name != "console":
            raise
        print(
            "The local table (console/) is not in this checkout yet; set DISCORD_TOKEN to run on Discord.",
            file=sys.stderr,
        )
        return 1
    result = console_main(argv)
    return result if isinstance(result, int) else 0


def main(argv: Sequence[str] | None = None) -> int:
    load_dotenv(Path.cwd() / ".env")
    try:
        settings = load_settings(os.environ)
    except ConfigError as error:
        print(f"Configuration problem: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        # In the local table's language: --lang, else the terminal's.
        with use_language(terminal_language(sys.argv[1:] if argv is None else argv, os.environ)):
            print(tr(NO_TOKEN_MESSAGE))
        return run_local_table(argv)
    discord.utils.setup_logging(level=settings.log_level, root=True)
    tune_garbage_collector()
    tune_thread_switching()
    try:
        asyncio.run(run_bot(settings))
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN (reset or mistyped): get a new one at "
            f"{DEVELOPER_PORTAL} > your application > Bot > Reset Token, and put it in .env.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused an intent this bot does not request; update the bot, then start again.",
            file=sys.stderr,
        )
        return 1
    except (aiohttp.ClientError, discord.GatewayNotFound, OSError) as error:
        print(
            f"Could not reach Discord ({error.__class__.__name__}: {error}); check the network and start again.",
            file=sys.stderr,
        )
        return 1
    except sqlite3.Error as error:
        print(
            f"Could not open the database {settings.database_path!r} ({error}); set DATABASE_PATH to a writable file.",
            file=sys.stderr,
        )
        return 1
    except StoreOpenError as error:
        print(
            f"Could not open the PostgreSQL database ({error}); check DATABASE_URL and that the server is up.",
            file=sys.stderr,
        )
        return 1
    except RulesChanged as error:
        print(f"Not starting: {error}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
