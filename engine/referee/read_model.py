"""The read model: everything a front end shows one seat, read at once.

``Referee.snapshot(table_id, user_id)`` hands a front end a ``SeatSnapshot``: the table (without
the seed while the game runs), its version, who must act, the viewer's seat and legal moves, the
public board and the viewer's private view, the clocks, and the outcome once the game is over.
It is taken under the table's lock from one load of the table, so every part of it belongs to
the same version: a front end that read them one by one could show a board of one move and the
legal moves of the next. A front end renders the snapshot and reads no game state of its own.

    snapshot = await referee.snapshot(table_id, user_id)
    print(snapshot.board)
    if snapshot.private is not None:
        print(snapshot.private)
    for notation, what in snapshot.moves:
        print(notation, what)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from engine.games import get_game

from .abandon import vote_line
from .audience import in_public
from .clock import get_speed
from .hints import hints_allowed
from .inputs import hide_seed
from .model import FINISHED, RUNNING, Table
from .presentation import clock_line, waiting_line, waiting_text
from .reports import SeatClockView
from .tables import Tables
from .timekeeping import clock_views_of
from .turns import outcome_of


@dataclass(frozen=True)
class SeatSnapshot:
    """One seat's (or a spectator's) view of a started table at one version."""

    table: Table  # the seed taken off while the game runs
    version: int
    to_act: tuple[int, ...]  # the seats that must act now (none once the game is over)
    seat: int | None  # the viewer's seat index; None for a spectator
    # The viewer's legal moves now: (notation, what it does in words, or "" when the notation says).
    moves: tuple[tuple[str, str], ...]
    # The public board; at a running timed table followed by the clock line. Written in the public
    # language (audience.use_public_language; the current one when none is set), every other text
    # of the snapshot in the current one (the viewer's).
    board: str
    private: str | None  # the viewer's private view; None for a spectator
    clocks: tuple[SeatClockView, ...]  # every timed seat's clock (none at an untimed table)
    is_over: bool
    outcome: Outcome | None  # once the game is over (forfeited seats ranked last)
    seating: tuple[int, ...] | None  # seat indexes in play order (``Game.seating``); None: the lobby's
    # The game's own views, for front ends that draw the position (``Game.draw_board`` and
    # ``Game.draw_hand``): the public view, and the viewer's seat view (None for a spectator).
    # Taken from the same state as ``board`` and ``private``; nothing else of the state leaves.
    public_view: dict[str, Any] = field(default_factory=dict)
    seat_view: dict[str, Any] | None = None
    hints: bool = False  # the viewer may ask for a hint now (Referee.hint): their turn, an unrated game

    @property
    def legal_moves(self) -> list[str]:
        """The viewer's legal moves in notation."""
        return [notation for notation, _ in self.moves]

    @property
    def waiting(self) -> str:
        """Who must act, in words, for a viewer who must not ("... waiting for Bob.")."""
        return waiting_text(self.table.seats[index].name for index in self.to_act)

    @property
    def waiting_line(self) -> str:
        """Who must act, for a seat's private view ("Waiting for Bob."; "" for nobody)."""
        return waiting_line(self.table.seats[index].name for index in self.to_act)


async def seat_snapshot(tables: Tables, table_id: int, user_id: str | None) -> SeatSnapshot:
    """The snapshot of ``user_id``'s seat (a spectator's when they have none) at a started table,
    from one load under the table's lock."""
    async with tables.lock(table_id):
        loaded = await tables.started(table_id)
        table, state = loaded.table, loaded.state
        game = get_game(table.game)
        mine = table.seat_of(user_id) if user_id is not None else None
        seat = None if mine is None else mine.index
        running = table.status == RUNNING
        views = tuple(await clock_views_of(tables, loaded))
        public_view = game.view(state, None)
        seat_view = None if seat is None else game.view(state, seat)
        with in_public():
            board = game.render_board(public_view, table.names)
            if running and get_speed(table.speed).timed:
                board += "\n" + clock_line(views)
            if running and table.abandon_votes:
                board += "\n" + vote_line(table)
        moves: tuple[tuple[str, str], ...] = ()
        if running and seat is not None and seat in game.may_act(state):
            moves = tuple(
                (game.format_move(move), game.describe_move(move)) for move in game.legal_moves(state, seat)
            )
        seating = game.seating(state)
        return SeatSnapshot(
            table=hide_seed(table),
            version=table.version,
            to_act=tuple(game.to_act(state)) if running else (),
            seat=seat,
            moves=moves,
            board=board,
            private=None if seat_view is None else game.render_private(seat_view, table.names),
            clocks=views,
            is_over=not running,
            outcome=outcome_of(game, loaded) if table.status == FINISHED else None,
            seating=None if seating is None else tuple(seating),
            public_view=public_view,
            seat_view=seat_view,
            hints=running and seat is not None and bool(moves) and hints_allowed(table, seat, game.to_act(state)),
        )
