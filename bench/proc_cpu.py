"""CPU time of a process tree and of the whole machine over a window (Linux's /proc), for the
scale-out figures: where the two cores went while the referee processes and PostgreSQL shared
them. Elsewhere (no /proc), every figure is None.

    with CpuWindow(server_pid) as window:
        ...
    window.tree_seconds, window.busy_cores

A server's backends come and go with their connections: their CPU is read every ``interval``
seconds while they live (the last reading of each counts; at most one interval of a backend that
ended is missed), against its reading when the window opened."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import TracebackType

_PROC = Path("/proc")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # the command name may hold spaces and brackets


def _cpu(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime


def _children_cpu(root: int) -> dict[int, float]:
    """CPU seconds of ``root`` and of its direct children (a server and its backends)."""
    found: dict[int, float] = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is not None and (int(entry.name) == root or int(fields[1]) == root):
            found[int(entry.name)] = _cpu(fields)
    return found


def _machine() -> tuple[float, float]:
    """Seconds of all CPUs together, and of them idle (idle and waiting for I/O)."""
    values = [int(value) for value in (_PROC / "stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(values) / _TICK, (values[3] + values[4]) / _TICK


class CpuWindow:
    def __init__(self, root: int | None, interval: float = 0.1) -> None:
        self.root = root
        self.interval = interval
        self.tree_seconds: float | None = None
        self.busy_cores: float | None = None
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._machine: tuple[float, float] | None = None

    def __enter__(self) -> CpuWindow:
        if not (_PROC / "stat").exists():
            return self
        self._machine = _machine()
        if self.root is not None:
            self._first = _children_cpu(self.root)
            self._last = dict(self._first)
            self._thread = threading.Thread(target=self._sample, daemon=True)
            self._thread.start()
        return self

    def _sample(self) -> None:
        assert self.root is not None
        while not self._stop.wait(self.interval):
            self._last.update(_children_cpu(self.root))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if self._machine is None:
            return
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            assert self.root is not None
            self._last.update(_children_cpu(self.root))
            self.tree_seconds = sum(seconds - self._first.get(pid, 0.0) for pid, seconds in self._last.items())
        total, idle = _machine()
        wall = (total - self._machine[0]) / (os.cpu_count() or 1)
        self.busy_cores = ((total - self._machine[0]) - (idle - self._machine[1])) / wall if wall > 0 else None


def server_pid(data_directory: Path) -> int | None:
    """The postmaster's process id, from the first line of its ``postmaster.pid``."""
    try:
        return int((data_directory / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


__all__ = ["CpuWindow", "server_pid"]
