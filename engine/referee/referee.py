"""The referee: tables, seats and turn flow over the pure engine, with every move made durable.

Front ends (the Discord cogs, the local table) call it and render the Outbox it returns. A move
goes: load (cache, else store) -> check seat, turn and version -> validate -> apply -> persist in
one transaction -> update the cache -> report. Nothing is reported before it is on disk, and one
move at a time is handled per table (a lock here, a version compare-and-swap in the store).
Every public method checks its arguments at the door (``inputs.checked``: ids, names, move text,
of any type or size, are refused with a GameError before anything is read) and hands out the
tables of running games without their seed, which would replay every deal.

Clocks (see clock.py) live with the seats and are written in the same transaction as each move;
nothing is timed in memory. A front end's background task polls ``due_actions`` (reminders to
send privately, seats that ran out, seats forfeited) and sleeps until ``next_due_at``; at start-up
``credit_downtime`` gives back to every running clock the time the bot was down, measured from
the heartbeat that ``due_actions`` stores. With ``defer=True`` (what the bot does) start-up only
notes the outage: a table is credited the first time it is loaded, the rest in one batch at the
first ``due_actions``; nothing reads, changes or times out a clock that was not credited first.

Absent players: when a seat has run out, another player of the table may ``skip`` it (when nobody
else can, the referee skips it itself: see absence.py); from then on an AI plays it until its
player comes back (``return_to_seat``, or simply by playing), or, when every person is away, the
game waits. A skipped seat is forfeited (ranked last; the AI plays it to the end) when it is
skipped a second time, when it stays away for a further full bank, or when the game ends while it
is still away.

When the last move is made, the result (every seat, scores, final ranks, forfeits, AI play) and,
for rated games, the rating updates are written in the transaction of that move.

A front end's clock task, in full:

    await referee.credit_downtime(defer=True)  # at start-up, before taking commands
    while True:
        due = await referee.due_actions()
        ...  # DM each due.reminders[i].user_id; post due.timeouts with a Skip button
        ...  # (calling referee.skip); post due.forfeits; publish due.moves like moves
        await asyncio.sleep(due.wait_seconds())
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
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
from engine.core.text import quote
from engine.games import get_game

from . import absence, inputs
from . import clock as clocks
from . import limits as table_limits
from .clock import DEFAULT_SPEED, QuietHours, Speed, UnknownSpeed, format_duration, get_speed
from .limits import DEFAULT_LIMITS, Admission, Limits
from .locks import TableLocks
from .model import (
    ABANDONED,
    FINISHED,
    LOBBY,
    RUNNING,
    SOLO_BOARD,
    WITH_AI_BOARD,
    ForfeitedSeat,
    GameResult,
    LobbyError,
    NotInGame,
    Outbox,
    QuietHoursError,
    RatingChange,
    Seat,
    SkipRefused,
    StaleVersion,
    Table,
    TableNotFound,
    TimedSeat,
    VersionConflict,
    WrongStatus,
)
from .reports import (
    DueActions,
    ForfeitNotice,
    HighScore,
    LeaderboardPage,
    PlayerStats,
    Reminder,
    SeatClockView,
    TableLinks,
    TimeoutNotice,
    WaitingTurn,
)
from .results import build_result, final_outcome
from .store import Store
from .user_settings import UserSettings

logger = logging.getLogger(__name__)

AI_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio")

# A move the referee makes itself: (seat, move, by_ai); the move is None until an AI chooses it.
_Step = tuple[int, Any, bool]


class _Loaded:
    """A table as kept in the cache.

    The state is kept decoded only while the game is among the recently used ones (see
    Referee.hot_states); otherwise only its encoding is kept, and decoded again when needed.
    Why: a decoded state is hundreds of small objects that Python's cyclic garbage collector
    walks on every full collection, so thousands of decoded idle games turn each collection into
    a pause of a second; bytes are never walked and take less memory."""

    __slots__ = ("table", "encoded", "_state", "secrets", "public", "quiet", "step")

    def __init__(self, table: Table, state: Any = None, encoded: bytes | None = None) -> None:
        self.table = table
        self.encoded = encoded
        self._state = state
        # Fingerprints of this state's secret views by human seat (Referee._secret_prints), kept
        # from the move that made it: the next move compares against them without computing them.
        self.secrets: dict[int, bytes] | None = None
        # The public view's fingerprint, when the move that made this state computed it (a move
        # that told the table nothing: see _apply_and_store); None otherwise.
        self.public: bytes | None = None
        # The seated players' quiet hours by seat, read once; dropped when one of them changes.
        self.quiet: dict[int, QuietHours] | None = None
        # The referee's own next move for this very table and state (see Referee._pending_step).
        self.step: tuple[Any, Table, _Step | None] | None = None

    @property
    def state(self) -> Any:
        if self._state is None and self.encoded is not None:
            self._state = get_game(self.table.game).decode_state(self.encoded)
        return self._state

    def set_state(self, state: Any, encoded: bytes) -> None:
        self._state, self.encoded = state, encoded

    def take_state(self) -> Any:
        """The decoded state, for a move to change in place; until ``set_state``, readers get
        the committed state decoded again from ``encoded``."""
        state = self.state
        self._state = None
        self.step = None  # it holds the state being changed
        return state

    def cool(self) -> None:
        """Keep only the encoding (the game has not been used for a while)."""
        if self.encoded is not None:
            self._state = None
            self.step = None  # it holds the decoded state too


_VIEW_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def _fingerprint(view: Any) -> bytes:
    """A short digest of a view: equal views, equal digests (keys and sets in sorted order)."""
    return hashlib.blake2b(_VIEW_ENCODER.encode(view), digest_size=16).digest()


class _Downtime:
    """An outage found at start-up, from the last heartbeat (``since``) to the start (``until``),
    and the running timed tables not credited for it yet (None while they are being read)."""

    __slots__ = ("since", "until", "tables")

    def __init__(self, since: float, until: float, tables: set[int] | None) -> None:
        self.since = since
        self.until = until
        self.tables = tables

    def owes(self, table_id: int) -> bool:
        return self.tables is None or table_id in self.tables


class Referee:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] | None = None,
        ai_rng: random.Random | None = None,
        cache_size: int = 10_000,
        hot_states: int = 256,
        max_ai_moves: int = 10_000,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_seed = new_seed or (lambda: random.SystemRandom().randrange(2**53))
        self.ai_rng = ai_rng or random.Random()
        self.cache_size = cache_size
        self.hot_states = hot_states  # how many cached games keep their state decoded
        self.max_ai_moves = max_ai_moves
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._hot: OrderedDict[int, _Loaded] = OrderedDict()  # the most recently used, decoded
        # Per-table locks, dropped with the table from the cache (see locks.py).
        self._locks = TableLocks(self._cache.__contains__)
        # What one player or server may have open at once (``limits``: where no server changed them).
        self.admission = Admission(store, limits)  # type: ignore[arg-type]
        self.user_settings = UserSettings(store)  # each player's flags (the front ends hold no store)
        self._downtime_credited = False
        # Downtime still owed to some tables; the lock makes each table credited exactly once,
        # either when it is first loaded or by the batch.
        self._downtime: _Downtime | None = None
        self._credit_lock = asyncio.Lock()

    # ----- loading ------------------------------------------------------------------------------

    def _lock(self, table_id: int) -> Any:
        """``async with self._lock(table_id):`` one call at a time per table."""
        return self._locks(table_id)

    async def _load(self, table_id: int) -> _Loaded:
        loaded = self._cache.get(table_id)
        if loaded is not None:
            self._cache.move_to_end(table_id)
            self._keep_hot(loaded)
            return loaded
        downtime = self._downtime
        if downtime is not None and downtime.owes(table_id):
            return await self._load_owed(table_id)
        return await self._load_stored(table_id, await self.store.load_table(table_id))

    async def _load_owed(self, table_id: int) -> _Loaded:
        """Load a table still owed downtime: credit it and store that first, so that nothing reads,
        times or writes its clocks uncredited. Under the credit lock: credited once, here or by
        the batch, never both."""
        async with self._credit_lock:
            loaded = self._cache.get(table_id)
            if loaded is not None:  # loaded by another caller while this one waited
                self._cache.move_to_end(table_id)
                self._keep_hot(loaded)
                return loaded
            table = await self.store.load_table(table_id)
            downtime = self._downtime
            if table is not None and downtime is not None and downtime.owes(table_id):
                if not await self._credit_table(table, downtime):
                    table = await self.store.load_table(table_id)
                assert downtime.tables is not None  # known once the lock is free
                downtime.tables.discard(table_id)
            return await self._load_stored(table_id, table)

    async def _load_stored(self, table_id: int, table: Table | None) -> _Loaded:
        if table is None:
            raise TableNotFound(f"There is no game #{table_id}.")
        encoded = None
        if table.status != LOBBY:
            get_game(table.game)  # fails here, at load, for a game no longer installed
            encoded = await self.store.load_state(table_id)
        loaded = _Loaded(table, encoded=encoded)
        self._remember(loaded)
        return loaded

    def _remember(self, loaded: _Loaded) -> None:
        self._cache[loaded.table.id] = loaded
        self._cache.move_to_end(loaded.table.id)
        while len(self._cache) > self.cache_size:
            table_id, _ = self._cache.popitem(last=False)
            self._hot.pop(table_id, None)
            self._locks.discard(table_id)
        self._keep_hot(loaded)

    def _keep_hot(self, loaded: _Loaded) -> None:
        hot = self._hot
        hot[loaded.table.id] = loaded
        hot.move_to_end(loaded.table.id)
        while len(hot) > self.hot_states:
            hot.popitem(last=False)[1].cool()

    def _forget(self, table_id: int) -> None:
        """Drop a table whose cached copy may be stale (another process moved it)."""
        self._cache.pop(table_id, None)
        self._hot.pop(table_id, None)
        self._locks.discard(table_id)

    def forget_cache(self) -> None:
        """Drop every cached table (tests use it to prove state comes back from the store)."""
        self._cache.clear()
        self._hot.clear()
        self._locks.clear_idle()

    @inputs.checked
    async def table(self, table_id: int) -> Table:
        return (await self._load(table_id)).table

    @inputs.checked
    async def state(self, table_id: int) -> Any:
        """The whole game state, every secret and the seed included: for tools, benchmarks and
        tests. Front ends show views (``board_text``, ``private_text``) and ask ``to_act``."""
        return (await self._load(table_id)).state

    @inputs.checked
    async def to_act(self, table_id: int) -> tuple[int, ...]:
        """The seats that must act now (none before the start or once the game is over)."""
        loaded = await self._load(table_id)
        if loaded.state is None:
            return ()
        return get_game(loaded.table.game).to_act(loaded.state)

    # ----- lobby --------------------------------------------------------------------------------

    @inputs.checked
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
    ) -> Table:
        """Open a lobby, normally with the host in seat 1, and ``ai_seats`` (AI kinds) after it.
        Everything is checked before anything is stored, so a refused table leaves nothing
        behind: options as fully as the start will (``Game.check_options``; the player count is
        checked at the start). ``host_takes_seat=False`` lets a host run a table of AI seats only.

        ``speed`` is a key of ``clock.SPEEDS`` ("untimed", "live-3", "live-10", "daily-1",
        "daily-2", "daily-4"); the default, "untimed", has no clocks and is never rated."""
        game = get_game(game_name)
        options = game.check_options(options)
        speed = _checked_speed(speed).name
        now = self.clock()
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
        )
        for kind in ai_seats:
            table.seats.append(_ai_seat(game, table, kind))
        async with self.admission.admit(guild_id, host_id, opens_table=True, seated=host_takes_seat):
            table.id = await self.store.create_table(table)
        self._remember(_Loaded(table, None))
        return table

    @inputs.checked
    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise LobbyError("You are already seated at this table.")
            game = get_game(table.game)
            if len(table.seats) >= game.max_players:
                raise LobbyError(f"The table is full ({game.max_players} players).")
            async with self.admission.admit(table.guild_id, user_id, opens_table=False, seated=True):
                table.seats.append(Seat(index=len(table.seats), name=name, user_id=user_id))
                await self._save_lobby(table)
            return table

    @inputs.checked
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

    @inputs.checked
    async def add_ai(self, table_id: int, by_user: str, kind: str = "greedy") -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user, "add AI seats")
            table.seats.append(_ai_seat(get_game(table.game), table, kind))
            await self._save_lobby(table)
            return table

    @inputs.checked
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

    @inputs.checked
    async def set_speed(self, table_id: int, by_user: str, speed: str) -> Table:
        """Change the speed of a table still in its lobby (host only)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user, "change the speed")
            table.speed = _checked_speed(speed).name
            await self._save_lobby(table)
            return table

    @inputs.checked
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
            seed = self.new_seed() if seed is None else seed
            state = game.setup(players, seed, options)
            now = self.clock()
            table = _copy_table(table)
            table.seed, table.status, table.updated_at = seed, RUNNING, now
            speed = get_speed(table.speed)
            for seat in table.seats:
                seat.clock = clocks.new_clock(speed) if speed.timed and not seat.is_ai else None
            await self._advance_turns(table, (), game.to_act(state), now)
            step = _referee_step(game, state, table)
            table.needs_resume = step is not None
            encoded = game.encode_state(state)
            await self.store.commit_moves(table, 0, [], encoded)
            loaded = _Loaded(table, state, encoded)
            loaded.step = (state, table, step)
            self._remember(loaded)
            outbox = Outbox(table=table, board_changed=True, private_changed=[s.index for s in table.humans])
            await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    @inputs.checked
    async def cancel(self, table_id: int, by_user: str, *, is_admin: bool = False) -> Table:
        async with self._lock(table_id):
            loaded = await self._load(table_id)
            table = loaded.table
            if table.status in (FINISHED, ABANDONED):
                raise WrongStatus("This game has already ended.")
            if by_user != table.host and not is_admin:
                raise LobbyError("Only the host (or a server manager) can cancel this game.")
            table = _copy_table(table)
            table.status = ABANDONED
            table.updated_at = self.clock()
            table.needs_resume = False
            for seat in table.seats:  # nothing is due at an abandoned table
                seat.waiting_since = seat.next_due_at = None
            await self.store.save_table(table, table.version)
            loaded.table = table
            return table

    async def purge_unstarted(self, now: float | None = None) -> list[int]:
        """Delete lobbies cancelled a week ago and lobbies untouched for a month (limits.py);
        returns their ids. Finished games are never deleted."""
        return await table_limits.purge_unstarted(self, self.clock() if now is None else now)

    @inputs.checked
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

    @inputs.checked
    async def play(
        self, table_id: int, user_id: str, move_text: str, *, expected_version: int | None = None
    ) -> Outbox:
        """A human move in notation. Raises a GameError (player-readable) and changes nothing
        when the move is refused, with one exception: a skipped player who plays has their seat
        back from the AI even if the move itself is refused (usually: not their turn yet)."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            table = loaded.table
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotInGame("You are not playing in this game.")
            if seat.forfeited:
                raise ForfeitedSeat("You forfeited this game; an AI plays your seat to the end.")
            game = get_game(table.game)
            welcome = ""
            if seat.absent:
                # Coming back by playing: the seat is theirs again, whatever becomes of this move.
                await self._return(game, loaded, seat.index)
                table, seat = loaded.table, loaded.table.seats[seat.index]
                welcome = "Welcome back: you have your seat again. "
            if expected_version is not None and expected_version != table.version:
                raise StaleVersion(
                    welcome + "The board has changed since you looked at it; here is the current one."
                )
            move = game.parse_move(move_text)
            outbox = Outbox(table=table)
            if welcome:  # someone plays again: the AI takes the absent seats a waiting game held
                await self._run_automatic(game, loaded, outbox)
            if seat.index not in game.may_act(loaded.state):
                raise NotYourTurn(welcome + self._waiting_text(game, loaded))
            await self._apply_and_store(game, loaded, seat.index, move, outbox)
            await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    @inputs.checked
    async def resume(self, table_id: int) -> Outbox:
        """Play whatever AI seats or automatic moves are due (after a restart, or a takeover)."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            game = get_game(loaded.table.game)
            outbox = Outbox(table=loaded.table)
            await self._run_automatic(game, loaded, outbox)
            if not outbox.moves_applied and loaded.table.needs_resume:
                # Nothing was left to play (a game stored before the flag existed): clear it, so
                # that the next start does not look at this game again.
                table = _copy_table(loaded.table)
                table.needs_resume = False
                with contextlib.suppress(StaleVersion):
                    await self._save_seats(loaded, table)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    async def tables_to_resume(self) -> list[int]:
        """The running games a restart must look at, read from the store without loading any:
        those where the referee has moves of its own to make (``resume`` plays them) and those
        without a thread yet (a start interrupted before its first messages)."""
        return await self.store.running_table_ids_to_resume()

    async def _apply_and_store(
        self,
        game: Game[Any, Any],
        loaded: _Loaded,
        seat: int,
        move: Any,
        outbox: Outbox,
        *,
        by_ai: bool = False,
    ) -> None:
        table = loaded.table
        state = loaded.state
        game.check_move(state, seat, move)  # a refused move changes nothing
        move = game.canonical_move(state, seat, move)  # stored and shown in one form
        acting_before = game.to_act(state)
        secrets_before = loaded.secrets if loaded.secrets is not None else self._secret_prints(game, table, state)
        encoded_before, public_before = loaded.encoded, loaded.public
        # The move changes the cached state itself rather than a copy (copying costs as much as
        # the rules): until the commit, readers get the committed state from its encoding, and
        # should the commit fail, the encoding is all the cache keeps.
        state = loaded.take_state()
        events = game.play(state, seat, move)
        finished = game.is_over(state)
        now = self.clock()
        # A copy: the cached table must not change before the commit succeeds.
        new_table = _copy_table(table)
        new_table.version = table.version + 1
        new_table.status = FINISHED if finished else RUNNING
        new_table.updated_at = now
        if by_ai and not new_table.seats[seat].is_ai:
            new_table.seats[seat].ai_played = True
        newly_forfeited: list[int] = []
        if finished:
            # A skipped seat still away at the end stayed away: it forfeits.
            for other in new_table.seats:
                if other.absent and not other.forfeited:
                    other.forfeited = True
                    newly_forfeited.append(other.index)
        await self._advance_turns(new_table, acting_before, () if finished else game.to_act(state), now, loaded)
        # Stored with the move: a crash before the referee's own next move leaves it to resume.
        step = _referee_step(game, state, new_table)
        new_table.needs_resume = step is not None
        result = build_result(new_table, game.outcome(state), now) if finished else None
        encoded = game.encode_state(state)
        try:
            changes = await self.store.commit_moves(
                new_table,
                table.version,
                [RecordedMove(seat, game.format_move(move))],
                encoded,
                msgspec.json.encode(result.outcome) if result is not None else None,
                result=result,
                # The cached table is what is stored: write only the seats this move changed.
                changed_seats=[new.index for new, old in zip(new_table.seats, table.seats, strict=True) if new != old],
            )
        except VersionConflict:
            # Another process moved first: our copy is stale. Reload next time, refuse this one.
            self._forget(table.id)
            raise StaleVersion(
                "The game changed while you were moving; look at the board and try again."
            ) from None
        # Durable: now (and only now) the cache and the report may change.
        loaded.table = new_table
        loaded.set_state(state, encoded)
        loaded.step = (state, new_table, step)
        self._keep_hot(loaded)  # it may have been cooled while the commit was on its way
        outbox.table = new_table
        outbox.moves_applied += 1
        public_lines = len(outbox.public_log)
        self._log_events(events, new_table.names, outbox)
        for index in newly_forfeited:
            outbox.public_log.append(f"{new_table.seats[index].name} never came back and forfeits.")
        if result is not None:
            outbox.result = result
            outbox.rating_changes = list(changes or [])
        loaded.public = None
        if len(outbox.public_log) > public_lines or finished:
            outbox.board_changed = True
        elif not outbox.board_changed:
            # A move that told the table nothing (a secret choice) may still change the board
            # (who is still waited for): compare the public views. Rare enough that the view
            # before is rebuilt from the stored encoding (unless the move before was such a move
            # too) rather than kept for every move.
            if public_before is None:
                assert encoded_before is not None
                public_before = _fingerprint(game.view(game.decode_state(encoded_before), None))
            loaded.public = _fingerprint(game.view(state, None))
            outbox.board_changed = public_before != loaded.public
        secrets_after = loaded.secrets = self._secret_prints(game, new_table, state)
        for index, part in secrets_after.items():
            if secrets_before.get(index) != part and index not in outbox.private_changed:
                outbox.private_changed.append(index)

    async def _run_automatic(self, game: Game[Any, Any], loaded: _Loaded, outbox: Outbox) -> None:
        """Play AI seats (and skipped seats) and moves that leave a human no choice, until a
        human must decide."""
        for _ in range(self.max_ai_moves):
            step = self._pending_step(game, loaded)
            if step is None:
                return
            index, move, by_ai = step
            if by_ai:
                seat = loaded.table.seats[index]
                player = game.ai_players()[seat.ai_kind or _takeover_kind(game)]()
                # A search can take a while; thinking in a worker thread keeps the event loop
                # (every other table, every interaction deadline) responsive meanwhile.
                move = await asyncio.to_thread(player.choose, game, loaded.state, index, self.ai_rng)
            await self._apply_and_store(game, loaded, index, move, outbox, by_ai=by_ai)
        raise RuntimeError(f"game #{loaded.table.id}: AI seats kept playing past {self.max_ai_moves} moves")

    def _pending_step(self, game: Game[Any, Any], loaded: _Loaded) -> _Step | None:
        """The referee's own next move at a loaded table, or None when a human must decide. A
        move computes it before its commit (to store ``needs_resume``); kept for that very table
        and state, so that the loop that follows does not compute it again."""
        if loaded.step is not None and loaded.step[0] is loaded.state and loaded.step[1] is loaded.table:
            return loaded.step[2]
        step = _referee_step(game, loaded.state, loaded.table)
        loaded.step = (loaded.state, loaded.table, step)
        return step

    def _finish_outbox(self, game: Game[Any, Any], loaded: _Loaded, outbox: Outbox) -> None:
        outbox.to_act = list(game.to_act(loaded.state))
        outbox.finished = game.is_over(loaded.state)
        outbox.outcome = self._final_outcome(game, loaded) if outbox.finished else None
        if outbox.finished:
            outbox.forfeited = [seat.index for seat in loaded.table.seats if seat.forfeited]

    def _final_outcome(self, game: Game[Any, Any], loaded: _Loaded) -> Outcome:
        forfeited = {seat.index for seat in loaded.table.seats if seat.forfeited}
        return final_outcome(game.outcome(loaded.state), forfeited)

    def _log_events(self, events: Iterable[Event], names: list[str], outbox: Outbox) -> None:
        for event in events:
            text = format_event(event.text, names)
            if event.visible_to is None:
                outbox.public_log.append(text)
            else:
                for seat in event.visible_to:
                    outbox.private_log.setdefault(seat, []).append(text)

    def _secret_prints(self, game: Game[Any, Any], table: Table, state: Any) -> dict[int, bytes]:
        """Fingerprints of each human seat's secret view (``Game.secret_view``), by seat.

        Comparing them before and after a move tells whose secret changed (a hand dealt to, a
        card received) without counting what changes every turn anyway (legal moves, "your
        turn", prompts). Never the full seat view here: it is the costly one (some games
        compute every legal move in it) and nobody needs it to tell what changed."""
        return {seat.index: _fingerprint(game.secret_view(state, seat.index)) for seat in table.humans}

    # ----- clocks and absent players -------------------------------------------------------------

    async def _advance_turns(
        self, table: Table, before: Iterable[int], after: Iterable[int], now: float, loaded: _Loaded | None = None
    ) -> None:
        """Bring every seat's waiting time and clock up to date once the seats to act went from
        ``before`` to ``after`` (on ``table``, a copy about to be stored; ``loaded``: its cache
        entry, whose quiet hours are reused)."""
        before, after = set(before), set(after)
        speed = get_speed(table.speed)
        quiet = await self._quiet_hours_at(table, loaded) if speed.timed else {}
        running = table.status == RUNNING
        for seat in table.seats:
            acting = running and seat.index in after
            if not acting:
                seat.waiting_since = None
            elif seat.index not in before or seat.waiting_since is None:
                seat.waiting_since = now
            if seat.clock is not None:
                hours = quiet.get(seat.index)
                if not running or seat.absent:
                    seat.clock = clocks.pause(seat.clock, now, speed, hours)
                elif not acting:
                    seat.clock = clocks.end_turn(seat.clock, now, speed, hours)
                elif not seat.clock.running:
                    seat.clock = clocks.start_turn(seat.clock, now)
            seat.next_due_at = self._next_due(seat, speed, quiet.get(seat.index)) if running else None
        if running and speed.timed:
            absence.due_at_once(table, now)

    async def _quiet_hours_at(self, table: Table, loaded: _Loaded | None = None) -> dict[int, QuietHours]:
        """Quiet hours of the seated players, by seat; kept on ``loaded`` (the table's cache
        entry) so that a move does not read them again."""
        if loaded is not None and loaded.quiet is not None:
            return loaded.quiet
        users = [seat.user_id for seat in table.seats if seat.user_id is not None and not seat.is_ai]
        by_user = await self.store.quiet_hours_of(users) if users else {}
        quiet = {seat.index: by_user[seat.user_id] for seat in table.seats if seat.user_id in by_user}
        if loaded is not None:
            loaded.quiet = quiet
        return quiet

    def _next_due(self, seat: Seat, speed: Speed, quiet: QuietHours | None) -> float | None:
        if seat.forfeited or not speed.timed:
            return None
        if seat.absent:
            held = seat.clock.notice_at if seat.clock is not None else None
            return min(self._forfeit_at(seat, speed, quiet), held or math.inf)
        if seat.clock is None:
            return None
        return clocks.next_check(seat.clock, speed, quiet)

    def _forfeit_at(self, seat: Seat, speed: Speed, quiet: QuietHours | None) -> float:
        """A skipped seat that stays away a further full bank is forfeited."""
        assert seat.absent_since is not None and speed.bank is not None
        return clocks.time_after(seat.absent_since, speed.bank, quiet, speed.quiet_pauses)

    async def _save_seats(self, loaded: _Loaded, table: Table) -> None:
        """Store a table whose seats changed without a move (skip, return, clocks checked)."""
        try:
            await self.store.save_table(table, table.version)
        except VersionConflict:
            self._forget(table.id)
            raise StaleVersion("The game changed in the meantime; look at the board and try again.") from None
        loaded.table = table

    @inputs.checked
    async def skip(self, table_id: int, by_user: str, seat: int) -> Outbox:
        """Another player skips ``seat`` (0-based), whose time has run out: from now on an AI plays
        it (at once, if it must act) until its player comes back. A seat skipped a second time is
        forfeited. Raises SkipRefused (player-readable) when the seat cannot be skipped."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            table = loaded.table
            game = get_game(table.game)
            speed = get_speed(table.speed)
            caller = table.seat_of(by_user)
            if caller is None or caller.is_ai:
                raise NotInGame("Only the players of this game can skip a seat.")
            if caller.absent or caller.forfeited:
                raise SkipRefused("An AI plays your seat at the moment; take your seat back first.")
            if not 0 <= seat < len(table.seats):
                raise SkipRefused(f"There is no seat {seat + 1} at this table.")
            target = table.seats[seat]
            if target.index == caller.index:
                raise SkipRefused("You cannot skip yourself.")
            if target.is_ai:
                raise SkipRefused(f"{target.name} is an AI seat; it never runs out of time.")
            if target.absent:
                raise SkipRefused(f"{target.name} was already skipped; an AI plays for them.")
            if not speed.timed or target.clock is None:
                raise SkipRefused("This game is untimed, so nobody runs out of time; the host can cancel it.")
            now = self.clock()
            hours = (await self._quiet_hours_at(table, loaded)).get(seat)
            if not target.clock.running:
                raise SkipRefused(f"It is not {target.name}'s turn.")
            left = clocks.remaining_at(target.clock, now, speed, hours)
            if left > 0:
                raise SkipRefused(f"{target.name} still has {format_duration(left)} on the clock.")
            return await self._skip_seat(game, loaded, seat, now)

    async def _skip_seat(
        self, game: Game[Any, Any], loaded: _Loaded, seat: int, now: float, *, by_referee: bool = False
    ) -> Outbox:
        """Skip a seat whose time ran out (checked by the caller), store it, let the AI play."""
        table = loaded.table
        speed = get_speed(table.speed)
        hours = (await self._quiet_hours_at(table, loaded)).get(seat)
        new_table = _copy_table(table)
        skipped = new_table.seats[seat]
        assert skipped.clock is not None and speed.bank is not None
        skipped.clock = clocks.pause(skipped.clock, now, speed, hours)
        skipped.skips += 1
        skipped.absent_since = now
        skipped.waiting_since = None
        skipped.forfeited = skipped.skips >= 2
        skipped.next_due_at = self._next_due(skipped, speed, hours)
        absence.due_at_once(new_table, now)
        new_table.updated_at = now
        new_table.needs_resume = _referee_step(game, loaded.state, new_table) is not None
        await self._save_seats(loaded, new_table)
        outbox = Outbox(table=new_table, board_changed=True)
        if skipped.forfeited:
            outbox.forfeited = [seat]
        outbox.public_log.append(absence.skip_line(skipped, new_table, by_referee=by_referee, bank=speed.bank))
        await self._run_automatic(game, loaded, outbox)
        self._finish_outbox(game, loaded, outbox)
        return outbox

    @inputs.checked
    async def return_to_seat(self, table_id: int, user_id: str) -> Outbox:
        """A skipped player takes their seat back from the AI (playing a move does it too).
        Does nothing for a player who was not skipped; refused once the seat is forfeited."""
        async with self._lock(table_id):
            loaded = await self._running(table_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise NotInGame("You are not playing in this game.")
            if seat.forfeited:
                raise ForfeitedSeat("You forfeited this game; an AI plays your seat to the end.")
            game = get_game(loaded.table.game)
            outbox = Outbox(table=loaded.table)
            if seat.absent:
                await self._return(game, loaded, seat.index)
                outbox.table = loaded.table
                outbox.board_changed = True
                outbox.public_log.append(f"{seat.name} is back and plays their own seat again.")
                # Someone plays again: the AI takes the other absent seats a waiting game held.
                await self._run_automatic(game, loaded, outbox)
            self._finish_outbox(game, loaded, outbox)
            return outbox

    async def _return(self, game: Game[Any, Any], loaded: _Loaded, index: int) -> None:
        table = _copy_table(loaded.table)
        now = self.clock()
        speed = get_speed(table.speed)
        seat = table.seats[index]
        seat.absent_since = None
        if seat.clock is not None and speed.bank is not None:
            # Back with at least one increment in the bank, so a returning player is not out at once.
            remaining = min(speed.bank, max(seat.clock.remaining, speed.increment))
            seat.clock = clocks.SeatClock(remaining=remaining)
        table.updated_at = now
        acting = game.to_act(loaded.state)
        # Only this seat "enters": its clock starts if it must act now (rare: the AI answers at once).
        await self._advance_turns(table, [other for other in acting if other != index], acting, now)
        table.needs_resume = _referee_step(game, loaded.state, table) is not None
        await self._save_seats(loaded, table)

    async def due_actions(self, now: float | None = None) -> DueActions:
        """Everything a front end must do now: private reminders, seats that ran out (the other
        players may skip them), seats forfeited. Each is reported once, and stored as reported.

        Also stores the heartbeat: call it at least every ``HEARTBEAT_SECONDS`` (use
        ``DueActions.wait_seconds()``), so that downtime after a crash is measured well. The first
        call credits the downtime found at start-up, if ``credit_downtime`` was not called."""
        now = self.clock() if now is None else now
        if not self._downtime_credited:
            await self.credit_downtime(now)
        else:
            await self.finish_downtime_credit()
            await self.store.set_heartbeat(now)
        actions = DueActions(now=now)
        for table_id in await self.store.due_table_ids(now):
            async with self._lock(table_id):
                try:
                    loaded = await self._load(table_id)
                except GameError:  # gone, or a game no longer installed: never stop the clock task
                    logger.warning("clocks of game #%s skipped: it cannot be loaded", table_id, exc_info=True)
                    continue
                if loaded.table.status == RUNNING:
                    await self._due_at_table(loaded, now, actions)
        actions.next_due_at = await self.store.next_due_at()
        return actions

    async def _due_at_table(self, loaded: _Loaded, now: float, actions: DueActions) -> None:
        table = _copy_table(loaded.table)
        speed = get_speed(table.speed)
        quiet = await self._quiet_hours_at(table, loaded)
        links = _links(table)
        found = DueActions(now=now)
        for seat in table.seats:
            if seat.next_due_at is None or seat.next_due_at > now:
                continue
            hours = quiet.get(seat.index)
            held = absence.take_held_notice(seat, links, len(speed.reminders), now)
            if held is not None:
                found.reminders.append(held)
            if seat.absent or seat.forfeited or seat.clock is None or not speed.timed:
                if seat.absent and not seat.forfeited and now >= self._forfeit_at(seat, speed, hours):
                    seat.forfeited = True
                    found.forfeits.append(
                        ForfeitNotice(links=links, seat=seat.index, user_id=seat.user_id, name=seat.name)
                    )
                seat.next_due_at = self._next_due(seat, speed, hours)
                continue
            check = clocks.check(seat.clock, now, speed, hours)
            seat.clock.reminders_sent = check.rungs_sent
            flag = clocks.deadline(seat.clock, speed, hours)
            if check.ran_out:
                seat.clock.ran_out = True
                # Never woken up by it: in quiet hours the notice waits for them to end.
                seat.clock.notice_at = clocks.quiet_end(hours, now)
                found.timeouts.append(
                    TimeoutNotice(
                        links=links,
                        seat=seat.index,
                        user_id=seat.user_id,
                        name=seat.name,
                        ran_out_at=flag if flag is not None else now,
                        can_skip=absence.skippers(table, seat.index),
                        tell_player=seat.clock.notice_at is None,
                    )
                )
            elif check.remind and seat.user_id is not None and flag is not None:
                found.reminders.append(
                    Reminder(
                        links=links,
                        seat=seat.index,
                        user_id=seat.user_id,
                        name=seat.name,
                        remaining=max(0.0, clocks.remaining_at(seat.clock, now, speed, hours)),
                        deadline=flag,
                        rung=check.rungs_sent,
                        final=check.rungs_sent == len(speed.reminders),
                    )
                )
            seat.next_due_at = clocks.next_check(seat.clock, speed, hours) if check.ran_out else check.next_due
        try:
            await self._save_seats(loaded, table)
        except StaleVersion:
            return  # another process moved: the next poll looks again at the fresh table
        actions.reminders.extend(found.reminders)
        actions.timeouts.extend(found.timeouts)
        actions.forfeits.extend(found.forfeits)
        # Seats nobody is left to skip are skipped by the referee itself, one at a time (a skip can
        # leave another seat that ran out with nobody to skip it).
        game = get_game(table.game)
        try:
            for index in range(len(table.seats)):
                if absence.must_skip(loaded.table, loaded.table.seats[index]):
                    for notice in found.timeouts:
                        notice.skipped = notice.skipped or notice.seat == index
                    actions.moves.append(await self._skip_seat(game, loaded, index, now, by_referee=True))
            if found.forfeits and self._pending_step(game, loaded) is not None:
                # A forfeit at a table that waited for its absent players: the AI plays on.
                outbox = Outbox(table=loaded.table)
                await self._run_automatic(game, loaded, outbox)
                self._finish_outbox(game, loaded, outbox)
                actions.moves.append(outbox)
        except StaleVersion:
            return  # another process moved: the next poll looks again

    async def credit_downtime(self, now: float | None = None, *, defer: bool = False) -> float:
        """Give back to every running clock the time since the last heartbeat (the bot was down),
        then store a new heartbeat. Call once at start-up, before taking commands. Returns the
        seconds credited (0 on the very first start).

        With ``defer``, only the outage is noted here (two small reads, whatever the number of
        games): a table is credited the first time it is loaded, and every other one in a single
        batch at the first ``due_actions`` (or ``finish_downtime_credit``), which also stores the
        heartbeat. Nothing reads, changes or times out a clock before its table was credited, and
        the heartbeat does not move before every table is."""
        now = self.clock() if now is None else now
        self._downtime_credited = True
        await self.finish_downtime_credit()  # an earlier outage first: each is credited once
        # Until the outage is known, every table loaded waits for it (see _load_owed).
        downtime = self._downtime = _Downtime(now, now, None)
        async with self._credit_lock:
            last = await self.store.get_heartbeat()
            if last is None or now <= last:
                self._downtime = None
                await self.store.set_heartbeat(now)
                return 0.0
            downtime.since = last
            downtime.tables = set(await self.store.running_timed_table_ids())
        # Tables cached before this call (only when it comes late) are credited where they are.
        for table_id in [cached for cached in self._cache if cached in downtime.tables]:
            await self._credit_cached(table_id, downtime)
        if not defer:
            await self.finish_downtime_credit()
        return now - last

    async def finish_downtime_credit(self) -> None:
        """Credit every table still owed the downtime found at start-up, in ONE transaction that
        also stores the heartbeat; a no-op when nothing is owed. ``due_actions`` calls it first."""
        downtime = self._downtime
        if downtime is not None and downtime.tables is None:
            async with self._credit_lock:  # the outage is being noted: wait until it is known
                downtime = self._downtime
        if downtime is None or downtime.tables is None:
            return
        # Read and computed outside the lock, so that commands go on meanwhile: a table credited on
        # its own in the meantime is no longer owed and is not written again below; the others
        # cannot have changed since they were read, as loading one takes the lock.
        seats = await self.store.running_timed_seats()
        credited = await asyncio.to_thread(self._credit_timed_seats, seats, downtime.since, downtime.until)
        async with self._credit_lock:
            if self._downtime is not downtime:
                return  # finished by another caller meanwhile
            owed = [timed for timed in credited if timed.table_id in downtime.tables]
            left_alone = await self.store.save_timed_seats(owed, heartbeat=downtime.until)
            if left_alone:
                # Only another process writing the same database can do this.
                logger.warning("downtime not credited to games %s: they changed during the restart", left_alone)
            self._downtime = None

    def _credit_timed_seats(self, seats: list[TimedSeat], since: float, until: float) -> list[TimedSeat]:
        """The seats whose clocks changed once credited the time between ``since`` and ``until``
        (pure: runs in a worker thread)."""
        return [
            timed
            for timed in seats
            if self._credit_seat(timed.seat, get_speed(timed.speed), timed.quiet, since, until)
        ]

    def _credit_seat(
        self, seat: Seat, speed: Speed, hours: QuietHours | None, since: float, until: float
    ) -> bool:
        """Give one seat back the time between ``since`` and ``until`` (its clock, and the wait of
        a skipped seat before it forfeits), in place; True if anything stored changed."""
        before = (seat.clock, seat.absent_since, seat.next_due_at)
        if seat.clock is not None and seat.clock.running:
            seat.clock = clocks.settle(seat.clock, since, until, speed, hours)
        if seat.absent_since is not None and not seat.forfeited:
            seat.absent_since += max(0.0, until - max(seat.absent_since, since))
        seat.next_due_at = self._next_due(seat, speed, hours)
        return (seat.clock, seat.absent_since, seat.next_due_at) != before

    async def _credit_table(self, table: Table, downtime: _Downtime) -> bool:
        """Credit one table (changed in place) and store its changed seats; False if the store had
        moved on from the version read (nothing written then)."""
        speed = get_speed(table.speed)
        if table.status != RUNNING or not speed.timed:
            return True
        quiet = await self._quiet_hours_at(table)
        changed = [
            TimedSeat(table_id=table.id, version=table.version, speed=table.speed, seat=seat)
            for seat in table.seats
            if self._credit_seat(seat, speed, quiet.get(seat.index), downtime.since, downtime.until)
        ]
        if changed and await self.store.save_timed_seats(changed):
            logger.warning("downtime not credited to game #%s: it changed during the restart", table.id)
            return False
        return True

    async def _credit_cached(self, table_id: int, downtime: _Downtime) -> None:
        """Credit a table that was cached before the outage was noted, where it is."""
        async with self._lock(table_id), self._credit_lock:
            loaded = self._cache.get(table_id)
            if loaded is None or not downtime.owes(table_id):
                return  # evicted meanwhile: credited when loaded again
            table = _copy_table(loaded.table)
            if await self._credit_table(table, downtime):
                loaded.table = table
            else:
                self._forget(table_id)
            assert downtime.tables is not None
            downtime.tables.discard(table_id)

    async def heartbeat(self, now: float | None = None) -> None:
        """Record that the bot is up (``due_actions`` does it; this is for front ends that poll
        nothing else). Downtime still owed is credited first: the heartbeat must not move on
        before every clock got it."""
        await self.finish_downtime_credit()
        await self.store.set_heartbeat(self.clock() if now is None else now)

    @inputs.checked
    async def turns_waiting(
        self,
        user_id: str,
        guild_id: str | None = None,
        *,
        guild_ids: Iterable[str] | None = None,
        now: float | None = None,
    ) -> list[WaitingTurn]:
        """The running games where ``user_id`` must act, oldest waiting first: in one server
        (``guild_id``), in several (``guild_ids``, e.g. the servers shared with the user), or in
        all of them (neither)."""
        now = self.clock() if now is None else now
        wanted: tuple[str, ...] | None = None
        if guild_ids is not None:
            wanted = tuple(guild_ids)
        elif guild_id is not None:
            wanted = (guild_id,)
        rows = await self.store.waiting_seats(user_id, wanted)
        hours = await self.store.get_quiet_hours(user_id)
        downtime = self._downtime
        turns: list[WaitingTurn] = []
        for links, speed_name, seat in rows:
            speed = get_speed(speed_name)
            if downtime is not None and downtime.tables is not None and links.table_id in downtime.tables:
                # Read straight from the store: a table not credited yet is credited here, in memory.
                self._credit_seat(seat, speed, hours, downtime.since, downtime.until)
            turn = WaitingTurn(
                links=links, seat=seat.index, speed=speed_name, waiting_since=seat.waiting_since or 0.0
            )
            if speed.timed and seat.clock is not None and seat.clock.running:
                left = clocks.remaining_at(seat.clock, now, speed, hours)
                turn.remaining = max(0.0, left)
                turn.deadline = clocks.deadline(seat.clock, speed, hours)
                turn.ran_out = left <= 0
            turns.append(turn)
        return turns

    @inputs.checked
    async def clock_views(self, table_id: int, now: float | None = None) -> list[SeatClockView]:
        """Every human seat's clock at a timed table (empty when untimed), for the board."""
        loaded = await self._started(table_id)
        table = loaded.table
        speed = get_speed(table.speed)
        if not speed.timed:
            return []
        now = self.clock() if now is None else now
        quiet = await self._quiet_hours_at(table, loaded)
        views: list[SeatClockView] = []
        for seat in table.seats:
            if seat.clock is None:
                continue
            hours = quiet.get(seat.index)
            left = clocks.remaining_at(seat.clock, now, speed, hours)
            views.append(
                SeatClockView(
                    seat=seat.index,
                    name=seat.name,
                    remaining=max(0.0, left),
                    running=seat.clock.running and table.status == RUNNING,
                    deadline=clocks.deadline(seat.clock, speed, hours) if table.status == RUNNING else None,
                    ran_out=seat.clock.running and left <= 0,
                    absent=seat.absent,
                    forfeited=seat.forfeited,
                    quiet=speed.quiet_pauses and clocks.is_quiet(hours, now),
                )
            )
        return views

    # ----- quiet hours --------------------------------------------------------------------------

    @inputs.checked
    async def quiet_hours(self, user_id: str) -> QuietHours | None:
        return await self.store.get_quiet_hours(user_id)

    @inputs.checked
    async def set_quiet_hours(
        self, user_id: str, time_zone: str, start_hour: int, end_hour: int
    ) -> QuietHours:
        """Set a player's quiet hours (local whole hours in an IANA time zone, e.g. 23 to 7 in
        Europe/Rome): no reminders then, and daily clocks stop. Raises QuietHoursError."""
        try:
            quiet = QuietHours(time_zone=time_zone.strip(), start_hour=start_hour, end_hour=end_hour).check()
        except ValueError as error:
            raise QuietHoursError(str(error)) from None
        await self._change_quiet_hours(user_id, quiet)
        return quiet

    @inputs.checked
    async def clear_quiet_hours(self, user_id: str) -> None:
        await self._change_quiet_hours(user_id, None)

    async def _change_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        """Running clocks are charged up to now under the old hours, then go on under the new."""
        now = self.clock()
        old = await self.store.get_quiet_hours(user_id)
        await self.store.set_quiet_hours(user_id, quiet)
        for cached in self._cache.values():
            if cached.table.seat_of(user_id) is not None:
                cached.quiet = None  # read again at its next move
        for listed in await self.store.list_tables(statuses=(RUNNING,), user_id=user_id, limit=1_000_000):
            speed = get_speed(listed.speed)
            if not speed.timed:
                continue
            async with self._lock(listed.id):
                loaded = await self._load(listed.id)
                loaded.quiet = None  # under the lock: no move in flight keeps the old hours
                seat = loaded.table.seat_of(user_id)
                if loaded.table.status != RUNNING or seat is None:
                    continue
                table = _copy_table(loaded.table)
                mine = table.seats[seat.index]
                if mine.clock is not None and mine.clock.running:
                    mine.clock = clocks.settle(mine.clock, now, now, speed, old)
                mine.next_due_at = self._next_due(mine, speed, quiet)
                try:
                    await self._save_seats(loaded, table)
                except StaleVersion:
                    continue

    # ----- community scores ---------------------------------------------------------------------

    @inputs.checked
    async def result(self, table_id: int) -> GameResult | None:
        """The stored result of a finished game (seats, scores, final ranks, forfeits, rated)."""
        return await self.store.game_result(table_id)

    @inputs.checked
    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        """One page of a server's leaderboard of a game (rated games only)."""
        return await self.store.leaderboard(guild_id, get_game(game).name, offset=offset, limit=limit)

    @inputs.checked
    async def high_scores(
        self, guild_id: str | None, game: str, board: str = SOLO_BOARD, *, limit: int = 10
    ) -> list[HighScore]:
        """Best scores of solo games (``board="solo"``) or games with AI seats (``"with_ai"``)."""
        if board not in (SOLO_BOARD, WITH_AI_BOARD):
            raise ValueError(
                f"high scores are kept for {SOLO_BOARD!r} and {WITH_AI_BOARD!r} games, not {board!r}"
            )
        return await self.store.high_scores(guild_id, get_game(game).name, board, limit=limit)

    @inputs.checked
    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats:
        """A player's record per game (with ratings, when ``guild_id`` is given) and latest games."""
        return await self.store.player_stats(user_id, guild_id, recent=recent)

    @inputs.checked
    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        """Latest finished games with their results; ``record(table_id)`` exports any of them."""
        name = get_game(game).name if game is not None else None
        return await self.store.history(guild_id, game=name, limit=limit, offset=offset)

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        return await self.store.rating_events(guild_id=guild_id, game=game, user_id=user_id)

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the stored results (after a change of rating model)."""
        return await self.store.rebuild_ratings()

    # ----- reading ------------------------------------------------------------------------------

    @inputs.checked
    async def board_text(self, table_id: int) -> str:
        """The public board; at timed tables followed by one line with every seat's clock."""
        loaded = await self._started(table_id)
        game = get_game(loaded.table.game)
        board = game.render_board(game.view(loaded.state, None), loaded.table.names)
        if loaded.table.status == RUNNING and get_speed(loaded.table.speed).timed:
            board += "\n" + clock_line(await self.clock_views(table_id))
        return board

    @inputs.checked
    async def private_text(self, table_id: int, user_id: str) -> str:
        loaded = await self._started(table_id)
        seat = loaded.table.seat_of(user_id)
        if seat is None:
            raise NotInGame("You are not playing in this game.")
        game = get_game(loaded.table.game)
        return game.render_private(game.view(loaded.state, seat.index), loaded.table.names)

    @inputs.checked
    async def legal_moves(self, table_id: int, user_id: str) -> list[str]:
        """The caller's legal moves in notation (empty when they may not move now)."""
        return [text for text, _ in await self.described_moves(table_id, user_id, describe=False)]

    async def described_moves(
        self, table_id: int, user_id: str, *, describe: bool = True
    ) -> list[tuple[str, str]]:
        """The caller's legal moves in notation, each with what it does in words when the
        notation does not say (``("take 4", "4 $")``; "" otherwise): for lists of moves."""
        loaded = await self._load(table_id)
        if loaded.table.status != RUNNING:
            return []
        seat = loaded.table.seat_of(user_id)
        if seat is None:
            return []
        game = get_game(loaded.table.game)
        if seat.index not in game.may_act(loaded.state):
            return []
        moves = game.legal_moves(loaded.state, seat.index)
        return [(game.format_move(move), game.describe_move(move) if describe else "") for move in moves]

    @inputs.checked
    async def outcome(self, table_id: int) -> Outcome | None:
        """The final outcome of a finished game (forfeited seats ranked last)."""
        loaded = await self._load(table_id)
        if loaded.table.status != FINISHED:
            return None
        return self._final_outcome(get_game(loaded.table.game), loaded)

    @inputs.checked
    async def record(self, table_id: int) -> GameRecord:
        """The exportable record of an ended game (replays with ``python -m engine.replay``).

        Only once the game is over: the seed and the move log of a running game would reveal
        hands, hidden choices and out-of-turn requests."""
        table = (await self._started(table_id)).table
        if table.status == RUNNING:
            raise WrongStatus("A game's record can be exported once the game has ended.")
        return GameRecord(
            game=table.game,
            players=len(table.seats),
            seed=table.seed or 0,
            options=table.options,
            moves=await self.store.move_log(table_id),
        )

    @inputs.checked
    async def waiting_text(self, table_id: int) -> str:
        loaded = await self._running(table_id)
        return self._waiting_text(get_game(loaded.table.game), loaded)

    def _waiting_text(self, game: Game[Any, Any], loaded: _Loaded) -> str:
        names = [loaded.table.seats[index].name for index in game.to_act(loaded.state)]
        return f"It is not your turn; waiting for {', '.join(names)}."

    @inputs.checked
    async def tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]:
        return await self.store.list_tables(
            guild_id=guild_id, statuses=statuses, user_id=user_id, limit=limit
        )

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


