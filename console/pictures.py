"""Pictures at the local table: ``board --png FILE`` at any prompt saves the board shown, and
``--pictures DIR`` writes every board of the game as it is shown, then the result.

The pictures are the Discord desk's (the referee's picture service draws them from the
snapshot, off the event loop); the terminal shows the text as always. A game that draws no
pictures says so instead.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from engine.i18n import N_, tr
from engine.referee import Referee, SeatSnapshot

NO_PICTURES = N_("This game draws no pictures yet: the board is text only.")
USAGE = N_("Write `board --png FILE` to save the board as a PNG picture.")


def png_path(command: str) -> Path | None:
    """The FILE of ``board --png FILE`` (None for a plain ``board``); raises ValueError when the
    command is malformed."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise ValueError(tr(USAGE)) from error
    if words[1:] == []:
        return None
    if len(words) != 3 or words[1] != "--png" or not words[2].strip():
        raise ValueError(tr(USAGE))
    return Path(words[2])


async def save_board(referee: Referee, snapshot: SeatSnapshot, path: Path) -> str:
    """Write the snapshot's board picture to ``path``; the line to show the player."""
    drawing = await referee.pictures.board(snapshot)
    if drawing is None:
        return tr(NO_PICTURES)
    try:
        path.write_bytes(drawing.picture.png)
    except OSError as error:
        return tr("Could not write {path}: {reason}.", path=path, reason=error.strerror or error)
    return tr(
        "Board saved to {path} ({width}x{height} pixels).",
        path=path,
        width=drawing.picture.width,
        height=drawing.picture.height,
    )


class PictureFolder:
    """``--pictures DIR``: every board shown goes to ``DIR/game-<id>-move-<version>.png`` (a board
    shown again is the same file, drawn once: the picture service caches it), and the result to
    ``DIR/game-<id>-result.png``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    async def board(self, referee: Referee, snapshot: SeatSnapshot) -> str | None:
        """Save this board; a line to show when it could not be written."""
        drawing = await referee.pictures.board(snapshot)
        if drawing is None:
            return None
        return self._write(f"game-{snapshot.table.id}-move-{snapshot.version:04d}.png", drawing.picture.png)

    async def result(self, referee: Referee, snapshot: SeatSnapshot) -> str | None:
        if snapshot.outcome is None:
            return None
        drawing = await referee.pictures.result(snapshot, await referee.record(snapshot.table.id))
        if drawing is None:
            return None
        return self._write(f"game-{snapshot.table.id}-result.png", drawing.picture.png)

    def _write(self, name: str, png: bytes) -> str | None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / name).write_bytes(png)
        except OSError as error:
            return tr("Could not write {path}: {reason}.", path=self.folder / name, reason=error.strerror or error)
        return None
