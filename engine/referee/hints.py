"""Hints: what the *normal* AI would play in a player's place, and why, in one line.

Only in unrated games (a hint in a rated game would be help from outside the game), only to a
seat that must act, and computed by the referee's thinker (worker processes at the bot and the
local table) from what that seat may know: the search reads the seat's knowledge only. The
table's lock is held while the request is taken (one version of the state), not while the
search thinks.
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from engine.core import GameError
from engine.games import get_game
from engine.i18n import N_, language, tr

from .levels import level_name, player_kind
from .model import NotInGame, Table
from .results import board_of
from .tables import Tables
from .thinking import Thought
from .turns import Turns, waiting_text

HINT_LEVEL = "normal"
RATED_REFUSAL = N_("Hints are off in rated games: the moves must be your own.")  # shown as tr(RATED_REFUSAL)


class HintRefused(GameError):
    """No hint now: a rated game, or not this player's turn (the message says which)."""


def hints_allowed(table: Table, seat: int, to_act: Collection[int]) -> bool:
    """Whether seat ``seat`` may ask for a hint now: an unrated game, its own turn, not played by
    an AI (skipped or forfeited)."""
    mine = table.seats[seat]
    return not board_of(table)[1] and seat in to_act and not mine.plays_by_ai and not mine.forfeited


class Hints:
    def __init__(self, tables: Tables, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns

    async def hint(self, table_id: int, user_id: str) -> str:
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            table = loaded.table
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotInGame(tr("You are not playing in this game."))
            if board_of(table)[1]:
                raise HintRefused(tr(RATED_REFUSAL))
            game = get_game(table.game)
            state = loaded.state
            if not hints_allowed(table, seat.index, game.to_act(state)) or not game.legal_moves(state, seat.index):
                raise HintRefused(tr("No hint now: it is not your turn.") + " " + waiting_text(game, loaded))
            request = self.turns.think_request(game, loaded, seat.index, player_kind(game, HINT_LEVEL), explain=True)
        # The reason is written by the thinker, perhaps in another process: it is told the
        # reader's language (a context variable does not cross processes).
        thought = await self.turns.thinker.think(msgspec.structs.replace(request, language=language()))
        return hint_line(thought)


def hint_line(thought: Thought) -> str:
    """The hint in one line, in the reader's language: "normal would choose 7c: expected share of
    the win about 62%." (the move stays in notation)."""
    return tr("{level} would choose {move}: {reason}.", level=level_name(HINT_LEVEL), move=thought.move, reason=thought.reason)
