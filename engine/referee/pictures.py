"""Pictures for the front ends: the board, a seat's hand and the result drawn from a snapshot,
and a player's rating chart; drawn off the event loop and kept in a small cache.

Every front end (Discord, the local table) asks here rather than calling the drawers itself:

    drawing = await pictures.board(snapshot)          # None: the game draws nothing, or it failed
    if drawing is not None:
        attach(drawing.picture.png, alt=drawing.alt)  # the alt text is the board's own text

Drawing takes tens of milliseconds (a result chart more): it runs in a worker thread, so the
event loop only waits for it and keeps serving other tables. Boards and hands have one worker,
the matplotlib charts another (a hand never waits behind a chart); one thread each keeps the
drawers out of each other's way and bounds the CPU that pictures take. A picture
is cached by (table, version, seat or None for the board, names, language): the board of a version is drawn
once however many messages show it, and two requests for the same picture at the same moment
share one drawing. A drawer that fails is logged and the front end shows the text alone: a
picture never costs anyone a board. (No time limit is put on a drawing: a board or hand takes
tens of milliseconds, and a timer would be one more thing that fires differently under load.)

The pictures come from the snapshot's views (``SeatSnapshot.public_view`` / ``seat_view``), of the
same version as its texts. The alt text is that text, cut to Discord's 1,024 characters for an
attachment's description (the whole text stays in the message beside the picture).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal

from engine.core import GameRecord, Outcome, Picture
from engine.games import get_game
from engine.i18n import SOURCE, language, tr, tr_n, use_language

from .audience import public_language
from .model import RatingChange
from .presentation import score_text
from .read_model import SeatSnapshot
from .score_history import score_history

log = logging.getLogger(__name__)

ALT_LIMIT = 1024  # an attachment's description on Discord
CACHE_SIZE = 64  # pictures kept: the latest boards and hands of the tables in play
# The workers, one thread each: boards and hands (tens of milliseconds each, and a hand answers
# an interaction that Discord waits three seconds for), and the matplotlib charts (results and
# ratings: hundreds of milliseconds, more for the first), so a hand never queues behind a chart.
BOARDS = "boards"
CHARTS = "charts"


@dataclass(frozen=True)
class Drawing:
    """A picture ready to show, with its alt text for screen readers (at most ALT_LIMIT characters)."""

    picture: Picture
    alt: str


def alt_text(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` as an image's description: whole when it fits, else cut at a line with "…"."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut.rstrip() + "…"


def result_alt(names: Sequence[str], outcome: Outcome) -> str:
    """The result picture in words: each seat's rank and score, the winners named."""
    order = list(outcome.seating) if outcome.seating else list(range(len(names)))
    ranked = sorted(order, key=lambda seat: (outcome.ranks[seat], order.index(seat)))
    lines = [tr("Final scores, with a chart of each player's score over the game.")]
    for seat in ranked:
        fields = {"rank": outcome.ranks[seat], "name": names[seat], "score": score_text(outcome.scores[seat])}
        if outcome.ranks[seat] == 1:
            lines.append(tr("{rank}. {name}: {score} (winner)", **fields))
        else:
            lines.append(tr("{rank}. {name}: {score}", **fields))
    return alt_text("\n".join(lines))


def rating_series(changes: Sequence[RatingChange]) -> dict[str, list[float]]:
    """Each game's ratings over a player's rated games (oldest first): the rating before the
    first, then the rating after each; keyed by the game's title."""
    series: dict[str, list[float]] = {}
    for change in changes:
        try:
            title = tr(get_game(change.game).title)
        except Exception:  # a game no longer installed keeps its stored name
            title = change.game
        values = series.setdefault(title, [change.before.ordinal])
        values.append(change.after.ordinal)
    return series


