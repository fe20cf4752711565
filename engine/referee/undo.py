"""Undo: a player takes back their last move while nobody has acted since.

Only a move the game calls undoable (``Game.undoable``: it showed nothing hidden and drew nothing
random) can be taken back, and only while it is the last entry of the move log. In an unrated
game the undo happens at once; in a rated game every other person at the table must agree first
(a request that any move, or any refusal, ends). The move log keeps the move and an ``(undo)``
entry after it, so the game replays exactly; the table's version goes up by one, like a move, so
a button on the old board is refused as stale.

Who must agree: in a rated game every other person present. A skipped player, whose seat an AI
plays until they come back, is not waited for (the request would stand until someone moved), but
may still answer, and a refusal ends the request. Rated games have no AI seats from the lobby. A
move the referee made itself cannot be taken back: one an AI made for a skipped player, or a
forced move (a lone legal move, which would only be played again).

Clocks go back to the moment of the move: the undoer resumes with what they had left when they
moved, without the increment the move earned (a move and its undo buy no time); the seats whose
turn the move started stop where they stood, charged nothing for the wait. The wait for consent
is charged to nobody.

A request waiting for consent is stored (``UndoStore``), so it survives a restart; it names the
version it was made at and lapses as soon as the table moves on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core import UNDO, Game, GameRecord, RecordedMove, effective_moves, replay
from engine.games import get_game
from engine.i18n import tr

from . import clock as clocks
from .absence import referee_step
from .audience import in_public
from .model import ForfeitedSeat, NotInGame, Outbox, StaleVersion, Table, VersionConflict, WrongStatus
from .results import board_of
from .tables import Loaded, Tables, copy_table, fingerprint
from .timekeeping import advance_turns
from .turns import Turns, secret_prints


class UndoRefused(WrongStatus):
    """This move cannot be taken back (another acted since, it showed or drew something...)."""


@dataclass(frozen=True)
class UndoRequest:
    """A rated game's request to take back a move, waiting for the other people to agree."""

    table_id: int
    version: int  # the table's version when asked: any move since ends the request
    seat: int  # who asks
    consents: tuple[int, ...] = ()  # the seats that agreed so far


@dataclass
class UndoReply:
    """What an undo call did: the move was taken back (``outbox``), or it waits for these seats."""

    outbox: Outbox | None = None
    request: UndoRequest | None = None
    waiting_for: list[int] = field(default_factory=list)
    move: str = ""  # the move taken back (or asked to be), in notation
    already_asked: bool = False  # the same request was waiting already: nobody is asked again


class UndoStore(Protocol):
    async def undo_request(self, table_id: int) -> UndoRequest | None:
        """The request waiting at a table, if any."""

    async def save_undo_request(self, request: UndoRequest) -> None:
        """Store (or replace) the table's request."""

    async def clear_undo_request(self, table_id: int) -> None: ...


