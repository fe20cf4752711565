"""The storage interface the referee needs; db/ implements it with SQLite.

One small protocol per job, so that another backend implements them piece by piece: the tables
and their moves (``TableStore``), the clocks (``ClockStore``), the results and ratings
(``ResultStore``), the players' settings (``UserStore``) and the announcement outbox
(``AnnouncementStore``), vacations (``VacationStore``), rematches (``RematchStore``) and the
claims that let several processes share the store (``ClaimStore``; claims.py). ``Store`` is all
of them together, with ``close``. The limits rows
have their own protocol beside the limits (limits.py: ``LimitsStore``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from engine.core import RecordedMove

from .clock import QuietHours, Vacation
from .model import AnnouncedMark, GameResult, PendingAnnouncement, RatingChange, Seat, Table, TimedSeat
from .ratings import Rating
from .reports import HighScore, LeaderboardPage, PlayerStats, TableLinks


class AnnouncementStore(Protocol):
    async def pending_announcements(self) -> list[PendingAnnouncement]:
        """Running and finished tables whose board or notices are behind their version."""

    async def mark_announced(self, mark: AnnouncedMark) -> None:
        """Raise the announced versions (a delivery worked): also clears the unreachable mark.
        Marks that arrive together are written as one statement of the group commit."""

    async def mark_unreachable(self, table_id: int, since: float | None) -> None:
        """Set (``since``: when first seen) or clear (None) the "cannot reach" mark."""

    async def unreachable_table_ids(self, table_ids: Iterable[int] | None = None) -> dict[int, float]:
        """{table id: unreachable since} among ``table_ids`` (None: all tables)."""


class ClaimStore(Protocol):
    """Leases on work that must happen once across processes sharing the store (claims.py)."""

    async def claim(self, kind: str, table_ids: Sequence[int], owner: str, now: float, until: float) -> list[int]:
        """For ``owner``, until ``until``: claim each of ``table_ids`` (for this ``kind`` of work)
        that nobody else holds at ``now`` (never claimed, expired, or ``owner``'s own: renewed),
        atomically against other processes. Returns the ones claimed, in the order given."""

    async def release(self, kind: str, table_ids: Sequence[int], owner: str) -> None:
        """Give back ``owner``'s claims on these tables (another owner's are left alone)."""


class TableStore(Protocol):
    """Tables, their seats, their move log and their state snapshot."""

    async def create_table(self, table: Table) -> int:
        """Insert a new table (lobby) with its seats; returns its id."""

    async def load_table(self, table_id: int) -> Table | None: ...

    async def load_state(self, table_id: int) -> bytes | None:
        """The latest state snapshot (JSON), or None before the start."""

    async def save_table(self, table: Table, expected_version: int) -> None:
        """Save a table's fields and seats (lobby changes, start, cancel, links).

        Raises VersionConflict if the stored version is not ``expected_version`` or the stored
        revision not ``table.revision``; on success raises ``table.revision`` by one, as stored
        (every write of a table does: another process's copy of it is then stale)."""

    async def commit_moves(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        outcome: bytes | None = None,
        *,
        result: GameResult | None = None,
        changed_seats: Sequence[int] | None = None,
    ) -> list[RatingChange]:
        """In ONE transaction: append the moves to the log, replace the snapshot, store the table
        (new version and status) with its seats (turn flow, clocks) and, when the game ended, its
        result; for a rated ``result``, the rating events and new ratings too. Raises
        VersionConflict if the stored version is not ``expected_version`` or the revision not
        ``table.revision`` (raised by one on success, as ``save_table`` does). Returns the rating
        changes (empty unless a rated game ended). ``changed_seats``: the indexes of the only
        seats that differ from the stored ones (None: all of them), which spares rewriting the
        others."""

    async def move_log(self, table_id: int) -> list[RecordedMove]: ...

    async def running_tables_off_rules(self, current: Mapping[str, int]) -> list[int]:
        """The running tables whose stored rules version is not ``current[their game]`` (a game
        missing from ``current`` counts as off), by id."""

    async def list_tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]: ...


class UserStore(Protocol):
    """A player's flags and settings."""

    async def get_user_flag(self, user_id: str, flag: str) -> bool: ...

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None: ...

    async def get_quiet_hours(self, user_id: str) -> QuietHours | None: ...

    async def quiet_hours_of(self, user_ids: list[str]) -> dict[str, QuietHours]: ...

    async def set_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None: ...

    async def get_user_language(self, user_id: str) -> str | None:
        """The language the player chose for their private texts (engine.i18n code), if any."""

    async def set_user_language(self, user_id: str, code: str | None) -> None: ...


class VacationStore(Protocol):
    """Players' vacations (vacation.py): the latest of each pauses their clocks, those of the
    last year count against the allowance."""

    async def vacations_of(self, user_ids: list[str]) -> dict[str, Vacation]:
        """Each player's latest vacation (under way, ended, or ended early), if any."""

    async def vacations_since(self, user_id: str, since: float) -> list[Vacation]:
        """A player's vacations that began at or after ``since``, oldest first."""

    async def save_vacation(self, user_id: str, vacation: Vacation) -> None:
        """Store a vacation, or its new end (the same ``started_at``: ended early)."""


class RematchStore(Protocol):
    async def rematch_of(self, table_id: int) -> Table | None:
        """The newest lobby or running game opened as the rematch of ``table_id``, if any."""


class ClockStore(Protocol):
    """Due seats, running timed tables, turns waiting and the heartbeat."""

    async def due_table_ids(self, now: float) -> list[int]:
        """Running tables with a seat whose ``next_due_at`` is at or before ``now``."""

    async def next_due_at(self) -> float | None: ...

    async def running_timed_table_ids(self) -> list[int]: ...

    async def running_table_ids_to_resume(self) -> list[int]:
        """Running tables that need resuming (``needs_resume``) or have no thread yet."""

    async def running_timed_seats(self) -> list[TimedSeat]:
        """Every seat of a running timed table whose time counts (a running clock, skipped and not
        forfeited, or a next check set), with its table's version and speed and its player's quiet
        hours: in one read, whatever the number of tables."""

    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In ONE transaction: each seat's clock, absence start and next check, for the tables still
        running at the version read (a table that moved on keeps what it has), and the heartbeat
        when given. Returns the ids of the tables left alone."""

    async def waiting_seats(
        self, user_id: str, guild_ids: tuple[str, ...] | None = None
    ) -> list[tuple[TableLinks, str, Seat]]:
        """(links, speed, seat) where the user must act, oldest waiting first."""

    async def get_heartbeat(self) -> float | None: ...

    async def set_heartbeat(self, at: float) -> None: ...


class ResultStore(Protocol):
    """Results, ratings, leaderboards, statistics and history."""

    async def game_result(self, table_id: int) -> GameResult | None: ...

    async def ratings(self, guild_id: str | None, game: str) -> dict[str, tuple[Rating, int, int]]: ...

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]: ...

    async def rebuild_ratings(self, model: Any | None = None) -> int: ...

    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage: ...

    async def high_scores(
        self, guild_id: str | None, game: str, board: str, *, limit: int = 10
    ) -> list[HighScore]: ...

    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats: ...

    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]: ...


class Store(
    TableStore, ClockStore, ResultStore, UserStore, AnnouncementStore, VacationStore, RematchStore, ClaimStore, Protocol
):
    """Everything the referee asks of its storage."""

    async def close(self) -> None: ...
