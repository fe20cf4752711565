"""The local table: start screen, game set-up and the play loop, over the shared Referee.

Everything goes through the same Referee and store as the Discord bot, so a game played here is
stored, validated and replayable exactly like one played on Discord. The local player is the user
``local:<name>``; every other seat is an AI seat that the referee plays by itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from engine.core import Game, GameError, Option, SetupError
from engine.core.text import quote
from engine.games import REGISTRY, get_game
from engine.i18n import tr
from engine.referee import (
    DEFAULT_LEVEL,
    FINISHED,
    LEVEL_HELP,
    LEVELS,
    RUNNING,
    Outbox,
    Referee,
    SeatSnapshot,
    Table,
    UndoRefused,
)

from . import views
from .pictures import PictureFolder, png_path, save_board
from .reader import LineReader

PREFERRED_AI = DEFAULT_LEVEL
COMMAND_WORDS = ("help", "rules", "board", "undo", "quit")
HINT_WORD = "hint"  # at the move prompt: what the normal AI would play (Referee.hint)

# How a game at the table ended, for the caller to decide what comes next.
FINISHED_GAME, QUIT_GAME, NOT_OUR_TURN = "finished", "quit", "waiting"


class Quit(Exception):
    """The player typed ``quit``: leave the current screen (a running game is already saved)."""


@dataclass
class NewGame:
    """A game to set up without questions (from command-line flags)."""

    game: str
    players: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    ai_kind: str | None = None
    seed: int | None = None


def default_player_count(game: Game[Any, Any], options: Mapping[str, Any] | None = None) -> int:
    """The smallest table with at least one opponent that the game accepts with these options
    (some games allow a count only with a house rule); else the smallest the game allows."""
    first = min(max(2, game.min_players), game.max_players)
    for players in range(first, game.max_players + 1):
        try:
            game.resolve_options(players, dict(options or {}))
        except SetupError:
            continue
        return players
    return first


def loadable_games() -> tuple[list[Game[Any, Any]], list[str]]:
    """Registered games that import cleanly, and the names of those that do not.

    Games are written while the bot runs from the same tree; one broken package must not take
    the whole start screen down with it.
    """
    games: list[Game[Any, Any]] = []
    broken: list[str] = []
    for name in REGISTRY:
        try:
            games.append(get_game(name))
        except Exception:
            broken.append(name)
    return games, broken


def ai_choices(game: Game[Any, Any]) -> list[str]:
    """What the AI seats may be: the levels, and any other kind the game offers by name."""
    return [*LEVELS, *(kind for kind in game.ai_players() if kind not in LEVELS)]


def pick_ai_kind(game: Game[Any, Any], wanted: str | None) -> tuple[str, str | None]:
    """The AI level (or kind) to seat, and a note when the wanted one does not exist for this game."""
    wanted = (wanted or PREFERRED_AI).strip().lower()
    if wanted in ai_choices(game):
        return wanted, None
    return PREFERRED_AI, tr(
        "{game} has no {wanted} AI players; they play at level {level}.",
        game=tr(game.title),
        wanted=repr(wanted),
        level=repr(PREFERRED_AI),
    )


def list_number(text: str) -> int | None:
    """A number typed to pick from a list, or None. Only ASCII digits, and a few of them: "²" and
    other Unicode digits pass ``str.isdigit`` but not ``int``, and ``int`` refuses very long ones."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def move_from_input(text: str, moves: Sequence[str]) -> str:
    """The move text to send to the referee: a listed number becomes that move; anything else is
    passed on as notation, for the game to read (and explain if it cannot)."""
    number = list_number(text)
    if number is not None and text.lower() not in (move.lower() for move in moves):
        if 1 <= number <= len(moves):
            return moves[number - 1]
        raise MoveNumberError(
            tr(
                "There is no move {number}: type a number from 1 to {count}, or write the move.",
                number=number,
                count=len(moves),
            )
        )
    return text


class MoveNumberError(GameError):
    """A move number that is not on the list (refused here; the referee never sees it)."""


