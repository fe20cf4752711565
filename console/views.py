"""Rich renderables of the local table: what the player sees, never how it is read.

Game texts (boards, hands, log lines, errors) are plain text written by the games and the
referee; they are always wrapped in ``Text`` so that brackets in them are never taken for rich
markup.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from engine.core import Game, Option, Outcome
from engine.referee import Table, level_label, presentation

COMMANDS = (
    ("help", "how to write moves, and these commands"),
    ("rules", "the rules summary of the game"),
    ("board", "show the board, your view and your moves again; board --png FILE saves its picture"),
    ("hint", "at your turn: what the normal AI would play, and why (not in rated games)"),
    ("undo", "at your turn: take back your last move, if nobody has acted since and it showed nothing"),
    ("quit", "leave; a game in progress is saved and offered again next time"),
)


def player_counts(game: Game[Any, Any]) -> str:
    """``2–4 players``; counts that need a house rule are said so: ``2 or 4 players (3 or 5 with
    house_variant)``."""
    if game.min_players == game.max_players:
        return f"{game.min_players} player" + ("" if game.min_players == 1 else "s")
    needing = {count: option.name for option in game.options for count in option.needed_for_players}
    plain = [count for count in range(game.min_players, game.max_players + 1) if count not in needing]
    if not needing or not plain:
        return f"{game.min_players}–{game.max_players} players"
    names = ", ".join(sorted(set(needing.values())))
    return f"{_spoken_counts(plain)} players ({_spoken_counts(sorted(needing))} with {names})"


def _spoken_counts(counts: Sequence[int]) -> str:
    """``[2, 4]`` → ``2 or 4``; ``[1, 2, 3]`` → ``1–3``; ``[3, 5]`` → ``3 or 5``: runs of
    consecutive counts are ranges, the rest are listed."""
    runs: list[list[int]] = []
    for count in counts:
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    *rest, last = [f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return f"{', '.join(rest)} or {last}" if rest else last


def resume_key(number: int) -> str:
    """What to type to resume the number-th saved game on the start screen."""
    return f"r{number}"


def choose_hint(games: Sequence[Game[Any, Any]], unfinished: Sequence[Table]) -> str:
    hint = f"type a number from 1 to {len(games)}" if games else "no game is registered"
    if unfinished:
        last = resume_key(len(unfinished))
        hint += ", or r to resume the latest game" + (f" (r1 to {last})" if len(unfinished) > 1 else "")
    return hint


def option_hint(option: Option) -> str:
    """What values an option takes, in words."""
    if option.kind == "bool":
        return "yes or no"
    if option.kind == "choice":
        return "one of " + ", ".join(option.choices)
    bounds = []
    if option.minimum is not None:
        bounds.append(f"at least {option.minimum}")
    if option.maximum is not None:
        bounds.append(f"at most {option.maximum}")
    return "a whole number" + (f" ({', '.join(bounds)})" if bounds else "")


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def start_screen(
    unfinished: Sequence[Table],
    games: Sequence[Game[Any, Any]],
    broken: Sequence[str],
    database_path: str,
    user_id: str,
) -> RenderableType:
    """The numbered choices: resume an unfinished game, or start a new one."""
    parts: list[RenderableType] = [
        Text.assemble(("Database ", "dim"), database_path, ("  ·  you are ", "dim"), user_id)
    ]
    if unfinished:
        resume = RichTable(title="Resume a game", title_justify="left", expand=True)
        for column in ("", "Game", "Players", "Moves", "Last played"):
            resume.add_column(column)
        for number, table in enumerate(unfinished, 1):
            resume.add_row(
                resume_key(number),
                Text(f"{game_title(table.game)} #{table.id}"),
                Text(", ".join(table.names)),
                str(table.version),
                _when(table.updated_at),
            )
        parts.append(resume)
    new = RichTable(title="New game", title_justify="left", expand=True)
    for column in ("", "Game", "Players", "Name to type"):
        new.add_column(column)
    for number, game in enumerate(games, 1):
        new.add_row(str(number), Text(game.title), player_counts(game), game.name)
    if not games:
        new.add_row("", Text("No game is registered yet.", style="yellow"), "", "")
    parts.append(new)
    for name in broken:
        parts.append(Text(f"({name} is registered but could not be loaded; it is left out.)", style="dim"))
    resume_hint = "; r resumes the latest saved game" if unfinished else ""
    parts.append(Text(f"Type a number (or a game's name){resume_hint}; quit to leave.", style="dim"))
    return Panel(Group(*parts), title="The local table", border_style="cyan")


def game_title(name: str) -> str:
    from engine.games import get_game

    try:
        return get_game(name).title
    except Exception:  # a game being rewritten must not hide the others' saved tables
        return name


def option_intro(option: Option) -> Text:
    text = Text.assemble((option.name, "bold"), " — ", option.description)
    if option.house_rule:
        text.append(" (house rule)", style="magenta")
    text.append(f"\n  {option_hint(option)}; default {show_value(option.default)}", style="dim")
    return text


def seats_line(table: Table, user_id: str, seating: Sequence[int] | None = None) -> Text:
    """The players in play order, numbered as the board numbers them (``Game.seating``)."""
    text = Text("Players: ", style="dim")
    for place, index in enumerate(presentation.play_order(seating, len(table.seats))):
        seat = table.seats[index]
        if place:
            text.append(", ")
        label = f"{place + 1}. {seat.name}"
        if seat.user_id == user_id:
            text.append(label + " (you)", style="bold green")
        elif seat.is_ai:
            text.append(f"{label} [{level_label(seat.ai_kind)}]")
        else:
            text.append(label)
    return text


def levels_intro(levels: Mapping[str, str]) -> Text:
    """The AI levels, one a line, before the question."""
    text = Text("How well the AI seats play:", style="bold")
    for level, meaning in levels.items():
        text.append(f"\n  {level}", style="bold cyan")
        text.append(f" — {meaning}")
    return text


def log_panel(public_lines: Sequence[str], private_lines: Sequence[str]) -> RenderableType | None:
    """What happened since the player last looked: public lines, then lines only they saw."""
    if not public_lines and not private_lines:
        return None
    text = Text("\n".join(public_lines))
    if private_lines:
        if public_lines:
            text.append("\n")
        text.append("Only you saw:\n", style="italic magenta")
        text.append("\n".join(private_lines))
    return Panel(text, title="What happened", title_align="left", border_style="blue")


def board_panel(game: Game[Any, Any], table: Table, board: str) -> Panel:
    title = f"{game.title} · game #{table.id} · move {table.version}"
    return Panel(Text(board), title=title, title_align="left", border_style="green")


def private_panel(seat_name: str, text: str) -> Panel:
    return Panel(Text(text), title=f"Your view ({seat_name})", title_align="left", border_style="magenta")


def moves_panel(moves: Sequence[tuple[str, str]]) -> Panel:
    """The numbered legal moves, each with what it does when its notation does not say."""
    items = [
        Text.assemble((f"{number:>2}. ", "bold cyan"), move, (f" ({about})" if about else "", "dim"))
        for number, (move, about) in enumerate(moves, 1)
    ]
    return Panel(
        Columns(items, padding=(0, 3), equal=True),
        title=f"Your turn: {len(moves)} legal move" + ("" if len(moves) == 1 else "s"),
        title_align="left",
        subtitle="type a number or a move · help · rules · board · quit",
        subtitle_align="left",
        border_style="cyan",
    )


def help_panel(game: Game[Any, Any] | None) -> Panel:
    parts: list[RenderableType] = []
    if game is not None and game.notation_help:
        parts.append(Text(f"Writing moves in {game.title}", style="bold"))
        parts.append(Text(game.notation_help))
        parts.append(Text("At your turn you may also type the number of a listed move.\n", style="dim"))
    commands = RichTable.grid(padding=(0, 2))
    for name, meaning in COMMANDS:
        commands.add_row(Text(name, style="bold cyan"), meaning)
    parts.append(Text("Commands (at any prompt)", style="bold"))
    parts.append(commands)
    return Panel(Group(*parts), title="Help", title_align="left", border_style="yellow")


def rules_panel(game: Game[Any, Any], options: dict[str, Any] | None = None) -> Panel:
    parts: list[RenderableType] = [Text(game.summary or "This game has no rules summary yet.")]
    if options:
        settings = RichTable.grid(padding=(0, 2))
        for name, value in options.items():
            settings.add_row(Text(name, style="bold"), Text(show_value(value)))
        parts += [Text("\nThis table's options", style="bold"), settings]
    return Panel(Group(*parts), title=f"{game.title}: rules", title_align="left", border_style="yellow")


def outcome_panel(table: Table, outcome: Outcome, user_id: str) -> Panel:
    """Final scores and ranks with names, best first; ties share a rank. Seats and teams are
    numbered as on the board and on Discord (engine.referee.presentation)."""
    results = RichTable(expand=False)
    results.add_column("Rank", justify="right")
    results.add_column("Seat", justify="right")
    results.add_column("Player")
    if outcome.teams:
        results.add_column("Team")
    results.add_column("Score", justify="right")
    for line in presentation.result_lines(outcome, [seat.name for seat in table.seats]):
        you = table.seats[line.seat].user_id == user_id
        cells: list[RenderableType] = [str(line.rank), str(line.number), Text(line.name + (" (you)" if you else ""))]
        if outcome.teams:
            cells.append(line.team or "")
        cells.append(line.score)
        results.add_row(*cells, style="bold green" if you else None)
    return Panel(
        Group(results, Text(verdict(table, outcome, user_id), style="bold")),
        title=f"Final scores · game #{table.id}",
        title_align="left",
        border_style="bright_yellow",
    )


def verdict(table: Table, outcome: Outcome, user_id: str) -> str:
    seat = table.seat_of(user_id)
    if seat is None:
        return "The game is over."
    if len(outcome.ranks) == 1:
        return f"Solo game over: you scored {presentation.score_text(outcome.scores[0])}."
    rank = outcome.ranks[seat.index]
    team = _team_of(outcome, seat.index)
    if len(team) > 1:
        others_with_rank = {other for other, other_rank in enumerate(outcome.ranks) if other_rank == rank}
        if rank == 1:
            return "Your team wins!" if others_with_rank <= set(team) else "Your team shares the win!"
        # Seat ranks count seats (1, 1, 3, 3); a team's place counts the teams ahead of it.
        teams = outcome.teams or [team]
        place = 1 + sum(1 for other in teams if min(outcome.ranks[member] for member in other) < rank)
        return f"Your team finished {place}{_ordinal_suffix(place)} of {len(teams)} teams."
    shared = sum(1 for other in outcome.ranks if other == rank) > 1
    if rank == 1:
        return "You share the win!" if shared else "You win!"
    place = f"{rank}{_ordinal_suffix(rank)}"
    return f"You finished {'joint ' if shared else ''}{place} of {len(outcome.ranks)}."


def _team_of(outcome: Outcome, seat: int) -> list[int]:
    """The seats playing with ``seat`` (itself included); just itself when there are no teams."""
    for team in outcome.teams or ():
        if seat in team:
            return list(team)
    return [seat]


def error_text(message: str) -> Text:
    return Text.assemble(("✗ ", "bold red"), (message, "red"))


def _ordinal_suffix(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def _when(timestamp: float) -> str:
    if not timestamp:
        return ""
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")
