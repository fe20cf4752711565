"""Search-based AI seats: determinised Monte Carlo search over a game's own rules.

How a move is chosen (``SearchPlayer.choose``):

    knowledge  = kit.observe(state, seat)            # only what this seat knows; nothing else is read
    candidates = kit.candidates(...)                 # its legal moves, or the promising ones
    sequential halving over the candidates; each round:
        for a few sampled worlds (kit.sample(knowledge, ...): the hidden cards dealt anew,
        consistently with the knowledge), every candidate still in the running is played in
        that world, followed by a rollout (kit.rollout_move) to the end or to the horizon, and
        scored (kit.evaluate, in [0, 1]); then the worse half of the candidates is dropped
    return the last candidate standing

The seat's own decision is searched (its legal moves depend only on what it knows); what follows
is played out by the rollout policy in a fresh sample of the hidden cards for every world, so the
search never relies on one guess of them ("determinised" search). All candidates of a round meet
the same worlds and the same rollout dice (common random numbers), so they are compared on equal
luck: that is what lets a few hundred playouts tell moves apart. A simultaneous secret choice
needs nothing special: ``observe`` forgets the other seats' pending choices, so in a sampled
world they are still to choose and the rollout chooses them.

Everything is pure and reproducible: randomness comes only from the ``random.Random`` handed in,
and the budget is a number of playouts. A caller that wants a wall-clock budget passes a
``deadline`` callable (checked between worlds), keeping clocks outside the engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .game import Game, Outcome, Player

K = TypeVar("K")  # what a seat knows, as the game's kit represents it
S = TypeVar("S")  # a full game state


class SearchKit(Protocol[K, S]):
    """What a game tells the search: its seats' knowledge, how to deal hidden cards consistently
    with it, and how to play on and score quickly. ``BaseKit`` has defaults for the last four."""

    def observe(self, state: S, seat: int) -> K:
        """Everything ``seat`` may know, and nothing more: the hidden cards elsewhere are
        forgotten (kept, if at all, in a canonical order that does not depend on the deal)."""
        ...

    def sample(self, knowledge: K, seat: int, rng: random.Random) -> S:
        """A full state consistent with ``knowledge``: hidden cards dealt at random among the
        places the seat cannot see, the game's own generator reseeded from ``rng``."""
        ...

    def candidates(self, game: Game[Any, Any], state: S, seat: int, moves: list[Any]) -> list[Any]:
        """The moves worth searching (all of ``moves``, or a promising part of them); reads only
        what the seat knows."""
        ...

    def rollout_move(self, game: Game[Any, Any], state: S, seat: int, rng: random.Random) -> Any:
        """The move ``seat`` makes in a rollout (a fast, reasonable policy)."""
        ...

    def progress(self, state: S) -> int:
        """A public counter that only grows (hands dealt, rounds played): a rollout stops and is
        evaluated once it has grown by the player's ``horizon``."""
        ...

    def evaluate(self, game: Game[Any, Any], state: S) -> list[float]:
        """Each seat's expected share of the win, in [0, 1], at the end or at the horizon."""
        ...


def outcome_rewards(outcome: Outcome, players: int, margin_weight: float = 0.3) -> list[float]:
    """Win share (ties shared), blended with the score margin over the best other seat, so that
    the search still plays for points where it cannot change who wins (the margin is the denser
    signal: few playouts tell moves apart by it). Teams share their result."""
    scores = outcome.scores
    winners = outcome.winners
    spread = (max(scores) - min(scores)) or 1.0
    rewards = []
    for seat in range(players):
        win = 1.0 / len(winners) if seat in winners else 0.0
        best_other = max((scores[other] for other in range(players) if other != seat), default=scores[seat])
        margin = (scores[seat] - best_other) / spread  # in [-1, 1]
        rewards.append((1.0 - margin_weight) * win + margin_weight * 0.5 * (1.0 + margin))
    return rewards


def margin_rewards(values: Sequence[float], scale: float) -> list[float]:
    """Rewards from a heuristic value per seat: a logistic of each seat's lead over the best other
    seat (``scale`` is the lead that makes a win about 73% likely)."""
    rewards = []
    for seat, value in enumerate(values):
        best_other = max((other for index, other in enumerate(values) if index != seat), default=value)
        rewards.append(1.0 / (1.0 + math.exp(-(value - best_other) / scale)))
    return rewards


