"""What the referee keeps about a table, and what it reports back to front ends."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.core import GameError, Outcome

from .clock import DEFAULT_SPEED, QuietHours, SeatClock, Vacation
from .ratings import Rating, is_provisional

LOBBY, RUNNING, FINISHED, ABANDONED = "lobby", "running", "finished", "abandoned"

# How the players of a running game abandon it by vote (abandon.py), chosen when the table is
# created: every person still playing agrees, or the host and more than half of them.
UNANIMOUS, HOST_MAJORITY = "unanimous", "host-majority"
ABANDON_RULES = (UNANIMOUS, HOST_MAJORITY)


class TableNotFound(GameError):
    pass


class NotInGame(GameError):
    pass


class WrongStatus(GameError):
    """The table is not in a state that allows this (not started yet, already over...)."""


class StaleVersion(GameError):
    """The player acted on a board that has changed since they saw it."""


class LobbyError(GameError):
    pass


class ForfeitedSeat(GameError):
    """The player forfeited this game: an AI plays their seat to the end."""


class QuietHoursError(GameError):
    """Quiet hours that make no sense (unknown time zone, hours out of range)."""


class SkipRefused(GameError):
    """A seat cannot be skipped (its time has not run out, the caller is not a player...)."""


class VersionConflict(Exception):
    """The store's version is not the one expected: someone else wrote first (not player-facing)."""


class StaleCache(StaleVersion):
    """The store refused a write because the referee's cached copy of the table was stale
    (another process wrote it); the copy is dropped. A player's move is judged again on the
    fresh table rather than refused (turns.py)."""


class Seat(msgspec.Struct, kw_only=True):
    index: int
    name: str
    user_id: str | None = None  # a front end's user id (Discord snowflake, or a local name)
    ai_kind: str | None = None  # "random", "greedy"... for AI seats
    # Turn flow of a running game (kept with the seat, written with every move):
    waiting_since: float | None = None  # when this seat last became one of those to act; None: not to act
    clock: SeatClock | None = None  # its time bank; None at untimed tables and for AI seats
    absent_since: float | None = None  # skipped: an AI plays this human seat since then
    skips: int = 0  # times the other players skipped this seat
    forfeited: bool = False  # the seat stayed away: ranked last, the AI plays it to the end
    ai_played: bool = False  # an AI has moved for this human seat at least once
    next_due_at: float | None = None  # when the clock needs looking at (reminder, flag, forfeit)

    @property
    def is_ai(self) -> bool:
        """An AI seat from the lobby (a skipped human seat stays a human seat: see plays_by_ai)."""
        return self.ai_kind is not None

    @property
    def absent(self) -> bool:
        return self.absent_since is not None

    @property
    def plays_by_ai(self) -> bool:
        return self.is_ai or self.absent


class Table(msgspec.Struct, kw_only=True):
    """A game table from lobby to result. ``version`` counts the moves applied so far."""

    id: int = 0
    game: str
    options: dict[str, Any] = {}
    host: str
    status: str = LOBBY
    seed: int | None = None
    version: int = 0
    seats: list[Seat] = []
    guild_id: str | None = None
    channel_id: str | None = None
    thread_id: str | None = None
    message_id: str | None = None  # lobby or latest board message, for front ends
    speed: str = DEFAULT_SPEED  # a key of engine.referee.clock.SPEEDS
    created_at: float = 0.0
    updated_at: float = 0.0
    # The referee has moves of its own to make (an AI or skipped seat to act, an automatic move):
    # stored with each change, so that a restart finds the games to resume without loading them.
    needs_resume: bool = False
    # The rules version of the game's code when the table was opened, then started (Game.rules_version).
    rules_version: int = 1
    abandon_rule: str = UNANIMOUS  # one of ABANDON_RULES
    abandon_votes: list[int] = []  # seats that voted to abandon the running game (abandon.py)
    rematch_of: int | None = None  # the finished game this lobby is the rematch of (rematch.py)
    # Raised by the store at every write of the table (a move or seats changed without one), on
    # the object written: the compare-and-swap that keeps another process's stale copy from
    # overwriting seats changed without a move (``version`` only counts moves).
    revision: int = 0

    def seat_of(self, user_id: str) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_ai]


class TimedSeat(msgspec.Struct, kw_only=True):
    """A seat of a running timed table whose time counts (its clock runs, it was skipped and may
    forfeit, or a check is due), with what re-arming it after a restart needs: read and written
    in bulk, without loading the game."""

    table_id: int
    version: int  # the table's version when read: a table that moved on since is left alone
    speed: str
    seat: Seat
    quiet: QuietHours | None = None  # its player's quiet hours
    vacation: Vacation | None = None  # its player's latest vacation (vacation.py)


