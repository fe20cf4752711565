"""Notice any file the test session reads beside the repository, so that a fresh clone is enough.

The project must stand alone: no test or module may depend on a folder that happens to sit next to
the clone (a shared rules folder, a sibling checkout). ``install()`` adds an audit hook
(``sys.addaudithook``: it sees every ``open``, ``os.listdir``, ``os.scandir`` and SQLite connect of
this process) that records each path whose resolved location is *beside* the repository, i.e.
inside a watched directory but not inside the repository itself. ``tests/conftest.py`` installs it
for the whole session and fails the session at the end, naming the paths.

Watched: the repository's parent directory and, when the repository is a linked git worktree, the
parent of the main working tree too (worktrees usually live in a folder of their own, away from the
checkout whose siblings matter). Allowed even there: the interpreter and its virtual environment
(``sys.prefix`` and friends, resolved, since ``.venv`` may be a symlink to a directory outside the
repository) and the temporary directory. Everything else (``/tmp``, ``/proc``, ``/dev``, the
standard library) is outside the watched directories anyway.

Subprocesses (the real ``bot.py`` of the Discord harness) are not audited; what they could read is
named in their source, which ``tests/test_standalone.py`` scans.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent

# Events whose first argument is a path that the process is about to read, write or list.
_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "sqlite3.connect"})


def _main_worktree(repository: Path) -> Path | None:
    """The main working tree of a linked git worktree (whose ``.git`` is a file), else None."""
    dot_git = repository / ".git"
    if not dot_git.is_file():
        return None
    text = dot_git.read_text(encoding="utf-8").strip()
    if not text.startswith("gitdir:"):
        return None
    git_dir = (repository / text.removeprefix("gitdir:").strip()).resolve()
    common = git_dir / "commondir"
    if common.is_file():
        git_dir = (git_dir / common.read_text(encoding="utf-8").strip()).resolve()
    return git_dir.parent if git_dir.name == ".git" else None


@functools.cache
def watched_directories(repository: Path = REPOSITORY) -> list[Path]:
    """Computed once, before the hook is installed: finding the main worktree reads its git folder."""
    watched = {repository.parent}
    main = _main_worktree(repository)
    if main is not None and main != repository:
        watched.add(main.parent)
    # Drop a directory already inside another one.
    return sorted(d for d in watched if not any(d != o and d.is_relative_to(o) for o in watched))


def allowed_directories(repository: Path = REPOSITORY) -> list[Path]:
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, tempfile.gettempdir()}
    # A directory holding the repository (a clone under /tmp) would allow its siblings too: not that.
    resolved = {Path(p).resolve() for p in prefixes if p}
    return sorted({repository} | {d for d in resolved if not repository.is_relative_to(d)})


class StandaloneGuard:
    """Records the paths beside the repository that this process touches."""

    def __init__(self, repository: Path = REPOSITORY) -> None:
        # Plain string prefixes (with a trailing separator): the hook runs on every open.
        self._watched = frozenset(str(d) for d in watched_directories(repository))
        self._watched_inside = tuple(os.path.join(d, "") for d in self._watched)
        allowed = [os.path.join(str(d), "") for d in allowed_directories(repository)]
        temp = Path(tempfile.gettempdir()).resolve()
        if temp in watched_directories(repository):
            # A clone made directly in the temporary directory: the neighbours that pytest and
            # tempfile make there (pytest-of-<user>, tmpXXXX) are still fine.
            allowed += [os.path.join(str(temp), "pytest-of-"), os.path.join(str(temp), "tmp")]
        self._allowed = tuple(allowed)
        self._allowed_exact = frozenset(str(d) for d in allowed_directories(repository))
        self._seen: dict[str, bool] = {}
        self.outside: dict[str, str] = {}  # resolved path -> the event that touched it

    def _beside(self, path: str) -> bool:
        if path in self._allowed_exact or path.startswith(self._allowed):
            return False
        return path in self._watched or path.startswith(self._watched_inside)

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if event not in _EVENTS or not args:
            return
        target = args[0]
        if not isinstance(target, (str, bytes, os.PathLike)):
            return  # a file descriptor, or an in-memory database given as None
        name = os.fsdecode(target)
        if not name or name == ":memory:" or name.startswith("file:"):
            return
        absolute = os.path.abspath(name)
        known = self._seen.get(absolute)
        if known is None:
            # The resolved location counts: a symlink inside the repository may point beside it.
            resolved = os.path.realpath(absolute)
            known = self._seen[absolute] = self._beside(resolved)
            if known:
                self.outside.setdefault(resolved, event)
        elif known:
            self.outside.setdefault(os.path.realpath(absolute), event)


def install(repository: Path = REPOSITORY) -> StandaloneGuard:
    """Install the guard for the rest of the process (audit hooks cannot be removed)."""
    guard = StandaloneGuard(repository)
    sys.addaudithook(guard.hook)
    return guard
