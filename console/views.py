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
from engine.i18n import N_, join_or, moment, ordinal, tr, tr_n
from engine.referee import Table, level_label, presentation

# The commands are typed as they are in every language, like the games' notation.
COMMANDS = (
    ("help", N_("how to write moves, and these commands")),
    ("rules", N_("the rules summary of the game")),
    ("board", N_("show the board, your view and your moves again; board --png FILE saves its picture")),
    ("hint", N_("at your turn: what the normal AI would play, and why (not in rated games)")),
    ("undo", N_("at your turn: take back your last move, if nobody has acted since and it showed nothing")),
    ("quit", N_("leave; a game in progress is saved and offered again next time")),
)


def player_counts(game: Game[Any, Any]) -> str:
    """``2–4 players``; counts that need a house rule are said so: ``2 or 4 players (3 or 5 with
    house_variant)``."""
    if game.min_players == game.max_players:
        return tr_n("{n} player", "{n} players", game.min_players)
    needing = {count: option.name for option in game.options for count in option.needed_for_players}
    plain = [count for count in range(game.min_players, game.max_players + 1) if count not in needing]
    if not needing or not plain:
        return tr("{low}–{high} players", low=game.min_players, high=game.max_players)
    names = ", ".join(sorted(set(needing.values())))
    return tr(
        "{counts} players ({house_counts} with {options})",
        counts=_spoken_counts(plain),
        house_counts=_spoken_counts(sorted(needing)),
        options=names,
    )


def _spoken_counts(counts: Sequence[int]) -> str:
    """``[2, 4]`` → ``2 or 4``; ``[1, 2, 3]`` → ``1–3``; ``[3, 5]`` → ``3 or 5``: runs of
    consecutive counts are ranges, the rest are listed."""
    runs: list[list[int]] = []
    for count in counts:
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    return join_or([f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs])


def resume_key(number: int) -> str:
    """What to type to resume the number-th saved game on the start screen."""
    return f"r{number}"


def choose_hint(games: Sequence[Game[Any, Any]], unfinished: Sequence[Table]) -> str:
    if not games:
        return tr("no game is registered")
    if not unfinished:
        return tr("type a number from 1 to {count}", count=len(games))
    if len(unfinished) == 1:
        return tr("type a number from 1 to {count}, or r to resume the latest game", count=len(games))
    return tr(
        "type a number from 1 to {count}, or r to resume the latest game (r1 to {last})",
        count=len(games),
        last=resume_key(len(unfinished)),
    )


def option_hint(option: Option) -> str:
    """What values an option takes, in words."""
    if option.kind == "bool":
        return tr("yes or no")
    if option.kind == "choice":
        return tr("one of {choices}", choices=", ".join(option.choices))
    if option.minimum is not None and option.maximum is not None:
        return tr("a whole number (at least {low}, at most {high})", low=option.minimum, high=option.maximum)
    if option.minimum is not None:
        return tr("a whole number (at least {low})", low=option.minimum)
    if option.maximum is not None:
        return tr("a whole number (at most {high})", high=option.maximum)
    return tr("a whole number")


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
        Text(tr("Database {path}  ·  you are {user}", path=database_path, user=user_id), style="dim")
    ]
    if unfinished:
        resume = RichTable(title=tr("Resume a game"), title_justify="left", expand=True)
        for column in ("", tr("Game"), tr("Players"), tr("Moves"), tr("Last played")):
            resume.add_column(column)
        for number, table in enumerate(unfinished, 1):
            resume.add_row(
                resume_key(number),
                Text(tr("{game} #{id}", game=game_title(table.game), id=table.id)),
                Text(", ".join(table.names)),
                str(table.version),
                _when(table.updated_at),
            )
        parts.append(resume)
    new = RichTable(title=tr("New game"), title_justify="left", expand=True)
    for column in ("", tr("Game"), tr("Players"), tr("Name to type")):
        new.add_column(column)
    for number, game in enumerate(games, 1):
        new.add_row(str(number), Text(tr(game.title)), player_counts(game), game.name)
    if not games:
        new.add_row("", Text(tr("No game is registered yet."), style="yellow"), "", "")
    parts.append(new)
    for name in broken:
        parts.append(Text(tr("({name} is registered but could not be loaded; it is left out.)", name=name), style="dim"))
    if unfinished:
        closing = tr("Type a number (or a game's name); r resumes the latest saved game; quit to leave.")
    else:
        closing = tr("Type a number (or a game's name); quit to leave.")
    parts.append(Text(closing, style="dim"))
    return Panel(Group(*parts), title=tr("The local table"), border_style="cyan")


