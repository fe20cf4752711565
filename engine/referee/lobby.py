"""The lobby: opening a table, seats taken and left, AI seats, the speed, the start (the deal, and
the AI seats that act first), cancelling, where a front end shows the table, and the purge of
lobbies nobody started (the Referee's methods of the same names document them).

Every change is checked before anything is stored, so a refused request leaves nothing behind;
what one player or server may have open at once is checked by ``limits.Admission``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.core import Game, SetupError
from engine.games import get_game
from engine.i18n import N_, tr

from . import clock as clocks
from . import limits as table_limits
from .abandon import checked_rule
from .absence import referee_step
from .clock import DEFAULT_SPEED, Speed, UnknownSpeed, get_speed
from .levels import checked_level
from .limits import Admission
from .model import (
    ABANDONED,
    FINISHED,
    RUNNING,
    UNANIMOUS,
    LobbyError,
    NotInGame,
    Outbox,
    Seat,
    Table,
    WrongStatus,
)
from .rematch import rematch_order, rotated
from .tables import Loaded, Tables, copy_table
from .timekeeping import advance_turns
from .turns import Turns

AI_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio")


class Lobby:
    def __init__(
        self, tables: Tables, turns: Turns, admission: Admission, new_seed: Callable[[], int] | None
    ) -> None:
        self.tables = tables
        self.turns = turns
        self.admission = admission
        self.new_seed = new_seed or (lambda: random.SystemRandom().randrange(2**53))

    async def create_table(
        self,
        game_name: str,
        host_id: str,
        host_name: str,
        *,
        options: dict[str, Any] | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        host_takes_seat: bool = True,
        speed: str = DEFAULT_SPEED,
        ai_seats: Sequence[str] = (),
        abandon_rule: str = UNANIMOUS,
    ) -> Table:
        """Open a lobby, normally with the host in seat 1, and ``ai_seats`` (AI kinds) after it.
        Everything is checked before anything is stored, so a refused table leaves nothing
        behind: options as fully as the start will (``Game.check_options``; the player count is
        checked at the start). ``host_takes_seat=False`` lets a host run a table of AI seats only.

        ``speed`` is a key of ``clock.SPEEDS`` ("untimed", "live-3", "live-10", "daily-1",
        "daily-2", "daily-4"); the default, "untimed", has no clocks and is never rated.
        ``abandon_rule``: how the players abandon the running game by vote (abandon.py)."""
        game = get_game(game_name)
        options = game.check_options(options)
        speed = _checked_speed(speed).name
        abandon_rule = checked_rule(abandon_rule)
        now = self.tables.clock()
        table = Table(
            game=game.name,
            options=options,
            host=host_id,
            seats=[Seat(index=0, name=host_name, user_id=host_id)] if host_takes_seat else [],
            guild_id=guild_id,
            channel_id=channel_id,
            speed=speed,
            created_at=now,
            updated_at=now,
            rules_version=game.rules_version,
            abandon_rule=abandon_rule,
        )
        for kind in ai_seats:
            table.seats.append(_ai_seat(game, table, kind))
        async with self.admission.admit(guild_id, host_id, opens_table=True, seated=host_takes_seat):
            table.id = await self.tables.store.create_table(table)
        self.tables.remember(Loaded(table, None))
        return table

    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise LobbyError(tr("You are already seated at this table."))
            game = get_game(table.game)
            if len(table.seats) >= game.max_players:
                raise LobbyError(tr("The table is full ({n} players).", n=game.max_players))
            async with self.admission.admit(table.guild_id, user_id, opens_table=False, seated=True):
                table.seats.append(Seat(index=len(table.seats), name=name, user_id=user_id))
                if table.rematch_of is not None:  # each earlier player sits at their rotated place
                    old = (await self.tables.load(table.rematch_of)).table
                    table.seats = rematch_order(table.seats, old.seats)
                await self.save_lobby(table)
            return table

    async def arrange_rematch(self, table_id: int, old_id: int) -> Table:
        """Make a new lobby the rematch of the finished game ``old_id`` (rematch.py): its AI seats
        take their old names, every seat its rotated place."""
        old = (await self.tables.load(old_id)).table
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            table.rematch_of = old_id
            old_ai = [seat for seat in rotated(old.seats) if seat.is_ai]
            for seat, before in zip([seat for seat in table.seats if seat.is_ai], old_ai, strict=False):
                seat.name = before.name
            table.seats = rematch_order(table.seats, old.seats)
            await self.save_lobby(table)
            return table

    async def leave(self, table_id: int, user_id: str) -> Table:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotInGame(tr("You are not seated at this table."))
            if user_id == table.host:
                raise LobbyError(tr("The host cannot leave; cancel the table instead."))
            table.seats = _renumber(s for s in table.seats if s is not seat)
            await self.save_lobby(table)
            return table

    async def add_ai(self, table_id: int, by_user: str, kind: str = "greedy") -> Table:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            _require_host(table, by_user, N_("Only the host can add AI seats."))
            table.seats.append(_ai_seat(get_game(table.game), table, kind))
            await self.save_lobby(table)
            return table

    async def remove_ai(self, table_id: int, by_user: str) -> Table:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            _require_host(table, by_user, N_("Only the host can remove AI seats."))
            ai_seats = [seat for seat in table.seats if seat.is_ai]
            if not ai_seats:
                raise LobbyError(tr("There is no AI seat to remove."))
            table.seats = _renumber(s for s in table.seats if s is not ai_seats[-1])
            await self.save_lobby(table)
            return table

    async def set_speed(self, table_id: int, by_user: str, speed: str) -> Table:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            _require_host(table, by_user, N_("Only the host can change the speed."))
            table.speed = _checked_speed(speed).name
            await self.save_lobby(table)
            return table

    async def start(self, table_id: int, by_user: str, *, seed: int | None = None) -> Outbox:
        async with self.tables.lock(table_id):
            table = await self.tables.lobby(table_id)
            _require_host(table, by_user, N_("Only the host can start the game."))
            game = get_game(table.game)
            players = len(table.seats)
            try:
                options = game.resolve_options(players, table.options)
            except SetupError as error:
                raise LobbyError(str(error)) from None
            seed = self.new_seed() if seed is None else seed
            state = game.setup(players, seed, options)
            now = self.tables.clock()
            table = copy_table(table)
            table.seed, table.status, table.updated_at = seed, RUNNING, now
            table.rules_version = game.rules_version  # the code that deals is the code it starts with
            speed = get_speed(table.speed)
            for seat in table.seats:
                seat.clock = clocks.new_clock(speed) if speed.timed and not seat.is_ai else None
            await advance_turns(self.tables, table, (), game.to_act(state), now)
            step = referee_step(game, state, table)
            table.needs_resume = step is not None
            encoded = game.encode_state(state)
            await self.tables.store.commit_moves(table, 0, [], encoded)
            loaded = Loaded(table, state, encoded)
            loaded.step = (state, table, step)
            self.tables.remember(loaded)
            outbox = Outbox(table=table, board_changed=True, private_changed=[s.index for s in table.humans])
            await self.turns.run_automatic(game, loaded, outbox)
            self.turns.finish_outbox(game, loaded, outbox)
            return outbox

    async def cancel(self, table_id: int, by_user: str, *, is_admin: bool = False) -> Table:
        async with self.tables.lock(table_id):
            loaded = await self.tables.load(table_id)
            table = loaded.table
            if table.status in (FINISHED, ABANDONED):
                raise WrongStatus(tr("This game has already ended."))
            if by_user != table.host and not is_admin:
                raise LobbyError(tr("Only the host (or a server manager) can cancel this game."))
            table = copy_table(table)
            table.status = ABANDONED
            table.updated_at = self.tables.clock()
            table.needs_resume = False
            for seat in table.seats:  # nothing is due at an abandoned table
                seat.waiting_since = seat.next_due_at = None
            await self.tables.save_cached(table)
            loaded.table = table
            return table

    async def purge_unstarted(self, now: float | None = None) -> list[int]:
        return await table_limits.purge_unstarted(self.tables, self.tables.clock() if now is None else now)

    async def set_links(
        self, table_id: int, *, thread_id: str | None = None, message_id: str | None = None
    ) -> Table:
        async with self.tables.lock(table_id):
            table = (await self.tables.load(table_id)).table
            if thread_id is not None:
                table.thread_id = thread_id
            if message_id is not None:
                table.message_id = message_id
            # Stale (another process wrote it): the copy is dropped; the caller's VersionConflict.
            await self.tables.save_cached(table, refuse=False)
            return table

    async def save_lobby(self, table: Table) -> None:
        table.updated_at = self.tables.clock()
        await self.tables.save_cached(table)


def _require_host(table: Table, user_id: str, refusal: str) -> None:
    """``refusal`` (marked with N_, a whole sentence) unless ``user_id`` hosts the table."""
    if user_id != table.host:
        raise LobbyError(tr(refusal))


def _ai_seat(game: Game[Any, Any], table: Table, kind: str) -> Seat:
    """A new AI seat of ``kind`` (a level, or a kind the game offers) for a lobby; raises
    LobbyError when the kind is unknown or the table is full."""
    kind = checked_level(game, kind)
    if len(table.seats) >= game.max_players:
        raise LobbyError(tr("The table is full ({n} players).", n=game.max_players))
    used = {seat.name for seat in table.seats}
    name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in used), f"AI {len(used) + 1}")
    return Seat(index=len(table.seats), name=name, ai_kind=kind)


def _checked_speed(name: str) -> Speed:
    try:
        return get_speed(name)
    except UnknownSpeed as error:
        raise SetupError(str(error)) from None


def _renumber(seats: Iterable[Seat]) -> list[Seat]:
    kept = list(seats)
    for index, seat in enumerate(kept):
        seat.index = index
    return kept
