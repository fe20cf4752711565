"""Vege tables (registry name ``vegetables``): build produce sequences on a shared 4x4 field.

The rules are docs/rules/vegetables.md for 3 to 5 players and docs/rules/vegetables-2p.md for the
2-player game; their section (§) and ruling (R) numbers name the tests. The 2-player game has a
state of its own (``duo.model.DuoState``, ``variant`` "two"): every method below hands such a
state to the ``duo`` subpackage, which has the same rooms as this package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import msgspec

from engine.core import (
    Event,
    Game,
    Option,
    Outcome,
    Picture,
    Player,
    SetupError,
    ranks_from_keys,
)
from engine.i18n import N_, tr

from . import (
    reasons,
    render,
    rules,
    setup,
    undo,
    views,
)
from .ai import AI_PLAYERS, TEST_PLAYERS
from .duo import notation as duo_notation
from .duo import reasons as duo_reasons
from .duo import render as duo_render
from .duo import rules as duo_rules
from .duo import setup as duo_setup
from .duo import undo as duo_undo
from .duo import views as duo_views
from .duo.model import TWO, Draw, DuoMove, DuoState, PlayGround, TractorGround
from .model import OVER, PLAYING, Done, Move, Pass, TakeWell, VegetablesState
from .words import all_of

__all__ = ["GAME", "Vegetables", "VegetablesState"]


# A state of either game: every method below hands a DuoState to the duo subpackage.
State = VegetablesState | DuoState


class Vegetables(Game[State, DuoMove]):
    name = "vegetables"
    title = N_("Vege tables")
    # The official game is for 4, and for 2 with the designer's 2-player rules as Board Game Arena
    # plays them; 3 and 5 are house variants behind an option (check_players).
    min_players = 2
    max_players = 5
    state_type = VegetablesState  # or DuoState for 2 players: see decode_state
    notation_module = duo_notation  # the 4-player notation plus the 2-player additions
    render_module = render  # for 3 to 5 players; see render_board
    # The package's draw module draws 3 to 5 players, this one 2 (see draw_board).
    duo_draw_module = "engine.games.vegetables.duo.draw"
    options = (
        Option(
            name="expert_jokers",
            kind="bool",
            default=False,
            for_players=(4,),
            description=N_(
                "Official expert deal (4 players only): every well holds 2 Tractors and 4 Green "
                "cards, and the field holds no Tractor."
            ),
        ),
        Option(
            name="house_variant",
            kind="bool",
            default=False,
            house_rule=True,
            for_players=(3, 5),
            needed_for_players=(3, 5),
            description=N_(
                "House rules for 3 players (one family other than Black removed, 3x4 field) "
                "or 5 players (a 9th Tractor, uneven deal, wells of 5, well taken below 4 hidden cards)."
            ),
        ),
    )
    players_note = N_(
        "2 players: the official 2-player game as Board Game Arena plays it (Grounds, Silos, common "
        "wells), with our rulings where its rules are silent; no options.\n"
        "4 players: the official game (expert_jokers is an official option).\n"
        "3 or 5 players: house rules, only with house_variant=true."
    )
    summary = N_("""\
Grow 16 produce sequences on a shared 4x4 field; close them for points, and run out of cards first.
Cards: families K (Black), G (Green), R (Red), Y (Yellow) numbered 1-20, and 8 Tractor jokers (T).
A sequence is one family climbing in steps of 4 from its base 1-4, e.g. R3 R7 R11 R15 R19.
Each player gets 4 Farmland cards (1-4) face up, 8 hidden cards, and a well of 6 that nobody may
look at; 16 cards lie face down on the field. Whoever holds K1 starts; play goes clockwise.
On your turn make at least one play, as many as you like, then say done.
 Farmland: goes to column = its number, in its family's row (the family's first base picks a
   free row for good); you take the face-down card from that cell.
 Sequence card: goes on its sequence when the card 4 lower is on top.
 Tractor: stands for a missing card 1-16 at the next place of a sequence, followed at once by
   the real next card; the card it replaced is dead (only discarded, at its holder's turn).
   Or discard a Tractor: it counts as your play and ends your turn.
Well: after a play, holding fewer than 6 hidden cards (4 with 5 players), you must take it (done
 does it); it ends your turn and pays 10 per other player still holding a well (30/20/10/0).
No play at all: pass. Your hidden cards go face up (still playable); with none to show you lose 50.
 A pass also hands you your well if you still have it.
Points: +10 per sequence you close, +30 more for completing a family; whoever runs out of cards
ends the game and gets +10 per sequence not closed. Best score wins; ties share the win.
Players: 4 official; 3 or 5 house rules (house_variant); expert_jokers: Tractors in the wells (4).
2 players: Board Game Arena's official 2-player game, our rulings where it is silent: each has 8
Grounds, 12 hidden cards, 5 own Tractors (1, +2, +2) that replace only the opponent's cards; rows
fixed; a face-up Silo card with each base; 3 common wells: draw after a play below 12 (below 8: must).""")
    notation_help = N_("""\
Cards: family letter + number: K Black, G Green, R Red, Y Yellow (R7, K20); Tractors T1-T8.
 play R7                          play a card (hand, exposed cards or Farmland row)
 play K1 row 2                    a family's first base: name a free row (left out once the
                                  family has a row, or when only one row is free)
 tractor T3 for R7 then R11       a Tractor stands for R7; R11 follows at once
 tractor T3 for R2 then R6 row 1  a Tractor as a base (row as for play)
 discard T3                       discard a Tractor: your play for the turn; the turn ends
 discard K8                       discard a dead card (off turn: it leaves at your next turn)
 well                             take your well (after a play, fewer than 6 hidden cards)
 done                             end your turn (takes the well instead when you may)
 pass                             only when you cannot play
