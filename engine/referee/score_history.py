"""Each seat's score over a game, for the result picture's chart, from the public views alone.

The record is replayed move by move (seed, options, move log: the game replays exactly) and
the scores are read from the public view after each move, so the chart shows only what every
player could see on the board at that moment, never a hidden running total. A game's public view
names its running scores ``scores`` (one number per seat) or, in Figures, ``totals``; a game
whose view shows no scores gets no chart.

    history = score_history(record)      # [[0, 0, 0, 0], [0, 3, 0, 0], ...] or []

Replaying costs about as much as playing the game once: front ends call it off the event loop
(engine/referee/pictures.py does, in its worker thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import GameError, GameRecord
from engine.games import get_game

SCORE_KEYS = ("scores", "totals")  # where the public views keep the running scores, in this order


def public_scores(view: Mapping[str, Any], players: int) -> list[float] | None:
    """The running scores shown on a public view (one number per seat), or None when it shows none."""
    for key in SCORE_KEYS:
        value = view.get(key)
        if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == players:
            if all(isinstance(score, int | float) and not isinstance(score, bool) for score in value):
                return [float(score) for score in value]
    return None


def score_history(record: GameRecord) -> list[list[float]]:
    """The scores after the deal and after each move (one list of one number per seat for each:
    entry ``n`` is the board after ``n`` moves); [] when the game's public view shows no scores or
    the record does not replay. A view that shows no scores for a moment keeps the last ones."""
    game = get_game(record.game)
    try:
        # One copy played on in place, as the referee does: replay() would copy the state per move.
        state = game.copy_state(game.new_game(record.players, record.seed, record.options))
        first = public_scores(game.view(state, None), record.players)
        if first is None:
            return []
        history = [first]
        for recorded in record.moves:
            move = game.parse_move(recorded.move)
            game.check_move(state, recorded.seat, move)
            game.play(state, recorded.seat, move)
            history.append(public_scores(game.view(state, None), record.players) or history[-1])
    except GameError:
        return []  # a record that no longer replays (a game changed since): no chart, the result stands
    return history
