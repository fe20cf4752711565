"""Figures: a four-player shedding game for the Italian 40-card deck, with the giro di figure."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Option, Outcome, Player, SetupError, ranks_from_keys
from engine.i18n import N_, tr

from . import ai, model, reasons, rules, setup, undo, views
from .model import PASS, FiguresMove, FiguresState


def _choice(name: str, choices: tuple[str, ...], description: str) -> Option:
    """An option among ``choices``, the first one by default."""
    return Option(name=name, kind="choice", default=choices[0], choices=choices, description=description)


def _match_end_count(when: str, name: str, default: int, description: str) -> Option:
    """The count that ends the match when ``match_end`` is ``when`` (asked only then): any
    positive whole number (§3.3), up to the bound every option has."""
    return Option(
        name=name,
        kind="int",
        applies_when=(("match_end", when),),
        default=default,
        minimum=1,
        description=description,
    )


class Figures(Game[FiguresState, FiguresMove]):
    name = "figures"
    title = N_("Figures")
    min_players = 4
    max_players = 4
    stacking_options = ("deck", "decks", "first_dealer")
    options = (
        _choice(
            "mode",
            ("individual", "pairs"),
            N_(
                "individual: everyone for themselves; pairs: lobby seats 1+3 against 2+4, "
                "partners sitting opposite."
            ),
        ),
        _choice(
            "match_end",
            ("target", "hands"),
            N_(
                "target: play until someone reaches target_score; hands: play number_of_hands hands. "
                "A tie for the lead adds hands."
            ),
        ),
        _match_end_count(
            "target", "target_score", 31, N_("Points that end the match when match_end is target.")
        ),
        _match_end_count(
            "hands",
            "number_of_hands",
            8,
            N_("Hands in the match when match_end is hands (8 = two full turns of the deal)."),
        ),
    )
    summary = N_(
        "Four players, Italian 40-card deck (1-7 and the figures J fante, N cavallo, K re); suits never matter.\n"
        "Seats are drawn; the deal moves one seat each hand; everyone gets 10 cards; the seat after the\n"
        "dealer leads (seats follow the playing order; which way round the table does not matter).\n"
        "Be the first to empty your hand. On your turn discard one card:\n"
        "- clear table or after a 7: any card;\n"
        "- after a 1-6: a strictly higher number card, or a figure;\n"
        "- a figure starts a giro di figure: each other player in turn must discard one figure (any figure),\n"
        "  or pass if they hold none; then the table clears and the starter leads again.\n"
        "You pass only when you cannot discard. After three passes in a row the table clears and the\n"
        "player of the last card leads.\n"
        "Three kings: once per hand, holding three kings on your own turn (not in a giro), you may discard\n"
        "three cards in a row, each legal after the one before; none of them starts a giro.\n"
        "Scoring, individual: out first 10, then 5/3/1 by fewest cards left (ties take the lower score).\n"
        "Pairs (partners opposite): the pair going out scores 5 + opponents' cards - partner's cards.\n"
        "The match runs to a target score (default 31) or a number of hands; a tied lead plays on."
    )
    notation_help = N_(
        "A card is its rank then its suit: ranks 1-7, J (fante), N (cavallo), K (re); suits d (denari),\n"
        "c (coppe), s (spade), b (bastoni). Examples: 1d, 7c, Jd, Nb, Ks (case and spaces do not matter;\n"
        "A for the asso and the Italian F, C, R for fante, cavallo, re are understood too).\n"
        "Moves:\n"
        "  7c                 discard one card\n"
        "  pass               when you cannot discard anything (also: passo)\n"
        "  kings 5c 6s 7d     three kings: three cards discarded in this order"
    )

    # ----- set-up -------------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> FiguresState:
        if players != model.PLAYERS:
            raise SetupError(tr("Figures is played by exactly 4 players, not {players}.", players=players))
        return setup.new_match(seed, options)

    # ----- play ---------------------------------------------------------------------------------

    def to_act(self, state: FiguresState) -> tuple[int, ...]:
        return () if state.phase == model.OVER else (state.turn,)

    legal_moves = staticmethod(rules.legal_moves)
    undoable = staticmethod(undo.undoable)
    why_illegal = staticmethod(reasons.why_illegal)
    play = staticmethod(rules.play)

    def automatic_move(self, state: FiguresState, seat: int) -> FiguresMove | None:
        moves = rules.legal_moves(state, seat)
        return PASS if moves == [PASS] else None

    default_move = staticmethod(rules.default_move)

    # ----- views and results --------------------------------------------------------------------

    def view(self, state: FiguresState, seat: int | None) -> dict[str, Any]:
        return views.public_view(state) if seat is None else views.seat_view(state, seat)

    secret_view = staticmethod(views.secret_view)

    def is_over(self, state: FiguresState) -> bool:
        return state.phase == model.OVER

    def outcome(self, state: FiguresState) -> Outcome:
        totals = list(state.totals)
        teams = [[0, 2], [1, 3]] if state.mode == model.PAIRS else None
        return Outcome(
            scores=[float(total) for total in totals],
            ranks=ranks_from_keys(totals),
            teams=teams,
            seating=self.seating(state),
        )

    def seating(self, state: FiguresState) -> list[int] | None:
        return list(state.table)  # the drawn seating: the board numbers the seats by it

    # ----- AI seats -----------------------------------------------------------------------------

    def ai_players(self) -> Mapping[str, Callable[[], Player]]:
        return ai.ai_players()

    def ai_test_players(self) -> Mapping[str, Callable[[], Player]]:
        return ai.test_players()


GAME = Figures()
