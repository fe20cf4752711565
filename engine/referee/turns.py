"""Turns: a player's move, the referee's own moves (AI seats, skipped seats, automatic moves),
resuming after a restart, and ``apply_and_commit``, the one path by which a move becomes durable.

The path of one move, in ``apply_and_commit``:

1. validate: ``check_move`` refuses a wrong move before anything changes;
2. apply: the rules change the state and say what happened (events);
3. timekeeping: on a copy of the table, every seat's wait, clock and due time move on;
4. commit: move, state, seats (and, at the end, the result and ratings) in ONE transaction of the
   store, compare-and-swapped on the table's version;
5. only then the cache takes the new table and state, and the Outbox is filled (public and
   private lines, board changed, seats whose secrets changed) for the front end to announce.

Nothing is reported before it is on disk; one move at a time is handled per table (the table's
lock, held by the caller; the version compare-and-swap in the store).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterable
from typing import Any

import msgspec

from engine.core import Event, Game, GameError, NotYourTurn, Outcome, RecordedMove, format_event
from engine.games import get_game
from engine.i18n import tr

from . import presentation
from .absence import Step, referee_step
from .audience import in_public, public_language
from .levels import CHEAP_KINDS, TAKEOVER_LEVEL, player_kind
from .model import (
    FINISHED,
    RUNNING,
    ForfeitedSeat,
    NotInGame,
    Outbox,
    PrivateReplay,
    StaleCache,
    StaleVersion,
    Table,
    VersionConflict,
    WrongStatus,
)
from .results import build_result, final_outcome
from .tables import Loaded, Tables, copy_table, fingerprint, status_text
from .thinking import Thinker, ThinkRequest
from .timekeeping import advance_turns, return_seat

# How many times a move is judged again on a table another process changed meanwhile: each retry
# reads the table as stored, so a second conflict needs yet another write in the same moment.
STALE_RETRIES = 5


class Turns:
    """Moves at running tables; every public method of the Referee that moves a game ends here."""

    def __init__(self, tables: Tables, *, ai_rng: random.Random, max_ai_moves: int, thinker: Thinker) -> None:
        self.tables = tables
        self.ai_rng = ai_rng
        self.max_ai_moves = max_ai_moves
        self.thinker = thinker

    async def play(self, table_id: int, user_id: str, move_text: str, expected_version: int | None) -> Outbox:
        """A player's move. With several processes on one store the cached table may be stale
        (another process moved it): a move refused for that reason alone is judged again on the
        table as stored, never refused to the player for it.

        The move is judged on the cached copy first, without reading the store: a process owns
        the games of its shards, so its copy is nearly always the stored one, and a read before
        every move would cost each move a round trip and a pooled connection (with two
        processes on PostgreSQL it halved the rate of both together). A stale copy is caught
        either way: a move it accepts fails the store's compare-and-swap on version and revision
        (``StaleCache``); a move it refuses is refused only once the table as stored (one read,
        ``Tables.fresh``) turns out to be the copy judged, else judged again on the stored one."""
        tables = self.tables
        async with tables.lock(table_id):
            loaded = await tables.load(table_id)
            for attempt in range(STALE_RETRIES):
                try:
                    return await self._play(loaded, user_id, move_text, expected_version, fresh=attempt > 0)
                except StaleCache:
                    loaded = await tables.fresh(table_id)  # the stale copy was dropped: as stored
                except GameError:
                    # Refused by the rules (or the table's status) on a copy never compared with
                    # the store: compare it now, and refuse only if it was the stored one.
                    if not tables.shared or attempt > 0:
                        raise
                    stored = await tables.fresh(table_id)
                    if stored is loaded:
                        raise
                    loaded = stored
            raise StaleVersion(tr("The game changed while you were moving; look at the board and try again."))

    async def _play(
        self, loaded: Loaded, user_id: str, move_text: str, expected_version: int | None, *, fresh: bool
    ) -> Outbox:
        tables = self.tables
        table = loaded.table
        if table.status != RUNNING:
            raise WrongStatus(status_text(table))
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame(tr("You are not playing in this game."))
        if seat.forfeited:
            raise ForfeitedSeat(tr("You forfeited this game; an AI plays your seat to the end."))
        if expected_version is not None and expected_version > table.version and not fresh:
            raise StaleCache("a board newer than the cached table")  # the cache is behind: read it again
        game = get_game(table.game)
        welcome = ""
        if seat.absent:
            # Coming back by playing: the seat is theirs again, whatever becomes of this move.
            await return_seat(tables, game, loaded, seat.index)
            table, seat = loaded.table, loaded.table.seats[seat.index]
            welcome = tr("Welcome back: you have your seat again.") + " "
        if expected_version is not None and expected_version != table.version:
            raise StaleVersion(
                welcome + tr("The board has changed since you looked at it; here is the current one.")
            )
        move = game.parse_move(move_text)
        outbox = Outbox(table=table)
        if welcome:  # someone plays again: the AI takes the absent seats a waiting game held
            await self.run_automatic(game, loaded, outbox)
        if seat.index not in game.may_act(loaded.state):
            raise NotYourTurn(welcome + waiting_text(game, loaded))
        await self.apply_and_commit(game, loaded, seat.index, move, outbox)
        # The move is durable: whatever happens next, it is not judged again.
        loaded = await self.play_on(game, loaded, outbox)
        self.finish_outbox(game, loaded, outbox)
        return outbox

    async def play_on(self, game: Game[Any, Any], loaded: Loaded, outbox: Outbox) -> Loaded:
        """``run_automatic`` after a move is durable; should another process write the table
        meanwhile, the referee's own moves go on from the table as stored (those the other
        process already made are not made again). Returns the table's cache entry as it is now."""
        for _ in range(STALE_RETRIES):
            try:
                await self.run_automatic(game, loaded, outbox)
                return loaded
            except StaleCache:
                loaded = await self.tables.fresh(loaded.table.id)
                if loaded.table.status != RUNNING:
                    return loaded
        return loaded

    async def resume(self, table_id: int) -> Outbox:
        tables = self.tables
        async with tables.lock(table_id):
            loaded = await tables.running(table_id)
            game = get_game(loaded.table.game)
            outbox = Outbox(table=loaded.table)
            await self.run_automatic(game, loaded, outbox)
            if not outbox.moves_applied and loaded.table.needs_resume:
                # Nothing was left to play (a game stored before the flag existed): clear it, so
                # that the next start does not look at this game again.
                table = copy_table(loaded.table)
                table.needs_resume = False
                with contextlib.suppress(StaleVersion):
                    await tables.save_seats(loaded, table)
            self.finish_outbox(game, loaded, outbox)
            return outbox

    async def apply_and_commit(
        self,
        game: Game[Any, Any],
        loaded: Loaded,
        seat: int,
        move: Any,
        outbox: Outbox,
        *,
        by_ai: bool = False,
    ) -> None:
        """The durable-move path (see the module's text): validate, apply, time, commit, then
        update the cache and report. The caller holds the table's lock."""
        table = loaded.table
        state = loaded.state
        game.check_move(state, seat, move)  # a refused move changes nothing
        move = game.canonical_move(state, seat, move)  # stored and shown in one form
        acting_before = game.to_act(state)
        secrets_before = loaded.secrets if loaded.secrets is not None else secret_prints(game, table, state)
        encoded_before, public_before = loaded.encoded, loaded.public
        # The move changes the cached state itself rather than a copy (copying costs as much as
        # the rules): until the commit, readers get the committed state from its encoding, and
        # should the commit fail, the encoding is all the cache keeps.
        state = loaded.take_state()
        # What happened is the table's log, read by all: the games' words for it in the public
        # language (a refusal above stays in the mover's).
        with in_public():
            events = game.play(state, seat, move)
        finished = game.is_over(state)
        now = self.tables.clock()
        # A copy: the cached table must not change before the commit succeeds.
        new_table = copy_table(table)
        new_table.version = table.version + 1
        new_table.status = FINISHED if finished else RUNNING
        new_table.updated_at = now
        if by_ai and not new_table.seats[seat].is_ai:
            new_table.seats[seat].ai_played = True
        newly_forfeited: list[int] = []
        if finished:
            # A skipped seat still away at the end stayed away: it forfeits.
            for other in new_table.seats:
                if other.absent and not other.forfeited:
                    other.forfeited = True
                    newly_forfeited.append(other.index)
        after = () if finished else game.to_act(state)
        await advance_turns(self.tables, new_table, acting_before, after, now, loaded)
        # Stored with the move: a crash before the referee's own next move leaves it to resume.
        step = referee_step(game, state, new_table)
        new_table.needs_resume = step is not None
        result = build_result(new_table, game.outcome(state), now) if finished else None
        encoded = game.encode_state(state)
        try:
            changes = await self.tables.store.commit_moves(
                new_table,
                table.version,
                [RecordedMove(seat, game.format_move(move))],
                encoded,
                msgspec.json.encode(result.outcome) if result is not None else None,
                result=result,
                # The cached table is what is stored: write only the seats this move changed.
                changed_seats=[new.index for new, old in zip(new_table.seats, table.seats, strict=True) if new != old],
            )
        except VersionConflict:
            # Another process wrote first: our copy is stale. Dropped; a player's move is judged
            # again on the stored table (``play``).
            self.tables.forget(table.id)
            raise StaleCache(
                tr("The game changed while you were moving; look at the board and try again.")
            ) from None
        # Durable: now (and only now) the cache and the report may change.
        loaded.table = new_table
        loaded.set_state(state, encoded)
        loaded.step = (state, new_table, step)
        self.tables.keep_hot(loaded)  # it may have been cooled while the commit was on its way
        outbox.table = new_table
        outbox.moves_applied += 1
        public_lines = len(outbox.public_log)
        log_events(events, new_table.names, outbox)
        keep_private_replay(game, encoded_before, seat, move, events, new_table.names, outbox)
        for index in newly_forfeited:
            with in_public():
                outbox.public_log.append(tr("{name} never came back and forfeits.", name=new_table.seats[index].name))
        if result is not None:
            outbox.result = result
            outbox.rating_changes = list(changes or [])
        loaded.public = None
        if len(outbox.public_log) > public_lines or finished:
            outbox.board_changed = True
        elif not outbox.board_changed:
            # A move that told the table nothing (a secret choice) may still change the board
            # (who is still waited for): compare the public views. Rare enough that the view
            # before is rebuilt from the stored encoding (unless the move before was such a move
            # too) rather than kept for every move.
            if public_before is None:
                assert encoded_before is not None
                public_before = fingerprint(game.view(game.decode_state(encoded_before), None))
            loaded.public = fingerprint(game.view(state, None))
            outbox.board_changed = public_before != loaded.public
        secrets_after = loaded.secrets = secret_prints(game, new_table, state)
        for index, part in secrets_after.items():
            if secrets_before.get(index) != part and index not in outbox.private_changed:
                outbox.private_changed.append(index)

    async def run_automatic(self, game: Game[Any, Any], loaded: Loaded, outbox: Outbox) -> None:
        """Play AI seats (and skipped seats) and moves that leave a human no choice, until a
        human must decide, or ``max_ai_moves`` at a time: the table's lock is not held for ever
        (every person forfeited a Figures match of 500 hands: the AI seats play some 24,000
        moves), and the clock task plays on (``due_actions``) from the seat made due now."""
        for _ in range(self.max_ai_moves):
            step = self.pending_step(game, loaded)
            if step is None:
                return
            index, move, by_ai = step
            if by_ai:
                move = await self.ai_move(game, loaded, index)
            await self.apply_and_commit(game, loaded, index, move, outbox, by_ai=by_ai)
        step = self.pending_step(game, loaded)
        if step is not None:
            table = copy_table(loaded.table)
            table.seats[step[0]].next_due_at = self.tables.clock()
            await self.tables.save_seats(loaded, table)
            outbox.table = table

    async def ai_move(self, game: Game[Any, Any], loaded: Loaded, index: int) -> Any:
        """The move of the AI that plays seat ``index`` (its seat's level, or the takeover level
        for a skipped or forfeited human seat). A cheap player chooses here, in a worker thread,
        from the referee's own generator; a searching one in the thinker (worker processes, a
        time budget), from a seed drawn from that generator: reproducible either way."""
        stored = loaded.table.seats[index].ai_kind
        kind = player_kind(game, stored) if stored is not None else takeover_kind(game)
        if kind in CHEAP_KINDS:
            player = game.ai_players()[kind]()
            return await asyncio.to_thread(player.choose, game, loaded.state, index, self.ai_rng)
        thought = await self.thinker.think(self.think_request(game, loaded, index, kind))
        return game.parse_move(thought.move)

    def think_request(
        self, game: Game[Any, Any], loaded: Loaded, seat: int, kind: str, *, explain: bool = False
    ) -> ThinkRequest:
        """What the thinker needs to choose for ``seat`` (plain data): the committed state's
        encoding, a seed from the referee's generator, and the thinker's budget for ``kind``."""
        return ThinkRequest(
            game=game.name,
            state=loaded.encoded if loaded.encoded is not None else game.encode_state(loaded.state),
            seat=seat,
            kind=kind,
            seed=self.ai_rng.getrandbits(63),
            budget=self.thinker.budget(kind),
            explain=explain,
        )

    def pending_step(self, game: Game[Any, Any], loaded: Loaded) -> Step | None:
        """The referee's own next move at a loaded table, or None when a human must decide. A
        move computes it before its commit (to store ``needs_resume``); kept for that very table
        and state, so that the loop that follows does not compute it again."""
        if loaded.step is not None and loaded.step[0] is loaded.state and loaded.step[1] is loaded.table:
            return loaded.step[2]
        step = referee_step(game, loaded.state, loaded.table)
        loaded.step = (loaded.state, loaded.table, step)
        return step

    def finish_outbox(self, game: Game[Any, Any], loaded: Loaded, outbox: Outbox) -> None:
        outbox.to_act = list(game.to_act(loaded.state))
        outbox.finished = game.is_over(loaded.state)
        outbox.outcome = outcome_of(game, loaded) if outbox.finished else None
        if outbox.finished:
            outbox.forfeited = [seat.index for seat in loaded.table.seats if seat.forfeited]