class SearchPlayer(Generic[K, S]):
    """A seat that searches (see the module docstring) with ``iterations`` playouts per decision.
    ``horizon``: rollouts stop and are evaluated after that many steps of the kit's ``progress``
    (None: at the end of the game). ``clairvoyant`` skips ``observe`` and samples nothing: the
    search reads the true state, a ceiling for tests and the arena only."""

    def __init__(
        self,
        kit: SearchKit[K, S],
        iterations: int,
        *,
        horizon: int | None = None,
        max_rollout: int = 10_000,
        clairvoyant: bool = False,
        deadline: Callable[[], bool] | None = None,
    ) -> None:
        self.kit = kit
        self.iterations = iterations
        self.horizon = horizon
        self.max_rollout = max_rollout
        self.clairvoyant = clairvoyant
        self.deadline = deadline
        self.last_iterations = 0  # playouts the last choice ran (for the arena's report)

    def choose(self, game: Game[Any, Any], state: S, seat: int, rng: random.Random) -> Any:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        kit = self.kit
        knowledge: Any = state if self.clairvoyant else kit.observe(state, seat)
        # The candidates are picked in a world of their own (a sample, its dice apart from the
        # search's), so that not even the pruning reads a hidden card.
        world = state if self.clairvoyant else kit.sample(knowledge, seat, random.Random(0))
        moves = kit.candidates(game, world, seat, moves) or moves
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        return moves[self.search(game, state, knowledge, seat, moves, rng)]

    def search(
        self, game: Game[Any, Any], state: S, knowledge: Any, seat: int, moves: Sequence[Any], rng: random.Random
    ) -> int:
        """The index of the chosen move, by sequential halving (see the module docstring)."""
        kit = self.kit
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        alive = list(range(len(moves)))
        rounds = max(1, math.ceil(math.log2(len(moves))))
        spent = 0

        def out_of_time() -> bool:
            return self.deadline is not None and spent > 0 and self.deadline()
        for round_number in range(rounds):
            left = self.iterations - spent
            worlds = max(1, left // ((rounds - round_number) * len(alive)))
            for _ in range(worlds):
                if out_of_time():
                    break
                world_seed = rng.getrandbits(63)
                for index in alive:
                    if out_of_time():  # checked every playout: a world may hold many candidates
                        break
                    # The clairvoyant copies the true state, its generator included: it even
                    # knows the deals to come.
                    if self.clairvoyant:
                        world: S = game.copy_state(state)
                    else:
                        world = kit.sample(knowledge, seat, random.Random(world_seed))
                    totals[index] += self._playout(game, world, seat, moves[index], random.Random(world_seed + 1))
                    visits[index] += 1
                    spent += 1
            alive.sort(key=lambda index: -totals[index] / max(1, visits[index]))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1 or out_of_time():
                break
        self.last_iterations = spent
        return alive[0]

    def _playout(self, game: Game[Any, Any], world: S, seat: int, move: Any, rng: random.Random) -> float:
        """Play ``move`` then the rollout policy in ``world`` (changed in place); the reward."""
        kit = self.kit
        if getattr(kit, "check_root", False) and game.why_illegal(world, seat, move) is not None:
            # A move that names a hidden card (a game whose notation does) may not exist in this
            # world: it counts as a loss here rather than reading the real card.
            return 0.0
        stop = None if self.horizon is None else kit.progress(world) + self.horizon
        game.play(world, seat, move)
        steps = 0
        while not game.is_over(world):
            if steps >= self.max_rollout or (stop is not None and kit.progress(world) >= stop):
                break
            actor = game.to_act(world)[0]
            game.play(world, actor, kit.rollout_move(game, world, actor, rng))
            steps += 1
        return kit.evaluate(game, world)[seat]


class BaseKit(Generic[K, S]):
    """Defaults for a kit: every legal move a candidate, rollouts by ``policy`` (random play
    unless given), no horizon, the outcome's rewards at the end and an even share before it.
    Games override what pays."""

    def __init__(self, policy: Player | None = None) -> None:
        self.policy = policy

    def candidates(self, game: Game[Any, Any], state: S, seat: int, moves: list[Any]) -> list[Any]:
        return moves

    def rollout_move(self, game: Game[Any, Any], state: S, seat: int, rng: random.Random) -> Any:
        if self.policy is not None:
            return self.policy.choose(game, state, seat, rng)
        return rng.choice(game.legal_moves(state, seat))

    def progress(self, state: S) -> int:
        return 0

    def evaluate(self, game: Game[Any, Any], state: S) -> list[float]:
        if game.is_over(state):
            outcome = game.outcome(state)
            return outcome_rewards(outcome, len(outcome.scores))
        return self.estimate(game, state)

    def estimate(self, game: Game[Any, Any], state: S) -> list[float]:
        """Rewards before the end (a rollout cut short): an even share unless the game knows better."""
        seats = self.seats(state)
        return [1.0 / seats] * seats

    def seats(self, state: S) -> int:
        raise NotImplementedError


def reseed(rng: random.Random) -> int:
    """A seed for a sampled world's own generator: its future draws are not the real ones."""
    return rng.getrandbits(63)


def search_levels(
    kit: SearchKit[Any, Any],
    greedy: Callable[[], Player],
    normal: tuple[int, int | None],
    strong: tuple[int, int | None],
    max_rollout: int = 10_000,
    normal_kit: SearchKit[Any, Any] | None = None,
) -> dict[str, Callable[[], Player]]:
    """The levels every game offers: easy (its greedy player), normal and strong (search with
    ``(iterations, horizon)``; ``max_rollout`` caps a rollout's moves). A kit keeps nothing of a
    game, so the players share it; ``normal_kit``, where given, is normal's own (one that
    searches fewer candidates, say)."""
    normal_search_kit = normal_kit or kit
    return {
        "easy": greedy,
        "normal": lambda: SearchPlayer(normal_search_kit, normal[0], horizon=normal[1], max_rollout=max_rollout),
        "strong": lambda: SearchPlayer(kit, strong[0], horizon=strong[1], max_rollout=max_rollout),
    }


def clairvoyant_levels(
    kit: SearchKit[Any, Any], strong: tuple[int, int | None], max_rollout: int = 10_000
) -> dict[str, Callable[[], Player]]:
    """The strong search reading the true state: a ceiling for the arena, never offered at a table."""
    return {
        "clairvoyant": lambda: SearchPlayer(
            kit, strong[0], horizon=strong[1], max_rollout=max_rollout, clairvoyant=True
        )
    }
