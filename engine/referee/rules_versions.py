"""Rules versions: a bot upgraded while games run keeps every running game on the rules it started
with, or refuses to start.

Every game declares ``Game.rules_version`` and every table stores the version it started with.
At start-up the referee replays each running game started under another version with the code it
has now, from its seed, options and move log: a move the new rules refuse, or a position that
differs from the stored one, would change a game in progress, and the bot must not start (the
operator keeps the old release until those games end, or keeps the old rules as a versioned
module). A replay that matches proves the upgrade compatible for that game so far. Games started
under the current version need no replay: the code that dealt them is the code that runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from engine.core import GameRecord, ReplayError, replay
from engine.games import REGISTRY, get_game

from .model import RUNNING, Table
from .store import TableStore


class RulesChanged(Exception):
    """The rules of this code would change games in progress: the bot must not start."""

    def __init__(self, changed: list[RulesChange]) -> None:
        self.changed = changed
        lines = "\n".join(f"  table {c.table_id} ({c.game}, rules v{c.started_with} -> v{c.now}): {c.why}" for c in changed)
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
        """Why the current rules would change this game, or None when it replays the same."""
        game = get_game(table.game)
        record = GameRecord(
            game=table.game,
            players=len(table.seats),
            seed=table.seed or 0,
            options=table.options,
            moves=await self.store.move_log(table.id),
        )
        try:
            state, _ = replay(game, record)
        except ReplayError as error:
            return f"move {error.index + 1} is refused now ({error.reason})"
        except Exception as error:  # a setup or option the new code rejects
            return f"the game no longer sets up ({type(error).__name__}: {error})"
        stored = await self.store.load_state(table.id)
        if stored is None:
            return "no stored position"
        try:
            same = game.decode_state(stored) == state
        except msgspec.DecodeError as error:
            return f"the stored position no longer reads ({error})"
        return None if same else "the position after its moves differs"