class ResultSeat(msgspec.Struct, kw_only=True):
    """One seat of a finished game, as stored with its result."""

    seat: int
    name: str
    user_id: str | None
    is_ai: bool  # an AI seat from the lobby
    score: float
    game_rank: int  # the rank the rules gave
    rank: int  # the final rank: forfeited seats (and their team) ranked last
    team: int | None = None
    forfeited: bool = False
    ai_played: bool = False  # an AI played this seat (an AI seat, or a skipped human)


# Which board a finished game counts for.
RATED_BOARD = "rated"  # two or more humans, no AI seat from the lobby, a rated (timed) speed
FRIENDLY_BOARD = "friendly"  # the same at an untimed speed: stats only, no rating
SOLO_BOARD = "solo"  # one human alone: high scores
WITH_AI_BOARD = "with_ai"  # humans with AI seats from the lobby: high scores
STACKED_BOARD = "stacked"  # a stacked deal (tests, the local table, the simulator): stats only
ABANDONED_BOARD = "abandoned"  # abandoned by its players' vote: history only, never rated nor counted
# None: AI seats only (simulations): no board at all


class GameResult(msgspec.Struct, kw_only=True):
    """A finished game: written in the same transaction as its last move."""

    table_id: int
    game: str
    guild_id: str | None
    speed: str
    rated: bool
    board: str | None
    finished_at: float
    seats: list[ResultSeat]
    outcome: Outcome  # the final outcome (forfeits applied)

    @property
    def forfeits(self) -> int:
        return sum(1 for seat in self.seats if seat.forfeited)

    @property
    def ai_played(self) -> bool:
        return any(seat.ai_played for seat in self.seats)


class RatingChange(msgspec.Struct, kw_only=True):
    """One player's rating update from one game (also the stored rating event)."""

    user_id: str
    name: str
    guild_id: str  # "" for tables outside any server
    game: str
    before: Rating
    after: Rating
    rank: int
    games: int  # rated games played, this one included
    season: str | None = None  # the season's name when these are a season's ratings (else all-time)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


class PrivateReplay(msgspec.Struct, kw_only=True, frozen=True):
    """A move that wrote private lines (a card drawn, a well looked at), kept so that its lines
    can be written again in the language of the seat that reads them: the rules are pure, so the
    move played again from the state before it writes the same lines (audience.private_lines)."""

    game: str
    before: bytes  # the encoded state before the move
    seat: int
    move: str  # as stored
    names: list[str]
    readers: list[int]  # the seats that got private lines from it


class Outbox(msgspec.Struct, kw_only=True):
    """What changed after a referee call, for front ends to show. The referee never talks itself."""

    table: Table
    public_log: list[str] = []  # lines anyone may read, names filled in
    private_log: dict[int, list[str]] = {}  # seat -> lines only that seat may read
    # The moves that wrote those lines, to write them in each reader's language
    # (audience.private_lines), and the language they are written in; not rewritable when a move
    # could not be kept (its state was not encoded before it): then all stay as written.
    private_replays: list[PrivateReplay] = []
    private_language: str = ""
    private_rewritable: bool = True
    board_changed: bool = False
    # Human seats whose secret (Game.secret_view: hand, pending secret choice) changed, by any move
    # of this call (the mover's own included) or by the deal; not those whose legal moves or
    # prompts merely moved on. Front ends show these seats their private view again.
    private_changed: list[int] = []
    to_act: list[int] = []  # seats that must act now
    moves_applied: int = 0
    finished: bool = False
    outcome: Outcome | None = None  # the final result: forfeited seats are ranked last
    forfeited: list[int] = []  # seats forfeited by this call (or, when finished, in the game)
    result: GameResult | None = None  # the stored result, when this call ended the game
    rating_changes: list[RatingChange] = []  # rating updates stored with that result


class PendingAnnouncement(msgspec.Struct, kw_only=True, frozen=True):
    """A running or finished table whose board or private notices are behind its version."""

    table_id: int
    version: int
    board_version: int  # the last version whose board was posted (-1: none)
    notice_version: int  # the last version whose private notices were sent (-1: none)
    unreachable_since: float | None = None


class AnnouncedMark(msgspec.Struct, kw_only=True, frozen=True):
    """A delivery done: raise the table's announced versions to ``version`` (never lower them)."""

    table_id: int
    version: int
    board: bool
    notices: bool
