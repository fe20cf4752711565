"""AI seats for Granja: a random legal player and a greedy one that completes barrows and buildings.

The greedy player looks one decision ahead: it plays each candidate move on a copy of the
state, follows the choices that move opens for itself (a die's option, a free upgrade...), and
scores the result with ``worth``, which reads only the seat's own farm and public information.
Secret card plays are judged on the farm as it will be after the reveal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Player
from engine.core.search import clairvoyant_levels, search_levels

from .cards import CARDS
from .config import CONFIG, DONKEYS
from .farm import projected_farm
from .knowledge import GranjaKit
from .market import delivery_targets
from .model import BACK, DONE, END_WINDOW, F1_PLAY, OVER, PASS, T1_DONKEY, GranjaState, Move
from .rules import available_donkeys, legal_moves

GOOD_WORTH = {"GR": 0.5, "OL": 0.5, "GP": 0.5, "PG": 0.9, "FD": 1.1, "WN": 1.4, "MT": 1.2, "TG": 1.3}
HELPER_WORTH = {
    "H01": 0.6, "H02": 0.8, "H03": 1.0, "H04": 0.6, "H05": 1.0, "H06": 0.5, "H07": 0.5, "H08": 0.5,
    "H09": 0.5, "H10": 0.6, "H11": 0.9, "H12": 0.7, "H13": 0.8, "H14": 0.9, "H15": 0.5, "H16": 0.8,
    "H17": 0.6,
}  # fmt: skip


def ai_moves(game: Game[Any, Any], state: Any, seat: int) -> list[Move]:
    """The legal moves an AI considers: all but ``back``, which only undoes a human's misclick
    (an AI that weighs a card play one way and its follow-up another could go back and forth
    for ever)."""
    moves = game.legal_moves(state, seat)
    return [move for move in moves if move != BACK] or moves


class GranjaRandom:
    """A random legal move: first a random kind of move (deliver, play, done...), then a random
    move of that kind, so that long lists of anytime actions do not drown the turn-ending move."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        moves = ai_moves(game, state, seat)
        kinds = sorted({move.kind for move in moves})
        kind = rng.choice(kinds)
        return rng.choice([move for move in moves if move.kind == kind])


def worth(state: GranjaState, seat: int) -> float:
    """A rough value of the seat's position in VP, from its own farm and the public board."""
    farm = projected_farm(state, seat) if state.phase == F1_PLAY else state.farms[seat]
    if state.phase in (END_WINDOW, OVER):
        # Only the liquidation is left: goods at their sale price, silver at the end rate.
        cash = farm.silver + farm.goods["TG"] * CONFIG.trade_good_end_value
        cash += sum(CONFIG.sell_price[good] * farm.goods[good] for good in CONFIG.sell_price)
        return farm.vp + cash / CONFIG.end_silver_per_vp
    # The search calls this a few hundred thousand times per game: lists, counts and plain
    # loops instead of generators, the same sums added in the same order (the same floats).
    value = float(farm.vp)
    value += farm.silver * 0.3
    goods = farm.goods
    value += sum([GOOD_WORTH[good] * count for good, count in goods.items()])
    crops = [CARDS[field.card].field for field in farm.fields if field.crop]
    value += sum([0.45 for _ in crops])
    held = {good for good, count in goods.items() if count}
    held.update(crops)
    for barrow in farm.barrows:
        card = CARDS[barrow.card]
        covered = barrow.covered
        done = covered.count(True) / len(card.barrow)
        ready = 0
        for good, is_covered in zip(card.barrow, covered, strict=True):
            if not is_covered and good in held:
                ready += 1
        value += card.barrow_vp * (0.15 + 0.55 * done) + 0.2 * ready
    for building in state.buildings:
        if seat not in building.finishers:
            value += 1.1 * building.rows[seat].count(True) * (0.5 if building.order_marker else 1.0)
    value += 2.0 * len(farm.buildings) * (CONFIG.rounds - state.round) / CONFIG.rounds
    rounds_left = CONFIG.rounds - state.round
    value += len(farm.fields) * 0.15 * rounds_left
    value += len(farm.extensions) * 0.45 * rounds_left
    value += sum([HELPER_WORTH[CARDS[helper.card].helper] for helper in farm.helpers]) * min(1.0, rounds_left / 2)
    value += min(len(farm.hand), farm.hand_limit) * 0.3
    # An unused roof is worth less as the game runs out: use it rather than let it go to waste.
    value += sum([0.8 * rounds_left / CONFIG.rounds for roof in farm.roofs if not roof.used])
    value += 1.0 * state.market.count(seat) * min(1.0, rounds_left / 2 + 0.5)
    return value


