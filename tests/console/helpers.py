"""Driving the local table in-process: scripted input lines, captured output, the stored result."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from rich.console import Console

from console.app import build_parser, run
from db import SqliteStore
from engine.core import RecordedMove
from engine.i18n import tr
from engine.referee import Table


class ScriptedReader:
    """Answers prompts from a list; an exception in the list is raised at that prompt, and the end
    of the list is the end of input (EOFError), as with a pipe.

    With ``every_move`` set, each "Your move" prompt is answered with it (for example "1", the
    first legal move) and the list only answers the other prompts, so a test need not know how
    many moves a game will take.
    """

    def __init__(self, lines: Iterable[str | BaseException], every_move: str | None = None) -> None:
        self.lines = list(lines)
        self.every_move = every_move
        self.prompts: list[str] = []

    async def read(self, prompt: str, suggestions: Sequence[str] = ()) -> str:
        self.prompts.append(prompt)
        if self.every_move is not None and prompt == tr("Your move › "):  # in the table's language
            return self.every_move
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, BaseException):
            raise line
        return line


async def run_console(
    argv: Sequence[str], lines: Iterable[str | BaseException] = (), every_move: str | None = None
) -> tuple[int, str, ScriptedReader]:
    """Run the whole table in this process; returns the exit code, the output and the reader."""
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    reader = ScriptedReader(lines, every_move)
    code = await run(build_parser().parse_args(list(argv)), console, reader)
    return code, out.getvalue(), reader


def panel_lines(out: str) -> list[str]:
    """The output's lines without panel borders and padding, to match text inside panels."""
    return [line.strip().strip("│").strip() for line in out.splitlines()]


async def stored_tables(path: Path) -> list[tuple[Table, list[RecordedMove]]]:
    """Every table in the file with its move log, oldest first, read straight from the store."""
    store = await SqliteStore.open(path)
    try:
        tables = sorted(await store.list_tables(), key=lambda table: table.id)
        return [(table, await store.move_log(table.id)) for table in tables]
    finally:
        await store.close()
