"""What front ends hand the referee is checked at its door (issue 13): options in full when the
table is created, sizes of every stored text, types and ranges of ids and moves, refusals that
quote only a prefix; and the seed stays inside the referee while the game runs."""

from __future__ import annotations

import random
import time

import pytest

from engine.core import BadNotation, GameError, SetupError
from engine.core.text import MAX_NAME_CHARS
from engine.games import get_game
from engine.referee import FINISHED, RUNNING, LobbyError, NotInGame, Referee, TableNotFound

from ..stores import open_test_store

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def referee(tmp_path):
    store = await open_test_store(tmp_path / "games.sqlite3")
    ref = Referee(store, ai_rng=random.Random(3))
    yield ref
    await store.close()


async def figures_table(referee: Referee) -> int:
    """A running Figures table: alice and three AI seats, alice to move first (stacked deck)."""
    table = await referee.create_table("figures", "alice", "Alice", guild_id="g1")
    for _ in range(3):
        await referee.add_ai(table.id, "alice", "random")
    outbox = await referee.start(table.id, "alice", seed=11)
    assert outbox.table.status == RUNNING
    return table.id


async def test_a_huge_deck_option_is_refused_at_creation_quickly_and_nothing_is_stored(referee):
    deck = "1d " * 400_000  # 1.2 MB of card codes (the report had 20 MB: 8.8 s and 446 MB)
    began = time.perf_counter()
    with pytest.raises(SetupError) as refused:
        await referee.create_table("figures", "alice", "Alice", options={"deck": deck})
    assert time.perf_counter() - began < 0.5
    assert len(str(refused.value)) < 200
    assert await referee.tables() == []


async def test_a_bad_deck_is_refused_at_creation_not_only_at_the_start(referee):
    with pytest.raises(SetupError, match="is not a card code"):
        await referee.create_table("figures", "alice", "Alice", options={"deck": "7c zz"})
    with pytest.raises(SetupError, match="appears twice"):
        await referee.create_table("figures", "alice", "Alice", options={"deck": "7c 7c"})
    with pytest.raises(SetupError, match="named twice"):
        await referee.create_table("vegetables", "alice", "Alice", options={"deck": "K1 K1"})
    assert await referee.tables() == []
    # A good stacked deck is still accepted, in every game that takes one.
    await referee.create_table("figures", "alice", "Alice", options={"deck": "7c Ks 1d"})
    await referee.create_table("granja", "alice", "Alice", options={"deck": "C001,C002"})
    await referee.create_table("orchard", "alice", "Alice", options={"deck": "Gold-h2-s5"})
    await referee.create_table("vegetables", "alice", "Alice", options={"deck": "K1 T3"})
    assert len(await referee.tables()) == 4


async def test_options_of_any_type_or_size_are_refused_in_words(referee):
    for options in (
        {"target_score": "9" * 5000},  # int() refuses more than 4,300 digits with ValueError
        {"target_score": 10**30},
        {"mode": ["pairs"]},
        {"x" * 10_000: "1"},
        {None: 1},
        "mode=pairs",
        {"deck": 42},
        {"deck": [None]},
    ):
        with pytest.raises(SetupError) as refused:
            await referee.create_table("figures", "alice", "Alice", options=options)
        assert len(str(refused.value)) < 300
    assert await referee.tables() == []


async def test_names_are_capped_and_cleaned_and_ids_bounded(referee):
    table = await referee.create_table("figures", "alice", "A" * 10_000_000)
    stored = (await referee.store.load_table(table.id)).seats[0].name
    assert len(stored) <= MAX_NAME_CHARS and stored.startswith("AAAA")
    joined = await referee.join(table.id, "bob", "Bob\n@everyone\x00")
    assert joined.seats[1].name == "Bob @everyone"
    with pytest.raises(NotInGame):
        await referee.join(table.id, "b" * 10_000, "Bob")
    with pytest.raises(GameError):
        await referee.create_table("figures", "alice", "Alice", guild_id="g" * 10_000)
    assert len(await referee.tables()) == 1


@pytest.mark.parametrize("move", [None, 7, b"7c", ["7c"], "7c" * 3000])
async def test_moves_that_are_not_short_text_are_refused_as_notation(referee, move):
    table_id = await figures_table(referee)
    before = await referee.store.load_table(table_id)
    with pytest.raises(BadNotation) as refused:
        await referee.play(table_id, "alice", move)
    assert len(str(refused.value)) < 200
    after = await referee.store.load_table(table_id)
    assert after.version == before.version


