"""Run bot.py against the loopback stand-in for Discord (tests/discord/fake_discord.py).

    FAKE_DISCORD_URL=http://127.0.0.1:PORT python tests/discord/launch_bot.py

Only the two addresses discord.py talks to change: the REST base and the gateway. Everything
else (configuration, .env, logging, start-up, shutdown) is bot.py exactly as `make run` runs it.
The test game Sprint is registered, so a slash command can be answered without a real game.
With FAKE_PICTURES set, Sprint draws its boards and hands (tests/picture_drawer.py). With FAKE_RETRY_SECONDS, a board that failed is tried again after that many seconds (instead of
the bot's backoff of seconds to minutes), so a test sees the retries without waiting for them.
"""

import os
import sys
from pathlib import Path

import discord.http
import yarl
from discord.gateway import DiscordWebSocket

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot  # noqa: E402
import cogs.announcer  # noqa: E402
import engine.games  # noqa: E402

base = os.environ["FAKE_DISCORD_URL"]
discord.http.Route.BASE = f"{base}/api/v10"
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http://", "ws://") + "/gateway")
engine.games.REGISTRY["sprint"] = "tests.discord.sprint"
if os.environ.get("FAKE_PICTURES"):
    # Sprint draws with the tests' drawer, so a real process sends its pictures.
    engine.games.get_game("sprint").draw_module = "tests.picture_drawer"
if os.environ.get("FAKE_RETRY_SECONDS"):
    cogs.announcer.RETRY_DELAYS = (float(os.environ["FAKE_RETRY_SECONDS"]),)

sys.exit(bot.main())
