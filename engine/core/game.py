"""The game contract every game implements, and the small shared types around it.

A game is a stateless object (one instance per game type, listed in ``engine.games``) whose
methods take and return plain state. States are ``msgspec.Struct`` values: typed, compact, and
serialised to JSON and back unchanged. Moves are small hashable values with a text notation
that round-trips (``parse_move(format_move(m)) == m``).

The flow of a game, seen from the referee:

    state = game.setup(players, seed, options)
    while not game.is_over(state):
        seats = game.to_act(state)            # one seat, or several for secret simultaneous choices
        move = ...one of game.legal_moves(state, seat) for some seat in seats...
        state, events = game.apply(state, seat, move)
    game.outcome(state)                       # scores and ranks, ties included

Anything automatic (dealing, rolling dice, revealing secret choices once all are in, scoring a
round) happens inside ``apply``, so ``to_act`` is empty exactly when the game is over.
A turn made of several moves simply keeps the same seat in ``to_act`` until it plays a move that
ends the turn (for example ``done``). Secret choices are stored in the state and left out of every
view but the chooser's until the reveal.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, get_args, get_origin

import msgspec

from engine.i18n import join_and, number, tr, tr_n

from .errors import IllegalMove, NotYourTurn, SetupError
from .picture import Picture
from .stacking import STACKING_OPTIONS, read_stacking_option
from .text import MAX_KEY_CHARS, MAX_OPTION_INT, MAX_OPTIONS, check_move_text, quote

S = TypeVar("S", bound=msgspec.Struct)
M = TypeVar("M", bound=Hashable)



class Option(msgspec.Struct, frozen=True, kw_only=True):
    """One setting of a game, as shown in the lobby and accepted as ``NAME=VALUE``."""

    name: str
    kind: str  # "bool", "int" or "choice"
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    house_rule: bool = False  # not part of the published rules; labelled as such in the UI
    # When the option means something, so that a set-up dialogue asks it only then (it keeps its
    # default otherwise). ``applies_when`` pairs an option declared earlier with the value that
    # makes this one matter (all pairs must hold); ``for_players`` lists the player counts it is
    # about (empty: every count).
    applies_when: tuple[tuple[str, Any], ...] = ()
    for_players: tuple[int, ...] = ()
    # Player counts that are played only with this (bool) option on, such as a house variant:
    # a dialogue asks it first, right after such a count, instead of refusing the count later.
    needed_for_players: tuple[int, ...] = ()

    def applies(self, players: int | None, chosen: Mapping[str, Any]) -> bool:
        """Whether this option matters with ``players`` (None: not known yet) and the options
        ``chosen`` so far (an option not chosen yet counts with its default)."""
        if players is not None and self.for_players and players not in self.for_players:
            return False
        return all(chosen.get(name) == value for name, value in self.applies_when)

    def parse(self, raw: Any) -> Any:
        """Convert a raw value (text from a command line or slash command, or a typed value)."""
        if isinstance(raw, str) and len(raw) > MAX_KEY_CHARS:
            raise SetupError(tr("Option {option} takes a short value, not {value}.", option=self.name, value=quote(raw)))
        if not isinstance(raw, (str, int)):  # bool is an int; anything else came from a bug
            raise SetupError(tr("Option {option} takes a value written as text, not {value}.", option=self.name, value=quote(raw)))
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise SetupError(tr("Option {option} takes true or false, not {value}.", option=self.name, value=quote(raw)))
        if self.kind == "int":
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise SetupError(tr("Option {option} takes a whole number, not {value}.", option=self.name, value=quote(raw))) from None
            # Without bounds of its own, an option still fits every store and JSON reader.
            low = self.minimum if self.minimum is not None else -MAX_OPTION_INT
            high = self.maximum if self.maximum is not None else MAX_OPTION_INT
            if value < low:
                raise SetupError(tr("Option {option} must be at least {low}.", option=self.name, low=number(low)))
            if value > high:
                raise SetupError(tr("Option {option} must be at most {high}.", option=self.name, high=number(high)))
            return value
        if self.kind == "choice":
            text = str(raw).strip().lower()
            if text not in self.choices:
                raise SetupError(
                    tr(
                        "Option {option} is one of {choices}, not {value}.",
                        option=self.name,
                        choices=", ".join(self.choices),
                        value=quote(raw),
                    )
                )
            return text
        raise ValueError(f"unknown option kind {self.kind}")


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """Something that happened, for logs and announcements.

    ``text`` may name seats as ``{p0}``, ``{p1}``... (0-based); front ends substitute player names
    with :func:`format_event`. ``visible_to`` is None for a public event, or the seats allowed to
    see it (for example the card a player drew).
    """

    text: str
    actor: int | None = None
    visible_to: tuple[int, ...] | None = None

    def visible_for(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def format_event(text: str, names: Sequence[str]) -> str:
    """Replace ``{pN}`` placeholders by player names."""
    return _SEAT_PLACEHOLDER.sub(lambda match: names[int(match.group(1))], text)


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """Final result. ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank (1, 1, 3)."""

    scores: list[float]
    ranks: list[int]
    teams: list[list[int]] | None = None  # seats playing together, when the game has teams
    # The seats in play order, when it is not the lobby's (Figures draws the seating): the order
    # in which boards and results number the seats. None: seat 1 plays first, then seat 2, ...
    seating: list[int] | None = None

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]


def ranks_from_keys(keys: Sequence[Any]) -> list[int]:
    """Competition ranking (1, 1, 3) where a larger key is better; equal keys share a rank."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


