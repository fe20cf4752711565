"""Stops a throwaway PostgreSQL server (local_server.LocalServer) once the process that started it
is gone without stopping it: killed by SIGTERM or SIGKILL, say, where its own clean-up never ran.

Run as a script (standard library only, so it needs no import path): ``watchdog.py SERVER_PID
DIRECTORY``, its standard input the read end of a pipe whose write end only the owner holds. The
kernel closes that end when the owner dies, however it dies, so the watchdog sleeps in ``read``
and costs nothing until then. The owner writes ``STOPPED`` before closing it when it stopped the
server itself, and the watchdog then leaves at once: the server's process id may by then belong
to another process.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Sequence

STOPPED = b"stopped\n"
GRACE_SECONDS = 30.0  # fast shutdown ends open sessions; past this the server is killed


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs. A zombie (exited, not yet reaped: its parent died and nothing
    reaps orphans in some containers) counts as gone, though it still answers ``kill(pid, 0)``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, under another user (the server runs as one when we are root)
        pass
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:  # gone meanwhile; or a system without /proc, where kill(pid, 0) answered
        return not os.path.isdir("/proc/self")


def stop_server(pid: int, directory: str) -> None:
    """Fast shutdown of the server (SIGINT), SIGKILL past the grace time, then its directory goes."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + GRACE_SECONDS
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(directory, ignore_errors=True)


def main(argv: Sequence[str]) -> int:
    pid, directory = int(argv[0]), argv[1]
    # The terminal's Ctrl-C reaches the owner, which stops the server itself and tells us so.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A line, not the whole input: a process forked from the owner holds the pipe's write end
    # too, so the end of input may wait for it, but the owner's word may not.
    message = sys.stdin.buffer.readline()  # the owner's word, or nothing when it died
    if message != STOPPED:
        stop_server(pid, directory)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