Case and spaces do not matter; "play" and "then ..." may be left out (r7, t3 for r7).
2 players (rows are fixed, never named; no well):
 play R3 take G17                 a Ground, and the free Silo card you take with it
 tractor T3 for R2 then R6 take G17   a Tractor as a base takes a Silo card too
 draw K15 Y19 R9                  draw: free top cards of the wells, in pick order
 draw W1 W1 W3                    the same, naming the piles""")

    # ----- set-up -------------------------------------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        if players == 2:
            # The 2-player game has no options: its deal is fixed (docs/rules/vegetables-2p.md §1).
            chosen = [name for name in ("expert_jokers", "house_variant") if options.get(name)]
            if chosen:
                raise SetupError(
                    tr(
                        "The 2-player game (Board Game Arena's version) has no options; turn {options} off.",
                        options=all_of(chosen),
                    )
                )
            return
        if players not in (3, 4, 5):
            raise SetupError(
                tr("Vege tables is played by 4 players or 2 (3 or 5 as a house variant), not {players}.", players=players)
            )
        if players != 4 and options.get("expert_jokers"):
            # Said first: with 3 or 5 players this option is the blocker whatever else is set.
            if options.get("house_variant"):
                raise SetupError(
                    tr(
                        "Expert jokers is an official deal for 4 players only; it cannot be combined with 3 or 5. "
                        "For {players} players turn expert_jokers off (house rules, not the published ones).",
                        players=players,
                    )
                )
            raise SetupError(
                tr(
                    "Expert jokers is an official deal for 4 players only; it cannot be combined with 3 or 5. "
                    "For {players} players turn expert_jokers off and set house_variant=true (house rules, not "
                    "the published ones).",
                    players=players,
                )
            )
        if players != 4 and not options.get("house_variant"):
            raise SetupError(
                tr(
                    "The official game is for 4 players. {players} players can play the house variant: "
                    "set house_variant=true (house rules, not the published ones).",
                    players=players,
                )
            )

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> State:
        self.check_players(players, options)
        if players == 2:
            return duo_setup.new_state(seed, list(options.get("deck") or ()))
        return setup.new_state(
            players, seed, bool(options.get("expert_jokers", False)), list(options.get("deck") or ())
        )

    # ----- play ---------------------------------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def legal_moves(self, state: State, seat: int) -> list[DuoMove]:
        """The seat's legal moves. Off turn this lists only requests to discard a dead card (A3),
        which the rules allow at any time though nobody is waiting for them."""
        if isinstance(state, DuoState):
            return duo_rules.legal_moves(state, seat)
        return list(rules.legal_moves(state, seat))  # a list of the wider move type

    def undoable(self, before: State, seat: int, move: DuoMove, after: State) -> bool:
        if isinstance(before, DuoState) and isinstance(after, DuoState):
            return duo_undo.undoable(before, seat, move, after)
        if isinstance(before, VegetablesState) and isinstance(after, VegetablesState):
            return undo.undoable(before, seat, cast(Move, move), after)
        return False

    def why_illegal(self, state: State, seat: int, move: DuoMove) -> str | None:
        if isinstance(state, DuoState):
            if duo_rules.is_legal(state, seat, move):
                return None
            return duo_reasons.why_not(state, seat, move)
        if isinstance(move, (PlayGround, TractorGround, Draw)):  # never legal here
            return tr(
                "Silo cards (take ...) and draws belong to the 2-player game; here a base is played "
                "alone (play R3) and you take your own well (well)."
            )
        move = rules.canonical_move(state, move)
        if move in rules.legal_moves(state, seat):
            return None
        return reasons.why_not(state, seat, move)

    def canonical_move(self, state: State, seat: int, move: DuoMove) -> DuoMove:
        if isinstance(state, DuoState):  # the 2-player game's rows are fixed: nothing to drop
            return move
        if isinstance(move, (PlayGround, TractorGround, Draw)):  # a 2-player move: left as it is
            return move
        return rules.canonical_move(state, move)

    def may_act(self, state: State) -> tuple[int, ...]:
        # Besides the player on turn, a dead card's holder may ask at any time to discard it (A3).
        if state.phase == OVER:
            return ()
        return tuple(
            seat for seat in range(state.players) if seat == state.turn or self.legal_moves(state, seat)
        )

    def play(self, state: State, seat: int, move: DuoMove) -> list[Event]:
        if isinstance(state, DuoState):
            return duo_rules.play_move(state, seat, move)
        assert not isinstance(move, (PlayGround, TractorGround, Draw))  # legality is checked first
        return rules.play_move(state, seat, move)

    def automatic_move(self, state: State, seat: int) -> DuoMove | None:
        """A forced pass, or the end of a turn when nothing else is left to do."""
        if state.phase == OVER or seat != state.turn:
            return None
        if isinstance(state, DuoState):
            # A forced pass, a draw that leaves no choice (the wells hold too few cards), or a
            # lone done: each leaves the player nothing to decide.
            duo_moves = duo_rules.legal_moves(state, seat)
            return duo_moves[0] if len(duo_moves) == 1 and not isinstance(duo_moves[0], PlayGround) else None
        moves = rules.legal_moves(state, seat)
        if moves == [Pass()]:
            return moves[0]
        if state.phase == PLAYING and moves and all(isinstance(move, (Done, TakeWell)) for move in moves):
            return Done()  # when the well may be taken, done takes it: the two are the same move
        return None

    def default_move(self, state: State, seat: int) -> DuoMove:
        if isinstance(state, DuoState):
            return duo_rules.default_move(state, seat)
        return rules.default_move(state, seat)

    # ----- views and results --------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if isinstance(state, DuoState):
            if seat is None:
                return duo_views.public_view(state)
            duo_view = duo_views.seat_view(state, seat)
            duo_view["examples"] = duo_views.examples(state, seat, self.format_move)
            return duo_view
        if seat is None:
            return views.public_view(state)
        view = views.seat_view(state, seat)
        view["examples"] = self._examples(state, seat)
        return view

    def secret_view(self, state: State, seat: int) -> dict[str, Any]:
        if isinstance(state, DuoState):
            return duo_views.secret_view(state, seat)
        return views.secret_view(state, seat)

    def _examples(self, state: VegetablesState, seat: int) -> list[str]:
        """A few of the seat's legal moves written out, one of each kind, so that a player sees
        how to write what the marks in their hand say is possible."""
        picked: dict[type, Move] = {}
        for move in rules.legal_moves(state, seat):
            kind = Done if isinstance(move, TakeWell) else type(move)
            picked.setdefault(kind, move)
        return [self.format_move(move) for move in picked.values()][:4]

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def outcome(self, state: State) -> Outcome:
        scores = [player.score for player in state.seats]
        return Outcome(scores=[float(score) for score in scores], ranks=ranks_from_keys(scores))

    # ----- text and storage: a 2-player state or view goes to its own modules ------------------

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        if public_view.get("variant") == TWO:
            return duo_render.render_board(public_view, names)
        return render.render_board(public_view, names)

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        if seat_view.get("variant") == TWO:
            return duo_render.render_private(seat_view, names)
        return render.render_private(seat_view, names)

    def draw_board(self, public_view: dict[str, Any], names: Sequence[str]) -> Picture:
        if public_view.get("variant") == TWO:
            return cast(Picture, importlib.import_module(self.duo_draw_module).draw_board(public_view, names))
        return super().draw_board(public_view, names)

    def draw_hand(self, seat_view: dict[str, Any], names: Sequence[str]) -> Picture:
        if seat_view.get("variant") == TWO:
            return cast(Picture, importlib.import_module(self.duo_draw_module).draw_hand(seat_view, names))
        return super().draw_hand(seat_view, names)

    def decode_state(self, data: bytes | str) -> State:
        if msgspec.json.decode(data, type=_Variant).variant == TWO:
            return msgspec.json.decode(data, type=DuoState)
        return msgspec.json.decode(data, type=VegetablesState)

    def copy_state(self, state: State) -> State:
        return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state))

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return AI_PLAYERS

    def ai_test_players(self) -> Mapping[str, Callable[[], Player]]:
        return TEST_PLAYERS


class _Variant(msgspec.Struct):
    """The one field read first from a stored state, to pick its type."""

    variant: str = ""


GAME = Vegetables()
