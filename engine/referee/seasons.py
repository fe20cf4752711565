"""Seasons: fresh ladders for a server, over the same results.

A server's admin starts a season now, or has seasons roll over monthly or quarterly (boundaries
at 00:00 UTC on the first day of a month, or of January, April, July and October). A season is a
view over the results, never a deletion: it holds the results recorded after its start and up to
its end, by their order of recording (``seq``), and keeps a rating pool of its own beside the
all-time one. How a player's rating enters a new season is the season's ``carry``:

- ``continue``: their rating from the latest season they played in (or, before any, their
  all-time rating) carries on unchanged;
- ``soft``: the same rating, with mu moved halfway back to the default and sigma halfway back up
  to the default (``carried_rating``): earlier skill still counts, but the new season can move it
  quickly.

A season ends when the next one starts, by hand or at its scheduled boundary. The boundary is
checked at every clock poll and by every result recorded (in the result's own transaction), so
a result is never counted in a season whose time has passed, and a restart or a downtime across
a boundary still ends the season once, at that boundary (``ended_at``). A season that ended is
*owed* its final standings until a front end posts them and marks them (``mark_announced``):
a crash at the boundary neither loses nor repeats the post (the post carries a nonce per season).

    plan = await seasons.schedule(guild, "monthly", "soft", channel_id)  # or: start(guild, ...)
    ended = await seasons.roll_over()        # the clock poll: seasons whose boundary passed
    for season in await seasons.owed():      # ...and any whose standings were never posted
        ...  # post seasons.standings(season) in season.channel_id, then:
        await seasons.mark_announced(season.id)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

import msgspec

from engine.core import GameError
from engine.core.text import quote
from engine.games import get_game
from engine.i18n import join_or, tr

from .ratings import Rating
from .reports import LeaderboardPage

MANUAL, MONTHLY, QUARTERLY = "manual", "monthly", "quarterly"
CADENCES = (MANUAL, MONTHLY, QUARTERLY)
CONTINUE, SOFT = "continue", "soft"
CARRIES = (CONTINUE, SOFT)
CARRY_TEXT = {
    CONTINUE: "ratings continue from the last season",
    SOFT: "ratings soft-reset (mu halfway back to the default, sigma halfway back up)",
}
SOFT_FRACTION = 0.5  # how far a soft reset moves mu and sigma back to the default
STANDINGS_ROWS = 10  # players per game in the final standings
ALL_TIME = "all"  # the /leaderboard choice of every rated game, seasons or not


class SeasonError(GameError):
    """A season request that cannot be done (said in the admin's words)."""


class SeasonPlan(msgspec.Struct, frozen=True, kw_only=True):
    """How a server runs its seasons."""

    guild_id: str
    cadence: str  # manual, monthly or quarterly
    carry: str  # continue or soft
    channel_id: str | None = None  # where final standings are posted


class Season(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    guild_id: str
    number: int  # 1, 2, ... per server
    name: str
    started_at: float
    ends_at: float | None = None  # its scheduled boundary (monthly, quarterly); None: by hand
    ended_at: float | None = None  # when it ended; None: the current season
    carry: str = CONTINUE  # how ratings entered this season
    channel_id: str | None = None  # where its final standings go
    announced: bool = False  # its final standings were posted

    @property
    def current(self) -> bool:
        return self.ended_at is None


class Standings(msgspec.Struct, frozen=True, kw_only=True):
    """A season's final (or current) leaderboards, one per game rated in it."""

    season: Season
    boards: list[LeaderboardPage]


# ----- the calendar (UTC) -------------------------------------------------------------------------


def _month_start(year: int, month: int) -> float:
    while month > 12:
        year, month = year + 1, month - 12
    return datetime(year, month, 1, tzinfo=UTC).timestamp()


def period_start(cadence: str, at: float) -> float:
    """The boundary at or before ``at`` of a monthly or quarterly cadence."""
    moment = datetime.fromtimestamp(at, UTC)
    month = moment.month if cadence == MONTHLY else 1 + 3 * ((moment.month - 1) // 3)
    return _month_start(moment.year, month)


def next_boundary(cadence: str, at: float) -> float:
    """The first boundary after ``at`` of a monthly or quarterly cadence."""
    moment = datetime.fromtimestamp(period_start(cadence, at), UTC)
    return _month_start(moment.year, moment.month + (1 if cadence == MONTHLY else 3))


def period_name(cadence: str, at: float) -> str:
    """What the period holding ``at`` is called: "March 2026", "2026 Q1"."""
    moment = datetime.fromtimestamp(at, UTC)
    if cadence == MONTHLY:
        return moment.strftime("%B %Y")
    return f"{moment.year} Q{1 + (moment.month - 1) // 3}"


def season_name(number: int, cadence: str, at: float) -> str:
    if cadence == MANUAL:
        return f"Season {number}"
    return f"Season {number} ({period_name(cadence, at)})"


def carried_rating(rating: Rating, carry: str, initial: Rating) -> Rating:
    """A rating as it enters a new season (see the module's text)."""
    if carry != SOFT:
        return rating
    return Rating(
        rating.mu + (initial.mu - rating.mu) * SOFT_FRACTION,
        rating.sigma + max(0.0, initial.sigma - rating.sigma) * SOFT_FRACTION,
    )


def check_plan(cadence: str, carry: str) -> None:
    if cadence not in CADENCES:
        raise SeasonError(tr("Seasons are {cadences}, not {cadence}.", cadences=", ".join(CADENCES), cadence=quote(cadence)))
    if carry not in CARRIES:
        raise SeasonError(tr("Ratings carry over as {carries}, not {carry}.", carries=join_or(list(CARRIES)), carry=quote(carry)))


# ----- storage --------------------------------------------------------------------------------------


class SeasonStore(Protocol):
    async def season_plan(self, guild_id: str) -> SeasonPlan | None: ...

    async def set_season_plan(self, plan: SeasonPlan, now: float) -> Season:
        """Store the plan; the current season (one is opened now if there is none) ends at the
        plan's next boundary (none: by hand). Returns the current season."""

    async def start_season(self, plan: SeasonPlan, now: float) -> Season:
        """In ONE transaction: roll over what is due, end the current season now, open the next
        (carrying ratings as ``plan.carry`` says; its standings go to ``plan.channel_id``)."""

    async def roll_over_seasons(self, now: float) -> list[int]:
        """End every season whose boundary is at or before ``now`` (at its boundary) and open the
        next; returns the ids of the seasons ended."""

    async def seasons(self, guild_id: str) -> list[Season]:
        """A server's seasons, latest first."""

    async def seasons_owed(self) -> list[Season]:
        """Ended seasons whose final standings were not posted yet, oldest first."""

    async def mark_season_announced(self, season_id: int) -> None: ...

    async def season_games(self, season_id: int) -> list[str]:
        """The games rated in a season, most played first."""

    async def season_leaderboard(
        self, season_id: int, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage: ...


class Seasons:
    """The referee's room for seasons (see the module's text)."""

    def __init__(self, store: SeasonStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def plan(self, guild_id: str) -> SeasonPlan | None:
        return await self.store.season_plan(guild_id)

    async def start(self, guild_id: str, carry: str, channel_id: str | None = None) -> Season:
        """End the current season now and open the next; the cadence stays as it was."""
        plan = await self.store.season_plan(guild_id)
        check_plan(plan.cadence if plan else MANUAL, carry)
        plan = SeasonPlan(
            guild_id=guild_id,
            cadence=plan.cadence if plan else MANUAL,
            carry=carry,
            channel_id=channel_id or (plan.channel_id if plan else None),
        )
        return await self.store.start_season(plan, self.clock())

    async def schedule(
        self, guild_id: str, cadence: str, carry: str, channel_id: str | None = None
    ) -> Season:
        """Run seasons by ``cadence`` from now on (the current season, or a new one, ends at the
        next boundary; ``manual``: only when started by hand); returns the current season."""
        check_plan(cadence, carry)
        plan = SeasonPlan(guild_id=guild_id, cadence=cadence, carry=carry, channel_id=channel_id)
        return await self.store.set_season_plan(plan, self.clock())

    async def roll_over(self, now: float | None = None) -> list[int]:
        return await self.store.roll_over_seasons(self.clock() if now is None else now)

    async def seasons(self, guild_id: str) -> list[Season]:
        return await self.store.seasons(guild_id)

    async def current(self, guild_id: str) -> Season | None:
        found = await self.store.seasons(guild_id)
        return found[0] if found and found[0].current else None

    async def find(self, guild_id: str, wanted: str) -> Season | None:
        """The season a player asked for: its number, or its name (any case); None for all time."""
        wanted = wanted.strip()
        if wanted.lower() in (ALL_TIME, "all time", "all-time"):
            return None
        for season in await self.store.seasons(guild_id):
            if wanted == str(season.number) or wanted.lower() == season.name.lower():
                return season
        raise SeasonError(tr("There is no season {season} on this server.", season=quote(wanted)))

    async def leaderboard(
        self, season: Season, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        return await self.store.season_leaderboard(season.id, get_game(game).name, offset=offset, limit=limit)

    async def standings(self, season: Season, limit: int = STANDINGS_ROWS) -> Standings:
        boards = [
            await self.store.season_leaderboard(season.id, game, limit=limit)
            for game in await self.store.season_games(season.id)
        ]
        return Standings(season=season, boards=boards)

    async def owed(self) -> list[Season]:
        return await self.store.seasons_owed()

    async def mark_announced(self, season_id: int) -> None:
        await self.store.mark_season_announced(season_id)
