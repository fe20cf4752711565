"""The result of a finished game as it is stored: final ranks with forfeits, board, rated or not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import STACKING_OPTIONS, Outcome

from .clock import get_speed
from .model import (
    FRIENDLY_BOARD,
    RATED_BOARD,
    SOLO_BOARD,
    STACKED_BOARD,
    WITH_AI_BOARD,
    GameResult,
    ResultSeat,
    Table,
)


def penalised_seats(outcome: Outcome, forfeited: set[int]) -> set[int]:
    """Seats ranked last: the forfeited ones, and their team mates (a team's result is shared)."""
    penalised = set(forfeited)
    for team in outcome.teams or []:
        if penalised.intersection(team):
            penalised.update(team)
    return penalised


def final_outcome(outcome: Outcome, forfeited: set[int]) -> Outcome:
    """The game's outcome with forfeited seats ranked last (sharing the last rank); the others
    keep their order and ties. Scores are the game's own."""
    if not forfeited:
        return outcome
    penalised = penalised_seats(outcome, forfeited)
    keys = [(seat in penalised, 0 if seat in penalised else rank) for seat, rank in enumerate(outcome.ranks)]
    ranks = [1 + sum(1 for other in keys if other < key) for key in keys]
    return Outcome(scores=list(outcome.scores), ranks=ranks, teams=outcome.teams, seating=outcome.seating)


# The options that stack a deal rather than let the seed deal it (``deck``, ``decks`` one per hand,
# ``first_dealer``) are named once, in engine.core; every check for a stacked table goes through is_stacked.


def is_stacked(options: Mapping[str, Any]) -> bool:
    """Whether these table options stack the deal. A stacked deal is for tests, the local table
    and the simulator: its game is never rated nor ranked, and Discord refuses it."""
    return any(options.get(name) for name in STACKING_OPTIONS)


def board_of(table: Table) -> tuple[str | None, bool]:
    """Which board a game counts for, and whether it is rated.

    Rated: at least two humans, no AI seat chosen in the lobby, a rated speed, and a deal left to
    the seed. A human seat that an AI took over after a skip keeps the game rated (otherwise
    leaving would dodge a loss). A stacked deal counts for no board, whoever plays it.
    """
    humans = [seat for seat in table.seats if not seat.is_ai]
    lobby_ai = len(humans) < len(table.seats)
    if not humans:
        return None, False
    if is_stacked(table.options):
        return STACKED_BOARD, False
    if lobby_ai:
        return WITH_AI_BOARD, False
    if len(humans) == 1:
        return SOLO_BOARD, False
    if get_speed(table.speed).rated:
        return RATED_BOARD, True
    return FRIENDLY_BOARD, False


def build_result(table: Table, game_outcome: Outcome, finished_at: float) -> GameResult:
    forfeited = {seat.index for seat in table.seats if seat.forfeited}
    final = final_outcome(game_outcome, forfeited)
    team_of = {seat: number for number, team in enumerate(game_outcome.teams or []) for seat in team}
    board, rated = board_of(table)
    return GameResult(
        table_id=table.id,
        game=table.game,
        guild_id=table.guild_id,
        speed=table.speed,
        rated=rated,
        board=board,
        finished_at=finished_at,
        outcome=final,
        seats=[
            ResultSeat(
                seat=seat.index,
                name=seat.name,
                user_id=seat.user_id,
                is_ai=seat.is_ai,
                score=float(game_outcome.scores[seat.index]),
                game_rank=game_outcome.ranks[seat.index],
                rank=final.ranks[seat.index],
                team=team_of.get(seat.index),
                forfeited=seat.forfeited,
                ai_played=seat.is_ai or seat.ai_played,
            )
            for seat in table.seats
        ],
    )