@pytest.mark.parametrize("game", ["figures", "vegetables", "orchard", "granja"])
def test_a_refusal_quotes_only_a_prefix_of_the_move(game):
    with pytest.raises(BadNotation) as refused:
        get_game(game).parse_move("zz" + "q" * 190)
    assert len(str(refused.value)) < 400
    assert "q" * 60 not in str(refused.value)


@pytest.mark.parametrize(
    "table_id", [2**63, -1, 0, 10**400, "1", None, 1.0, True], ids=["2^63", "-1", "0", "10^400", "text", "None", "float", "bool"]
)
async def test_table_ids_no_store_can_hold_are_no_such_game(referee, table_id):
    await referee.create_table("figures", "alice", "Alice")
    for call in (
        referee.table(table_id),
        referee.join(table_id, "bob", "Bob"),
        referee.play(table_id, "alice", "7c"),
        referee.board_text(table_id),
    ):
        with pytest.raises(TableNotFound) as refused:
            await call
        assert len(str(refused.value)) < 100


async def test_a_missing_user_id_never_stands_for_an_ai_seat(referee):
    table = await referee.create_table("figures", "alice", "Alice")
    await referee.add_ai(table.id, "alice", "random")
    with pytest.raises(NotInGame):
        await referee.leave(table.id, None)  # the AI seat has no user id either
    assert len((await referee.table(table.id)).seats) == 2


async def test_a_refused_table_with_ai_seats_leaves_nothing_behind(referee):
    with pytest.raises(LobbyError, match="The table is full"):
        await referee.create_table("figures", "alice", "Alice", ai_seats=["random"] * 5)
    with pytest.raises(LobbyError, match="Unknown AI kind"):
        await referee.create_table("figures", "alice", "Alice", ai_seats=["random", "x" * 5000])
    assert await referee.tables() == []
    table = await referee.create_table("figures", "alice", "Alice", ai_seats=["random"] * 3)
    stored = await referee.store.load_table(table.id)
    assert [seat.ai_kind for seat in stored.seats] == [None, "random", "random", "random"]


async def test_the_seed_stays_inside_the_referee_until_the_game_is_over(referee, toy_game):
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 3}, ai_seats=["random"])
    outbox = await referee.start(table.id, "alice", seed=77)
    assert outbox.table.status == RUNNING and outbox.table.seed is None
    assert (await referee.table(table.id)).seed is None
    assert all(listed.seed is None for listed in await referee.tables())
    assert (await referee.store.load_table(table.id)).seed == 77  # kept where it belongs
    referee.forget_cache()
    assert (await referee.table(table.id)).seed is None
    with pytest.raises(GameError):
        await referee.record(table.id)
    outbox = await referee.play(table.id, "alice", "take 3")
    assert outbox.table.status == FINISHED
    assert (await referee.record(table.id)).seed == 77


async def test_listings_refuse_offsets_and_sizes_no_store_can_hold(referee):
    for call in (
        referee.leaderboard("g1", "figures", offset=2**70),
        referee.history("g1", limit=-1),
        referee.tables(limit=2**63),
        referee.high_scores("g" * 10_000, "orchard"),
    ):
        with pytest.raises(GameError):
            await call
    assert (await referee.leaderboard("g1", "figures", offset=10)).rows == []


async def test_an_optional_id_may_be_none_where_its_default_is(referee):
    await referee.create_table("figures", "alice", "Alice", guild_id=None)
    assert len(await referee.tables(user_id=None)) == 1
    with pytest.raises(NotInGame):
        await referee.join(1, None, "Nobody")


async def test_front_ends_learn_who_acts_without_the_state(referee):
    lobby = await referee.create_table("figures", "alice", "Alice")
    assert await referee.to_act(lobby.id) == ()
    table_id = await figures_table(referee)
    assert await referee.to_act(table_id) == get_game("figures").to_act(await referee.state(table_id))


async def test_asking_about_many_table_ids_leaves_nothing_behind(referee):
    table = await referee.create_table("figures", "alice", "Alice")
    for table_id in range(2, 2_000):
        with pytest.raises(TableNotFound):
            await referee.join(table_id, "bob", "Bob")
    await referee.join(table.id, "bob", "Bob")
    assert len(referee._tables.locks) <= 1  # no lock is kept for a table nobody is acting on