def game_title(name: str) -> str:
    from engine.games import get_game

    try:
        return tr(get_game(name).title)
    except Exception:  # a game being rewritten must not hide the others' saved tables
        return name


def option_intro(option: Option) -> Text:
    text = Text.assemble((option.name, "bold"), " — ", tr(option.description))
    if option.house_rule:
        text.append(" " + tr("(house rule)"), style="magenta")
    text.append(
        "\n  " + tr("{values}; default {default}", values=option_hint(option), default=show_value(option.default)),
        style="dim",
    )
    return text


def seats_line(table: Table, user_id: str, seating: Sequence[int] | None = None) -> Text:
    """The players in play order, numbered as the board numbers them (``Game.seating``)."""
    text = Text(tr("Players:") + " ", style="dim")
    for place, index in enumerate(presentation.play_order(seating, len(table.seats))):
        seat = table.seats[index]
        if place:
            text.append(", ")
        label = f"{place + 1}. {seat.name}"
        if seat.user_id == user_id:
            text.append(tr("{seat} (you)", seat=label), style="bold green")
        elif seat.is_ai:
            text.append(f"{label} [{level_label(seat.ai_kind)}]")
        else:
            text.append(label)
    return text


def levels_intro(levels: Mapping[str, str]) -> Text:
    """The AI levels, one a line, before the question."""
    text = Text(tr("How well the AI seats play:"), style="bold")
    for level, meaning in levels.items():
        text.append(f"\n  {level}", style="bold cyan")
        text.append(f" — {tr(meaning)}")
    return text


def log_panel(public_lines: Sequence[str], private_lines: Sequence[str]) -> RenderableType | None:
    """What happened since the player last looked: public lines, then lines only they saw."""
    if not public_lines and not private_lines:
        return None
    text = Text("\n".join(public_lines))
    if private_lines:
        if public_lines:
            text.append("\n")
        text.append(tr("Only you saw:") + "\n", style="italic magenta")
        text.append("\n".join(private_lines))
    return Panel(text, title=tr("What happened"), title_align="left", border_style="blue")


def board_panel(game: Game[Any, Any], table: Table, board: str) -> Panel:
    title = tr("{game} · game #{id} · move {version}", game=tr(game.title), id=table.id, version=table.version)
    return Panel(Text(board), title=title, title_align="left", border_style="green")


def private_panel(seat_name: str, text: str) -> Panel:
    return Panel(Text(text), title=tr("Your view ({name})", name=seat_name), title_align="left", border_style="magenta")


def moves_panel(moves: Sequence[tuple[str, str]]) -> Panel:
    """The numbered legal moves, each with what it does when its notation does not say."""
    items = [
        Text.assemble((f"{number:>2}. ", "bold cyan"), move, (f" ({about})" if about else "", "dim"))
        for number, (move, about) in enumerate(moves, 1)
    ]
    return Panel(
        Columns(items, padding=(0, 3), equal=True),
        title=tr_n("Your turn: {n} legal move", "Your turn: {n} legal moves", len(moves)),
        title_align="left",
        subtitle=tr("type a number or a move · help · rules · board · quit"),
        subtitle_align="left",
        border_style="cyan",
    )


def help_panel(game: Game[Any, Any] | None) -> Panel:
    parts: list[RenderableType] = []
    if game is not None and game.notation_help:
        parts.append(Text(tr("Writing moves in {game}", game=tr(game.title)), style="bold"))
        parts.append(Text(tr(game.notation_help)))
        parts.append(Text(tr("At your turn you may also type the number of a listed move.") + "\n", style="dim"))
    commands = RichTable.grid(padding=(0, 2))
    for name, meaning in COMMANDS:
        commands.add_row(Text(name, style="bold cyan"), tr(meaning))
    parts.append(Text(tr("Commands (at any prompt)"), style="bold"))
    parts.append(commands)
    return Panel(Group(*parts), title=tr("Help"), title_align="left", border_style="yellow")