class Undo:
    def __init__(self, tables: Tables, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns
        self.store: UndoStore = tables.store  # type: ignore[assignment]

    async def request(self, table_id: int, user_id: str) -> UndoReply:
        """Take back ``user_id``'s last move, or ask the others first in a rated game."""
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            seat = _person_seat(loaded.table, user_id)
            game = get_game(loaded.table.game)
            before, last = await self._undoable_last_move(game, loaded, seat)
            others = _others_to_ask(loaded.table, seat)
            waiting = await self.store.undo_request(table_id)
            asked = waiting is not None and (waiting.version, waiting.seat) == (loaded.table.version, seat)
            if asked and waiting is not None:
                # Asked already: their answers so far stand, and nobody is pinged twice.
                others = [other for other in others if other not in waiting.consents]
                if others:
                    return UndoReply(request=waiting, waiting_for=others, move=last.move, already_asked=True)
            if not others:  # unrated, or everyone still asked has agreed (or was skipped since)
                if waiting is not None:
                    await self.store.clear_undo_request(table_id)
                outbox = await self._take_back(game, loaded, seat, before, last)
                return UndoReply(outbox=outbox, move=last.move)
            request = UndoRequest(table_id, loaded.table.version, seat)
            await self.store.save_undo_request(request)
            return UndoReply(request=request, waiting_for=others, move=last.move)

    async def consent(self, table_id: int, user_id: str, version: int) -> UndoReply:
        """One of the others agrees to the request made at ``version``; the last one's consent
        takes the move back."""
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            request = await self._current_request(loaded, version)
            seat = _answering_seat(loaded.table, user_id, request.seat)
            others = _others_to_ask(loaded.table, request.seat)
            consents = tuple(sorted({*request.consents, seat}))
            waiting = [other for other in others if other not in consents]
            game = get_game(loaded.table.game)
            before, last = await self._undoable_last_move(game, loaded, request.seat)
            if waiting:
                request = UndoRequest(request.table_id, request.version, request.seat, consents)
                await self.store.save_undo_request(request)
                return UndoReply(request=request, waiting_for=waiting, move=last.move)
            await self.store.clear_undo_request(table_id)
            outbox = await self._take_back(game, loaded, request.seat, before, last)
            return UndoReply(outbox=outbox, move=last.move)

    async def decline(self, table_id: int, user_id: str, version: int) -> UndoRequest:
        """One of the others refuses: the request ends, the move stands."""
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            request = await self._current_request(loaded, version)
            _answering_seat(loaded.table, user_id, request.seat)
            await self.store.clear_undo_request(table_id)
            return request

    async def standing_version(self, table_id: int) -> int | None:
        """The version the table's stored request was made at (None: no request)."""
        request = await self.store.undo_request(table_id)
        return None if request is None else request.version

    async def _current_request(self, loaded: Loaded, version: int) -> UndoRequest:
        request = await self.store.undo_request(loaded.table.id)
        if request is None or request.version != version or loaded.table.version != version:
            raise StaleVersion(tr("That request to take a move back has ended: the game moved on, or it was answered."))
        return request

    async def _undoable_last_move(self, game: Game[Any, Any], loaded: Loaded, seat: int) -> tuple[Any, RecordedMove]:
        """The state before ``seat``'s last move and that move, if it may be taken back now."""
        table = loaded.table
        log = await self.tables.store.move_log(table.id)
        if len(log) != table.version:
            raise StaleVersion(tr("The game changed while you were asking; look at the board and try again."))
        if not log or log[-1].move == UNDO:
            raise UndoRefused(tr("There is no move to take back: only the last move of the game can be."))
        last = log[-1]
        if last.seat != seat:
            raise UndoRefused(
                tr(
                    "Only your own last move can be taken back, while nobody has acted since; {name} moved last.",
                    name=table.seats[last.seat].name,
                )
            )
        if table.seats[seat].absent:
            raise UndoRefused(
                tr(
                    "An AI plays your seat at the moment, and its moves are not yours to take back; "
                    "take your seat back first."
                )
            )
        record = GameRecord(
            game=table.game, players=len(table.seats), seed=table.seed or 0, options=table.options, moves=effective_moves(log[:-1])
        )
        before, _ = replay(game, record)
        if referee_step(game, before, table) is not None:
            # The referee played it (a lone legal move): taken back, it would be played again.
            raise UndoRefused(tr("{move} was forced, so there is nothing to take back.", move=last.move))
        move = game.parse_move(last.move)
        if not game.undoable(before, seat, move, loaded.state):
            raise UndoRefused(
                tr(
                    "{move} cannot be taken back: it showed something hidden or drew something new "
                    "(see /rules for which moves can be).",
                    move=last.move,
                )
            )
        return before, last

    async def _take_back(self, game: Game[Any, Any], loaded: Loaded, seat: int, before: Any, last: RecordedMove) -> Outbox:
        """Commit the undo entry with the position before the move, then update the cache."""
        table = loaded.table
        now = self.tables.clock()
        new_table = copy_table(table)
        new_table.version = table.version + 1
        new_table.updated_at = now
        acting_after, acting_before = set(game.to_act(loaded.state)), set(game.to_act(before))
        _clocks_back(new_table, leaving=acting_after - acting_before, entering=acting_before - acting_after, now=now)
        await advance_turns(self.tables, new_table, acting_after, acting_before, now, loaded)
        new_table.needs_resume = False  # checked by _undoable_last_move: a person acts next
        encoded = game.encode_state(before)
        try:
            await self.tables.store.commit_moves(new_table, table.version, [RecordedMove(seat, UNDO)], encoded)
        except VersionConflict:
            self.tables.forget(table.id)
            raise StaleVersion(tr("The game changed while you were asking; look at the board and try again.")) from None
        secrets_before = secret_prints(game, table, loaded.state)
        loaded.table = new_table
        loaded.set_state(before, encoded)
        loaded.step = None
        loaded.public = fingerprint(game.view(before, None))
        loaded.secrets = secret_prints(game, new_table, before)
        self.tables.keep_hot(loaded)
        outbox = Outbox(table=new_table, board_changed=True)
        with in_public():
            outbox.public_log.append(tr("{name} took back {move}.", name=new_table.seats[seat].name, move=last.move))
        outbox.private_changed = [
            index for index, part in loaded.secrets.items() if secrets_before.get(index) != part or index == seat
        ]
        self.turns.finish_outbox(game, loaded, outbox)
        return outbox


def _clocks_back(table: Table, *, leaving: set[int], entering: set[int], now: float) -> None:
    """The clocks go back to the moment of the move (on ``table``, a copy about to be stored):
    the seats whose turn the move started stop where they stood, and the seat whose turn it ended
    resumes with what it had left then. The undoer gains no increment, the others lose no time,
    and the wait for consent is charged to nobody."""
    for seat in table.seats:
        if seat.clock is None:
            continue
        if seat.index in leaving:
            seat.clock = clocks.stop_taken_back(seat.clock)
        elif seat.index in entering:
            seat.clock = clocks.resume_taken_back(seat.clock, now)


def _person_seat(table: Table, user_id: str) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotInGame(tr("You are not playing in this game."))
    if seat.forfeited:
        raise ForfeitedSeat(tr("You forfeited this game; an AI plays your seat to the end."))
    return seat.index


def _answering_seat(table: Table, user_id: str, asker: int) -> int:
    """The seat of someone who may answer ``asker``'s request: any other person at the table who
    has not forfeited, present or away (an away player's refusal counts too)."""
    seat = table.seat_of(user_id)
    if seat is None or seat.is_ai or seat.forfeited or seat.index == asker:
        raise UndoRefused(tr("Only the other players of this game answer a request to take a move back."))
    return seat.index


def _others_to_ask(table: Table, seat: int) -> list[int]:
    """Who must agree before ``seat`` takes a move back: nobody in an unrated game; in a rated
    one, every other person present. A player who was skipped (an AI plays their seat until they
    come back) is not waited for: they left their moves to the AI, and a request waiting for them
    would stand until someone moved. They may still answer, and a refusal ends the request. A
    rated game has no AI seats of the lobby (they make it unrated), and a forfeited player has
    left the game."""
    _, rated = board_of(table)
    if not rated:
        return []
    return [
        other.index for other in table.seats if other.index != seat and not other.is_ai and not other.forfeited and not other.absent
    ]
