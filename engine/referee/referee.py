"""The referee: tables, seats and turn flow over the pure engine, with every move made durable.

Front ends (the Discord cogs, the local table) call the ``Referee`` and render the Outbox it
returns. It is a thin facade: every public method checks its arguments at the door
(``inputs.checked``: ids, names, move text, of any type or size, are refused with a GameError
before anything is read), hands out the tables of running games without their seed (which would
replay every deal), and passes the call to one of the rooms, which share one table cache:

- tables.py: the table cache, hot states, per-table locks, loading and eviction;
- lobby.py: create, join, leave, AI seats, speed, start, cancel, links, purge;
- turns.py: play, resume, the referee's own moves, and ``apply_and_commit``, the durable-move
  path: validate -> apply -> time the seats -> commit in one transaction -> update the cache ->
  fill the Outbox. Nothing is reported before it is on disk; one move at a time per table (the
  table's lock here, a version compare-and-swap in the store);
- timekeeping.py (with deadlines.py and downtime.py): clocks, reminders, skip and return, due
  actions, quiet hours, and the downtime credited at start-up;
- queries.py: boards, views, legal moves, records, results, leaderboards, stats, history.
- abandon.py, rematch.py, vacation.py: abandoning a game by vote, rematches, players' vacations.
- read_model.py: ``snapshot``, everything a front end shows one seat (board, private view,
  moves, clocks, outcome), from one load under the table's lock; front ends render it rather
  than reading the parts one by one.

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

import random
import time
from collections.abc import Callable
from typing import Any

from engine.core import GameRecord, Outcome

from . import inputs
from .abandon import AbandonVotes
from .claims import LEASE_SECONDS, Claims
from .clock import QuietHours
from .downtime import DowntimeCredit
from .forget import ForgetReport, Forgetting
from .hints import Hints
from .limits import DEFAULT_LIMITS, Admission, Limits
from .lobby import Lobby
from .model import (
    SOLO_BOARD,
    GameResult,
    Outbox,
    RatingChange,
    Table,
)
from .pictures import Pictures
from .queries import Queries
from .read_model import SeatSnapshot
from .rematch import Rematches
from .reports import (
    DueActions,
    HighScore,
    LeaderboardPage,
    PlayerStats,
    SeatClockView,
)
from .rules_versions import RulesVersions
from .seasons import Seasons
from .server_settings import ServerSettings
from .store import Store
from .tables import Tables
from .thinking import InlineThinker, Thinker
from .timekeeping import Timekeeping
from .turns import Turns
from .undo import Undo, UndoReply, UndoRequest
from .user_settings import UserSettings
from .vacation import DEFAULT_DAYS_PER_YEAR, Vacations, VacationStatus


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
        thinker: Thinker | None = None,
        vacation_days_per_year: int = DEFAULT_DAYS_PER_YEAR,
        shared: bool = False,
        owner: str | None = None,
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.store = store
        self.clock = clock
        # ``shared``: other processes (shards) use the same store. Work that must happen once
        # in total is then claimed first (claims.py; ``owner`` names this process in the claims,
        # unique by default), and cached tables are read again where they may be stale.
        self.claims = Claims(store, clock, owner=owner, lease=lease, shared=shared)
        # What one player or server may have open at once (``limits``: where no server changed them).
        self.admission = Admission(store, limits)  # type: ignore[arg-type]
        self.user_settings = UserSettings(store)  # each player's flags (the front ends hold no store)
        self.seasons = Seasons(store, clock)  # type: ignore[arg-type]  # a server's seasons (seasons.py)
        # Each server's settings (pictures on or off), in the limits' rows of the store.
        self.server_settings = ServerSettings(store)  # type: ignore[arg-type]
        # Boards, hands, results and rating charts drawn off the event loop, cached (pictures.py).
        self.pictures = Pictures()
        # The rooms, each over the shared table cache (see the module's text).
        self._tables = Tables(store, clock, cache_size=cache_size, hot_states=hot_states, shared=shared)
        # Searching AI seats and hints think through ``thinker`` (thinking.py): by default in a
        # thread with fixed playouts; the bot and the local table pass a pool of processes
        # (pool.PoolThinker), which they close when they close.
        self.thinker: Thinker = thinker or InlineThinker()
        self._turns = Turns(
            self._tables, ai_rng=ai_rng or random.Random(), max_ai_moves=max_ai_moves, thinker=self.thinker
        )
        self._hints = Hints(self._tables, self._turns)
        self._lobby = Lobby(self._tables, self._turns, self.admission, new_seed)
        self._downtime = DowntimeCredit(self._tables, self.claims)
        self._timekeeping = Timekeeping(self._tables, self._turns, self._downtime, self.claims)
        self._queries = Queries(self._tables, self._timekeeping)
        self._undo = Undo(self._tables, self._turns)
        # Before anything else runs at start-up: are the games in progress still on these rules?
        self.check_rules_versions = RulesVersions(store).check
        self._forgetting = Forgetting(self._tables, self._turns)
        self._abandon = AbandonVotes(self._tables)
        self._rematches = Rematches(self._tables, store, self._lobby)
        self._vacations = Vacations(self._tables, self._timekeeping, vacation_days_per_year)
        # The methods with long signatures are the rooms' own, checked at the door like the others:
        # their signatures and documentation are written once, where they are implemented.
        self.create_table = inputs.checked_call(self._lobby.create_table)
        self.turns_waiting = inputs.checked_call(self._timekeeping.turns_waiting)
        # Every table of a server, with some statuses, or where a player sits (newest first).
        self.tables = inputs.checked_call(store.list_tables)

    @property
    def new_seed(self) -> Callable[[], int]:
        """Where the seeds of new games come from (tests set a fixed one)."""
        return self._lobby.new_seed

    @new_seed.setter
    def new_seed(self, new_seed: Callable[[], int]) -> None:
        self._lobby.new_seed = new_seed

    def forget_cache(self) -> None:
        """Drop every cached table (tests use it to prove state comes back from the store)."""
        self._tables.forget_all()

    @inputs.checked
    async def table(self, table_id: int) -> Table:
        return await self._queries.table(table_id)

    @inputs.checked
    async def fresh_table(self, table_id: int) -> Table:
        """The table as stored now, the cache read again if another process sharing the store
        changed it (for work claimed across processes: the announcement catch-up)."""
        async with self._tables.lock(table_id):
            return (await self._tables.fresh(table_id)).table

    @inputs.checked
    async def state(self, table_id: int) -> Any:
        """The whole game state, every secret and the seed included: for tools, benchmarks and
        tests. Front ends show views (``board_text``, ``private_text``) and ask ``to_act``."""
        return await self._queries.state(table_id)

    @inputs.checked
    async def to_act(self, table_id: int) -> tuple[int, ...]:
        """The seats that must act now (none before the start or once the game is over)."""
        return await self._queries.to_act(table_id)

    # ----- lobby --------------------------------------------------------------------------------

    @inputs.checked
    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        return await self._lobby.join(table_id, user_id, name)

    @inputs.checked
    async def leave(self, table_id: int, user_id: str) -> Table:
        return await self._lobby.leave(table_id, user_id)

    @inputs.checked
    async def add_ai(self, table_id: int, by_user: str, kind: str = "greedy") -> Table:
        return await self._lobby.add_ai(table_id, by_user, kind)

    @inputs.checked
    async def remove_ai(self, table_id: int, by_user: str) -> Table:
        return await self._lobby.remove_ai(table_id, by_user)

    @inputs.checked
    async def set_speed(self, table_id: int, by_user: str, speed: str) -> Table:
        """Change the speed of a table still in its lobby (host only)."""
        return await self._lobby.set_speed(table_id, by_user, speed)

    @inputs.checked
    async def start(self, table_id: int, by_user: str, *, seed: int | None = None) -> Outbox:
        """Deal and begin; AI seats that must act first play at once."""
        return await self._lobby.start(table_id, by_user, seed=seed)

    @inputs.checked
    async def cancel(self, table_id: int, by_user: str, *, is_admin: bool = False) -> Table:
        return await self._lobby.cancel(table_id, by_user, is_admin=is_admin)

    async def purge_unstarted(self, now: float | None = None) -> list[int]:
        """Delete lobbies cancelled a week ago and lobbies untouched for a month (limits.py);
        returns their ids. Finished games are never deleted."""
        return await self._lobby.purge_unstarted(now)

    @inputs.checked
    async def set_links(
        self, table_id: int, *, thread_id: str | None = None, message_id: str | None = None
    ) -> Table:
        """Remember where a front end shows the table (thread, latest board or lobby message)."""
        return await self._lobby.set_links(table_id, thread_id=thread_id, message_id=message_id)

    # ----- play ---------------------------------------------------------------------------------

    @inputs.checked
    async def play(
        self, table_id: int, user_id: str, move_text: str, *, expected_version: int | None = None
    ) -> Outbox:
        """A human move in notation. Raises a GameError (player-readable) and changes nothing
        when the move is refused, with one exception: a skipped player who plays has their seat
        back from the AI even if the move itself is refused (usually: not their turn yet)."""
        return await self._turns.play(table_id, user_id, move_text, expected_version)

    @inputs.checked
    async def hint(self, table_id: int, user_id: str) -> str:
        """What the normal AI would play in the caller's place now, and why, in one line (their
        own knowledge only). Raises HintRefused in a rated game or when they need not act."""
        return await self._hints.hint(table_id, user_id)

    @inputs.checked
    async def resume(self, table_id: int) -> Outbox:
        """Play whatever AI seats or automatic moves are due (after a restart, or a takeover)."""
        return await self._turns.resume(table_id)

    async def tables_to_resume(self) -> list[int]:
        """The running games a restart must look at, read from the store without loading any:
        those where the referee has moves of its own to make (``resume`` plays them) and those
        without a thread yet (a start interrupted before its first messages)."""
        return await self._queries.tables_to_resume()

    # ----- clocks and absent players -------------------------------------------------------------

    @inputs.checked
    async def skip(self, table_id: int, by_user: str, seat: int) -> Outbox:
        """Another player skips ``seat`` (0-based), whose time has run out: from now on an AI plays
        it (at once, if it must act) until its player comes back. A seat skipped a second time is
        forfeited. Raises SkipRefused (player-readable) when the seat cannot be skipped."""
        return await self._timekeeping.skip(table_id, by_user, seat)

    @inputs.checked
    async def return_to_seat(self, table_id: int, user_id: str) -> Outbox:
        """A skipped player takes their seat back from the AI (playing a move does it too).
        Does nothing for a player who was not skipped; refused once the seat is forfeited."""
        return await self._timekeeping.return_to_seat(table_id, user_id)

    async def due_actions(self, now: float | None = None) -> DueActions:
        """Everything a front end must do now: private reminders, seats that ran out (the other
        players may skip them), seats forfeited. Each is reported once, and stored as reported.

        Also stores the heartbeat: call it at least every ``HEARTBEAT_SECONDS`` (use
        ``DueActions.wait_seconds()``), so that downtime after a crash is measured well. The first
        call credits the downtime found at start-up, if ``credit_downtime`` was not called."""
        return await self._timekeeping.due_actions(now)

    async def credit_downtime(self, now: float | None = None, *, defer: bool = False) -> float:
        """Give back to every running clock the time since the last heartbeat (the bot was down),
        then store a new heartbeat. Call once at start-up, before taking commands. Returns the
        seconds credited (0 on the very first start).

        With ``defer``, only the outage is noted here (two small reads, whatever the number of
        games): a table is credited the first time it is loaded, and every other one in a single
        batch at the first ``due_actions`` (or ``finish_downtime_credit``), which also stores the
        heartbeat. Nothing reads, changes or times out a clock before its table was credited, and
        the heartbeat does not move before every table is."""
        return await self._downtime.credit_downtime(now, defer=defer)

    async def finish_downtime_credit(self) -> None:
        """Credit every table still owed the downtime found at start-up, in ONE transaction that
        also stores the heartbeat; a no-op when nothing is owed. ``due_actions`` calls it first."""
        await self._downtime.finish_downtime_credit()

    async def heartbeat(self, now: float | None = None) -> None:
        """Record that the bot is up (``due_actions`` does it; this is for front ends that poll
        nothing else). Downtime still owed is credited first: the heartbeat must not move on
        before every clock got it."""
        await self._downtime.heartbeat(now)

    @inputs.checked
    async def clock_views(self, table_id: int, now: float | None = None) -> list[SeatClockView]:
        """Every human seat's clock at a timed table (empty when untimed), for the board."""
        return await self._timekeeping.clock_views(table_id, now)

    # ----- quiet hours --------------------------------------------------------------------------

    @inputs.checked
    async def quiet_hours(self, user_id: str) -> QuietHours | None:
        return await self._timekeeping.quiet_hours(user_id)

    @inputs.checked
    async def set_quiet_hours(
        self, user_id: str, time_zone: str, start_hour: int, end_hour: int
    ) -> QuietHours:
        """Set a player's quiet hours (local whole hours in an IANA time zone, e.g. 23 to 7 in
        Europe/Rome): no reminders then, and daily clocks stop. Raises QuietHoursError."""
        return await self._timekeeping.set_quiet_hours(user_id, time_zone, start_hour, end_hour)

    @inputs.checked
    async def clear_quiet_hours(self, user_id: str) -> None:
        await self._timekeeping.clear_quiet_hours(user_id)

    # ----- vacations (vacation.py) ---------------------------------------------------------------

    @inputs.checked
    async def vacation(self, user_id: str) -> VacationStatus:
        """A player's vacation under way, if any, and the days left of their yearly allowance."""
        return await self._vacations.status(user_id)

    @inputs.checked
    async def start_vacation(self, user_id: str, days: int) -> VacationStatus:
        """Stop the player's clocks in every timed game for ``days`` days (within the allowance).
        Raises VacationRefused."""
        return await self._vacations.start(user_id, days)

    @inputs.checked
    async def end_vacation(self, user_id: str) -> VacationStatus:
        """End a vacation early: the clocks run again, the days not begun go back to the allowance."""
        return await self._vacations.end(user_id)

    # ----- abandon by vote and rematch (abandon.py, rematch.py) ---------------------------------

    @inputs.checked
    async def vote_abandon(self, table_id: int, user_id: str, *, withdraw: bool = False) -> Outbox:
        """A player's vote to abandon a running game (``withdraw``: take it back). The vote that
        decides under the table's rule ends the game, unrated (``Outbox.finished``)."""
        return await self._abandon.vote(table_id, user_id, withdraw=withdraw)

    @inputs.checked
    async def rematch(self, table_id: int, user_id: str, name: str) -> tuple[Table, bool]:
        """The rematch lobby of a finished game, opened by one of its players (seated, as host)
        or already open; True when this call opened it."""
        table, opened = await self._rematches.rematch(table_id, user_id, name)
        return inputs.hide_seed(table), opened  # a rematch under way keeps its seed

    # ----- community scores ---------------------------------------------------------------------

    @inputs.checked
    async def result(self, table_id: int) -> GameResult | None:
        """The stored result of a finished game (seats, scores, final ranks, forfeits, rated)."""
        return await self._queries.result(table_id)

    @inputs.checked
    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        """One page of a server's leaderboard of a game (rated games only)."""
        return await self._queries.leaderboard(guild_id, game, offset=offset, limit=limit)

    @inputs.checked
    async def high_scores(
        self, guild_id: str | None, game: str, board: str = SOLO_BOARD, *, limit: int = 10
    ) -> list[HighScore]:
        """Best scores of solo games (``board="solo"``) or games with AI seats (``"with_ai"``)."""
        return await self._queries.high_scores(guild_id, game, board, limit=limit)

    @inputs.checked
    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats:
        """A player's record per game (with ratings, when ``guild_id`` is given) and latest games."""
        return await self._queries.player_stats(user_id, guild_id, recent=recent)

    @inputs.checked
    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        """Latest finished games with their results; ``record(table_id)`` exports any of them."""
        return await self._queries.history(guild_id, game=game, limit=limit, offset=offset)

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        return await self._queries.rating_events(guild_id=guild_id, game=game, user_id=user_id)

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the stored results (after a change of rating model)."""
        return await self._queries.rebuild_ratings()

    # ----- data deletion ------------------------------------------------------------------------

    @inputs.checked
    async def forget_user(self, user_id: str) -> ForgetReport:
        """Delete or anonymise everything stored about a player (forget.py): their lobbies left or
        cancelled, their games in progress forfeited (publish ``report.outboxes``), their settings
        deleted, their results and ratings kept under their anonymous name."""
        report = await self._forgetting.forget(user_id)
        self.user_settings.forget(user_id)
        return report

    # ----- reading ------------------------------------------------------------------------------

    @inputs.checked
    async def snapshot(self, table_id: int, user_id: str | None = None) -> SeatSnapshot:
        """Everything a front end shows one seat of a started table, from one read under the
        table's lock (read_model.py); ``user_id=None``, or someone not seated: a spectator's,
        without private view or moves."""
        return await self._queries.snapshot(table_id, user_id)

    @inputs.checked
    async def board_text(self, table_id: int) -> str:
        """The public board; at timed tables followed by one line with every seat's clock."""
        return await self._queries.board_text(table_id)

    @inputs.checked
    async def private_text(self, table_id: int, user_id: str) -> str:
        return await self._queries.private_text(table_id, user_id)

    @inputs.checked
    async def legal_moves(self, table_id: int, user_id: str) -> list[str]:
        """The caller's legal moves in notation (empty when they may not move now)."""
        return await self._queries.legal_moves(table_id, user_id)

    async def described_moves(
        self, table_id: int, user_id: str, *, describe: bool = True
    ) -> list[tuple[str, str]]:
        """The caller's legal moves in notation, each with what it does in words when the
        notation does not say (``("take 4", "4 $")``; "" otherwise): for lists of moves."""
        return await self._queries.described_moves(table_id, user_id, describe=describe)

    @inputs.checked
    async def outcome(self, table_id: int) -> Outcome | None:
        """The final outcome of a finished game (forfeited seats ranked last)."""
        return await self._queries.outcome(table_id)

    @inputs.checked
    async def record(self, table_id: int) -> GameRecord:
        """The exportable record of an ended game (replays with ``python -m engine.replay``).

        Only once the game is over: the seed and the move log of a running game would reveal
        hands, hidden choices and out-of-turn requests."""
        return await self._queries.record(table_id)

    @inputs.checked
    async def waiting_text(self, table_id: int) -> str:
        return await self._queries.waiting_text(table_id)

    # ----- undo (undo.py) ---------------------------------------------------------------------

    @inputs.checked
    async def undo(self, table_id: int, user_id: str) -> UndoReply:
        """Take back the player's last move (at once, or once the others agree in a rated game)."""
        return await self._undo.request(table_id, user_id)

    @inputs.checked
    async def agree_to_undo(self, table_id: int, user_id: str, version: int) -> UndoReply:
        return await self._undo.consent(table_id, user_id, version)

    @inputs.checked
    async def refuse_undo(self, table_id: int, user_id: str, version: int) -> UndoRequest:
        return await self._undo.decline(table_id, user_id, version)

    @inputs.checked
    async def undo_request_version(self, table_id: int) -> int | None:
        """The version the table's standing request to take a move back was made at, if any (it
        may have lapsed since: a request holds only while the table stays at that version)."""
        return await self._undo.standing_version(table_id)


__all__ = ["Referee"]
