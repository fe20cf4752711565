"""The repository stands alone: no file in it names a path outside it.

Every text file of the checkout (tracked, or new and not ignored) is scanned for

- an absolute path inside a directory beside the repository (its parent, and the main working
  tree's parent for a git worktree: see ``tests/standalone_guard.py``), written out in full;
- a relative path (``../x``) that climbs out of the repository from the file's own folder;
- the names of the folders and documents that lived beside the repository while it was written
  (a shared folder of rules and notes, its style and design notes), unless a file of that name is
  in the repository.

Reads at run time are guarded by ``tests/conftest.py``; this test covers what is only written down
(docstrings, comments, documentation, scripts).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

from .standalone_guard import REPOSITORY, watched_directories

# Spelled in pieces so that this file does not name them itself.
_SHARED = "sha" + "red"
_NAMES_BESIDE = [
    "/" + "work/",  # the folder that held the repository, its sibling checkouts and the shared notes
    rf"{_SHARED}/(?:rules|seeds|hooks)\b",
    rf"\.\./{_SHARED}\b",
]
_NOTES = ("DESIGN" + ".md", "STYLE" + ".md")  # the notes that lived beside the repository

_SKIPPED_DIRS = {
    ".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".import_linter_cache",
    ".hypothesis", "data", "results",
}


def checkout_files(repository: Path = REPOSITORY) -> list[Path]:
    """The files of the checkout: tracked or new, not ignored; a plain walk in a copy without git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=repository, capture_output=True, check=True,
        ).stdout  # fmt: skip
        names = sorted({name for name in os.fsdecode(listed).split("\0") if name})
        return [repository / name for name in names if (repository / name).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(repository):
            dirs[:] = [d for d in dirs if d not in _SKIPPED_DIRS]
            files.extend(Path(folder) / name for name in names)
        return sorted(files)


def forbidden_patterns(repository: Path = REPOSITORY, files: list[Path] | None = None) -> list[re.Pattern[str]]:
    # The root and the temporary directory are too broad to be "beside" anything: a clone placed
    # directly in /tmp would otherwise forbid every example path under /tmp.
    broad = {Path("/"), Path(tempfile.gettempdir()).resolve()}
    beside = [re.escape(os.path.join(str(d), "")) for d in watched_directories(repository) if d not in broad]
    present = {path.name for path in (checkout_files(repository) if files is None else files)}
    notes = [re.escape(name) for name in _NOTES if name not in present]
    texts = beside + _NAMES_BESIDE + [rf"\b{note}" for note in notes]
    return [re.compile(text) for text in texts]


_CLIMB = re.compile(r"(?<![\w.])((?:\.\./)+)")


def problems_in(text: str, where: Path, patterns: list[re.Pattern[str]], repository: Path = REPOSITORY) -> list[str]:
    """Each line of ``text`` (the file ``where``) that names a path outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        hits = [match.group(0) for pattern in patterns for match in pattern.finditer(line)]
        for match in _CLIMB.finditer(line):
            target = Path(os.path.normpath(where.parent / match.group(1)))
            if not target.is_relative_to(repository):
                hits.append(match.group(1))
        if hits:
            names = ", ".join(dict.fromkeys(hits))
            found.append(f"{where.relative_to(repository)}:{number}: {names}: {line.strip()[:120]}")
    return found


def test_no_file_names_a_path_outside_the_repository():
    files = checkout_files()
    assert files, "no files found to scan"
    patterns = forbidden_patterns(files=files)
    found = []
    for path in files:
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary
        found += problems_in(data.decode("utf-8", errors="replace"), path, patterns)
    assert not found, "Paths outside the repository (the project must stand alone):\n" + "\n".join(found)


def test_the_scan_recognises_every_kind_of_outside_path():
    patterns = forbidden_patterns()
    here = REPOSITORY / "tests" / "example.py"
    parent = REPOSITORY.parent
    lines = [
        f"open('{parent / 'elsewhere' / 'notes.md'}')",
        "see ../" + "../x.txt",  # tests/ -> repository root -> out
        "/" + "work/" + _SHARED + "/rules/granja.md",
        "../" + _SHARED + "/rules/figures.md",
        "as " + _NOTES[0] + " says",
    ]
    for line in lines:
        assert problems_in(line, here, patterns), line
    for fine in ["docs/rules/granja.md", "../conftest.py", "Path(__file__).parent / 'x'", "/tmp/sim.sqlite3"]:
        assert not problems_in(fine, here, patterns), fine