def _copy_table(table: Table) -> Table:
    """A copy to change before a commit: its own seats, clocks and options (everything in them
    that is changed in place); strings and numbers are shared, as they never change."""
    replace = msgspec.structs.replace
    return replace(
        table,
        options=dict(table.options),
        seats=[replace(seat, clock=None if seat.clock is None else replace(seat.clock)) for seat in table.seats],
    )


def _ai_seat(game: Game[Any, Any], table: Table, kind: str) -> Seat:
    """A new AI seat of ``kind`` for a lobby; raises LobbyError when the kind is unknown or the
    table is full."""
    if kind not in game.ai_players():
        raise LobbyError(f"Unknown AI kind {quote(kind)}; choose {', '.join(game.ai_players())}.")
    if len(table.seats) >= game.max_players:
        raise LobbyError(f"The table is full ({game.max_players} players).")
    used = {seat.name for seat in table.seats}
    name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in used), f"AI {len(used) + 1}")
    return Seat(index=len(table.seats), name=name, ai_kind=kind)


def _checked_speed(name: str) -> Speed:
    try:
        return get_speed(name)
    except UnknownSpeed as error:
        raise SetupError(str(error)) from None


def _referee_step(game: Game[Any, Any], state: Any, table: Table) -> _Step | None:
    """What the referee must play itself next, in the order it plays: the first seat to act that
    an AI plays (an AI seat, or a skipped one) or that has an automatic move; None when the game
    is over or a human must decide."""
    if game.is_over(state):
        return None
    for index in game.to_act(state):
        if absence.ai_plays(table, index):
            return (index, None, True)
        automatic = game.automatic_move(state, index)
        if automatic is not None:
            return (index, automatic, False)
    return None


def _takeover_kind(game: Game[Any, Any]) -> str:
    """The AI that plays a skipped seat: the best simple one the game offers."""
    kinds = game.ai_players()
    return "greedy" if "greedy" in kinds else "random" if "random" in kinds else next(iter(kinds))


def _links(table: Table) -> TableLinks:
    return TableLinks(
        table_id=table.id,
        game=table.game,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        thread_id=table.thread_id,
        message_id=table.message_id,
    )


def clock_line(views: Iterable[SeatClockView]) -> str:
    """One line of text with every seat's clock: "Clocks: Alice 1d 11h (to move) · Bob 1d 12h"."""
    parts: list[str] = []
    for view in views:
        if view.forfeited:
            parts.append(f"{view.name} forfeited")
        elif view.absent:
            parts.append(f"{view.name} skipped (AI playing)")
        elif view.ran_out:
            parts.append(f"{view.name} out of time")
        else:
            text = f"{view.name} {format_duration(view.remaining)}"
            if view.running:
                text += " (quiet hours)" if view.quiet else " (to move)"
            parts.append(text)
    return "Clocks: " + " · ".join(parts)


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


__all__ = ["Referee", "GameError", "clock_line"]
