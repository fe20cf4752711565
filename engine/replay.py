"""Replay a game record and print the result as JSON.

    python -m engine.replay RECORD.json

A record is {"game", "players", "seed", "options", "moves": [{"seat": 0, "move": "7c"}, ...]}
(exported by the referee for any started game). Prints the final public view with the scores,
or the index and reason of the first move that cannot be played.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import msgspec

from engine.core import GameError, GameRecord, ReplayError, replay
from engine.games import get_game


def replay_record(record: GameRecord) -> dict[str, object]:
    game = get_game(record.game)
    try:
        state, _ = replay(game, record)
    except ReplayError as error:
        return {"ok": False, "failed_at": error.index, "reason": error.reason}
    report: dict[str, object] = {
        "ok": True,
        "game": game.name,
        "moves": len(record.moves),
        "over": game.is_over(state),
        "public_view": game.view(state, None),
    }
    if game.is_over(state):
        outcome = game.outcome(state)
        report["scores"] = outcome.scores
        report["ranks"] = outcome.ranks
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description="Replay a game record.")
    parser.add_argument("record", help="path to a JSON game record, or - for standard input")
    args = parser.parse_args(argv)
    raw = sys.stdin.buffer.read() if args.record == "-" else open(args.record, "rb").read()
    try:
        record = msgspec.json.decode(raw, type=GameRecord)
        report = replay_record(record)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        report = {"ok": False, "reason": f"not a game record: {error}"}
    except GameError as error:
        report = {"ok": False, "reason": str(error)}
    json.dump(report, sys.stdout, default=str)
    sys.stdout.write("\n")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