def outcome_of(game: Game[Any, Any], loaded: Loaded) -> Outcome:
    """The final outcome of a finished game, forfeited seats ranked last."""
    forfeited = {seat.index for seat in loaded.table.seats if seat.forfeited}
    return final_outcome(game.outcome(loaded.state), forfeited)


def waiting_text(game: Game[Any, Any], loaded: Loaded) -> str:
    return presentation.waiting_text(loaded.table.seats[index].name for index in game.to_act(loaded.state))


def log_events(events: Iterable[Event], names: list[str], outbox: Outbox) -> None:
    for event in events:
        text = format_event(event.text, names)
        if event.visible_to is None:
            outbox.public_log.append(text)
        else:
            for seat in event.visible_to:
                outbox.private_log.setdefault(seat, []).append(text)


def keep_private_replay(
    game: Game[Any, Any],
    before: bytes | None,
    seat: int,
    move: Any,
    events: Iterable[Event],
    names: list[str],
    outbox: Outbox,
) -> None:
    """Keep a move that wrote private lines, to write them again in each reader's language."""
    readers = sorted({reader for event in events if event.visible_to is not None for reader in event.visible_to})
    if not readers:
        return
    if before is None or not outbox.private_rewritable:
        # Not encoded before the move (rare): every line of the call stays as written.
        outbox.private_rewritable = False
        outbox.private_replays = []
        return
    outbox.private_language = public_language()
    outbox.private_replays.append(
        PrivateReplay(game=game.name, before=before, seat=seat, move=game.format_move(move), names=list(names), readers=readers)
    )


def secret_prints(game: Game[Any, Any], table: Table, state: Any) -> dict[int, bytes]:
    """Fingerprints of each human seat's secret view (``Game.secret_view``), by seat.

    Comparing them before and after a move tells whose secret changed (a hand dealt to, a
    card received) without counting what changes every turn anyway (legal moves, "your
    turn", prompts). Never the full seat view here: it is the costly one (some games
    compute every legal move in it) and nobody needs it to tell what changed."""
    return {seat.index: fingerprint(game.secret_view(state, seat.index)) for seat in table.humans}


def takeover_kind(game: Game[Any, Any]) -> str:
    """The AI that plays a skipped or forfeited seat: the game's ``normal`` player (or the nearest
    weaker one it offers)."""
    return player_kind(game, TAKEOVER_LEVEL)
