"""The referee: tables, seats and turn flow over the pure engine, with every move made durable.

Front ends (the Discord cogs, the local table) call it and render the Outbox it returns. A move
goes: load (cache, else store) -> check seat, turn and version -> validate -> apply -> persist in
one transaction -> update the cache -> report. Nothing is reported before it is on disk, and one
move at a time is handled per table (a lock here, a version compare-and-swap in the store).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.core import (
    Event,
    Game,
    GameError,
    GameRecord,
    NotYourTurn,
    Outcome,
    RecordedMove,
    SetupError,
    format_event,
)
from engine.games import get_game

from .model import (
    ABANDONED,
    FINISHED,
    LOBBY,
    RUNNING,
    LobbyError,
    NotInGame,
    Outbox,
    Seat,
    StaleVersion,
    Table,
    TableNotFound,
    VersionConflict,
    WrongStatus,
)
from .store import Store

AI_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio")


class _Loaded:
    """A table with its decoded state, as kept in the cache."""

    __slots__ = ("table", "state")

    def __init__(self, table: Table, state: Any) -> None:
        self.table = table
        self.state = state


class Referee:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] | None = None,
        ai_rng: random.Random | None = None,
        cache_size: int = 10_000,
        max_ai_moves: int = 10_000,
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_seed = new_seed or (lambda: random.SystemRandom().randrange(2**53))
        self.ai_rng = ai_rng or random.Random()
        self.cache_size = cache_size
        self.max_ai_moves = max_ai_moves
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    # ----- loading ------------------------------------------------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: int) -> _Loaded:
        loaded = self._cache.get(table_id)
        if loaded is not None:
            self._cache.move_to_end(table_id)
            return loaded
        table = await self.store.load_table(table_id)
        if table is None:
            raise TableNotFound(f"There is no game #{table_id}.")
        state = None
        if table.status != LOBBY:
            data = await self.store.load_state(table_id)
            if data is not None:
                state = get_game(table.game).decode_state(data)
        loaded = _Loaded(table, state)
        self._remember(loaded)
        return loaded

    def _remember(self, loaded: _Loaded) -> None:
        self._cache[loaded.table.id] = loaded
        self._cache.move_to_end(loaded.table.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget_cache(self) -> None:
        """Drop every cached table (tests use it to prove state comes back from the store)."""
        self._cache.clear()

    async def table(self, table_id: int) -> Table:
        return (await self._load(table_id)).table

    async def state(self, table_id: int) -> Any:
        return (await self._load(table_id)).state

    # ----- lobby --------------------------------------------------------------------------------

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
    ) -> Table:
        """Open a lobby, normally with the host in seat 1. Options are checked now, so errors
        come early. ``host_takes_seat=False`` lets a host run a table of AI seats only."""
        game = get_game(game_name)
        options = dict(options or {})
        # Validate against the largest count the game allows; the real count is checked at start.
        _validate_options(game, options)
        now = self.clock()
        table = Table(
            game=game.name,
            options=options,
            host=host_id,
            seats=[Seat(index=0, name=host_name, user_id=host_id)] if host_takes_seat else [],
            guild_id=guild_id,
            channel_id=channel_id,
            created_at=now,
            updated_at=now,
        )
        table.id = await self.store.create_table(table)
        self._remember(_Loaded(table, None))
        return table

    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise LobbyError("You are already seated at this table.")
            game = get_game(table.game)
            if len(table.seats) >= game.max_players:
                raise LobbyError(f"The table is full ({game.max_players} players).")
            table.seats.append(Seat(index=len(table.seats), name=name, user_id=user_id))
            await self._save_lobby(table)
            return table

    async def leave(self, table_id: int, user_id: str) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotInGame("You are not seated at this table.")
            if user_id == table.host:
                raise LobbyError("The host cannot leave; cancel the table instead.")
            table.seats = _renumber(s for s in table.seats if s is not seat)
            await self._save_lobby(table)
            return table

    async def add_ai(self, table_id: int, by_user: str, kind: str = "greedy") -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user, "add AI seats")
            game = get_game(table.game)
            if kind not in game.ai_players():
                raise LobbyError(f"Unknown AI kind {kind!r}; choose {', '.join(game.ai_players())}.")
            if len(table.seats) >= game.max_players:
                raise LobbyError(f"The table is full ({game.max_players} players).")
            used = {seat.name for seat in table.seats}
            name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in used), f"AI {len(used) + 1}")
            table.seats.append(Seat(index=len(table.seats), name=name, ai_kind=kind))
            await self._save_lobby(table)
            return table

    async def remove_ai(self, table_id: int, by_user: str) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user, "remove AI seats")
            ai_seats = [seat for seat in table.seats if seat.is_ai]
            if not ai_seats:
                raise LobbyError("There is no AI seat to remove.")
            table.seats = _renumber(s for s in table.seats if s is not ai_seats[-1])
            await self._save_lobby(table)
            return table

    async def start(self, table_id: int, by_user: str, *, seed: int | None = None) -> Outbox:
        """Deal and begin; AI seats that must act first play at once."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user, "start the game")
            game = get_game(table.game)
            players = len(table.seats)
            try:
                options = game.resolve_options(players, table.options)
            except SetupError as error:
                raise LobbyError(str(error)) from None
            table.seed = self.new_seed() if seed is None else seed
            state = game.setup(players, table.seed, options)
            table.status = RUNNING
            table.updated_at = self.clock()
            await self.store.commit_moves(table, 0, [], game.encode_state(state))
            loaded = _Loaded(table, state)
            self._remember(loaded)
            outbox = Outbox(table=table, board_changed=True, private_changed=[s.index for s in table.humans])
            await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    async def cancel(self, table_id: int, by_user: str, *, is_admin: bool = False) -> Table:
        async with self._lock(table_id):
            loaded = await self._load(table_id)
            table = loaded.table
            if table.status in (FINISHED, ABANDONED):
                raise WrongStatus("This game has already ended.")
            if by_user != table.host and not is_admin:
                raise LobbyError("Only the host (or a server manager) can cancel this game.")
            version = table.version
            table.status = ABANDONED
            table.updated_at = self.clock()
            await self.store.save_table(table, version)
            return table

    async def set_links(
        self, table_id: int, *, thread_id: str | None = None, message_id: str | None = None
    ) -> Table:
        """Remember where a front end shows the table (thread, latest board or lobby message)."""
        async with self._lock(table_id):
            table = (await self._load(table_id)).table
            if thread_id is not None:
                table.thread_id = thread_id
            if message_id is not None:
                table.message_id = message_id
            await self.store.save_table(table, table.version)
            return table

    # ----- play ---------------------------------------------------------------------------------

    async def play(
        self, table_id: int, user_id: str, move_text: str, *, expected_version: int | None = None
    ) -> Outbox:
        """A human move in notation. Raises a GameError (player-readable) and changes nothing
        when the move is refused."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            table = loaded.table
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotInGame("You are not playing in this game.")
            if expected_version is not None and expected_version != table.version:
                raise StaleVersion("The board has changed since you looked at it; here is the current one.")
            game = get_game(table.game)
            move = game.parse_move(move_text)
            if seat.index not in game.to_act(loaded.state):
                raise NotYourTurn(self._waiting_text(game, loaded))
            outbox = Outbox(table=table)
            await self._apply_and_store(game, loaded, seat.index, move, outbox)
            await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    async def resume(self, table_id: int) -> Outbox:
        """Play whatever AI seats or automatic moves are due (after a restart, or a takeover)."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            game = get_game(loaded.table.game)
            outbox = Outbox(table=loaded.table)
            await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    async def _apply_and_store(
        self, game: Game[Any, Any], loaded: _Loaded, seat: int, move: Any, outbox: Outbox
    ) -> None:
        table = loaded.table
        before_private = self._private_texts(game, loaded)
        state, events = game.apply(loaded.state, seat, move)
        finished = game.is_over(state)
        new_table = msgspec.structs.replace(
            table,
            version=table.version + 1,
            status=FINISHED if finished else RUNNING,
            updated_at=self.clock(),
        )
        outcome = game.outcome(state) if finished else None
        try:
            await self.store.commit_moves(
                new_table,
                table.version,
                [RecordedMove(seat, game.format_move(move))],
                game.encode_state(state),
                msgspec.json.encode(outcome) if outcome is not None else None,
            )
        except VersionConflict:
            # Another process moved first: our copy is stale. Reload next time, refuse this one.
            self._cache.pop(table.id, None)
            raise StaleVersion("The game changed while you were moving; look at the board and try again.") from None
        # Durable: now (and only now) the cache and the report may change.
        loaded.table, loaded.state = new_table, state
        outbox.table = new_table
        outbox.moves_applied += 1
        outbox.board_changed = True
        self._log_events(events, new_table.names, outbox)
        after_private = self._private_texts(game, loaded)
        for index, text in after_private.items():
            if before_private.get(index) != text and index not in outbox.private_changed:
                outbox.private_changed.append(index)

    async def _run_automatic(self, game: Game[Any, Any], loaded: _Loaded, outbox: Outbox) -> None:
        """Play AI seats and moves that leave a human no choice, until a human must decide."""
        for _ in range(self.max_ai_moves):
            state = loaded.state
            if game.is_over(state):
                return
            chosen: tuple[int, Any] | None = None
            for index in game.to_act(state):
                seat = loaded.table.seats[index]
                if seat.is_ai:
                    player = game.ai_players()[seat.ai_kind or "random"]()
                    chosen = (index, player.choose(game, state, index, self.ai_rng))
                    break
                automatic = game.automatic_move(state, index)
                if automatic is not None:
                    chosen = (index, automatic)
                    break
            if chosen is None:
                return
            await self._apply_and_store(game, loaded, chosen[0], chosen[1], outbox)
        raise RuntimeError(f"game #{loaded.table.id}: AI seats kept playing past {self.max_ai_moves} moves")

    def _finish_outbox(self, game: Game[Any, Any], loaded: _Loaded, outbox: Outbox) -> None:
        outbox.to_act = list(game.to_act(loaded.state))
        outbox.finished = game.is_over(loaded.state)
        outbox.outcome = game.outcome(loaded.state) if outbox.finished else None

    def _log_events(self, events: Iterable[Event], names: list[str], outbox: Outbox) -> None:
        for event in events:
            text = format_event(event.text, names)
            if event.visible_to is None:
                outbox.public_log.append(text)
            else:
                for seat in event.visible_to:
                    outbox.private_log.setdefault(seat, []).append(text)

    def _private_texts(self, game: Game[Any, Any], loaded: _Loaded) -> dict[int, str]:
        names = loaded.table.names
        return {
            seat.index: game.render_private(game.view(loaded.state, seat.index), names)
            for seat in loaded.table.humans
        }

    # ----- reading ------------------------------------------------------------------------------

    async def board_text(self, table_id: int) -> str:
        loaded = await self._started(table_id)
        game = get_game(loaded.table.game)
        return game.render_board(game.view(loaded.state, None), loaded.table.names)

    async def private_text(self, table_id: int, user_id: str) -> str:
        loaded = await self._started(table_id)
        seat = loaded.table.seat_of(user_id)
        if seat is None:
            raise NotInGame("You are not playing in this game.")
        game = get_game(loaded.table.game)
        return game.render_private(game.view(loaded.state, seat.index), loaded.table.names)

    async def legal_moves(self, table_id: int, user_id: str) -> list[str]:
        """The caller's legal moves in notation (empty when it is not their turn)."""
        loaded = await self._load(table_id)
        if loaded.table.status != RUNNING:
            return []
        seat = loaded.table.seat_of(user_id)
        if seat is None:
            return []
        game = get_game(loaded.table.game)
        if seat.index not in game.to_act(loaded.state):
            return []
        return [game.format_move(move) for move in game.legal_moves(loaded.state, seat.index)]

    async def outcome(self, table_id: int) -> Outcome | None:
        loaded = await self._load(table_id)
        if loaded.table.status != FINISHED:
            return None
        return get_game(loaded.table.game).outcome(loaded.state)

    async def record(self, table_id: int) -> GameRecord:
        """The exportable record of a started game (replays with ``python -m engine.replay``)."""
        table = (await self._started(table_id)).table
        return GameRecord(
            game=table.game,
            players=len(table.seats),
            seed=table.seed or 0,
            options=table.options,
            moves=await self.store.move_log(table_id),
        )

    async def waiting_text(self, table_id: int) -> str:
        loaded = await self._running(table_id)
        return self._waiting_text(get_game(loaded.table.game), loaded)

    def _waiting_text(self, game: Game[Any, Any], loaded: _Loaded) -> str:
        names = [loaded.table.seats[index].name for index in game.to_act(loaded.state)]
        return f"It is not your turn; waiting for {', '.join(names)}."

    async def tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]:
        return await self.store.list_tables(guild_id=guild_id, statuses=statuses, user_id=user_id, limit=limit)

    # ----- checks -------------------------------------------------------------------------------

    async def _lobby(self, table_id: int) -> Table:
        table = (await self._load(table_id)).table
        if table.status != LOBBY:
            raise WrongStatus(_status_text(table))
        return table

    async def _started(self, table_id: int) -> _Loaded:
        loaded = await self._load(table_id)
        if loaded.table.status == LOBBY:
            raise WrongStatus("This game has not started yet.")
        if loaded.state is None:
            raise WrongStatus("This game was cancelled before it started.")
        return loaded

    async def _running(self, table_id: int) -> _Loaded:
        loaded = await self._load(table_id)
        if loaded.table.status != RUNNING:
            raise WrongStatus(_status_text(loaded.table))
        return loaded

    def _require_host(self, table: Table, user_id: str, action: str) -> None:
        if user_id != table.host:
            raise LobbyError(f"Only the host can {action}.")

    async def _save_lobby(self, table: Table) -> None:
        table.updated_at = self.clock()
        await self.store.save_table(table, table.version)


def _renumber(seats: Iterable[Seat]) -> list[Seat]:
    kept = list(seats)
    for index, seat in enumerate(kept):
        seat.index = index
    return kept


def _status_text(table: Table) -> str:
    return {
        LOBBY: "This game has not started yet.",
        RUNNING: "This game is already running.",
        FINISHED: "This game is over.",
        ABANDONED: "This game was cancelled.",
    }[table.status]


def _validate_options(game: Game[Any, Any], options: dict[str, Any]) -> None:
    """Check option names and values early (player counts are checked at start)."""
    known = {option.name: option for option in game.options}
    for name, raw in options.items():
        if name == "deck":
            continue
        if name not in known:
            listed = ", ".join(known) or "none"
            raise SetupError(f"{game.title} has no option {name!r} (options: {listed}).")
        options[name] = known[name].parse(raw)


__all__ = ["Referee", "GameError"]