class Pictures:
    """The picture service (the Referee holds one: ``Referee.pictures``)."""

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._cache: OrderedDict[Hashable, Picture | None] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[Picture | None]] = {}
        self._cache_size = cache_size
        self._workers: dict[str, ThreadPoolExecutor] = {}

    async def board(self, snapshot: SeatSnapshot) -> Drawing | None:
        """The public board of the snapshot's version; None when its game draws nothing."""
        table = snapshot.table
        game = get_game(table.game)
        if not game.draws:
            return None
        names = tuple(table.names)
        code = public_language()  # the board is everybody's, like its text
        key = (table.id, snapshot.version, None, "board", names, code)
        picture = await self._draw(key, game.draw_board, snapshot.public_view, names, language=code)
        return None if picture is None else Drawing(picture, alt_text(snapshot.board))

    async def hand(self, snapshot: SeatSnapshot) -> Drawing | None:
        """The viewer's hand (their seat view, the playable cards marked); None for a spectator
        or a game that draws nothing."""
        table = snapshot.table
        game = get_game(table.game)
        if not game.draws or snapshot.seat_view is None or snapshot.seat is None:
            return None
        names = tuple(table.names)
        code = language()  # the viewer's
        key = (table.id, snapshot.version, snapshot.seat, "hand", names, code)
        picture = await self._draw(key, game.draw_hand, snapshot.seat_view, names, language=code)
        return None if picture is None else Drawing(picture, alt_text(snapshot.private or ""))

    async def result(self, snapshot: SeatSnapshot, record: GameRecord) -> Drawing | None:
        """The final scores, the winners, the teams and each seat's score over the game (replayed
        from ``record``, the table's move log, in the worker too); None before the end or for a
        game that draws nothing."""
        table, outcome = snapshot.table, snapshot.outcome
        if outcome is None or not get_game(table.game).draws:
            return None
        names = tuple(table.names)
        code = public_language()  # posted with the result, for everybody
        key = (table.id, snapshot.version, None, "result", names, code)
        picture = await self._draw(key, _draw_result, names, outcome, record, worker=CHARTS, language=code)
        if picture is None:
            return None
        with use_language(code):
            return Drawing(picture, result_alt(names, outcome))

    async def rating_chart(self, name: str, changes: Sequence[RatingChange]) -> Drawing | None:
        """A player's rating over their rated games (``changes``: their stored rating changes,
        oldest first); None when they have none."""
        series = rating_series(changes)
        if not series:
            return None
        code = language()
        key = ("rating", name, tuple((title, tuple(values)) for title, values in series.items()), code)
        picture = await self._draw(key, _rating_chart, name, series, worker=CHARTS, language=code)
        if picture is None:
            return None
        words = "; ".join(
            tr_n(
                "{game}: {first} to {last} over {n} rated game",
                "{game}: {first} to {last} over {n} rated games",
                len(values) - 1,
                game=title,
                first=_one_decimal(values[0]),
                last=_one_decimal(values[-1]),
            )
            for title, values in series.items()
        )
        return Drawing(picture, alt_text(tr("{name}'s rating over time. {games}.", name=name, games=words)))

    async def _draw(
        self, key: Hashable, draw: Callable[..., Picture], *args: Any, worker: str = BOARDS, language: str = SOURCE
    ) -> Picture | None:
        """The picture of ``key``, drawn by ``draw(*args)`` in a worker thread, its words in
        ``language`` (a worker thread does not inherit the caller's context: it is passed)."""
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        pending = self._drawing.get(key)
        if pending is None:
            if worker not in self._workers:
                self._workers[worker] = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix=f"pictures-{worker}"
                )
            loop = asyncio.get_running_loop()
            pending = self._drawing[key] = loop.run_in_executor(
                self._workers[worker], _safely, language, draw, *args
            )
            pending.add_done_callback(functools.partial(self._drawn, key))
        # Shielded: a caller that gives up (its interaction cancelled) leaves the drawing to the others.
        return await asyncio.shield(pending)

    def _drawn(self, key: Hashable, future: asyncio.Future[Picture | None]) -> None:
        self._drawing.pop(key, None)
        if future.cancelled():
            return
        self._cache[key] = future.result()  # never raises: _safely logs and returns None
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def warm_up(self) -> None:
        """Load the drawing libraries in the background (a bot calls it at start-up), so that the
        first board and the first result do not wait for the imports."""
        threading.Thread(target=_load_libraries, name="pictures warm-up", daemon=True).start()

    def close(self) -> None:
        """Let the workers go (they are started again by the next drawing)."""
        workers, self._workers = self._workers, {}
        for worker in workers.values():
            worker.shutdown(wait=False, cancel_futures=True)


def _one_decimal(value: float) -> str:
    """A rating with one decimal, as the reader's language writes it: "25.3", "25,3"."""
    return format_decimal(value, format="#,##0.0", locale=language())


def _safely(code: str, draw: Callable[..., Picture], *args: Any) -> Picture | None:
    try:
        with use_language(code):
            return draw(*args)
    except Exception:
        log.exception("drawing failed (%s); the text is shown alone", getattr(draw, "__qualname__", draw))
        return None


def _load_libraries() -> None:
    try:
        import PIL.Image  # noqa: F401
        import PIL.ImageDraw  # noqa: F401

        from engine.pictures import charts, result  # noqa: F401  (matplotlib's figure and Agg canvas)

        charts.new_figure(1.0)
    except Exception:  # the drawing will say what is wrong, when it happens
        log.debug("could not load the drawing libraries ahead of time", exc_info=True)


def _draw_result(names: Sequence[str], outcome: Outcome, record: GameRecord) -> Picture:
    from engine.pictures.result import draw_result

    return draw_result(names, outcome, score_history(record))


def _rating_chart(name: str, series: dict[str, list[float]]) -> Picture:
    from engine.pictures.charts import rating_chart

    return rating_chart(name, series)