def rules_panel(game: Game[Any, Any], options: dict[str, Any] | None = None) -> Panel:
    parts: list[RenderableType] = [Text(tr(game.summary) if game.summary else tr("This game has no rules summary yet."))]
    if options:
        settings = RichTable.grid(padding=(0, 2))
        for name, value in options.items():
            settings.add_row(Text(name, style="bold"), Text(show_value(value)))
        parts += [Text("\n" + tr("This table's options"), style="bold"), settings]
    return Panel(Group(*parts), title=tr("{game}: rules", game=tr(game.title)), title_align="left", border_style="yellow")


def outcome_panel(table: Table, outcome: Outcome, user_id: str) -> Panel:
    """Final scores and ranks with names, best first; ties share a rank. Seats and teams are
    numbered as on the board and on Discord (engine.referee.presentation)."""
    results = RichTable(expand=False)
    results.add_column(tr("Rank"), justify="right")
    results.add_column(tr("Seat"), justify="right")
    results.add_column(tr("Player"))
    if outcome.teams:
        results.add_column(tr("Team"))
    results.add_column(tr("Score"), justify="right")
    for line in presentation.result_lines(outcome, [seat.name for seat in table.seats]):
        you = table.seats[line.seat].user_id == user_id
        cells: list[RenderableType] = [str(line.rank), str(line.number), Text(tr("{seat} (you)", seat=line.name) if you else line.name)]
        if outcome.teams:
            cells.append(line.team or "")
        cells.append(line.score)
        results.add_row(*cells, style="bold green" if you else None)
    return Panel(
        Group(results, Text(verdict(table, outcome, user_id), style="bold")),
        title=tr("Final scores · game #{id}", id=table.id),
        title_align="left",
        border_style="bright_yellow",
    )


def verdict(table: Table, outcome: Outcome, user_id: str) -> str:
    seat = table.seat_of(user_id)
    if seat is None:
        return tr("The game is over.")
    if len(outcome.ranks) == 1:
        return tr("Solo game over: you scored {score}.", score=presentation.score_text(outcome.scores[0]))
    rank = outcome.ranks[seat.index]
    team = _team_of(outcome, seat.index)
    if len(team) > 1:
        others_with_rank = {other for other, other_rank in enumerate(outcome.ranks) if other_rank == rank}
        if rank == 1:
            return tr("Your team wins!") if others_with_rank <= set(team) else tr("Your team shares the win!")
        # Seat ranks count seats (1, 1, 3, 3); a team's place counts the teams ahead of it.
        teams = outcome.teams or [team]
        place = 1 + sum(1 for other in teams if min(outcome.ranks[member] for member in other) < rank)
        return tr("Your team finished {place} of {count} teams.", place=ordinal(place), count=len(teams))
    shared = sum(1 for other in outcome.ranks if other == rank) > 1
    if rank == 1:
        return tr("You share the win!") if shared else tr("You win!")
    if shared:
        return tr("You finished joint {place} of {count}.", place=ordinal(rank), count=len(outcome.ranks))
    return tr("You finished {place} of {count}.", place=ordinal(rank), count=len(outcome.ranks))


def _team_of(outcome: Outcome, seat: int) -> list[int]:
    """The seats playing with ``seat`` (itself included); just itself when there are no teams."""
    for team in outcome.teams or ():
        if seat in team:
            return list(team)
    return [seat]


def error_text(message: str) -> Text:
    return Text.assemble(("✗ ", "bold red"), (message, "red"))


def _when(timestamp: float) -> str:
    if not timestamp:
        return ""
    # The local table's reader sits at this machine: its own time zone.
    return moment(timestamp, datetime.datetime.now().astimezone().tzinfo or datetime.UTC)
