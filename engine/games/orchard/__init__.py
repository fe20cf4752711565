"""Draft Cider (registry name ``orchard``): draft apples from a shared pool into eight scoring batches.

The rules are docs/rules/orchard.md; their section (§) and ruling (R) numbers name the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import BadNotation, Game, Option, Outcome, Player, SetupError, ranks_from_keys
from engine.i18n import N_, tr

from . import notation, reasons, rules, setup, undo, views
from .ai import AI_PLAYERS, TEST_PLAYERS
from .model import OrchardState, Place

__all__ = ["GAME", "Orchard", "OrchardState", "Place"]


class Orchard(Game[OrchardState, Place]):
    name = "orchard"
    title = N_("Draft Cider")
    min_players = 1
    max_players = 6
    options = (
        Option(
            name="easy",
            kind="bool",
            default=False,
            description=N_("Easy mode: cards in the Bad Batch cost nothing instead of 1 point each."),
        ),
        Option(
            name="first_picker",
            kind="choice",
            default="random",
            choices=("random", "host"),
            for_players=(2, 3, 4, 5, 6),  # alone, you pick first
            description=N_("Who picks first in round 1: a random seat, or the host (seat 1)."),
        ),
    )
    summary = N_("""\
Draft apples into your orchard; the best total after 12 cards each wins.
75 cards: one per colour (Green, Gold, Red) x height 1-5 x sweetness 1-5.
Each round a pool is dealt face up: 3 cards per player, or 2 with 3 or 6 players.
Players take one card at a time in seat order until the pool is empty; the first pick
moves one seat on each round. 4 rounds (6 with 3 or 6 players) give everyone 12 cards.
A picked card goes at once into one of your 8 batches; if that batch refuses it, pick again.
 mono     one colour, set by its first card; 1, 3, 6, 10, 15... points
 feather  all cards share a sweetness, or all share a height; n x (n-1)
 special  one card, only if its colour is nowhere else but bad; 20, lost for good
          once that colour lands in any other batch
 unlucky  anything; n x n points, but only if the sweetness adds up to exactly 13
 forte    pairs in placement order; a pair's heights must differ; 2 per step apart
 sweet    pairs in placement order; a pair must share sweetness; 7 per pair
 const    each card within 1 height of the previous one; 3, 5, 7, 11, 13... (odd primes)
 bad      anything; -1 per card (0 in easy mode)
Ties share the win. Solo: 4 rounds of 3 cards, aiming for your best score.
Everything is public except the order of the deck.""")
    notation_help = N_("""\
A move names a pool card and one of your batches: Gold-h2-s5 mono
Card: colour, h + height, s + sweetness, as in Gold-h2-s5. Also read: gold h2 s5,
  Gold 2 5 (height first), Go25 (colour, height, sweetness); gr, go, r for the colours.
Batch: mono, feather, special, unlucky, forte, sweet, const, bad; a full name such as
  "sweet couple" or "constant height"; or its number 1-8 in that order.
Examples: Red-h1-s3 const | green 5 5 special | go25 in unlucky | Red h4 s4 -> bad""")

    # ----- set-up -------------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> OrchardState:
        self.check_players(players, options)
        stacked: list[int] = []
        for code in options.get("deck") or ():
            try:
                stacked.append(notation.parse_card(code))
            except BadNotation as error:
                raise SetupError(tr("Deck option: {error}", error=error)) from None
        return setup.new_state(
            players,
            seed,
            easy=bool(options.get("easy", False)),
            host_first=options.get("first_picker", "random") == "host",
            stacked=stacked,
        )

    # ----- play ---------------------------------------------------------------------------------

    def to_act(self, state: OrchardState) -> tuple[int, ...]:
        picker = rules.current_picker(state)
        return () if picker is None else (picker,)

    legal_moves = staticmethod(rules.legal_placements)
    undoable = staticmethod(undo.undoable)
    why_illegal = staticmethod(reasons.move_problem)
    play = staticmethod(rules.play_move)
    default_move = staticmethod(rules.default_placement)

    # ----- views and results --------------------------------------------------------------------

    view = staticmethod(views.view)
    secret_view = staticmethod(views.secret_view)
    is_over = staticmethod(rules.is_over)

    def outcome(self, state: OrchardState) -> Outcome:
        # Solo has no winner (only a total); the contract still wants ranks, so the lone seat is 1.
        totals = [rules.total_score(orchard, state.easy) for orchard in state.orchards]
        return Outcome(scores=[float(total) for total in totals], ranks=ranks_from_keys(totals))

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return AI_PLAYERS

    def ai_test_players(self) -> Mapping[str, Callable[[], Player]]:
        return TEST_PLAYERS


GAME = Orchard()
