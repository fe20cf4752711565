"""Rematch: the players of a finished game open the same table again with one click.

A rematch is a new lobby with the game, options, speed and abandon rule of the finished game,
in the same server and channel, hosted by the player who asked. Its seats are the old ones
rotated by one (the old seat 2 sits first, the old seat 1 last), so that whoever started does
not start again where the lobby's order decides it (Sprint, Vege tables, Draft Cider with
``host_first``, a stacked Figures deal; La Granja and an unstacked Figures or Draft Cider draw
the first player from the seed, where the rotation changes who holds each seat). AI seats come
back at once, with their kind and name; each earlier player joins with the lobby's Join button
and is seated at their rotated place whatever the order of the clicks (``rematch_order``).
Asking again, by anyone, leads to the rematch already open instead of opening another.

    table, opened = await referee.rematch(old_id, "bob", "Bob")   # opened: False if it was open
    await referee.join(table.id, "alice", "Alice")                 # alice takes her rotated seat
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from engine.i18n import tr

from .model import FINISHED, NotInGame, Seat, Table, WrongStatus
from .store import RematchStore
from .tables import Tables


def rotated(seats: Sequence[Seat]) -> list[Seat]:
    """The finished game's seats in the rematch's order: each moves up one place, the first last."""
    return [*seats[1:], *seats[:1]]


def rematch_order(seats: Sequence[Seat], old_seats: Sequence[Seat]) -> list[Seat]:
    """The lobby's seats sorted by their rotated places (``old_seats``: the finished game's); a
    seat that was not there (a newcomer, an AI added since) follows, in its order. Renumbered."""
    plan = rotated(old_seats)

    def place(position: int, seat: Seat) -> tuple[int, int]:
        for at, old in enumerate(plan):
            same = (
                old.user_id == seat.user_id
                if seat.user_id is not None
                else (old.is_ai and old.ai_kind == seat.ai_kind and old.name == seat.name)
            )
            if same:
                return at, position
        return len(plan), position

    ordered = [
        seat
        for _, seat in sorted(((place(n, seat), seat) for n, seat in enumerate(seats)), key=lambda x: x[0])
    ]
    for index, seat in enumerate(ordered):
        seat.index = index
    return ordered


class LobbyDoors(Protocol):
    """What a rematch needs of the lobby (lobby.py, which imports this module): ``create_table``
    (limits and checks included) and seating a new lobby as a rematch."""

    @property
    def create_table(self) -> Callable[..., Awaitable[Table]]: ...

    async def arrange_rematch(self, table_id: int, old_id: int) -> Table: ...


class Rematches:
    def __init__(self, tables: Tables, store: RematchStore, lobby: LobbyDoors) -> None:
        self.tables = tables
        self.store = store
        self.lobby = lobby

    async def rematch(self, table_id: int, user_id: str, name: str) -> tuple[Table, bool]:
        """The rematch lobby of a finished game and whether this call opened it."""
        async with self.tables.lock(table_id):  # two clicks at once open one lobby
            old = (await self.tables.load(table_id)).table
            if old.status != FINISHED:
                raise WrongStatus(tr("A rematch can be asked for once the game is over."))
            seat = old.seat_of(user_id)
            if seat is None or seat.is_ai:
                raise NotInGame(tr("Only the players of game #{table} can ask for its rematch.", table=old.id))
            existing = await self.store.rematch_of(table_id)
            if existing is not None:
                return existing, False
            kinds = [seat.ai_kind for seat in rotated(old.seats) if seat.ai_kind is not None]
            table = await self.lobby.create_table(
                old.game,
                user_id,
                name,
                options=dict(old.options),
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                speed=old.speed,
                ai_seats=kinds,
                abandon_rule=old.abandon_rule,
            )
            return await self.lobby.arrange_rematch(table.id, old.id), True
