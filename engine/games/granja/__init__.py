"""Granja (registry name ``granja``): farm cards with four faces, donkeys and siesta, deliveries,
craft buildings and a market, over six rounds, for 2 to 4 players.

The rules are docs/rules/granja.md; their section (1.x-3.x), ruling (R1-R58) and example
(E1-E7) numbers name the tests under tests/games/granja/.

STATUS
  Done (all tested under tests/games/granja/, registered in engine/games/__init__.py):
  set-up for 2-4 (solo refused); the six-round machine: F1 secret plays (two in round 1, slot
  discards, extension payments taken at the reveal), refill, F2 income, F3 harvest with its
  private prompt (Greengrocer, Flexible field), F4 roofs; dice with every face option and Die
  nudge; secret donkey markers with the 1-3 / 4-6 blocks and Siesta push; siesta, new order,
  deliveries (Crate substitute, Extra donkey), building completion, first finisher, unblocking,
  barrow completion, market placement with sweep, full case, refuges and compensation; paid
  extra deliveries; scoring, clean-up, final window, liquidation and tie-breaks. Every helper
  and roof, anytime actions in their windows, defaults (R42/R55), notation, views, rendering,
  specific refusal reasons, random and greedy AI seats. 0 errors in 500 simulated games at 2,
  3 and 4 players.
  Module map: config.py (every [D] value), cards.py (the 60 cards and the deck checker),
  model.py (state and moves), setup.py (the deal), rules.py (the machine, legal moves) built on
  farm.py, market.py and effects.py, scoring.py (round and end scoring), reasons.py
  (why_illegal), views.py, render.py,
  notation.py, words.py, ai.py; terms.py (the game's words in the reader's language: goods,
  buildings, helpers, phases) and rules_texts.py (the /rules summary and notation help, each one
  whole message). Every text a player reads is in the reader's language (engine.i18n), with the
  Japanese community's terms; notation and codes stay as they are.
  Audited against the spec (sections, R1-R58, seed rows S01-S58, examples E1-E7): Haggler copies
  and the round's first sale (H15), the R55 default of an effect's card play, and the /rules
  texts (help within the 1024-character embed field; board legend, dice faces and building
  effects in the summary) were fixed; roof abilities, donkey hats and die options are shown.
  After a die is resolved in R2-R4 the window stays open until done (a helper played with the
  die works in the same step, 1.12.3); a seat without cards keeps its F1 window (3.1).
  Remaining: nothing required; possible polish: let a player take back a finished secret F1
  play before the reveal, and a stronger greedy player (it completes about one barrow per game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Outcome, Player, SetupError, ranks_from_keys
from engine.i18n import N_, tr

from . import notation, rules, rules_texts, scoring, setup, undo, views
from .ai import AI_PLAYERS, TEST_PLAYERS
from .model import OVER, GranjaState, Move, copy_state
from .reasons import explain, not_acting
from .views import public_view, seat_view


class Granja(Game[GranjaState, Move]):
    name = "granja"
    title = N_("Granja")
    min_players = 2
    max_players = 4
    summary = rules_texts.SUMMARY
    notation_help = rules_texts.HELP

    # ----- set-up -------------------------------------------------------------------------------

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        if players == 1:
            raise SetupError(tr("Granja has no solo mode yet (it needs an automated rival); play with 2 to 4."))
        super().check_players(players, options)

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> GranjaState:
        self.check_players(players, options)
        stacked = []
        for code in options.get("deck") or ():
            try:
                stacked.append(notation.card_id(str(code).lower()))
            except Exception as error:
                raise SetupError(tr("Deck option: {error}", error=error)) from None
        return setup.new_state(players, seed, stacked)

    # ----- play ---------------------------------------------------------------------------------

    to_act = staticmethod(rules.to_act)
    legal_moves = staticmethod(rules.legal_moves)
    undoable = staticmethod(undo.undoable)
    why_illegal = staticmethod(explain)
    play = staticmethod(rules.play_move)
    copy_state = staticmethod(copy_state)
    not_your_turn_reason = staticmethod(not_acting)
    default_move = staticmethod(rules.default_move)

    def automatic_move(self, state: GranjaState, seat: int) -> Move | None:
        # Only a move that leaves no choice at all: the single legal move.
        return rules.only_move(state, seat)

    # ----- views and results --------------------------------------------------------------------

    def view(self, state: GranjaState, seat: int | None) -> dict[str, Any]:
        return public_view(state) if seat is None else seat_view(state, seat)

    secret_view = staticmethod(views.secret_view)

    def is_over(self, state: GranjaState) -> bool:
        return state.phase == OVER

    def outcome(self, state: GranjaState) -> Outcome:
        keys = scoring.final_keys(state)
        return Outcome(scores=[float(vp) for vp, _ in keys], ranks=ranks_from_keys(keys))

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return AI_PLAYERS

    def ai_test_players(self) -> Mapping[str, Callable[[], Player]]:
        return TEST_PLAYERS


GAME = Granja()
