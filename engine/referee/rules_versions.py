"""Rules versions: a bot upgraded while games run keeps every running game on the rules it started
with, or refuses to start.

Every game declares ``Game.rules_version`` and every table stores the version it started with.
At start-up the referee replays each running game started under another version with the code it
has now, from its seed, options and move log: a move the new rules refuse, or a position that
differs from the stored one, would change a game in progress, and the bot must not start (the
operator keeps the old release until those games end, or keeps the old rules as a versioned
module). A replay that matches proves the upgrade compatible for that game so far. Games started
under the current version need no replay: the code that dealt them is the code that runs.

Any failure of the new code on an old game (a refused move, an exception, a stored position it
cannot read) is a reason not to start, said in words and naming the move log's entry. Only the
ids of the games to replay are read at once; each game is read, replayed and dropped in turn, so
memory stays flat (3,000 games: about 3 MB at the peak). The cost is the replay: about 10 ms a
game of Draft Cider or Figures, 20 of Vege tables, 50 of a La Granja game of 150 moves, plus
some 7 of reads (a shared two-core machine): 3,000 games took 139 s, once per start while
games started on other rules remain.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine.core import GameError, ReplayError, standing_moves
from engine.games import REGISTRY, get_game

from .model import RUNNING, Table
from .store import TableStore

log = logging.getLogger(__name__)

SHOWN = 10  # changed games listed in the message


class RulesChanged(Exception):
    """The rules of this code would change games in progress: the bot must not start."""

    def __init__(self, changed: list[RulesChange]) -> None:
        self.changed = changed
        shown = [f"  table {c.table_id} ({c.game}, rules v{c.started_with} -> v{c.now}): {c.why}" for c in changed[:SHOWN]]
        if len(changed) > SHOWN:  # thousands of lines would bury the advice; ``changed`` has them all
            shown.append(f"  ... and {len(changed) - SHOWN} more")
        lines = "\n".join(shown)
        super().__init__(
            f"{len(changed)} running game(s) would not replay the same on this version's rules:\n{lines}\n"
            "Run the previous release until they end (or keep their rules as a versioned module)."
        )


@dataclass(frozen=True)
class RulesChange:
    table_id: int
    game: str
    started_with: int
    now: int
    why: str


@dataclass(frozen=True)
class RulesCheck:
    """What the start-up check did: the running games it replayed, all found unchanged."""

    replayed: int


def current_rules_versions() -> dict[str, int]:
    return {name: get_game(name).rules_version for name in REGISTRY}


class RulesVersions:
    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def check(self) -> RulesCheck:
        """Replay every running game started under other rules; raises RulesChanged listing each
        game the current rules would change."""
        table_ids = await self.store.running_tables_off_rules(current_rules_versions())
        if table_ids:  # some tens of milliseconds a game: thousands make the operator wait a while
            log.info("replaying %d running games started on other rules before starting", len(table_ids))
        changed: list[RulesChange] = []
        replayed = 0
        for table_id in table_ids:
            table = await self.store.load_table(table_id)
            if table is None or table.status != RUNNING or table.game not in REGISTRY:
                # Ended since the read, or a game this version does not have at all: that one is
                # refused in words whenever someone opens it, and must not stop every other game.
                continue
            replayed += 1
            why = await self._difference(table)
            if why is not None:
                now = get_game(table.game).rules_version
                changed.append(RulesChange(table_id, table.game, table.rules_version, now, why))
        if changed:
            raise RulesChanged(changed)
        return RulesCheck(replayed=replayed)

    async def _difference(self, table: Table) -> str | None:
        """Why the current rules would change this game, or None when it replays the same. Any
        failure of the new code on an old game is a difference, said in words: the operator
        reads it instead of a traceback."""
        game = get_game(table.game)
        try:
            state = game.new_game(len(table.seats), table.seed or 0, table.options)
        except Exception as error:  # a setup or option the new code rejects
            return f"the game no longer sets up ({_named(error)})"
        try:
            for index, recorded in standing_moves(await self.store.move_log(table.id)):
                try:
                    state, _ = game.apply(state, recorded.seat, game.parse_move(recorded.move))
                except GameError as error:
                    return f"move {index + 1} is refused now ({error})"
                except Exception as error:  # the new code fails where the old one played
                    return f"move {index + 1} fails now ({_named(error)})"
        except ReplayError as error:
            return f"its move log no longer reads (entry {error.index + 1}: {error.reason})"
        stored = await self.store.load_state(table.id)
        if stored is None:
            return "no stored position"
        try:
            same = game.decode_state(stored) == state
        except Exception as error:  # msgspec's errors, or a hook of the new state type
            return f"the stored position no longer reads ({_named(error)})"
        return None if same else "the position after its moves differs"


def _named(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"
