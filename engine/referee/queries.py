"""Queries: what front ends read without changing anything: a table and its state, the board
and a player's private view, legal moves, outcomes, exported records, and the community scores
(results, leaderboards, high scores, player stats, history, ratings). The Referee's methods of
the same names document them.
"""

from __future__ import annotations

from typing import Any

from engine.core import GameRecord, Outcome
from engine.games import get_game
from engine.i18n import tr

from .audience import in_public
from .clock import get_speed
from .model import (
    FINISHED,
    RUNNING,
    SOLO_BOARD,
    WITH_AI_BOARD,
    GameResult,
    NotInGame,
    RatingChange,
    Table,
    WrongStatus,
)
from .presentation import clock_line
from .read_model import SeatSnapshot, seat_snapshot
from .reports import HighScore, LeaderboardPage, PlayerStats
from .tables import Tables
from .timekeeping import Timekeeping
from .turns import outcome_of, waiting_text


class Queries:
    def __init__(self, tables: Tables, timekeeping: Timekeeping) -> None:
        self.tables = tables
        self.timekeeping = timekeeping

    async def table(self, table_id: int) -> Table:
        return (await self.tables.load(table_id)).table

    async def state(self, table_id: int) -> Any:
        return (await self.tables.load(table_id)).state

    async def to_act(self, table_id: int) -> tuple[int, ...]:
        loaded = await self.tables.load(table_id)
        if loaded.state is None:
            return ()
        return get_game(loaded.table.game).to_act(loaded.state)

    async def tables_to_resume(self) -> list[int]:
        return await self.tables.store.running_table_ids_to_resume()

    async def result(self, table_id: int) -> GameResult | None:
        return await self.tables.store.game_result(table_id)

    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        return await self.tables.store.leaderboard(guild_id, get_game(game).name, offset=offset, limit=limit)

    async def high_scores(
        self, guild_id: str | None, game: str, board: str = SOLO_BOARD, *, limit: int = 10
    ) -> list[HighScore]:
        if board not in (SOLO_BOARD, WITH_AI_BOARD):
            raise ValueError(
                f"high scores are kept for {SOLO_BOARD!r} and {WITH_AI_BOARD!r} games, not {board!r}"
            )
        return await self.tables.store.high_scores(guild_id, get_game(game).name, board, limit=limit)

    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats:
        return await self.tables.store.player_stats(user_id, guild_id, recent=recent)

    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        name = get_game(game).name if game is not None else None
        return await self.tables.store.history(guild_id, game=name, limit=limit, offset=offset)

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        return await self.tables.store.rating_events(guild_id=guild_id, game=game, user_id=user_id)

    async def rebuild_ratings(self) -> int:
        return await self.tables.store.rebuild_ratings()

    async def board_text(self, table_id: int) -> str:
        loaded = await self.tables.started(table_id)
        game = get_game(loaded.table.game)
        views = await self.timekeeping.clock_views(table_id) if loaded.table.status == RUNNING else []
        with in_public():  # everybody at the table reads the board
            board = game.render_board(game.view(loaded.state, None), loaded.table.names)
            if loaded.table.status == RUNNING and get_speed(loaded.table.speed).timed:
                board += "\n" + clock_line(views)
        return board

    async def private_text(self, table_id: int, user_id: str) -> str:
        loaded = await self.tables.started(table_id)
        seat = loaded.table.seat_of(user_id)
        if seat is None:
            raise NotInGame(tr("You are not playing in this game."))
        game = get_game(loaded.table.game)
        return game.render_private(game.view(loaded.state, seat.index), loaded.table.names)

    async def legal_moves(self, table_id: int, user_id: str) -> list[str]:
        return [text for text, _ in await self.described_moves(table_id, user_id, describe=False)]

    async def described_moves(
        self, table_id: int, user_id: str, *, describe: bool = True
    ) -> list[tuple[str, str]]:
        loaded = await self.tables.load(table_id)
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

    async def outcome(self, table_id: int) -> Outcome | None:
        loaded = await self.tables.load(table_id)
        if loaded.table.status != FINISHED:
            return None
        return outcome_of(get_game(loaded.table.game), loaded)

    async def record(self, table_id: int) -> GameRecord:
        table = (await self.tables.started(table_id)).table
        if table.status == RUNNING:
            raise WrongStatus(tr("A game's record can be exported once the game has ended."))
        return GameRecord(
            game=table.game,
            players=len(table.seats),
            seed=table.seed or 0,
            options=table.options,
            moves=await self.tables.store.move_log(table_id),
        )

    async def snapshot(self, table_id: int, user_id: str | None = None) -> SeatSnapshot:
        return await seat_snapshot(self.tables, table_id, user_id)

    async def waiting_text(self, table_id: int) -> str:
        loaded = await self.tables.running(table_id)
        return waiting_text(get_game(loaded.table.game), loaded)