class LocalTable:
    """One player at a terminal, on one store: the screens, the questions and the play loop."""

    def __init__(
        self,
        referee: Referee,
        reader: LineReader,
        console: Console,
        *,
        user_id: str,
        player_name: str,
        database_path: str,
        seed: int | None = None,
        pictures: PictureFolder | None = None,
    ) -> None:
        self.referee = referee
        self.reader = reader
        self.console = console
        self.user_id = user_id
        self.player_name = player_name
        self.database_path = database_path
        self.seed = seed  # for games set up on the start screen; None deals with a fresh seed
        self.pictures = pictures  # --pictures DIR: every board shown is saved there (console/pictures.py)
        # What the help, rules and board commands refer to at the current prompt.
        self.current_game: Game[Any, Any] | None = None
        self.current_table: Table | None = None

    # ----- the whole session -------------------------------------------------------------------

    async def run_interactive(self) -> int:
        """Start screen, game, start screen... until the player quits."""
        while True:
            self.current_game = self.current_table = None
            choice = await self.start_screen()
            if choice is None:
                self.console.print(tr("Bye."))
                return 0
            try:
                if isinstance(choice, Table):
                    ended = await self.play(choice.id)
                else:
                    table_id, outbox = await self.set_up_and_start(choice)
                    ended = await self.play(table_id, outbox)
            except Quit:
                continue  # set-up abandoned: back to the start screen
            except GameError as error:
                # For example a saved game whose game is no longer registered, or a refused start.
                self.console.print(views.error_text(str(error)))
                continue
            if ended == FINISHED_GAME and not await self.again():
                return 0

    async def run_new_game(self, request: NewGame) -> int:
        """Flags say everything: start the game at once, play it, exit."""
        try:
            game = get_game(request.game)
            players = request.players or default_player_count(game, request.options)
            options = game.resolve_options(players, request.options)
        except SetupError as error:
            self.console.print(views.error_text(str(error)))
            return 2
        ai_kind, note = pick_ai_kind(game, request.ai_kind)
        if note:
            self.console.print(Text(note, style="yellow"))
        try:
            table_id, outbox = await self.start_game(game, players, options, ai_kind, request.seed)
        except GameError as error:
            self.console.print(views.error_text(str(error)))
            return 2
        await self.play(table_id, outbox)
        return 0

    async def run_resume(self, table_id: int | None) -> int:
        """Resume one game: by id, or the most recently played unfinished one."""
        if table_id is None:
            unfinished = await self.unfinished_tables()
            if not unfinished:
                self.console.print(tr("There is no unfinished game to resume."))
                return 1
            table_id = unfinished[0].id
        try:
            table = await self.referee.table(table_id)
        except GameError as error:
            self.console.print(views.error_text(str(error)))
            return 1
        if table.seat_of(self.user_id) is None:
            self.console.print(
                views.error_text(tr("You ({user}) have no seat in game #{id}.", user=self.user_id, id=table_id))
            )
            return 1
        await self.play(table_id)
        return 0

    def goodbye(self, interrupted: bool) -> None:
        """The one line shown on Ctrl-D or Ctrl-C: nothing is lost, say where it is."""
        table = self.current_table
        if table is not None and table.status == RUNNING:
            saved = tr(
                "Game #{id} is saved in {path}; start the local table again to resume it.",
                id=table.id,
                path=self.database_path,
            )
            self.console.print(
                "\n" + (tr("Interrupted. {then}", then=saved) if interrupted else saved),
                markup=False,
                highlight=False,
                soft_wrap=True,  # one line, however narrow the terminal: the terminal wraps it
            )
        else:
            self.console.print(
                "\n" + (tr("Interrupted. {then}", then=tr("Bye.")) if interrupted else tr("Bye.")),
                markup=False,
                highlight=False,
            )

    # ----- prompts -----------------------------------------------------------------------------

    async def ask(self, prompt: str, suggestions: Sequence[str] = ()) -> str:
        """Read an answer; the commands work at every prompt and are answered here.

        A suggestion (a legal move) that happens to be spelt like a command is taken as the move.
        """
        while True:
            text = (await self.reader.read(prompt, [*suggestions, *COMMAND_WORDS])).strip()
            word = text.lower()
            if word in (suggestion.lower() for suggestion in suggestions):
                return text
            if word in ("help", "?"):
                self.console.print(views.help_panel(self.current_game))
            elif word == "rules":
                await self.show_rules()
            elif word == "board" or word.startswith("board "):
                await self.show_board(text)
            elif word in ("quit", "exit"):
                raise Quit
            else:
                return text

    async def show_rules(self) -> None:
        if self.current_game is None:
            self.console.print(tr("Choose a game first; its rules come with it."))
            return
        options = self.current_table.options if self.current_table is not None else None
        self.console.print(views.rules_panel(self.current_game, options))

    async def show_board(self, command: str = "board") -> None:
        """``board`` shows the position again; ``board --png FILE`` also saves its picture."""
        try:
            path = png_path(command)
        except ValueError as error:
            self.console.print(views.error_text(str(error)))
            return
        if self.current_table is None or self.current_game is None:
            self.console.print(tr("No game is on the table yet."))
            return
        snapshot = await self.show_position(self.current_game, self.current_table.id, [], [])
        if path is not None:
            self.console.print(await save_board(self.referee, snapshot, path), markup=False, highlight=False)

    # ----- start screen and set-up -------------------------------------------------------------

    async def unfinished_tables(self) -> list[Table]:
        return await self.referee.tables(statuses=(RUNNING,), user_id=self.user_id)

    async def start_screen(self) -> Table | Game[Any, Any] | None:
        """The player's choice: an unfinished table to resume, a game to set up, or None to quit."""
        unfinished = await self.unfinished_tables()
        games, broken = loadable_games()
        self.console.print(views.start_screen(unfinished, games, broken, self.database_path, self.user_id))
        # Games keep their numbers whether or not a game is saved; saved games are r1, r2...
        # (r alone: the latest), so "1" never means one thing today and another tomorrow.
        by_key: dict[str, Table | Game[Any, Any]] = {
            str(number): game for number, game in enumerate(games, 1)
        }
        by_key |= {game.name: game for game in games} | {game.title.lower(): game for game in games}
        by_key |= {tr(game.title).lower(): game for game in games}  # the title as the reader sees it
        by_key |= {views.resume_key(number): table for number, table in enumerate(unfinished, 1)}
        if unfinished:
            by_key["r"] = unfinished[0]
        while True:
            try:
                answer = (await self.ask(tr("Choose") + " › ", [key for key in by_key if not key.isdigit()])).lower()
            except Quit:
                return None
            if answer in by_key:
                return by_key[answer]
            if answer:
                self.console.print(
                    views.error_text(
                        tr(
                            "{answer} is not on the list: {hint}.",
                            answer=quote(answer),
                            hint=views.choose_hint(games, unfinished),
                        )
                    )
                )

    async def set_up_and_start(self, game: Game[Any, Any]) -> tuple[int, Outbox]:
        """Ask for the options, the player count and the AI kind, then start."""
        self.current_game = game
        self.console.print(
            Text.assemble(
                ("\n" + tr("New game of {game}", game=tr(game.title)), "bold green"),
                " " + tr(
                    "({players}). Enter keeps a default; rules shows the rules.",
                    players=views.player_counts(game),
                ),
            )
        )
        while True:
            # The count first: it decides which options matter, and whether a house rule is needed.
            players = await self.ask_players(game)
            options = await self.ask_options(game, players)
            if options is None:
                continue  # the count's house rule was declined: ask the count again
            try:
                # The game has the last word on counts and options.
                game.resolve_options(players, dict(options))
                break
            except SetupError as error:
                self.console.print(views.error_text(str(error)))
                self.console.print(tr("Answer again (or quit):"))
        ai_kind = await self.ask_ai_kind(game) if players > 1 else PREFERRED_AI
        return await self.start_game(game, players, options, ai_kind, seed=self.seed)

    async def ask_options(self, game: Game[Any, Any], players: int) -> dict[str, Any] | None:
        """The options for this count: first the house rule the count needs (None if declined),
        then only the options that apply, each given what was answered before it; the others
        keep their defaults."""
        options = {option.name: option.default for option in game.options}
        needed = [option for option in game.options if players in option.needed_for_players]
        for option in needed:
            self.console.print(views.option_intro(option))
            while True:
                raw = await self.ask(
                    tr("{count} players need {option}: turn it on? [yes] › ", count=players, option=option.name),
                    ["yes", "no"],
                )
                try:
                    wanted = option.parse(raw) if raw else True
                    break
                except SetupError as error:
                    self.console.print(views.error_text(str(error)))
            if not wanted:
                self.console.print(
                    tr("Then choose another number of players ({option} stays off).", option=option.name)
                )
                return None
            options[option.name] = True
        for option in game.options:
            if option not in needed and option.applies(players, options):
                options[option.name] = await self.ask_option(option)
        return options

    async def ask_option(self, option: Option) -> Any:
        self.console.print(views.option_intro(option))
        suggestions = (
            list(option.choices)
            if option.kind == "choice"
            else ["yes", "no"]
            if option.kind == "bool"
            else []
        )
        while True:
            raw = await self.ask(f"{option.name} [{views.show_value(option.default)}] › ", suggestions)
            if not raw:
                return option.default
            try:
                return option.parse(raw)
            except SetupError as error:
                self.console.print(views.error_text(str(error)))

    async def ask_players(self, game: Game[Any, Any]) -> int:
        if game.min_players == game.max_players:
            return game.min_players
        default = default_player_count(game)
        counts = f"{game.min_players}–{game.max_players}"
        while True:
            raw = await self.ask(tr("Players, you included ({counts}) [{default}] › ", counts=counts, default=default))
            try:
                players = int(raw) if raw else default
            except ValueError:
                players = -1
            if game.min_players <= players <= game.max_players:
                return players
            self.console.print(
                views.error_text(
                    tr(
                        "{game} is played by {counts} players; type a number in that range.",
                        game=tr(game.title),
                        counts=counts,
                    )
                )
            )

    async def ask_ai_kind(self, game: Game[Any, Any]) -> str:
        """The AI seats' level: easy, normal or strong (a kind the game offers by name, such as
        random, is accepted too). Not asked of a game whose AI plays one way only."""
        default, _ = pick_ai_kind(game, None)
        if len(game.ai_players()) == 1:
            return default
        self.console.print(views.levels_intro(LEVEL_HELP))
        choices = ai_choices(game)
        while True:
            raw = (
                await self.ask(tr("AI level ({levels}) [{default}] › ", levels=", ".join(LEVELS), default=default), choices)
            ).lower()
            if not raw:
                return default
            if raw in choices:
                return raw
            self.console.print(views.error_text(tr("Choose one of {levels}.", levels=", ".join(LEVELS))))

    async def start_game(
        self, game: Game[Any, Any], players: int, options: Mapping[str, Any], ai_kind: str, seed: int | None
    ) -> tuple[int, Outbox]:
        """Open a table with the local player in seat 1, fill the other seats with AI, deal."""
        table = await self.referee.create_table(
            game.name, self.user_id, self.player_name, options=dict(options), ai_seats=[ai_kind] * (players - 1)
        )
        self.current_table = table  # so that an interruption from here on names the game
        try:
            outbox = await self.referee.start(table.id, self.user_id, seed=seed)
        except GameError:
            # Leave no half-made lobby behind in the store.
            await self.referee.cancel(table.id, self.user_id)
            raise
        return table.id, outbox

    async def again(self) -> bool:
        try:
            await self.ask(tr("Enter for the start screen, quit to leave › "))
        except Quit:
            return False
        return True

    # ----- play --------------------------------------------------------------------------------

    async def play(self, table_id: int, outbox: Outbox | None = None) -> str:
        """Play at a table until the game ends, the player quits, or another human must act.

        Everything shown comes from the referee's snapshot of the player's seat (one read of one
        version); the Outbox of each move brings what happened (the logs) and the turn."""
        table = await self.referee.table(table_id)
        game = get_game(table.game)
        self.current_game, self.current_table = game, table
        if table.status == FINISHED:
            snapshot = await self.show_position(game, table_id, [], [])
            await self.show_outcome(snapshot)
            return FINISHED_GAME
        if outbox is None:
            # Whatever AI seats are due (none, usually: they play right after each human move).
            outbox = await self.referee.resume(table_id)
        first = await self.referee.snapshot(table_id, self.user_id)
        self.console.print(views.seats_line(outbox.table, self.user_id, first.seating))
        seated: SeatSnapshot | None = first
        while True:
            table = self.current_table = outbox.table
            my_seat = table.seat_of(self.user_id)
            assert my_seat is not None, "the local player is seated at every local table"
            snapshot = await self.show_position(
                game, table_id, outbox.public_log, outbox.private_log.get(my_seat.index, []), seated
            )
            seated = None  # read again after each move
            if outbox.finished:
                await self.show_outcome(snapshot)
                return FINISHED_GAME
            if my_seat.index not in outbox.to_act:
                self.console.print(Text(snapshot.waiting))
                return NOT_OUR_TURN
            try:
                outbox = await self.next_move(snapshot)
            except Quit:
                self.console.print(
                    tr("Game #{id} is saved; resume it from the start screen or with --resume {id}.", id=table.id),
                    markup=False,
                    highlight=False,
                    soft_wrap=True,
                )
                return QUIT_GAME

    async def next_move(self, snapshot: SeatSnapshot) -> Outbox:
        """Ask until the referee accepts a move; refusals are explained and the player asked again
        (a refused move changes nothing, so the moves offered stay those of the snapshot)."""
        moves = snapshot.legal_moves
        while True:
            text = await self.ask(tr("Your move › "), [*moves, HINT_WORD] if snapshot.hints else moves)
            if not text:
                self.console.print(tr("Type the number of a move, or the move itself (help explains how)."))
                continue
            if text.lower() == HINT_WORD and HINT_WORD not in (move.lower() for move in moves):
                await self.show_hint(snapshot)
                continue
            try:
                if text.lower() == "undo":  # a legal move spelt "undo" would have been returned as one
                    return await self.take_back(snapshot)
                move = move_from_input(text, moves)
                return await self.referee.play(
                    snapshot.table.id, self.user_id, move, expected_version=snapshot.version
                )
            except GameError as error:
                self.console.print(views.error_text(str(error)))

    async def show_hint(self, snapshot: SeatSnapshot) -> None:
        """What the normal AI would play in the player's place, and why (refused in rated games)."""
        try:
            text = await self.referee.hint(snapshot.table.id, self.user_id)
        except GameError as error:
            self.console.print(views.error_text(str(error)))
            return
        self.console.print(Text(text, style="cyan"))

    async def take_back(self, snapshot: SeatSnapshot) -> Outbox:
        """``undo``: the player's last move taken back (the local table is never rated, so at once)."""
        answer = await self.referee.undo(snapshot.table.id, self.user_id)
        if answer.outbox is None:  # a rated table would wait for the others: none sit here
            raise UndoRefused(tr("Only the other players can agree to take this move back."))
        return answer.outbox

    async def show_position(
        self,
        game: Game[Any, Any],
        table_id: int,
        public_log: Sequence[str],
        private_log: Sequence[str],
        snapshot: SeatSnapshot | None = None,
    ) -> SeatSnapshot:
        """What happened, the board, the player's own view and, at their turn, their moves, from
        the player's snapshot (``snapshot``, or one read now); the snapshot, for what follows."""
        if snapshot is None:
            snapshot = await self.referee.snapshot(table_id, self.user_id)
        parts: list[RenderableType | None] = [
            views.log_panel(public_log, private_log),
            views.board_panel(game, snapshot.table, snapshot.board),
            views.private_panel(self.player_name, snapshot.private or ""),
        ]
        if snapshot.moves:
            parts.append(views.moves_panel(snapshot.moves))
        for part in parts:
            if part is not None:
                self.console.print(part)
        if self.pictures is not None:
            self._say(await self.pictures.board(self.referee, snapshot))
        return snapshot

    async def show_outcome(self, snapshot: SeatSnapshot) -> None:
        if snapshot.outcome is not None:
            self.console.print(views.outcome_panel(snapshot.table, snapshot.outcome, self.user_id))
            if self.pictures is not None:
                self._say(await self.pictures.result(self.referee, snapshot))

    def _say(self, line: str | None) -> None:
        if line:
            self.console.print(views.error_text(line))
