"""Command line of the local table: ``python -m console`` (and ``make run`` without a token)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import getpass
import os
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console

from config import Settings, ai_settings, thinker_for
from db import database_path_from_env, database_url_from_env, open_store, redacted
from engine.core.text import MAX_NAME_CHARS
from engine.i18n import CODES, reset_language, resolve_language, set_language, terminal_language, tr
from engine.referee import Referee, RulesChanged

from .pictures import PictureFolder
from .reader import LineReader, reader_for
from .session import LocalTable, NewGame

INTERRUPTED_EXIT_CODE = 130  # the shell's convention for "stopped by Ctrl-C"
RULES_CHANGED_EXIT_CODE = 3  # as bot.py: this release would change a game in progress


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m console",
        description=tr(
            "The local table: play the referee's games in a terminal against AI seats. Without "
            "--game or --resume it opens the start screen."
        ),
    )
    parser.add_argument("--game", help=tr("start a new game of this name at once (no set-up questions)"))
    parser.add_argument(
        "--players", type=int, help=tr("number of players, you included (default: 2 when allowed)")
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=tr("a game option; repeat for several (unset options keep their defaults)"),
    )
    parser.add_argument("--ai", help=tr("level of the AI seats: easy, normal (default) or strong"))
    parser.add_argument(
        "--seed",
        type=int,
        help=tr(
            "seed of the deal and of the AI players' choices (default: fresh); with a seed the AI "
            "levels search a fixed number of playouts, so the whole game repeats"
        ),
    )
    parser.add_argument(
        "--resume",
        type=int,
        nargs="?",
        const=0,
        metavar="GAME_ID",
        help=tr("resume an unfinished game (the latest one without an id)"),
    )
    parser.add_argument(
        "--database",
        help=tr(
            "SQLite file or postgresql:// URL (default: $DATABASE_URL, else $DATABASE_PATH or "
            "data/referee.sqlite3)"
        ),
    )
    parser.add_argument("--name", help=tr("your player name (default: your login name)"))
    parser.add_argument(
        "--pictures",
        metavar="DIR",
        help=tr("also save every board shown as a PNG picture in DIR (and the result at the end)"),
    )
    parser.add_argument(
        "--lang",
        metavar="LANGUAGE",
        help=tr("the language of the table: {languages} (default: from $LANG)", languages=", ".join(CODES)),
    )
    return parser


def parse_option_flags(pairs: Sequence[str]) -> dict[str, str]:
    """``["tokens=5", "easy=yes"]`` -> ``{"tokens": "5", "easy": "yes"}``; raises ValueError."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise ValueError(tr("--option takes NAME=VALUE, not {pair}", pair=repr(pair)))
        options[name.strip()] = value.strip()
    return options


def login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:  # no login name in some containers; any name will do
        return "player"


async def run(args: argparse.Namespace, console: Console, reader: LineReader | None = None) -> int:
    """The whole local table on one store; returns the process exit code."""
    options = parse_option_flags(args.option)
    database = args.database or database_url_from_env() or database_path_from_env()
    store = await open_store(database)
    # The referee keeps names (and ids) short: a longer name would make an id it refuses.
    name = (args.name or login_name())[:MAX_NAME_CHARS]
    # Searching AI seats and hints think in worker processes, closed with the table below.
    thinker = thinker_for(local_settings(os.environ, reproducible=args.seed is not None))
    referee = Referee(store, ai_rng=random.Random(args.seed) if args.seed is not None else None, thinker=thinker)
    table = LocalTable(
        referee,
        reader or reader_for(console),
        console,
        user_id=f"local:{name}",
        player_name=name,
        database_path=redacted(database),  # shown on screen: never a password
        seed=args.seed,
        pictures=PictureFolder(Path(args.pictures)) if args.pictures else None,
    )
    try:
        # A release whose rules would change a game in progress does not play it.
        await referee.check_rules_versions()
        if args.game:
            request = NewGame(args.game, args.players, options, args.ai, args.seed)
            return await table.run_new_game(request)
        if args.resume is not None:
            return await table.run_resume(args.resume or None)
        return await table.run_interactive()
    except RulesChanged as error:
        console.print(tr("Not starting: {reason}", reason=error), markup=False, highlight=False)
        return RULES_CHANGED_EXIT_CODE
    except EOFError:
        table.goodbye(interrupted=False)
        return 0
    except (KeyboardInterrupt, asyncio.CancelledError):
        # Ctrl-C at a prompt (KeyboardInterrupt) or while the referee works (asyncio.run cancels
        # the task): every accepted move is already durable, so there is nothing left to save.
        table.goodbye(interrupted=True)
        return INTERRUPTED_EXIT_CODE
    finally:
        referee.pictures.close()
        await thinker.close()
        await store.close()


def local_settings(environ: Mapping[str, str], *, reproducible: bool) -> Settings:
    """The AI settings of the environment (AI_NORMAL_MS, ... as for the bot); ``reproducible``
    (a seed was given): the levels search their fixed playouts instead of a time budget."""
    settings = Settings(token=None, **ai_settings(environ))
    if reproducible:
        settings = dataclasses.replace(settings, ai_normal_ms=0.0, ai_strong_ms=0.0)
    return settings


def _pipe_width() -> int | None:
    """Rich assumes 80 columns when stdout is not a terminal; the games' texts are laid out for
    about 100, so a pipe gets 100 unless COLUMNS says otherwise (a terminal reports its own)."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS"):
        return None
    return 100


def main(argv: Sequence[str] | None = None) -> int:
    """Run the local table to the end (synchronous: ``bot.py`` calls it without a token)."""
    words = list(sys.argv[1:] if argv is None else argv)
    # The language first: the help and every error of the command line are written in it.
    token = set_language(terminal_language(words, os.environ))
    try:
        return _main(words)
    finally:
        reset_language(token)


def _main(words: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(words)
    if args.lang is not None and resolve_language(args.lang) is None:
        parser.error(
            tr("--lang takes one of {languages}, not {asked}", languages=", ".join(CODES), asked=repr(args.lang))
        )
    try:
        parse_option_flags(args.option)
    except ValueError as error:
        parser.error(str(error))
    console = Console(highlight=False, width=_pipe_width())
    try:
        return asyncio.run(run(args, console))
    except KeyboardInterrupt:
        # asyncio.run re-raises Ctrl-C once the cancelled task has said goodbye and closed the store.
        return INTERRUPTED_EXIT_CODE
