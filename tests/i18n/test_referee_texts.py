"""The referee's texts in the reader's language: every refusal a player can provoke, the clock
lines, results, skips and votes, in Italian, Brazilian Portuguese and Japanese, with no English
word left (outside names and notation); the public texts of a call in the public language while
its refusals stay in the reader's; hints written in the language the request carries (a worker
process has no context of the caller's)."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

from engine.core import GameError, Outcome
from engine.i18n import catalog_path, tr, use_language
from engine.referee import Referee, use_public_language
from engine.referee import clock as clocks
from engine.referee.absence import skip_line
from engine.referee.hints import hint_line
from engine.referee.levels import LEVEL_HELP, LEVELS, level_name
from engine.referee.model import Seat, Table
from engine.referee.presentation import (
    clock_line,
    outcome_text,
    team_labels,
    team_short_labels,
    time_left,
    waiting_line,
    waiting_text,
)
from engine.referee.reports import SeatClockView
from engine.referee.thinking import ThinkRequest, think

from ..referee.helpers import MONDAY, ManualClock, two_player_nim
from ..stores import open_test_store
from .english import WORD, english_fragments, english_words

FIELD = re.compile(r"\{[^{}]*\}")


@cache
def _spoken(code: str) -> frozenset[str]:
    """The words the translations into ``code`` write, their {fields} left out: a field's name
    ("{move}") is not a word the language uses."""
    with catalog_path(code).open("rb") as source:
        catalog = read_po(source, locale=code)
    words: set[str] = set()
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if message.id and text:
                words |= {word.lower() for word in WORD.findall(FIELD.sub(" ", text)) if len(word) >= 3}
    return frozenset(words)


def english_left(text: str, code: str, allowed: set[str]) -> list[str]:
    """``english_fragments``, and the English words it lets through because a translation names
    a field after them ("move" in "{move}")."""
    allowed_words = {word.lower() for item in allowed for word in WORD.findall(item)}
    foreign = english_words() - _spoken(code) - allowed_words
    found = [word.lower() for word in WORD.findall(text) if len(word) >= 3 and word.lower() in foreign]
    return list(dict.fromkeys(english_fragments(text, code, allowed) + found))

LANGUAGES = ("it", "pt_BR", "ja")
NAMES = {"alice", "bob", "carol", "dan", "nim"}
# Notation, commands and keys a refusal quotes as they are typed, in every language.
NOTATION = {
    "take", "deck", "decks", "first_dealer", "tokens", "true", "false", "game", "abandon", "withdraw",
    "settings", "vacation", "off", "limits", "rules", "Europe", "Rome", "America", "Sao_Paulo", "Asia", "Tokyo",
    "easy", "normal", "strong", "genius", "untimed", "live", "daily", "warp", "unanimous", "host", "majority",
    "monthly", "quarterly", "manual", "hard", "soft", "weekly", "yearly", "tables_per_server", "per_server",
    "lobbies_per_user", "games_per_user", "per_user", "tables", "games", "lobbies", "server", "user", "Discord",
    "NAME", "VALUE", "nope", "seasonal", "ten", "many", "colour", "red", "Mars", "Olympus",
}


def assert_translated(text: str, code: str, english: str | None = None) -> None:
    left = english_left(text, code, NAMES | NOTATION)
    assert not left, f"{code}: English left {left} in {text!r}"
    if english is not None:
        assert text != english, f"{code}: not translated: {text!r}"


@pytest.fixture
async def referee(tmp_path, toy_game):
    store = await open_test_store(tmp_path / "i18n.sqlite3")
    ref = Referee(store, clock=ManualClock(MONDAY), ai_rng=random.Random(3))
    yield ref
    await ref.store.close()


async def refusal(call: Callable[[], Awaitable[Any]]) -> str:
    try:
        await call()
    except GameError as error:
        return str(error)
    raise AssertionError(f"no refusal from {call.__code__.co_firstlineno}")


async def provoke_every_refusal(referee: Referee) -> list[str]:
    """The refusals a player meets at a rated timed game of Nim and around it, in the current
    language (a new table each time: the texts must not depend on an earlier language)."""
    running = await two_player_nim(referee)
    lobby = (await referee.create_table("nim", "carol", "Carol", options={"tokens": 5}, guild_id="g1")).id
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: referee.play(running, "carol", "take 1"),  # not playing
        lambda: referee.play(running, "bob", "take 1"),  # not your turn
        lambda: referee.play(running, "alice", "take 9"),  # not a legal move (the game's own words)
        lambda: referee.play(running, "alice", "x" * 500),  # too long
        lambda: referee.play(10**6, "alice", "take 1"),  # no such game
        lambda: referee.play(running, "alice", "take 1", expected_version=5),  # stale
        lambda: referee.join(running, "carol", "Carol"),  # running already
        lambda: referee.join(lobby, "carol", "Carol"),  # seated already
        lambda: referee.join(lobby, "dan", " \n "),  # an invisible name
        lambda: referee.leave(lobby, "carol"),  # the host
        lambda: referee.leave(lobby, "dan"),  # not seated
        lambda: referee.add_ai(lobby, "dan", "easy"),  # not the host
        lambda: referee.add_ai(lobby, "carol", "genius"),  # unknown level
        lambda: referee.remove_ai(lobby, "carol"),  # no AI seat
        lambda: referee.set_speed(lobby, "carol", "warp"),  # unknown speed
        lambda: referee.start(lobby, "dan"),  # not the host
        lambda: referee.cancel(running, "bob"),  # not the host
        lambda: referee.create_table("nim", "dan", "Dan", options={"tokens": 0}),  # too few
        lambda: referee.create_table("nim", "dan", "Dan", options={"tokens": "many"}),  # not a number
        lambda: referee.create_table("nim", "dan", "Dan", options={"colour": "red"}),  # no such option
        lambda: referee.create_table("nim", "dan", "Dan", options={"deck": 7}),  # not a deck
        lambda: referee.start(lobby, "carol", seed=-1),  # a bad seed
        lambda: referee.create_table("nim", "dan", "Dan", abandon_rule="nope"),  # unknown rule
        lambda: referee.undo(running, "alice"),  # nothing to take back
        lambda: referee.undo(running, "carol"),  # not playing
        lambda: referee.skip(running, "alice", 0),  # yourself
        lambda: referee.skip(running, "alice", 1),  # not their turn
        lambda: referee.skip(running, "bob", 0),  # still has time
        lambda: referee.skip(running, "bob", 7),  # no such seat
        lambda: referee.skip(running, "carol", 0),  # not a player
        lambda: referee.hint(running, "alice"),  # rated
        lambda: referee.vote_abandon(running, "alice", withdraw=True),  # no vote to withdraw
        lambda: referee.vote_abandon(running, "carol"),  # not a player
        lambda: referee.rematch(running, "alice", "Alice"),  # not over
        lambda: referee.record(running),  # not over
        lambda: referee.start_vacation("alice", 0),  # too short
        lambda: referee.end_vacation("alice"),  # not on vacation
        lambda: referee.set_quiet_hours("alice", "Mars/Olympus", 22, 7),  # unknown zone
        lambda: referee.set_quiet_hours("alice", "Europe/Rome", 7, 7),  # the same hour
        lambda: referee.set_quiet_hours("alice", "Europe/Rome", 25, 7),  # not an hour
        lambda: referee.start_vacation("alice", "ten"),  # not a number of days
    ]
    return [await refusal(call) for call in calls]  # (each lambda named by its line when it passes)


async def test_every_refusal_of_the_referee_is_in_the_readers_language(referee) -> None:
    english = await provoke_every_refusal(referee)
    for code in LANGUAGES:
        with use_language(code):
            translated = await provoke_every_refusal(referee)
        for text, source in zip(translated, english, strict=True):
            # The game's own refusal (Nim is a test game, in English only) is not the referee's.
            if source.startswith("You may take"):
                continue
            assert_translated(text, code, source)


async def test_public_texts_are_in_the_public_language_and_refusals_in_the_readers(referee) -> None:
    table_id = await two_player_nim(referee)
    with use_language("ja"), use_public_language("it"):
        outbox = await referee.vote_abandon(table_id, "bob")
        snapshot = await referee.snapshot(table_id, "bob")
        board = await referee.board_text(table_id)
        refused = await refusal(lambda: referee.play(table_id, "bob", "take 1"))
        waiting = snapshot.waiting  # a property: written when read, in the reader's language
    assert outbox.public_log == [tr_in("it", "{name} votes to abandon the game.", name="Bob")]
    assert "Orologi: " in snapshot.board and "Voto per abbandonare: Bob" in snapshot.board
    assert board.splitlines()[-1].startswith("Orologi: ")
    assert waiting == tr_in("ja", "It is not your turn; waiting for {names}.", names="Alice")
    assert refused.startswith("あなたの手番ではありません")
    with use_language("pt_BR"):  # no public language set: the reader's
        assert (await referee.snapshot(table_id)).board.splitlines()[1].startswith("Relógios: ")


async def test_a_games_events_are_written_in_the_public_language(referee, monkeypatch) -> None:
    from engine.core import Event
    from engine.games import get_game
    from engine.i18n import language

    game = get_game("nim")
    plain = type(game).play

    def play(self: Any, state: Any, seat: int, move: Any) -> list[Event]:
        # The language the game writes its events in, as the event's text.
        return [*plain(self, state, seat, move), Event(text=f"[{language()}]")]

    monkeypatch.setattr(type(game), "play", play)
    table_id = await two_player_nim(referee)
    with use_language("ja"), use_public_language("pt_BR"):
        outbox = await referee.play(table_id, "alice", "take 1")
        refused = await refusal(lambda: referee.play(table_id, "alice", "take 1"))
    assert outbox.public_log[-1] == "[pt_BR]"
    assert refused.startswith("あなたの手番ではありません")


async def test_a_seats_private_lines_are_written_again_in_its_readers_language(referee, monkeypatch) -> None:
    from engine.core import Event
    from engine.games import get_game
    from engine.i18n import language
    from engine.referee import private_lines

    game = get_game("nim")
    plain = type(game).play

    def play(self: Any, state: Any, seat: int, move: Any) -> list[Event]:
        # A line only the mover reads, naming the language it is written in and the state it saw.
        mine = Event(text=f"[{language()}] {{p{seat}}} saw {state.tokens}", visible_to=(seat,))
        return [*plain(self, state, seat, move), mine]

    monkeypatch.setattr(type(game), "play", play)
    table_id = await two_player_nim(referee)
    with use_language("ja"), use_public_language("pt_BR"):
        outbox = await referee.play(table_id, "alice", "take 1")
    assert outbox.private_log == {0: ["[pt_BR] Alice saw 10"]}  # written with the public lines
    with use_language("ja"):
        assert private_lines(outbox, 0) == ["[ja] Alice saw 10"]  # the reader's, from the state before
    with use_language("pt_BR"):
        assert private_lines(outbox, 0) == ["[pt_BR] Alice saw 10"]
    assert private_lines(outbox, 1) == []


async def test_the_mover_reads_a_real_games_private_lines_in_their_language(referee) -> None:
    from engine.games import get_game
    from engine.referee import private_lines

    table = await referee.create_table("vegetables", "alice", "Alice", guild_id="g1", speed="untimed")
    for user in ("bob", "carol", "dan"):
        await referee.join(table.id, user, user.title())
    await referee.start(table.id, "alice", seed=3)
    game, rng, users = get_game("vegetables"), random.Random(3), ["alice", "bob", "carol", "dan"]
    for _ in range(200):  # until a move writes a private line (a face-down card taken, a well)
        state = await referee.state(table.id)
        seat = game.to_act(state)[0]
        move = game.format_move(rng.choice(game.legal_moves(state, seat)))
        with use_language("ja"), use_public_language("it"):
            outbox = await referee.play(table.id, users[seat], move)
        if outbox.private_log.get(seat):
            break
    else:
        pytest.fail("no private line in 200 moves")
    written = outbox.private_log[seat]
    with use_language("ja"):
        japanese = private_lines(outbox, seat)
    with use_language("it"):
        assert private_lines(outbox, seat) == written
    assert len(japanese) == len(written) and japanese != written
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in japanese), japanese


def tr_in(code: str, message: str, **fields: Any) -> str:
    with use_language(code):
        return tr(message, **fields)


def test_clocks_results_skips_and_levels_in_every_language() -> None:
    alice = SeatClockView(seat=0, name="Alice", remaining=2 * 3600 + 300, running=True, deadline=9.0)
    bob = SeatClockView(seat=1, name="Bob", remaining=86400.0, running=False, vacation_until=MONDAY)
    carol = SeatClockView(seat=2, name="Carol", remaining=0.0, running=True, ran_out=True)
    dan = SeatClockView(seat=3, name="Dan", remaining=50.0, running=True, quiet=True)
    pairs = Outcome(scores=[9, 2.5, 9, 2.5], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    threes = Outcome(scores=[1] * 6, ranks=[1] * 6, teams=[[0, 2, 4], [1, 3, 5]])
    names = ["Alice", "Bob", "Carol", "Dan"]
    table = Table(id=1, game="nim", host="alice", seats=[Seat(index=0, name="Alice", user_id="alice")])
    seat = table.seats[0]
    for code in LANGUAGES:
        with use_language(code):
            texts = [
                clock_line([alice, bob, carol, dan]),
                time_left(alice),
                waiting_text(["Bob", "Carol"]),
                waiting_line(["Bob"]),
                outcome_text(pairs, names),
                *team_labels(threes).values(),
                *team_short_labels(pairs).values(),
                *(tr(speed.label) for speed in clocks.SPEEDS.values()),
                *(level_name(level) + " " + tr(LEVEL_HELP[level]) for level in LEVELS),
            ]
            for by_referee in (False, True):
                seat.forfeited = False
                texts.append(skip_line(seat, table, by_referee=by_referee, bank=3600.0))
            seat.forfeited = True
            texts.append(skip_line(seat, table, by_referee=False, bank=3600.0))
        for text in texts:
            assert_translated(text, code)
    with use_language("ja"):
        assert clock_line([alice]) == "持ち時間: Alice 2 時間 5 分（手番）"
        assert time_left(3 * 86400) == "残り 3 日"
    with use_language("it"):
        assert outcome_text(pairs, names).splitlines()[2] == "3. Bob: 2,5 · Coppia B (posti 2 + 4)"
        assert clocks.day_text(MONDAY) == "4 mar"


def test_english_keeps_the_forms_the_boards_always_had() -> None:
    assert clocks.format_duration(2 * 3600 + 300) == "2h 05m"
    assert clocks.day_text(MONDAY) == "4 Mar"


def test_a_hint_is_written_in_the_language_its_request_carries(toy_game) -> None:
    from engine.games import get_game

    game = get_game("nim")
    state = game.new_game(2, 1, {"tokens": 7})
    request = ThinkRequest(
        game="nim", state=game.encode_state(state), seat=0, kind="random", seed=1, explain=True, language="ja"
    )
    # Here, as in a worker process, the context's language is English: the request's counts.
    thought = think(request)
    english = think(ThinkRequest(**{**_fields(request), "language": "en"}))
    assert thought.move == english.move and thought.reason != english.reason
    with use_language("ja"):
        line = hint_line(thought)
    assert line.startswith("AI（ふつう）なら take ") and english_left(line, "ja", {"take"}) == []


def _fields(request: ThinkRequest) -> dict[str, Any]:
    return {name: getattr(request, name) for name in request.__struct_fields__}


async def test_the_referee_hands_the_readers_language_to_its_thinker(referee) -> None:
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 7}, ai_seats=["easy"])
    await referee.start(table.id, "alice", seed=1)
    seen: list[str] = []
    thinker = referee.thinker

    original = thinker.think

    async def watching(request: ThinkRequest) -> Any:
        seen.append(request.language)
        return await original(request)

    thinker.think = watching  # type: ignore[method-assign]
    with use_language("pt_BR"):
        line = await referee.hint(table.id, "alice")
    assert seen == ["pt_BR"]
    assert line.startswith("A IA normal escolheria take ")
    assert_translated(line, "pt_BR")


GAMES = ("figures", "vegetables", "orchard", "granja")


async def play_through(referee: Referee, game: str, code: str) -> tuple[list[str], list[str]]:
    """A whole seeded game of ``game`` at a timed table, Alice against easy AI seats, read in
    ``code`` (the public language too): the referee's own texts at every position (the clock
    line under the board, who is waited for, the refusal of a move out of turn) and the result's."""
    from engine.games import get_game
    from engine.referee.pictures import result_alt

    players = max(2, get_game(game).min_players)
    texts: list[str] = []
    with use_language(code), use_public_language(code):
        table = await referee.create_table(game, "alice", "Alice", speed="daily-2", ai_seats=["easy"] * (players - 1))
        await referee.start(table.id, "alice", seed=11)
        for _ in range(2_000):
            snapshot = await referee.snapshot(table.id, "alice")
            if snapshot.is_over:
                break
            texts.append(snapshot.board.splitlines()[-1])  # the clock line
            texts.append(snapshot.waiting_line)
            if not snapshot.moves:
                texts.append(await refusal(lambda: referee.play(table.id, "alice", "pass")))
                continue
            await referee.play(table.id, "alice", snapshot.moves[0][0])
        assert snapshot.is_over and snapshot.outcome is not None
        names = [seat.name for seat in snapshot.table.seats]
        texts.append(outcome_text(snapshot.outcome, names))
        texts.append(result_alt(names, snapshot.outcome))
    return [text for text in texts if text], names


@pytest.mark.parametrize("code", LANGUAGES)
async def test_whole_games_read_in_one_language_leave_no_english_in_the_referees_texts(
    tmp_path, code: str
) -> None:
    store = await open_test_store(tmp_path / f"{code}.sqlite3")
    referee = Referee(store, clock=ManualClock(MONDAY), ai_rng=random.Random(5))
    try:
        for game in GAMES:
            texts, seated = await play_through(referee, game, code)
            names = {word for name in seated for word in name.split()} | NAMES
            clocks = tr_in(code, "Clocks: {clocks}", clocks="")
            assert sum(text.startswith(clocks) for text in texts) > 10, game  # positions were read
            for text in texts:
                left = english_left(text, code, names | NOTATION)
                assert not left, f"{game}, {code}: English left {left} in {text!r}"
    finally:
        await referee.store.close()
