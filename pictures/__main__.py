"""Draw a position for review: random legal moves from a seed, then the pictures of the board,
of every seat's hand, and of the result when the game has ended.

    python -m pictures --game granja --seed 7 --after 120 --out /tmp/granja [--players 3] [--option NAME=VALUE ...]

writes ``board.png``, ``seat-1.png`` ... (seats numbered from 1, as on the boards) and
``result.png`` when the game is over after those moves (or before: the game stops at its end).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core import Game
from engine.games import REGISTRY, get_game
from engine.simulate import default_player_count, parse_options


def play(game: Game[Any, Any], players: int, seed: int, options: dict[str, Any], after: int) -> tuple[Any, list[list[float]]]:
    """The state after ``after`` random legal moves (fewer if the game ends), and every seat's
    score after the deal and after each move, read from the public view."""
    rng = random.Random(seed)
    state = game.new_game(players, seed, options)
    history = [_scores(game, state)]
    for _ in range(after):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        history.append(_scores(game, state))
    return state, history


def _scores(game: Game[Any, Any], state: Any) -> list[float]:
    view = game.view(state, None)
    scores = view.get("scores", view.get("totals", []))
    return [float(score) for score in scores]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pictures", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(REGISTRY))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--after", type=int, default=0, metavar="N", help="random legal moves to play first")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--players", type=int)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)

    game = get_game(args.game)
    if not game.draws:
        parser.error(f"{game.title} draws no pictures")
    raw_options = parse_options(args.option)
    players = args.players or default_player_count(game, raw_options)
    options = game.resolve_options(players, raw_options)
    state, history = play(game, players, args.seed, options, args.after)
    names = [f"Player {seat + 1}" for seat in range(players)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = ["board.png"]
    (out / "board.png").write_bytes(game.draw_board(game.view(state, None), names).png)
    for seat in range(players):
        name = f"seat-{seat + 1}.png"
        (out / name).write_bytes(game.draw_hand(game.view(state, seat), names).png)
        written.append(name)
    if game.is_over(state):
        from engine.pictures.result import draw_result

        (out / "result.png").write_bytes(draw_result(names, game.outcome(state), history).png)
        written.append("result.png")
    print(f"{game.title}, {players} players, seed {args.seed}, {len(history) - 1} moves: {' '.join(written)} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
