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

from engine.core import Outcome
from engine.i18n import join_and, number, tr, tr_n

from .clock import day_text, format_duration
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


def _pairs(outcome: Outcome) -> bool:
    return bool(outcome.teams) and all(len(team) == 2 for team in outcome.teams or ())


def team_word(outcome: Outcome) -> str:
    """What the game's teams are called: "Pair" (teams of two) or "Team"."""
    return tr("Pair") if _pairs(outcome) else tr("Team")


def team_short_labels(outcome: Outcome) -> dict[int, str]:
    """``{seat index: "pair A"}``, for lines that have no room for the seats."""
    pairs = _pairs(outcome)
    labels: dict[int, str] = {}
    for letter, team in _lettered_teams(outcome):
        # Translators: a team in a short line of results; {letter} is A, B, C...
        label = tr("pair {letter}", letter=letter) if pairs else tr("team {letter}", letter=letter)
        labels.update({seat: label for seat in team})
    return labels


def team_labels(outcome: Outcome) -> dict[int, str]:
    """``{seat index: "Pair A (seats 1 + 3)"}`` for every seat in a team; empty without teams."""
    numbers = seat_numbers(outcome)
    pairs = _pairs(outcome)
    labels: dict[int, str] = {}
    for letter, team in _lettered_teams(outcome):
        seats = " + ".join(str(number) for number in sorted(numbers[seat] for seat in team))
        if pairs:
            # Translators: {letter} is A, B...; {seats} the seat numbers, "1 + 3".
            label = tr("Pair {letter} (seats {seats})", letter=letter, seats=seats)
        else:
            label = tr_n("Team {letter} (seat {seats})", "Team {letter} (seats {seats})", len(team), letter=letter, seats=seats)
        labels.update({seat: label for seat in team})
    return labels


def score_text(value: float) -> str:
    """A score as the reader's language writes it: "31", "2.5" ("2,5" in Italian), "1,234"."""
    return number(int(value)) if float(value).is_integer() else number(round(value, 2))


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
    if line.team:
        return tr("{rank}. {name}: {score} · {team}", rank=line.rank, name=line.name, score=line.score, team=line.team)
    return tr("{rank}. {name}: {score}", rank=line.rank, name=line.name, score=line.score)


def outcome_text(outcome: Outcome, names: Sequence[str]) -> str:
    """The final table in plain text, one ``result_text`` line per seat, best first."""
    return "\n".join(result_text(line) for line in result_lines(outcome, names))


# ----- clocks and turns ---------------------------------------------------------------------------


def time_left(clock: SeatClockView | float) -> str:
    """A running clock's time left, from a seat's clock or its seconds (``WaitingTurn.remaining``):
    "2h 05m left" (Discord adds when it runs out)."""
    seconds = clock.remaining if isinstance(clock, SeatClockView) else clock
    return tr("{time} left", time=format_duration(seconds))


def _clock_part(view: SeatClockView) -> str:
    name = view.name
    if view.forfeited:
        return tr("{name} forfeited", name=name)
    if view.absent:
        return tr("{name} skipped (AI playing)", name=name)
    if view.ran_out:
        return tr("{name} out of time", name=name)
    time = format_duration(view.remaining)
    if view.vacation_until is not None:
        return tr("{name} {time} (on vacation until {day})", name=name, time=time, day=day_text(view.vacation_until))
    if view.running and view.quiet:
        return tr("{name} {time} (quiet hours)", name=name, time=time)
    if view.running:
        return tr("{name} {time} (to move)", name=name, time=time)
    # Translators: a seat's clock in the clock line: "Bob 1d 12h".
    return tr("{name} {time}", name=name, time=time)


def clock_line(views: Iterable[SeatClockView]) -> str:
    """One line of text with every seat's clock: "Clocks: Alice 1d 11h (to move) · Bob 1d 12h"."""
    # Translators: {clocks} is a list of seats' clocks separated by " · ".
    return tr("Clocks: {clocks}", clocks=" · ".join(_clock_part(view) for view in views))


def waiting_text(names: Iterable[str]) -> str:
    """Who must act, to a player whose turn it is not: "It is not your turn; waiting for Bob."."""
    return tr("It is not your turn; waiting for {names}.", names=join_and(list(names)))


def waiting_line(names: Iterable[str]) -> str:
    """Who must act, in a seat's private view (Discord's): "Waiting for Bob and Carol."; "" for nobody."""
    shown = list(names)
    return tr("Waiting for {names}.", names=join_and(shown)) if shown else ""
