"""Whose secret a move changed (Outbox.private_changed), judged by Game.secret_view: a hand
that received a card counts, a turn that merely moved on does not."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import pytest

from engine.core import Event, Game, Outcome, ranks_from_keys
from engine.games import REGISTRY, get_game
from engine.referee import Referee

from ..stores import open_test_store

pytestmark = pytest.mark.both_backends


class GiftState(msgspec.Struct, kw_only=True):
    hands: list[list[str]]
    notes: list[int] = []
    knocks: int = 0
    turn: int = 0
    turns_left: int = 6


class Gift(Game[GiftState, str]):
    """Seats take turns: ``knock`` (public only) or ``give CARD`` (to the next seat's hand);
    ``note`` (a private note, the turn stays) and ``hush`` (the turn passes on) tell the table
    nothing."""

    name = "gift"
    title = "Gift"
    min_players = 2
    max_players = 3
    state_type = GiftState
    overridden = True  # tests switch this off to see the contract's default at work

    def setup(self, players: int, seed: int, options: Mapping[str, Any]) -> GiftState:
        return GiftState(hands=[[f"{chr(97 + seat)}{n}" for n in range(3)] for seat in range(players)], notes=[0] * players)

    def to_act(self, state: GiftState) -> tuple[int, ...]:
        return () if self.is_over(state) else (state.turn,)

    def legal_moves(self, state: GiftState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return ["knock", "note", "hush", *(f"give {card}" for card in state.hands[seat])]

    def play(self, state: GiftState, seat: int, move: str) -> list[Event]:
        following = (seat + 1) % len(state.hands)
        if move == "note":
            state.notes[seat] += 1
            return [Event(text="You take a note.", actor=seat, visible_to=(seat,))]
        if move == "hush":
            state.turn = following
            return [Event(text="You pass without a word.", actor=seat, visible_to=(seat,))]
        if move == "knock":
            state.knocks += 1
        else:
            card = move.split()[1]
            state.hands[seat].remove(card)
            state.hands[following].append(card)
        state.turn = following
        state.turns_left -= 1
        return [Event(text=f"{{p{seat}}} moves.", actor=seat)]

    def view(self, state: GiftState, seat: int | None) -> dict[str, Any]:
        public = {"knocks": state.knocks, "turn": state.turn, "sizes": [len(hand) for hand in state.hands]}
        if seat is not None:
            # Facts derived from the public part change every turn: they are no secret.
            public.update(hand=list(state.hands[seat]), your_turn=seat == state.turn)
        return public

    def secret_view(self, state: GiftState, seat: int) -> dict[str, Any]:
        if not self.overridden:
            return super().secret_view(state, seat)
        return {"hand": list(state.hands[seat]), "notes": state.notes[seat]}

    def is_over(self, state: GiftState) -> bool:
        return state.turns_left == 0

    def outcome(self, state: GiftState) -> Outcome:
        keys = [-len(hand) for hand in state.hands]
        return Outcome(scores=[float(key) for key in keys], ranks=ranks_from_keys(keys))

    def parse_move(self, text: str) -> str:
        return " ".join(text.split())

    def format_move(self, move: str) -> str:
        return move

    def render_board(self, public_view: dict[str, Any], names: Sequence[str]) -> str:
        return f"Knocks: {public_view['knocks']}"

    def render_private(self, seat_view: dict[str, Any], names: Sequence[str]) -> str:
        return "Your hand: " + " ".join(seat_view["hand"])


GAME = Gift()


@pytest.fixture
async def referee(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(REGISTRY, "gift", __name__)
    monkeypatch.setattr(Gift, "overridden", True)
    get_game.cache_clear()
    store = await open_test_store(tmp_path / "games.sqlite3")
    yield Referee(store, ai_rng=random.Random(1))
    await store.close()
    get_game.cache_clear()


async def started(referee: Referee, players: int = 3) -> int:
    table = await referee.create_table("gift", "alice", "Alice")
    for user in ("bob", "carol")[: players - 1]:
        await referee.join(table.id, user, user.capitalize())
    outbox = await referee.start(table.id, "alice", seed=1)
    assert outbox.private_changed == list(range(players))  # the deal: every hand is new
    return table.id


async def test_a_move_that_hands_a_card_over_marks_the_receiver(referee: Referee) -> None:
    table_id = await started(referee)
    outbox = await referee.play(table_id, "alice", "give a1")
    # Alice's hand lost a card, Bob's gained one; Carol's did not change.
    assert sorted(outbox.private_changed) == [0, 1]


async def test_a_public_move_marks_nobody_though_turns_moved_on(referee: Referee) -> None:
    table_id = await started(referee)
    outbox = await referee.play(table_id, "alice", "knock")
    assert outbox.board_changed and outbox.private_changed == []


async def test_the_contract_default_counts_whatever_differs_from_the_public_view(
    referee: Referee, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without an override, "your turn" is part of the seat's own view: Alice's and Bob's change.
    monkeypatch.setattr(Gift, "overridden", False)
    table_id = await started(referee)
    outbox = await referee.play(table_id, "alice", "knock")
    assert sorted(outbox.private_changed) == [0, 1]


async def test_telling_what_changed_never_builds_a_full_seat_view(
    referee: Referee, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(referee)
    seats_viewed: list[int] = []
    original = Gift.view

    def spy(self: Gift, state: GiftState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            seats_viewed.append(seat)
        return original(self, state, seat)

    monkeypatch.setattr(Gift, "view", spy)
    await referee.play(table_id, "alice", "give a2")
    assert seats_viewed == []



async def test_a_move_that_tells_the_table_nothing_changes_the_board_only_if_its_view_changed(
    referee: Referee,
) -> None:
    table_id = await started(referee)
    for _ in range(2):  # the second compares with the board the first one kept
        outbox = await referee.play(table_id, "alice", "note")
        assert not outbox.board_changed and outbox.private_changed == [0] and not outbox.public_log
    outbox = await referee.play(table_id, "alice", "hush")  # silent, but Bob is now to move
    assert outbox.board_changed and outbox.private_changed == []
    outbox = await referee.play(table_id, "bob", "note")
    assert not outbox.board_changed
    outbox = await referee.play(table_id, "bob", "knock")
    assert outbox.board_changed
    outbox = await referee.play(table_id, "carol", "note")  # compared with the board after the knock
    assert not outbox.board_changed
