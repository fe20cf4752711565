"""Thinking: how the referee gets a searching AI's move (or a hint) without blocking its event loop.

The referee owns the ``Thinker`` protocol and hands it only what the engine needs, as plain
data (``ThinkRequest``: the game's name, the encoded state, the seat, the AI kind, a seed and a
budget), never a table, a store or a front end's object. ``think`` turns a request into a
``Thought`` (the move in notation, and for a hint the reason in words); it runs wherever the
thinker puts it:

- ``InlineThinker`` (the default): in a worker thread of the referee's process, with each
  level's own fixed number of playouts unless told otherwise; reproducible, for tests and tools;
- ``pool.PoolThinker`` (the bot and the local table): in worker processes, with a CPU-time budget
  per level, so that a search never holds the event loop's interpreter lock.

A move stays reproducible from the seed and the budget: with ``Budget.iterations`` (a fixed
count of playouts) and no time limit, ``think`` returns the same move for the same request.
Cheap players (easy, greedy, random: ``levels.CHEAP_KINDS``) never come here; the referee
chooses their moves itself, as before.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import msgspec

from engine.core import Game, Player
from engine.games import get_game
from engine.i18n import SOURCE, number, signed, tr, use_language

# The most playouts a time-budgeted search may run: the deadline, not this, ends it.
TIME_BOUND_ITERATIONS = 1_000_000
# A search on a crowded machine gets less CPU than asked: past this multiple of its CPU budget
# in wall-clock time it stops anyway (a player waits for the move, not for the CPU).
WALL_CLOCK_FACTOR = 4.0
# Sampled worlds per move when a hint explains its move (a quick estimate beside the search):
# at most this many, at least the second number however short the time budget.
EXPLAIN_WORLDS = 32
MIN_EXPLAIN_WORLDS = 4


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """How long a search may think: ``cpu_ms`` of CPU time (None: no time limit), or exactly
    ``iterations`` playouts (None: the level's own count, or as many as the time allows)."""

    cpu_ms: float | None = None
    iterations: int | None = None

    @property
    def reproducible(self) -> bool:
        return self.cpu_ms is None


class ThinkRequest(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a worker needs to choose a move for ``seat``: plain data, sent to processes."""

    game: str
    state: bytes  # Game.encode_state; the player reads only what the seat knows of it
    seat: int
    kind: str  # a key of Game.ai_players()
    seed: int
    budget: Budget = Budget()
    explain: bool = False  # a hint: say why, in one line
    language: str = SOURCE  # the language of that line (the reader's: a worker has no context of its own)


class Thought(msgspec.Struct, frozen=True, kw_only=True):
    move: str  # in the game's notation
    reason: str = ""  # with ``explain``: why, in a few words
    iterations: int = 0  # playouts the search ran (0: no search)
    cpu_ms: float = 0.0  # CPU time the choice took in the process that made it


class Thinker(Protocol):
    """Chooses the moves of searching AI seats and hints, away from the event loop."""

    async def think(self, request: ThinkRequest) -> Thought: ...

    def budget(self, kind: str) -> Budget:
        """The budget this thinker gives a level (``kind``: a key of ``Game.ai_players``)."""
        ...

    async def close(self) -> None:
        """Stop thinking: nothing may be asked afterwards (the pool's processes end)."""
        ...


class InlineThinker:
    """Thinks in a thread of this process (``asyncio.to_thread``): no processes to start or stop.
    ``budgets`` by kind; a kind not listed searches with its level's own fixed playouts."""

    def __init__(self, budgets: Mapping[str, Budget] | None = None) -> None:
        self.budgets = dict(budgets or {})
        self.closed = False

    def budget(self, kind: str) -> Budget:
        return self.budgets.get(kind, Budget())

    async def think(self, request: ThinkRequest) -> Thought:
        if self.closed:
            raise RuntimeError("the thinker is closed")
        return await asyncio.to_thread(think, request)

    async def close(self) -> None:
        self.closed = True


def think(request: ThinkRequest) -> Thought:
    """Choose (and with ``explain``, explain) a move: the work a thinker runs, in a process of
    its own or a thread. Reads the clock only to honour the budget's time limit."""
    started = time.process_time()
    game = get_game(request.game)
    state = game.decode_state(request.state)
    player = make_player(game, request.kind, request.budget)
    rng = random.Random(request.seed)
    move = player.choose(game, state, request.seat, rng)
    reason = ""
    if request.explain:
        with use_language(request.language):
            reason = explain(game, state, request.seat, move, player, rng, request.budget)
    return Thought(
        move=game.format_move(move),
        reason=reason,
        iterations=int(getattr(player, "last_iterations", 0)),
        cpu_ms=(time.process_time() - started) * 1000.0,
    )


def make_player(game: Game[Any, Any], kind: str, budget: Budget) -> Player:
    """The game's player of ``kind`` under ``budget``. A search player (one with ``iterations``
    and ``deadline``) gets the budget's playouts and its time limit; any other player ignores it."""
    player = game.ai_players()[kind]()
    if hasattr(player, "iterations") and hasattr(player, "deadline"):
        if budget.iterations is not None:
            player.iterations = budget.iterations
        elif budget.cpu_ms is not None:
            player.iterations = TIME_BOUND_ITERATIONS
        if budget.cpu_ms is not None:
            player.deadline = cpu_deadline(budget.cpu_ms)
    return player


def cpu_deadline(cpu_ms: float) -> Callable[[], bool]:
    """True once this process spent ``cpu_ms`` of CPU since the call (or, on a busy machine,
    ``WALL_CLOCK_FACTOR`` times that in wall-clock time)."""
    cpu_until = time.process_time() + cpu_ms / 1000.0
    wall_until = time.monotonic() + WALL_CLOCK_FACTOR * cpu_ms / 1000.0
    return lambda: time.process_time() >= cpu_until or time.monotonic() >= wall_until


def explain(
    game: Game[Any, Any], state: Any, seat: int, move: Any, player: Player, rng: random.Random, budget: Budget
) -> str:
    """Why ``move``, in a few words: for a search player, its expected share of the win over
    sampled deals of the hidden cards (and the easy choice's, when that differs and fares worse);
    for another, the immediate gain its greedy value gives."""
    kit = getattr(player, "kit", None)
    if kit is not None:
        offered = game.ai_players()
        easy_kind = "easy" if "easy" in offered else "greedy" if "greedy" in offered else None
        easy_move = move
        if easy_kind is not None:
            easy_move = offered[easy_kind]().choose(game, state, seat, random.Random(rng.getrandbits(63)))
        horizon = getattr(player, "horizon", None)
        mine, theirs = _expected_shares(game, state, seat, (move, easy_move), kit, horizon, rng, budget)
        if easy_move != move and theirs < mine:
            return tr(
                "expected share of the win about {share}%, against {easy_share}% for {easy_move} (the easy choice)",
                share=number(round(mine * 100)),
                easy_share=number(round(theirs * 100)),
                easy_move=game.format_move(easy_move),
            )
        # Translators: why a hint's move, after "normal would choose 7c: ".
        return tr("expected share of the win about {share}%", share=number(round(mine * 100)))
    value = getattr(player, "value", None)
    if value is not None:
        try:
            after, _ = game.apply(state, seat, move)
            gain = float(value(game, state, after, seat))
        except NotImplementedError:
            return tr("the best move right now")
        # Translators: a move's immediate gain in points: "+3 right away".
        return tr("{gain} right away", gain=signed(round(gain, 2)))
    return tr("the best move right now")


def _expected_shares(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    moves: tuple[Any, Any],
    kit: Any,
    horizon: int | None,
    rng: random.Random,
    budget: Budget,
) -> tuple[float, float]:
    """The mean reward for ``seat`` of each of two moves over the same sampled worlds (the hidden
    cards dealt anew from the seat's knowledge, so both meet the same luck), each played out by
    the kit's rollout policy to the end or the search's horizon, then scored by the kit. At most
    ``EXPLAIN_WORLDS`` worlds, fewer when the budget's time runs out (a second budget, after the
    search's own)."""
    knowledge = kit.observe(state, seat)
    deadline = cpu_deadline(budget.cpu_ms) if budget.cpu_ms is not None else None
    same = moves[0] == moves[1]
    totals = [0.0, 0.0]
    worlds = 0
    for _ in range(EXPLAIN_WORLDS):
        if deadline is not None and worlds >= MIN_EXPLAIN_WORLDS and deadline():
            break
        world_seed = rng.getrandbits(63)
        for index, move in enumerate(moves[:1] if same else moves):
            world = kit.sample(knowledge, seat, random.Random(world_seed))
            playout = random.Random(world_seed + 1)
            stop = None if horizon is None else kit.progress(world) + horizon
            game.play(world, seat, move)
            for _ in range(10_000):
                if game.is_over(world) or (stop is not None and kit.progress(world) >= stop):
                    break
                actor = game.to_act(world)[0]
                game.play(world, actor, kit.rollout_move(game, world, actor, playout))
            totals[index] += float(kit.evaluate(game, world)[seat])
        worlds += 1
    if same:
        totals[1] = totals[0]
    return totals[0] / worlds, totals[1] / worlds
