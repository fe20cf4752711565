"""The invite the README describes is the one the bot logs: same scopes, same permissions."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import discord

from bot import BOT_PERMISSION_LABELS, BOT_PERMISSIONS, invite_link

from .fake_discord import FakeDiscord
from .test_process import TIMEOUT, TOKEN, launch

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def readme_invite_template() -> str:
    match = re.search(r"^invite link: (https://.+)$", README, re.MULTILINE)
    assert match, "the README shows the invite link the bot logs"
    return match.group(1)


def test_the_readme_lists_exactly_the_permissions_the_bot_asks_for() -> None:
    match = re.search(r"these permissions \(`BOT_PERMISSIONS`\s+in `bot.py`\):\s+([^.]+)\.", README)
    assert match, "the README lists the invite permissions after 'these permissions'"
    listed = [label.strip() for label in " ".join(match.group(1).split()).split(",")]
    assert listed == list(BOT_PERMISSION_LABELS.values())
    assert all(getattr(BOT_PERMISSIONS, name) for name in BOT_PERMISSION_LABELS)
    assert bin(BOT_PERMISSIONS.value).count("1") == len(BOT_PERMISSION_LABELS)  # and nothing else
    assert BOT_PERMISSIONS.embed_links  # boards and lobbies are embeds


def test_the_readme_shows_the_link_the_bot_logs() -> None:
    template = readme_invite_template()
    assert template.replace("<your application id>", "42") == invite_link(42)
    assert f"permissions={BOT_PERMISSIONS.value}" in template
    # Every label names a real discord.py permission flag (a typo would make the link wrong).
    assert all(hasattr(discord.Permissions, name) for name in BOT_PERMISSION_LABELS)


async def test_the_bot_process_logs_that_link_at_start_up(stand_in: FakeDiscord, tmp_path: Path) -> None:
    fake = stand_in
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={tmp_path / 'referee.sqlite3'}\nSYNC_COMMANDS=false\n"
    )
    wanted = readme_invite_template().replace("<your application id>", str(fake.application_id))
    process = await launch(fake, tmp_path)
    assert process.stderr is not None
    try:
        # on_ready comes once the server list is in (discord.py waits up to 2 s for it).
        while True:
            line = await asyncio.wait_for(process.stderr.readline(), TIMEOUT)
            assert line, "the bot stopped before logging its invite link"
            if b"invite link:" in line:
                break
        assert line.decode().rstrip().endswith(f"invite link: {wanted}")
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.communicate(), TIMEOUT)
