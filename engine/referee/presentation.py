"""One presentation of seats and teams for every front end (Discord, the local table).

Seats are numbered as the games' boards number them: in play order, from 1 (``Outcome.seating``
when the game drew the seating, else the lobby's order). Teams are lettered in play order too: the
team of seat 1 is A. So a pairs game of Figures whose board shows "seat 2, pair B" ends with
"Pair B (seats 2 + 4)", on Discord and in the terminal alike.

    lines = result_lines(outcome, [seat.name for seat in table.seats])
    for line in lines:
        print(line.rank, line.name, line.team, line.score)

The other texts both front ends show are here too, in plain words (Discord adds its markup and
mentions around them): the clocks of a timed table (``clock_line``, ``time_left``) and who must
act (``waiting_text``).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.core import Outcome

from .clock import format_duration
from .reports import SeatClockView


@dataclass(frozen=True)
class ResultLine:
    """One seat in a final results table, best first."""

    rank: int
    seat: int  # the table's seat index (lobby order)
    number: int  # the seat's number as people see it (play order, from 1)
    name: str
    team: str | None  # "Pair A (seats 1 + 3)"; None in a game without teams
    score: str


def play_order(seating: Sequence[int] | None, players: int) -> list[int]:
    """The seat indexes in play order (``Game.seating``, ``Outcome.seating``; None: the lobby's)."""
    return list(seating) if seating else list(range(players))


def numbers_of(seating: Sequence[int] | None, players: int) -> list[int]:
    """Each seat's number (by seat index): its place in play order, from 1."""
    numbers = [0] * players
    for place, seat in enumerate(play_order(seating, players)):
        numbers[seat] = place + 1
    return numbers


def seat_numbers(outcome: Outcome) -> list[int]:
    """Each seat's number in a finished game's results."""
    return numbers_of(outcome.seating, len(outcome.ranks))


def _lettered_teams(outcome: Outcome) -> list[tuple[str, list[int]]]:
    """The teams with their letters: A for the team of seat 1, then in play order."""
    numbers = seat_numbers(outcome)
    teams = sorted(outcome.teams or (), key=lambda team: min(numbers[seat] for seat in team))
    return list(zip(string.ascii_uppercase, teams, strict=False))


def team_word(outcome: Outcome) -> str:
    return "Pair" if outcome.teams and all(len(team) == 2 for team in outcome.teams) else "Team"


def team_short_labels(outcome: Outcome) -> dict[int, str]:
    """``{seat index: "pair A"}``, for lines that have no room for the seats."""
    word = team_word(outcome).lower()
    return {seat: f"{word} {letter}" for letter, team in _lettered_teams(outcome) for seat in team}


def team_labels(outcome: Outcome) -> dict[int, str]:
    """``{seat index: "Pair A (seats 1 + 3)"}`` for every seat in a team; empty without teams."""
    numbers = seat_numbers(outcome)
    word = team_word(outcome)
    labels: dict[int, str] = {}
    for letter, team in _lettered_teams(outcome):
        seats = " + ".join(str(number) for number in sorted(numbers[seat] for seat in team))
        label = f"{word} {letter} (seat{'s' if len(team) > 1 else ''} {seats})"
        labels.update({seat: label for seat in team})
    return labels


def score_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{round(value, 2):g}"


def result_lines(outcome: Outcome, names: Sequence[str]) -> list[ResultLine]:
    """The final table, best first; ties share a rank and keep play order."""
    numbers = seat_numbers(outcome)
    teams = team_labels(outcome)
    order = sorted(range(len(outcome.ranks)), key=lambda seat: (outcome.ranks[seat], numbers[seat]))
    return [
        ResultLine(
            rank=outcome.ranks[seat],
            seat=seat,
            number=numbers[seat],
            name=names[seat],
            team=teams.get(seat),
            score=score_text(outcome.scores[seat]),
        )
        for seat in order
    ]


def result_text(line: ResultLine) -> str:
    """One line of a plain-text results table: "1. alice: 31 · Pair A (seats 1 + 3)"."""
    team = f" · {line.team}" if line.team else ""
    return f"{line.rank}. {line.name}: {line.score}{team}"


def outcome_text(outcome: Outcome, names: Sequence[str]) -> str:
    """The final table in plain text, one ``result_text`` line per seat, best first."""
    return "\n".join(result_text(line) for line in result_lines(outcome, names))


# ----- clocks and turns ---------------------------------------------------------------------------


def time_left(clock: SeatClockView | float) -> str:
    """A running clock's time left, from a seat's clock or its seconds (``WaitingTurn.remaining``):
    "2h 05m left" (Discord adds when it runs out)."""
    seconds = clock.remaining if isinstance(clock, SeatClockView) else clock
    return f"{format_duration(seconds)} left"


def clock_line(views: Iterable[SeatClockView]) -> str:
    """One line of text with every seat's clock: "Clocks: Alice 1d 11h (to move) · Bob 1d 12h"."""
    parts: list[str] = []
    for view in views:
        if view.forfeited:
            parts.append(f"{view.name} forfeited")
        elif view.absent:
            parts.append(f"{view.name} skipped (AI playing)")
        elif view.ran_out:
            parts.append(f"{view.name} out of time")
        else:
            text = f"{view.name} {format_duration(view.remaining)}"
            if view.vacation_until is not None:
                text += f" (on vacation until {day_text(view.vacation_until)})"
            elif view.running:
                text += " (quiet hours)" if view.quiet else " (to move)"
            parts.append(text)
    return "Clocks: " + " · ".join(parts)


def day_text(at: float) -> str:
    """A day in words, in UTC (the referee knows no reader's time zone): "12 Dec"."""
    day = datetime.fromtimestamp(at, UTC)
    return f"{day.day} {day.strftime('%b')}"


def waiting_text(names: Iterable[str]) -> str:
    """Who must act, to a player whose turn it is not: "It is not your turn; waiting for Bob."."""
    return f"It is not your turn; waiting for {', '.join(names)}."


def waiting_line(names: Iterable[str]) -> str:
    """Who must act, in a seat's private view (Discord's): "Waiting for Bob, Carol."; "" for nobody."""
    shown = ", ".join(names)
    return f"Waiting for {shown}." if shown else ""
