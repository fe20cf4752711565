"""Abandon by vote: the players of a running game agree to stop it; the game ends unrated.

Each person playing their own seat (not an AI seat, not a forfeited one) has one vote, kept on
the table (``Table.abandon_votes``, stored with it, so a restart keeps it) until the game ends.
The table's ``abandon_rule``, chosen when the table was created, says when the votes suffice:

- ``unanimous`` (the default): every person still playing voted;
- ``host-majority``: the host voted and more than half of the people still playing did (a host
  who does not play, or forfeited, has no vote: then the majority alone decides).

The vote that decides ends the game at once: the clocks stop, nothing is due any more, and the
result is stored in the same transaction, on the ``abandoned`` board: it shows in history and
in each player's latest games, never in ratings, leaderboards, high scores or win counts.

    outbox = await referee.vote_abandon(table_id, "alice")   # the board shows the vote
    outbox.finished                                         # True once the votes suffice
"""

from __future__ import annotations

import msgspec

from engine.core import GameError, Outcome
from engine.core.text import quote
from engine.i18n import N_, join_and, join_or, tr

from . import clock as clocks
from .audience import in_public
from .clock import get_speed
from .model import (
    ABANDON_RULES,
    ABANDONED,
    ABANDONED_BOARD,
    HOST_MAJORITY,
    GameResult,
    NotInGame,
    Outbox,
    Seat,
    Table,
)
from .results import build_result
from .tables import Tables, copy_table

# The public line of the vote that decides (also when a restart tells it: announcements.py).
ABANDONED_LINE = N_("The players voted to abandon the game: it ends here, unrated.")


class AbandonRefused(GameError):
    """A vote that cannot be counted (already voted, not voted yet, an unknown rule...)."""


def checked_rule(rule: str) -> str:
    """The abandon rule named, or AbandonRefused listing them."""
    name = rule.strip().lower()
    if name not in ABANDON_RULES:
        raise AbandonRefused(tr("Unknown abandon rule {rule}; choose {rules}.", rule=quote(rule), rules=join_or(list(ABANDON_RULES))))
    return name


def voters(table: Table) -> list[Seat]:
    """The seats that have a vote: people playing, not forfeited."""
    return [seat for seat in table.seats if not seat.is_ai and not seat.forfeited]


def votes_needed(table: Table) -> int:
    """How many votes end the game under the table's rule (the host's among them, for
    ``host-majority``, when the host has a vote)."""
    count = len(voters(table))
    return count // 2 + 1 if table.abandon_rule == HOST_MAJORITY else count


def decided(table: Table) -> bool:
    """Whether the votes cast end the game under the table's rule."""
    people = voters(table)
    votes = {seat.index for seat in people} & set(table.abandon_votes)
    if table.abandon_rule != HOST_MAJORITY:
        return len(votes) == len(people) and bool(people)
    host = table.seat_of(table.host)
    host_votes = host is None or host not in people or host.index in votes
    return host_votes and len(votes) >= votes_needed(table)


def vote_line(table: Table) -> str:
    """The vote as the board shows it ("" when nobody voted): "Vote to abandon: alice (1 of 2,
    unanimous)"."""
    people = {seat.index: seat.name for seat in voters(table)}
    names = [people[index] for index in table.abandon_votes if index in people]
    if not names:
        return ""
    shown, count, needed = join_and(names), len(names), votes_needed(table)
    if table.abandon_rule != HOST_MAJORITY:
        return tr("Vote to abandon: {names} ({count} of {needed} needed, unanimous)", names=shown, count=count, needed=needed)
    return tr(
        "Vote to abandon: {names} ({count} of {needed} needed, the host and a majority)",
        names=shown,
        count=count,
        needed=needed,
    )


def abandoned_result(table: Table, at: float) -> GameResult:
    """The stored result of an abandoned game: nobody won, nobody is rated; every seat shares
    rank 1 with no score, and the ``abandoned`` board keeps it out of every count."""
    count = len(table.seats)
    result = build_result(table, Outcome(scores=[0.0] * count, ranks=[1] * count), at)
    return msgspec.structs.replace(result, board=ABANDONED_BOARD, rated=False)


class AbandonVotes:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def vote(self, table_id: int, user_id: str, *, withdraw: bool = False) -> Outbox:
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            table = loaded.table
            seat = table.seat_of(user_id)
            if seat is None or seat.is_ai:
                raise NotInGame(tr("Only the players of this game can vote to abandon it."))
            if seat.forfeited:
                raise AbandonRefused(tr("You forfeited this game, so you have no vote on it."))
            voted = seat.index in table.abandon_votes
            if withdraw and not voted:
                raise AbandonRefused(tr("You have not voted to abandon this game."))
            if not withdraw and voted:
                raise AbandonRefused(
                    tr("You already voted to abandon this game; `/game abandon withdraw:True` takes it back.")
                )
            new_table = copy_table(table)
            now = self.tables.clock()
            new_table.updated_at = now
            if withdraw:
                new_table.abandon_votes.remove(seat.index)
                with in_public():
                    line = tr("{name} takes back their vote to abandon the game.", name=seat.name)
            else:
                new_table.abandon_votes.append(seat.index)
                with in_public():
                    line = tr("{name} votes to abandon the game.", name=seat.name)
            outbox = Outbox(table=new_table, board_changed=True, public_log=[line])
            if not decided(new_table):
                await self.tables.save_seats(loaded, new_table)
                return outbox
            await self._abandon(new_table, now)
            assert loaded.encoded is not None  # a running game has its state stored
            result = abandoned_result(new_table, now)
            await self.tables.store.commit_moves(new_table, table.version, [], loaded.encoded, result=result)
            loaded.table = new_table
            outbox.finished, outbox.result = True, result
            with in_public():
                outbox.public_log.append(tr(ABANDONED_LINE))
            return outbox

    async def _abandon(self, table: Table, now: float) -> None:
        """Stop every clock (no increment) and clear what was due: nothing happens at the table
        any more."""
        speed = get_speed(table.speed)
        quiet = await self.tables.quiet_hours_at(table) if speed.timed else {}
        table.status = ABANDONED
        table.needs_resume = False
        for seat in table.seats:
            if seat.clock is not None:
                seat.clock = clocks.pause(seat.clock, now, speed, quiet.get(seat.index))
            seat.waiting_since = seat.next_due_at = None