class GranjaGreedy:
    """Best immediate value, following its own follow-up choices a few steps deep."""

    depth = 3

    def choose(self, game: Game[Any, Any], state: GranjaState, seat: int, rng: random.Random) -> Any:
        moves = ai_moves(game, state, seat)
        if len(moves) == 1:
            return moves[0]
        if state.phase == T1_DONKEY and not state.tasks[seat]:
            donkey = self.donkey(state, seat)
            if donkey is not None:
                return donkey
        base = worth(state, seat)
        # A seat that owes an F1 play has no done: its plays are what stops the window, so an
        # anytime action must gain something to come before them (else buy-upgrade-sell may cycle).
        owes_play = state.phase == F1_PLAY and not state.tasks[seat] and any(move.kind == "play" for move in moves)
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            value = self.move_value(game, state, seat, move, self.depth)
            if move in (DONE, PASS):
                value = max(value, base) + 1e-6  # stop rather than shuffle goods at no gain
            elif owes_play and move.kind == "play":
                value = max(value, base) + 1e-6 + value * 1e-9  # the best play, unless shuffling gains
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return rng.choice(best)

    def move_value(self, game: Game[Any, Any], state: GranjaState, seat: int, move: Move, depth: int) -> float:
        # Every move weighed here comes from legal_moves: played on a copy without apply's check.
        after = game.copy_state(state)
        game.play(after, seat, move)
        stack = after.tasks[seat]
        if stack and depth > 0:
            follow = game.legal_moves(after, seat)
            if stack[-1].kind in ("pay", "discard"):
                # Pay with the least valuable good, replace the least advanced card.
                return self.move_value(game, after, seat, self.cheapest(after, seat, follow), depth)
            if len(follow) > 12:
                follow = follow[:12]
            return max(self.move_value(game, after, seat, option, depth - 1) for option in follow)
        return worth(after, seat)

    def cheapest(self, state: GranjaState, seat: int, moves: list[Move]) -> Move:
        farm = projected_farm(state, seat)

        def cost(move: Move) -> float:
            token = move.args[0]
            if move.kind == "discard":
                barrow = next((b for b in farm.barrows if b.card == token), None)
                return sum(barrow.covered) if barrow else HELPER_WORTH[CARDS[token].helper]
            if token == "$":
                return 0.3
            if token == "VP":
                return 1.0
            return GOOD_WORTH[token.partition("@")[0]] - (0.1 if "@" in token else 0.0)

        return min((move for move in moves if move.args), key=cost)

    def donkey(self, state: GranjaState, seat: int) -> Move | None:
        """As many donkeys as there are goods ready to deliver, the rest in straw hats."""
        farm = state.farms[seat]
        needed: dict[str, int] = {}
        for _target, symbols in delivery_targets(state, seat):
            for symbol in symbols:
                needed[symbol] = needed.get(symbol, 0) + 1
        fields = {crop: sum(1 for f in farm.fields if f.crop and CARDS[f.card].field == crop) for crop in ("GR", "OL", "GP")}
        ready = sum(min(count, farm.goods.get(good, 0) + fields.get(good, 0)) for good, count in needed.items())
        available = available_donkeys(state, seat)
        fitting = [marker for marker in available if DONKEYS[marker] >= ready]
        marker = min(fitting, key=lambda m: DONKEYS[m]) if fitting else max(available, key=lambda m: DONKEYS[m])
        pushes = sum(not helper.used for helper in farm.helpers_of("H06"))
        move = Move("donkey", (marker, f"+{pushes}") if pushes else (marker,))
        return move if move in legal_moves(state, seat) else None


# Search budgets (playouts per decision, rollout horizon in phases). Strong differs from normal
# by its playouts, not its horizon: a two-phase horizon (16 playouts) bought nothing over one
# phase, while 48 playouts at one phase beat the old normal (6 over the greedy seat's five
# favourite moves) heads up, 60% of 100 games. Against greedy seats that old normal was level
# with strong, though (72.6% at 4 players), so normal now weighs only the greedy seat's three
# favourites on a budget of 3 playouts: 62% at 4 players and 82% heads up, against strong's 72% and 89%
# (README), between easy and strong as the levels promise.
NORMAL = (3, 1)
NORMAL_CANDIDATES = 3
STRONG = (48, 1)
# A rollout's moves at most. Its light policy may loop through anytime actions that each look
# like a gain (sell a feed, buy a grain, upgrade it to feed...) and never end its turn; a two-phase
# rollout takes some twenty moves, and without a cap one such loop ran 10,000 moves per playout
# (a 52 s decision of normal's, which the time budget, read between playouts, cannot stop).
ROLLOUT_MOVES_CAP = 400
KIT = GranjaKit(GranjaGreedy(), worth)
NORMAL_KIT = GranjaKit(GranjaGreedy(), worth, NORMAL_CANDIDATES)

AI_PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": GranjaRandom,
    "greedy": GranjaGreedy,
    **search_levels(KIT, GranjaGreedy, NORMAL, STRONG, ROLLOUT_MOVES_CAP, normal_kit=NORMAL_KIT),
}
TEST_PLAYERS: Mapping[str, Callable[[], Player]] = clairvoyant_levels(KIT, STRONG, ROLLOUT_MOVES_CAP)
