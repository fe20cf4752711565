"""The result picture of a finished game: the final scores with the winner, the teams where the
game has them, and a chart of each seat's score over the game.

Marks: ``seat`` (labelled with the seat's index: names may repeat), ``rank``, ``score``
("seat:score"), ``winner`` (the name), ``team`` ("0,2"), ``line`` (the seat's index) and ``value``
(the words at a line's end). ``score_history`` is what engine/referee/score_history.py replays from the public views: the
scores after the deal and after each move (one number per seat); an empty history (a game whose
board shows no running score) leaves the chart out. Seats are listed by rank, in play order
within a rank (``Outcome.seating``); the strings are the text board's ("Final scores", "winner").

    picture = draw_result(["Alice", "Bob"], outcome, [[0, 0], [3, 0], [3, 5]])
    picture.labels("winner")   # ["Bob"]
    picture.labels("score")    # ["1:5", "0:3"]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Outcome
from engine.core.picture import Picture
from engine.i18n import N_, tr

from .charts import INK, box_of, finish, fit, format_number, new_figure, plot_series, short, style
from .fonts import chart_families

TITLE = N_("Final scores")  # marked: drawn as tr(TITLE)
WINNER = N_("winner")
ROW_INCHES = 0.38
NAME_IN_ROW = 22  # characters of a name in the standings (the alt text has it whole)
NAME_IN_TEAM = 12
CHART_INCHES = 3.6


def draw_result(names: Sequence[str], outcome: Outcome, score_history: Sequence[Sequence[float]]) -> Picture:
    """The final scores (the winners marked, in words and with a star), the teams, and the chart."""
    order = list(outcome.seating) if outcome.seating else list(range(len(names)))
    standing = sorted(order, key=lambda seat: (outcome.ranks[seat], order.index(seat)))
    teams = outcome.teams or []
    rows = len(standing) + (len(teams) + 1 if teams else 0)
    head_inches = 0.8 + ROW_INCHES * rows
    # A chart needs two points at least, each with every seat's score.
    chart = len(score_history) > 1 and all(len(scores) == len(names) for scores in score_history)
    height = head_inches + (CHART_INCHES if chart else 0.2)
    figure = new_figure(height)
    marks: list[tuple[str, str, Any]] = []

    def text(y_inches: float, x: float, words: str, **kwargs: Any) -> Any:
        """Text at ``y_inches`` from the top (figure coordinates measure from the bottom)."""
        kwargs.setdefault("fontsize", 15)
        kwargs.setdefault("color", INK)
        return figure.text(x, 1 - y_inches / height, words, fontfamily=chart_families(), va="top", **kwargs)

    title, winner = tr(TITLE), tr(WINNER)
    marks.append(("title", title, text(0.15, 0.03, title, fontsize=20, fontweight="bold")))
    y = 0.75
    for seat in standing:
        won = outcome.ranks[seat] == 1
        colour = style(order.index(seat))["color"] if chart else INK
        weight = "bold" if won else "normal"
        marks.append(
            ("rank", str(outcome.ranks[seat]), text(y, 0.03, f"{outcome.ranks[seat]}.", fontweight=weight))
        )
        score = format_number(outcome.scores[seat])
        shown = text(y, 0.72, score, fontweight=weight, ha="right")
        name = text(y, 0.08, "", fontweight=weight, color=colour)
        # The name as long as it ends before its score (measured: a W is wider than an i).
        fit(name, short(names[seat], NAME_IN_ROW), box_of(shown, figure)[0] - 12)
        marks.append(("seat", str(seat), name))
        marks.append(("score", f"{seat}:{score}", shown))
        if won:
            # A star and the word: the winner stands out without colour.
            marks.append(("winner", names[seat], text(y, 0.75, f"\u2605 {winner}", fontweight="bold")))
        y += ROW_INCHES
    if teams:
        y += ROW_INCHES * 0.4
        for team in teams:
            members = " & ".join(short(names[seat], NAME_IN_TEAM) for seat in team)
            score = format_number(outcome.scores[team[0]])
            won = outcome.ranks[team[0]] == 1
            shown = text(y, 0.03, "", fontsize=13, fontweight="bold" if won else "normal")
            fit(
                shown,
                # Translators: a team in the result picture: {members} "Alice & Carol".
                tr("Team {members}", members=members),
                figure.bbox.width - 8,
                suffix=f": {score}" + (f"  \u2605 {winner}" if won else ""),
            )
            marks.append(("team", ",".join(str(seat) for seat in team), shown))
            y += ROW_INCHES
    if chart:
        bottom = 0.55 / height
        top = (CHART_INCHES - 0.25) / height
        axes = figure.add_axes((0.11, bottom, 0.62, top - bottom))
        series = [(names[seat], [float(scores[seat]) for scores in score_history]) for seat in order]
        lines, labels = plot_series(axes, series, xlabel=tr("Moves"), ylabel=tr("Score"))
        marks.extend(("line", str(seat), line) for seat, (_, line) in zip(order, lines, strict=True))
        marks.extend(("value", label.get_text(), label) for label in labels)
    return finish(figure, marks)
