"""Plain, ready-to-render answers for front ends: turns waiting, due clock actions, clocks on the
board, leaderboards, high scores, player stats and history. Front ends only format them."""

from __future__ import annotations

from typing import Any, Self

import msgspec

from .model import Outbox, Seat

# How often a front end should call Referee.due_actions at least, even with nothing due: each
# call stores the heartbeat from which downtime is measured after a crash.
HEARTBEAT_SECONDS = 60.0


class TableLinks(msgspec.Struct, kw_only=True):
    """Where a front end shows a table (for a Discord link: guild, thread or channel, message)."""

    table_id: int
    game: str
    guild_id: str | None = None
    channel_id: str | None = None
    thread_id: str | None = None
    message_id: str | None = None


class WaitingTurn(msgspec.Struct, kw_only=True):
    """A running game where a user must act (``/turns``)."""

    links: TableLinks
    seat: int
    speed: str
    waiting_since: float
    remaining: float | None = None  # seconds left on the seat's clock; None: untimed
    deadline: float | None = None  # when the seat runs out if nothing changes
    ran_out: bool = False  # out of time: the other players may skip this seat


class SeatNotice(msgspec.Struct, kw_only=True):
    """What the clock notices below say of their seat: which table, which seat, whose."""

    links: TableLinks
    seat: int
    user_id: str | None
    name: str

    @classmethod
    def of(cls, links: TableLinks, seat: Seat, **details: Any) -> Self:
        """The notice about ``seat`` at the table of ``links``, with its own ``details``."""
        return cls(links=links, seat=seat.index, user_id=seat.user_id, name=seat.name, **details)


class Reminder(SeatNotice, kw_only=True):
    """Tell one player (privately, never the channel) that their time is running."""

    user_id: str  # a reminder goes to a player, never to an AI seat
    remaining: float
    deadline: float
    rung: int  # 1 for the first reminder of the turn, 2 for the next...
    final: bool  # the last rung of the ladder ("near the end")
    # Not a reminder but the "you ran out" notice, held back by the player's quiet hours until
    # they ended (``deadline``: when they ended); ``skipped``: the seat was skipped meanwhile.
    ran_out: bool = False
    skipped: bool = False


class TimeoutNotice(SeatNotice, kw_only=True):
    """A seat ran out of time: the other players (listed) may now skip it."""

    ran_out_at: float
    can_skip: list[str]  # user ids allowed to call Referee.skip for this seat
    # Nobody could skip it, so the referee did (its board is among DueActions.moves).
    skipped: bool = False
    # Tell its player now; False in their quiet hours: a Reminder with ``ran_out`` comes after them.
    tell_player: bool = True


class ForfeitNotice(SeatNotice, kw_only=True):
    """A skipped seat stayed away: it is forfeited (ranked last; the AI plays it to the end)."""


class DueActions(msgspec.Struct, kw_only=True):
    """What a front end's background task must do now; ``next_due_at`` says when to poll again."""

    now: float
    reminders: list[Reminder] = []
    timeouts: list[TimeoutNotice] = []
    forfeits: list[ForfeitNotice] = []
    # What the referee did itself at a table (a seat nobody could skip, the AI taking over a
    # forfeited seat of a game that waited): front ends publish each like a move.
    moves: list[Outbox] = []
    next_due_at: float | None = None

    def wait_seconds(self, limit: float = HEARTBEAT_SECONDS) -> float:
        """How long to sleep before the next poll: until something is due, at most ``limit``."""
        if self.next_due_at is None:
            return limit
        return max(0.0, min(limit, self.next_due_at - self.now))


class SeatClockView(msgspec.Struct, kw_only=True):
    """One seat's clock for the board."""

    seat: int
    name: str
    remaining: float  # seconds, never negative
    running: bool
    deadline: float | None = None
    ran_out: bool = False
    absent: bool = False  # skipped: the AI plays it
    forfeited: bool = False
    quiet: bool = False  # in the player's quiet hours now (a daily clock is paused)
    vacation_until: float | None = None  # the player is on vacation until then (every clock paused)


class LeaderboardRow(msgspec.Struct, kw_only=True):
    position: int  # 1-based; tied ratings share a position (1, 1, 3)
    user_id: str
    name: str
    rating: float  # the ordinal (mu - 3 sigma), what the board is ordered by
    mu: float
    sigma: float
    games: int  # rated games
    wins: int
    best_score: float | None
    provisional: bool


class LeaderboardPage(msgspec.Struct, kw_only=True):
    guild_id: str | None
    game: str
    rows: list[LeaderboardRow]
    total: int  # rated players in all, for "page 2 of 5"
    offset: int
    limit: int


class HighScore(msgspec.Struct, kw_only=True):
    position: int  # equal scores share a position
    user_id: str
    name: str
    score: float
    table_id: int
    finished_at: float


class GameStats(msgspec.Struct, kw_only=True):
    """One user's record in one game (every finished game with them in a human seat)."""

    game: str
    games: int
    wins: int
    average_score: float
    best_score: float
    forfeits: int
    rating: float | None = None  # ordinal in this server, when they have played rated games here
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0
    provisional: bool = True


class RecentResult(msgspec.Struct, kw_only=True):
    table_id: int
    game: str
    guild_id: str | None
    finished_at: float
    rank: int
    players: int
    score: float
    forfeited: bool
    rated: bool
    board: str | None
    rating_change: float | None = None  # change of the ordinal, for rated games


class PlayerStats(msgspec.Struct, kw_only=True):
    user_id: str
    guild_id: str | None  # None: every server
    games: list[GameStats]
    recent: list[RecentResult]