class Game(ABC, Generic[S, M]):
    """The contract. Subclasses fill the class attributes and the abstract methods."""

    name: ClassVar[str]  # registry key, also used in commands: "figures"
    title: ClassVar[str]  # shown to people: "Figures"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # The state's class: by default the ``S`` of ``Game[S, M]``; a game whose ``S`` is not one
    # class (a union of states) sets it and overrides ``decode_state``.
    state_type: ClassVar[type]
    summary: ClassVar[str] = ""  # a short rules summary in our own words, for /rules
    notation_help: ClassVar[str] = ""  # how to write moves, for /rules and the local table
    stacking_options: ClassVar[tuple[str, ...]] = ("deck",)  # those of STACKING_OPTIONS it accepts
    # Raise it with any change that could make a logged game replay differently (a rule, the
    # setup, the notation): every table keeps the version it started with, and a bot started on
    # new rules replays the games in progress and refuses to run if any of them would change.
    rules_version: ClassVar[int] = 1
    players_note: ClassVar[str] = ""  # which rules apply at each player count, for the lobby and /rules

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Fill what a game package states by its layout alone: the state type (from
        ``Game[S, M]``), the ``notation`` and ``render`` modules beside the class and the name of
        the ``draw`` module beside it, unless the class names its own."""
        super().__init_subclass__(**kwargs)
        if "state_type" not in cls.__dict__:
            for base in cls.__dict__.get("__orig_bases__", ()):
                state = get_args(base)[0] if get_origin(base) is Game else None
                if isinstance(state, type):
                    cls.state_type = state
        for room in ("notation", "render"):
            attribute = f"{room}_module"
            if getattr(cls, attribute) is None:
                setattr(cls, attribute, _sibling_module(cls.__module__, room))
        if cls.draw_module is None:
            cls.draw_module = _sibling_module_name(cls.__module__, "draw")

    # ----- set-up -------------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Check option names and convert the given values (no defaults, no player count).

        The stacking options (``stacking_options``, see STACKING_OPTIONS) fix the deal for tests,
        tutorials and puzzles: ``deck`` is a list of card codes, or one string of codes separated
        by spaces or commas; ``decks`` a list of such decks, or one string with the decks separated
        by ``|``; ``first_dealer`` a seat number from 1. Sizes are bounded here
        (``engine.core.text``), before any game reads a value.
        """
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise SetupError(tr("Options are given as NAME=VALUE pairs."))
        if len(raw) > MAX_OPTIONS:
            raise SetupError(tr("{game} takes at most {most} options at once.", game=tr(self.title), most=MAX_OPTIONS))
        known = {option.name: option for option in self.options}
        parsed: dict[str, Any] = {}
        for name, value in raw.items():
            if isinstance(name, str) and name in self.stacking_options:
                parsed[name] = self.parse_stacking_option(name, value)
            elif isinstance(name, str) and name in known:
                parsed[name] = known[name].parse(value)
            else:
                if not known:
                    raise SetupError(tr("{game} has no options.", game=tr(self.title)))
                raise SetupError(
                    tr(
                        "{game} has no option {option} (options: {options}).",
                        game=tr(self.title),
                        option=quote(name),
                        options=", ".join(known),
                    )
                )
        return parsed

    def resolve_options(self, players: int, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Check the player count and options; return every option with defaults filled in."""
        given = self.parse_options(raw)
        resolved = {option.name: given.get(option.name, option.default) for option in self.options}
        for name in self.stacking_options:
            if name in given:
                resolved[name] = given[name]
        self.check_players(players, resolved)
        return resolved

    def parse_stacking_option(self, name: str, value: Any) -> Any:
        """Read one stacking option (the game checks the card codes and seats when it sets up)."""
        if name in STACKING_OPTIONS:
            return read_stacking_option(name, value)
        raise SetupError(tr("{game} has no stacking option {option}.", game=tr(self.title), option=quote(name)))

    def check_options(self, raw: Mapping[str, Any] | None = None, players: int | None = None) -> dict[str, Any]:
        """Check options as fully as the start will, and return them parsed (no defaults added).

        Names, values and sizes (``parse_options``), then whatever ``setup`` refuses (a stacked
        deck's cards, options that exclude each other), by setting up a trial game. Without a
        player count (a lobby, whose seats are not filled yet) options pass if some supported
        count accepts them; the start checks again with the real count. A game whose checks cost
        more than a trial set-up overrides this."""
        given = self.parse_options(raw)
        counts = [players] if players is not None else range(self.min_players, self.max_players + 1)
        about_options: list[SetupError] = []  # what setup refused: said first
        about_count: list[SetupError] = []  # counts not played with these options
        for count in counts:
            try:
                resolved = self.resolve_options(count, given)
            except SetupError as error:
                about_count.append(error)
                continue
            try:
                self.setup(count, 0, resolved)
            except SetupError as error:
                about_options.append(error)
                continue
            return given
        refusals = about_options + about_count
        raise refusals[0] if refusals else SetupError(tr("{game} has no player count to check.", game=tr(self.title)))

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        """Refuse a player count the game (with these options) does not support."""
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise SetupError(
                    tr_n(
                        "{game} is played by exactly {n} player, not {players}.",
                        "{game} is played by exactly {n} players, not {players}.",
                        self.min_players,
                        game=tr(self.title),
                        players=players,
                    )
                )
            raise SetupError(
                tr(
                    "{game} is played by {least} to {most} players, not {players}.",
                    game=tr(self.title),
                    least=self.min_players,
                    most=self.max_players,
                    players=players,
                )
            )

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> S:
        """Validate options, then set up. Front ends call this rather than ``setup``."""
        return self.setup(players, seed, self.resolve_options(players, options))

    @abstractmethod
    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> S:
        """The initial state; ``options`` is already resolved (see ``resolve_options``)."""

    # ----- play ---------------------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that must act now, in seat order; empty exactly when the game is over."""

    def may_act(self, state: S) -> tuple[int, ...]:
        """Seats allowed to move now: those in ``to_act`` plus any seat with an optional move it
        may make out of turn (such as asking to discard a dead card). Only ``to_act`` is waited
        for (pinged, timed); the others are merely accepted."""
        return self.to_act(state)

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every legal move of ``seat`` now (empty when the seat may not act)."""

    def why_illegal(self, state: S, seat: int, move: M) -> str | None:
        """None if the move is legal, else the reason in a player's words.

        Games override this to explain; the default only checks membership.
        """
        if move in self.legal_moves(state, seat):
            return None
        return tr("{move} is not a legal move now.", move=self.format_move(move))

    @abstractmethod
    def play(self, state: S, seat: int, move: M) -> list[Event]:
        """Carry out a legal move on ``state`` in place and return what happened."""

    def check_move(self, state: S, seat: int, move: M) -> None:
        """Raise NotYourTurn or IllegalMove (with a player-readable reason) unless ``seat`` may
        make ``move`` now; return quietly if it may."""
        if self.is_over(state):
            raise IllegalMove(tr("The game is over."))
        if seat not in self.may_act(state):
            raise NotYourTurn(self.not_your_turn_reason(state, seat))
        reason = self.why_illegal(state, seat, move)
        if reason is not None:
            raise IllegalMove(reason)

    def canonical_move(self, state: S, seat: int, move: M) -> M:
        """The one form in which an accepted move is carried out, stored and shown.

        A game that accepts a redundant detail (naming a row that is determined anyway) drops it
        here, so that the log reads the same however the player wrote the move. Called after
        ``check_move`` accepted the move; the default returns it unchanged.
        """
        return move

    def apply(self, state: S, seat: int, move: M) -> tuple[S, list[Event]]:
        """Check and carry out a move; the given state is never modified.

        Raises NotYourTurn or IllegalMove (with a player-readable reason).
        """
        self.check_move(state, seat, move)
        move = self.canonical_move(state, seat, move)
        new_state = self.copy_state(state)
        events = self.play(new_state, seat, move)
        return new_state, events

    def undoable(self, before: S, seat: int, move: M, after: S) -> bool:
        """Whether ``seat`` may take back ``move``, which took ``before`` to ``after``: only a move
        that revealed nothing hidden and drew nothing random (the game's rulings say which). The
        referee also requires that nobody acted since. Default: no move can be taken back."""
        return False

    def not_your_turn_reason(self, state: S, seat: int) -> str:
        seats = self.to_act(state)
        numbers = join_and([str(s + 1) for s in seats])
        return tr_n(
            "It is not your turn; waiting for seat {seats}.",
            "It is not your turn; waiting for seats {seats}.",
            len(seats),
            seats=numbers,
        )

    def automatic_move(self, state: S, seat: int) -> M | None:
        """A move the referee may make for a human seat without asking (e.g. a forced pass).

        None (the default) means the seat decides. Only return a move that leaves the player no
        choice at all, so that playing it automatically never takes a decision away.
        """
        return None

    def default_move(self, state: S, seat: int) -> M:
        """The move made for a seat that runs out of time. Games may choose a gentler default."""
        return self.legal_moves(state, seat)[0]

    # ----- views and results --------------------------------------------------------------------

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (JSON-friendly); ``seat=None`` is the public view."""

    def secret_view(self, state: S, seat: int) -> dict[str, Any]:
        """What only ``seat`` knows now: its hand, its pending secret choice... (JSON-friendly).

        Front ends compare it before and after a move to tell whose secret changed (their hand
        was dealt to, a card was received) and must be shown again; anything derived from the
        public view (legal moves, "your turn", prompts) belongs elsewhere, since it changes every
        turn. A game with nothing secret returns ``{}``. The default is the seat's view minus
        what the public view shows the same, which counts those derived facts too: games
        override it with something exact and cheaper (the full seat view may compute every legal
        move)."""
        public = self.view(state, None)
        own = self.view(state, seat)
        return {key: value for key, value in own.items() if key not in public or public[key] != value}

    def seating(self, state: S) -> list[int] | None:
        """The seats in play order, when the game draws it (Figures draws who sits where): the
        order its board numbers the seats in, which every front end follows (and ``Outcome.seating``
        repeats at the end). ``None``, the default: the lobby's order."""
        return None

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Final scores and ranks; only called when the game is over."""

    # ----- notation and text --------------------------------------------------------------------

    # A game package keeps its notation and its text rendering in modules of their own
    # (notation.py with parse_move/format_move, render.py with render_board/render_private),
    # found beside the game's class (``__init_subclass__``); a game names other modules here, or
    # overrides the four methods below. (Not ClassVar: mypy takes a module named in a subclass's
    # body for an instance attribute.)
    notation_module: ModuleType | None = None
    render_module: ModuleType | None = None
    # The dotted name of the game's drawing module (``draw_board``/``draw_hand``), by default the
    # package's ``draw`` module when it has one; imported on first use only: drawing needs Pillow,
    # which a text-only front end and the engine's tests never load.
    draw_module: str | None = None

    def parse_move(self, text: str) -> M:
        """Read a move from its notation; raises BadNotation with a hint when unreadable (and for
        anything that is not text of a bounded length, before the notation reads it)."""
        return cast(M, self._module("notation_module").parse_move(check_move_text(text)))

    def format_move(self, move: M) -> str:
        """The canonical notation of a move."""
        return cast(str, self._module("notation_module").format_move(move))

    def describe_move(self, move: M) -> str:
        """What a move does, in a few words, when its notation alone does not say (La Granja's
        ``take 4``: "4 $"); front ends show it beside the move. "" when the notation says it all
        (the default; a game's notation module may define ``describe_move``)."""
        describe = getattr(self.notation_module, "describe_move", None)
        return cast(str, describe(move)) if describe is not None else ""

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        """Plain text of the public board (monospace friendly)."""
        return cast(str, self._module("render_module").render_board(public_view, names))

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        """Plain text of one seat's private part (hand, pending choice)."""
        return cast(str, self._module("render_module").render_private(seat_view, names))

    def draw_board(self, public_view: dict[str, Any], names: Sequence[str]) -> Picture:
        """A picture of the public board (engine.pictures)."""
        return cast(Picture, self._drawing().draw_board(public_view, names))

    def draw_hand(self, seat_view: dict[str, Any], names: Sequence[str]) -> Picture:
        """A picture of one seat's private part (its hand, the playable cards marked)."""
        return cast(Picture, self._drawing().draw_hand(seat_view, names))

    @property
    def draws(self) -> bool:
        """Whether the game draws pictures (front ends fall back to text when not)."""
        return self.draw_module is not None

    def _drawing(self) -> ModuleType:
        if self.draw_module is None:
            raise NotImplementedError(f"{type(self).__name__} draws no pictures")
        return importlib.import_module(self.draw_module)

    def _module(self, attribute: str) -> ModuleType:
        module: ModuleType | None = getattr(self, attribute)
        if module is None:
            raise NotImplementedError(f"{type(self).__name__} sets no {attribute} and does not override its methods")
        return module

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        """Factories of AI players by kind; every game offers at least "random"."""
        return {"random": RandomPlayer}

    def ai_test_players(self) -> Mapping[str, Callable[[], Player]]:
        """AI kinds for tests and the arena only, never offered at a table: a "clairvoyant" search
        that reads every hidden card, the ceiling that shows how much of a game is luck."""
        return {}

    # ----- serialisation ------------------------------------------------------------------------

    def encode_state(self, state: S) -> bytes:
        return msgspec.json.encode(state)

    def decode_state(self, data: bytes | str) -> S:
        return msgspec.json.decode(data, type=self.state_type)

    def copy_state(self, state: S) -> S:
        # MessagePack round-trip is a fast deep copy for plain msgspec data.
        return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=self.state_type)


def _sibling_module(package: str, room: str) -> ModuleType | None:
    """The module ``room`` of the package ``package`` (a game's ``notation`` or ``render``), or
    None when there is none (a game defined in a plain module, such as a test's)."""
    try:
        return importlib.import_module(f"{package}.{room}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{room}":
            raise  # the module exists but imports something missing: a real error
        return None


def _sibling_module_name(package: str, room: str) -> str | None:
    """The dotted name of the module ``room`` of the package ``package`` when there is one, found
    without importing it (a game's ``draw``, which needs Pillow); None for a game defined in a
    plain module."""
    name = f"{package}.{room}"
    try:
        return name if importlib.util.find_spec(name) is not None else None
    except ModuleNotFoundError:  # ``package`` is a plain module, not a package
        return None


# ----- AI seats ---------------------------------------------------------------------------------
# What ``Game.ai_players`` returns is part of the contract, so the player interface and the
# baseline player live here; engine.core.ai builds stronger players on top (it imports this
# module, never the other way round).


class Player(Protocol):
    """Chooses a move for ``seat``; must return one of ``game.legal_moves(state, seat)``."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any: ...


class RandomPlayer:
    """Plays a uniformly random legal move. The baseline every game supports."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        return rng.choice(game.legal_moves(state, seat))
