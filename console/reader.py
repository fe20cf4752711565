"""How the local table reads a line: prompt_toolkit at a terminal, plain lines through a pipe.

Both readers raise EOFError at the end of input (Ctrl-D) and KeyboardInterrupt on Ctrl-C, so the
table handles both the same way whichever reader is in use.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Sequence
from typing import Protocol

from rich.console import Console


class LineReader(Protocol):
    async def read(self, prompt: str, suggestions: Sequence[str] = ()) -> str:
        """One line of input, without its newline. ``suggestions`` feed completion when offered."""


class PromptToolkitReader:
    """Interactive input with Tab completion of the suggestions (legal moves, commands) and a
    history of what was typed in this session (up arrow)."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self._session: PromptSession[str] = PromptSession(history=InMemoryHistory())

    async def read(self, prompt: str, suggestions: Sequence[str] = ()) -> str:
        from prompt_toolkit.completion import WordCompleter

        # sentence=True: moves contain spaces ("take 2"), so complete the whole line, not a word.
        completer = WordCompleter(list(dict.fromkeys(suggestions)), ignore_case=True, sentence=True)
        return await self._session.prompt_async(prompt, completer=completer, complete_while_typing=True)


class PlainReader:
    """``input()`` lines, for pipes and scripts. When stdin is not a terminal the line read is
    echoed after the prompt, so a transcript reads like the session it was."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._echo = not sys.stdin.isatty()

    async def read(self, prompt: str, suggestions: Sequence[str] = ()) -> str:
        self._console.print(prompt, end="", markup=False, highlight=False)
        line = _interruptible_input()
        if self._echo:
            self._console.print(line, markup=False, highlight=False)
        return line


def _interruptible_input() -> str:
    """``input()`` that Ctrl-C interrupts at once.

    asyncio.run answers Ctrl-C by cancelling the main task, which cannot happen while the loop's
    only thread is blocked in ``input()``; so Python's own handler (which raises
    KeyboardInterrupt right here) is put back for the time of the read.
    """
    if threading.current_thread() is not threading.main_thread():
        return input()
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return input()
    finally:
        signal.signal(signal.SIGINT, previous)


def reader_for(console: Console) -> LineReader:
    """prompt_toolkit when both ends are a terminal, plain lines otherwise."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptToolkitReader()
    return PlainReader(console)
