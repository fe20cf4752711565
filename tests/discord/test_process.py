"""bot.py as a real process, against a loopback stand-in for Discord (no network, no token)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from .fake_discord import TOKEN, FakeDiscord

LAUNCHER = Path(__file__).with_name("launch_bot.py")
REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 20


def clean_environment(fake: FakeDiscord) -> dict[str, str]:
    """The parent's environment minus every setting, so only the .env file configures the bot."""
    names = ("DISCORD_TOKEN", "DATABASE_PATH", "SYNC_COMMANDS", "DEV_GUILD_ID", "LOG_LEVEL")
    environment = {key: value for key, value in os.environ.items() if key not in names}
    environment["FAKE_DISCORD_URL"] = fake.base_url
    environment["PYTHONPATH"] = str(REPO)
    return environment


async def launch(fake: FakeDiscord, workdir: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(LAUNCHER),
        cwd=workdir,
        env=clean_environment(fake),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def wait_until(condition, what: str) -> None:
    for _ in range(TIMEOUT * 20):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_bot_starts_syncs_answers_a_command_and_shuts_down_cleanly(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    fake = stand_in
    database = tmp_path / "games" / "referee.sqlite3"
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\nSYNC_COMMANDS=true\nLOG_LEVEL=INFO\n"
    )
    process = await launch(fake, tmp_path)
    try:
        await asyncio.wait_for(fake.identified.wait(), TIMEOUT)
        await wait_until(lambda: "global" in fake.commands, "the command sync")
        assert {command["name"] for command in fake.commands["global"]} == {
            "game",
            "play",
            "undo",
            "hand",
            "board",
            "rules",
            "turns",
            "leaderboard",
            "stats",
            "history",
            "settings",
            "limits",
            "season",
        }
        assert database.exists()  # DATABASE_PATH came from .env
        await fake.slash("rules", [{"name": "game", "type": 3, "value": "sprint"}])
        await wait_until(lambda: fake.callbacks, "the answer to /rules")
        [answer] = fake.callbacks
        assert answer["type"] == 4 and answer["data"]["flags"] == 64
        assert answer["data"]["embeds"][0]["title"] == "Sprint: rules"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        stdout, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
    output = stdout.decode() + stderr.decode()
    assert process.returncode == 0, output
    assert "Traceback" not in output
    assert TOKEN not in output and TOKEN.split(".")[0] not in output
    assert "synced 13 slash commands to every server" in output
    assert "stopped cleanly" in output
    assert fake.disconnected.is_set()  # the gateway connection was closed, not dropped


async def test_a_rejected_token_ends_with_one_line_and_no_traceback(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    wrong = "MTExMTExMTExMTExMTExMTEx.Gwrong.this-token-was-reset-long-ago_0123456789"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={wrong}\nDATABASE_PATH={tmp_path / 'db.sqlite3'}\n")
    process = await launch(stand_in, tmp_path)
    stdout, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
    assert process.returncode == 1
    assert "Traceback" not in stdout.decode() + stderr.decode()
    problem = [line for line in stderr.decode().splitlines() if "DISCORD_TOKEN" in line]
    assert problem == [
        "Discord rejected DISCORD_TOKEN (reset or mistyped): get a new one at "
        "https://discord.com/developers/applications > your application > Bot > Reset Token, and put it in .env."
    ]
    assert wrong not in stdout.decode() + stderr.decode()
