"""Vege tables (registry name ``vegetables``): build produce sequences on a shared 4x4 field.

The rules are docs/rules/vegetables.md; their section (§) and ruling (R) numbers name the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import (
    Event,
    Game,
    Option,
    Outcome,
    Player,
    SetupError,
    ranks_from_keys,
)

from . import notation, render, rules
from .ai import AI_PLAYERS
from .rules import OVER, PLAYING, Done, Move, Pass, TakeWell, VegetablesState

__all__ = ["GAME", "Vegetables", "VegetablesState"]


class Vegetables(Game[VegetablesState, Move]):
    name = "vegetables"
    title = "Vege tables"
    # The official game is for 4; 3 and 5 are house variants behind an option (check_players).
    min_players = 3
    max_players = 5
    state_type = VegetablesState
    notation_module = notation
    render_module = render
    options = (
        Option(
            name="expert_jokers",
            kind="bool",
            default=False,
            for_players=(4,),
            description="Official expert deal (4 players): every well holds 2 Tractors and 4 Green "
            "cards, and the field holds no Tractor.",
        ),
        Option(
            name="house_variant",
            kind="bool",
            default=False,
            house_rule=True,
            for_players=(3, 5),
            needed_for_players=(3, 5),
            description="House rules for 3 players (one family other than Black removed, 3x4 field) "
            "or 5 players (a 9th Tractor, uneven deal, wells of 5, well taken below 4 hidden cards).",
        ),
    )
    summary = """\
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
Options: expert_jokers (2 Tractors in each well, none on the field); house_variant: 3 or 5 players."""
    notation_help = """\
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
Case and spaces do not matter; "play" and "then ..." may be left out (r7, t3 for r7)."""

    # ----- set-up -------------------------------------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        if players == 2:
            raise SetupError(
                "Vege tables for 2 players is a different rule set that this bot does not support; "
                "play with 4 (or 3 or 5 with the house_variant option)."
            )
        if players not in (3, 4, 5):
            raise SetupError(
                f"Vege tables is played by 4 players (3 or 5 as a house variant), not {players}."
            )
        if players != 4 and options.get("expert_jokers"):
            # Said first: with 3 or 5 players this option is the blocker whatever else is set.
            needed = "" if options.get("house_variant") else " and set house_variant=true"
            raise SetupError(
                "Expert jokers is an official deal for 4 players only; it cannot be combined with 3 or 5. "
                f"For {players} players turn expert_jokers off{needed} (house rules, not the published ones)."
            )
        if players != 4 and not options.get("house_variant"):
            raise SetupError(
                f"The official game is for 4 players. {players} players can play the house variant: "
                "set house_variant=true (house rules, not the published ones)."
            )

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> VegetablesState:
        self.check_players(players, options)
        return rules.new_state(
            players, seed, bool(options.get("expert_jokers", False)), list(options.get("deck") or ())
        )

    # ----- play ---------------------------------------------------------------------------------

    def to_act(self, state: VegetablesState) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def legal_moves(self, state: VegetablesState, seat: int) -> list[Move]:
        """The seat's legal moves. Off turn this lists only requests to discard a dead card (A3),
        which the rules allow at any time though nobody is waiting for them."""
        return rules.legal_moves(state, seat)

    def why_illegal(self, state: VegetablesState, seat: int, move: Move) -> str | None:
        move = rules.canonical_move(state, move)
        if move in rules.legal_moves(state, seat):
            return None
        return rules.why_not(state, seat, move)

    def canonical_move(self, state: VegetablesState, seat: int, move: Move) -> Move:
        return rules.canonical_move(state, move)

    def may_act(self, state: VegetablesState) -> tuple[int, ...]:
        # Besides the player on turn, a dead card's holder may ask at any time to discard it (A3).
        if state.phase == OVER:
            return ()
        return tuple(
            seat for seat in range(state.players) if seat == state.turn or self.legal_moves(state, seat)
        )

    def play(self, state: VegetablesState, seat: int, move: Move) -> list[Event]:
        return rules.play_move(state, seat, move)

    def automatic_move(self, state: VegetablesState, seat: int) -> Move | None:
        """A forced pass, or the end of a turn when nothing else is left to do."""
        if state.phase == OVER or seat != state.turn:
            return None
        moves = rules.legal_moves(state, seat)
        if moves == [Pass()]:
            return moves[0]
        if state.phase == PLAYING and moves and all(isinstance(move, (Done, TakeWell)) for move in moves):
            return Done()  # when the well may be taken, done takes it: the two are the same move
        return None

    def default_move(self, state: VegetablesState, seat: int) -> Move:
        return rules.default_move(state, seat)

    # ----- views and results --------------------------------------------------------------------

    def view(self, state: VegetablesState, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return rules.public_view(state)
        view = rules.seat_view(state, seat)
        view["examples"] = self._examples(state, seat)
        return view

    def secret_view(self, state: VegetablesState, seat: int) -> dict[str, Any]:
        # §4.2: the hidden hand, its pending discard requests, and which of its hidden cards are
        # dead (who holds a dead card is the holder's secret). Wells and the field's face-down
        # cards are secret from their owner too, so they are not part of anyone's secret view.
        player = state.seats[seat]
        dead = state.dead
        return {
            "hand": sorted(player.hand),
            "pending": sorted(player.pending),
            "dead_in_hand": sorted(card for card in player.hand if card in dead),
        }

    def _examples(self, state: VegetablesState, seat: int) -> list[str]:
        """A few of the seat's legal moves written out, one of each kind, so that a player sees
        how to write what the marks in their hand say is possible."""
        picked: dict[type, Move] = {}
        for move in rules.legal_moves(state, seat):
            kind = Done if isinstance(move, TakeWell) else type(move)
            picked.setdefault(kind, move)
        return [self.format_move(move) for move in picked.values()][:4]

    def is_over(self, state: VegetablesState) -> bool:
        return state.phase == OVER

    def outcome(self, state: VegetablesState) -> Outcome:
        scores = [player.score for player in state.seats]
        return Outcome(scores=[float(score) for score in scores], ranks=ranks_from_keys(scores))

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return AI_PLAYERS


GAME = Vegetables()
