"""The local table driven in-process with scripted input, on a real SQLite file and the toy Nim."""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3

import pytest
from rich.console import Console

from console.app import INTERRUPTED_EXIT_CODE, parse_option_flags
from console.session import MoveNumberError, move_from_input, pick_ai_kind
from console.views import outcome_panel, verdict
from db import SqliteStore
from engine.core import Outcome
from engine.games import REGISTRY, get_game
from engine.referee import FINISHED, RUNNING, Seat, Table

from .helpers import panel_lines, run_console, stored_tables


@pytest.fixture
def database(tmp_path):
    return tmp_path / "local.sqlite3"


def nim_flags(database, *extra: str) -> list[str]:
    return ["--game", "nim", "--database", str(database), "--name", "kim", "--ai", "random", *extra]


async def test_a_full_game_ends_with_scores_and_ranks_by_name(toy_game, database):
    code, out, _ = await run_console(nim_flags(database, "--players", "3", "--seed", "7"), every_move="1")
    assert code == 0
    assert "Players: 1. kim (you), 2. Ada (AI) [random], 3. Bruno (AI) [random]" in out
    assert "Your charm:" in out and "Tokens: 10" in out
    assert "Final scores" in out
    [(table, moves)] = await stored_tables(database)
    assert table.status == FINISHED and table.seats[0].user_id == "local:kim"
    # Whoever took the last token is ranked first in the table, by name.
    winner = table.seats[moves[-1].seat].name
    assert re.search(rf"│\s+1 │\s+\d │ {re.escape(winner)}", out)
    assert all(move.move == "take 1" for move in moves if move.seat == 0)
    assert out.count("Final scores") == 1


async def test_the_local_table_may_stack_the_deal_and_the_game_is_not_ranked(toy_game, database):
    """Stacking stays open to the local table (tutorials, puzzles), but such a game reaches no
    board: the same rule as anywhere else, kept by the referee."""
    code, out, _ = await run_console(nim_flags(database, "--option", "deck=1,2", "--seed", "7"), every_move="1")
    assert code == 0 and "Final scores" in out
    store = await SqliteStore.open(database)
    try:
        assert await store.high_scores(None, "nim", "with_ai") == []
    finally:
        await store.close()
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT board, rated FROM results").fetchall() == [("stacked", 0)]


async def test_bad_input_is_explained_and_the_player_asked_again(toy_game, database):
    lines = ["grab 1", "take 9", "7", "", "rules", "help", "take 2", "quit"]
    code, out, reader = await run_console(nim_flags(database, "--option", "tokens=20", "--seed", "1"), lines)
    assert code == 0
    assert "✗ Write `take N` with N from 1 to 3." in out
    assert "✗ You may take 1 to 3 tokens." in out
    assert "✗ There is no move 7: type a number from 1 to 3, or write the move." in out
    assert "Type the number of a move" in out
    assert "Take 1 to 3 tokens; whoever takes the last token wins." in out  # rules
    assert "tokens  20" in out  # this table's options, under the rules
    assert "Write `take 2`." in out  # the game's notation help
    assert reader.prompts.count("Your move › ") == 8
    [(table, moves)] = await stored_tables(database)
    assert table.status == RUNNING
    assert (moves[0].seat, moves[0].move) == (0, "take 2")  # the refused attempts left no trace
    assert "Game #1 is saved" in out


async def test_quit_then_resume_continues_where_the_game_stopped(toy_game, database):
    flags = nim_flags(database, "--option", "tokens=20", "--seed", "3")
    await run_console(flags, ["take 1", "quit"])
    [(table, first_moves)] = await stored_tables(database)
    assert table.status == RUNNING and len(first_moves) == 2  # kim, then the AI answered

    # No flags: the start screen offers the saved game first.
    code, out, _ = await run_console(
        ["--database", str(database), "--name", "kim"], ["1", "take 3", "quit", "quit"]
    )
    assert code == 0
    assert "Resume a game" in out and "Nim #1" in out
    assert "Nim · game #1 · move 2" in out
    assert f"Tokens: {20 - sum(int(m.move.split()[1]) for m in first_moves)}." in out
    [(table, moves)] = await stored_tables(database)
    assert moves[:2] == first_moves
    assert (moves[2].seat, moves[2].move) == (0, "take 3")
    assert out.rstrip().endswith("Bye.")

    # --resume picks the latest unfinished game straight away, and plays it to the end.
    code, out, _ = await run_console(
        ["--resume", "--database", str(database), "--name", "kim"], every_move="1"
    )
    assert code == 0 and "Final scores" in out
    [(table, _)] = await stored_tables(database)
    assert table.status == FINISHED


async def test_end_of_input_and_ctrl_c_save_and_say_so_in_one_line(toy_game, database):
    code, out, _ = await run_console(nim_flags(database, "--seed", "2"), [])
    assert code == 0
    assert out.rstrip().splitlines()[-1] == (
        f"Game #1 is saved in {database}; start the local table again to resume it."
    )
    code, out, _ = await run_console(
        ["--resume", "1", "--database", str(database), "--name", "kim"], [KeyboardInterrupt()]
    )
    assert code == INTERRUPTED_EXIT_CODE
    assert out.rstrip().splitlines()[-1].startswith("Interrupted. Game #1 is saved in")
    # Ctrl-C while the referee works: asyncio.run cancels the task instead of raising at a prompt.
    flags = ["--resume", "1", "--database", str(database), "--name", "kim"]
    code, out, _ = await run_console(flags, [asyncio.CancelledError()])
    assert code == INTERRUPTED_EXIT_CODE and "Interrupted. Game #1 is saved" in out
    code, out, _ = await run_console(["--database", str(database), "--name", "kim"], [])
    assert code == 0 and out.rstrip().endswith("Bye.")
    [(table, moves)] = await stored_tables(database)
    assert table.status == RUNNING and moves == []


async def test_new_game_set_up_on_the_start_screen(toy_game, database):
    lines = [
        "chess",  # not on the list
        "nim",
        "rules",
        "abc",  # tokens: not a number
        "0",  # below the minimum
        "5",
        "9",  # too many players
        "x",
        "3",
        # ...the game is played with every_move...
        "",  # back to the start screen
        "quit",
    ]
    code, out, reader = await run_console(
        ["--database", str(database), "--name", "kim"], lines, every_move="1"
    )
    assert code == 0
    assert "'chess' is not on the list" in out
    assert "tokens — Tokens on the table" in out and "a whole number (at least 1); default 10" in out
    assert "✗ Option tokens takes a whole number, not 'abc'." in out
    assert "✗ Option tokens must be at least 1." in out
    assert out.count("✗ Nim is played by 2–4 players; type a number in that range.") == 2
    assert "Final scores" in out and out.rstrip().endswith("Bye.")
    assert "AI players" not in "".join(reader.prompts)  # Nim offers one kind only: nothing to ask
    [(table, _)] = await stored_tables(database)
    assert table.options == {"tokens": 5}
    assert [seat.ai_kind for seat in table.seats] == [None, "random", "random"]
    assert table.status == FINISHED


@pytest.fixture
def secret_nim(toy_game, monkeypatch):
    monkeypatch.setitem(REGISTRY, "secretnim", "tests.console.secret_nim")
    get_game.cache_clear()
    yield get_game("secretnim")
    get_game.cache_clear()


async def test_only_the_players_own_private_lines_are_shown(secret_nim, database):
    flags = ["--game", "secretnim", "--database", str(database), "--name", "kim", "--seed", "4"]
    code, out, _ = await run_console(flags, ["take 1", "quit"])
    assert code == 0
    assert "2. Ada (AI) [greedy]" in out
    lines = panel_lines(out)
    whisper = lines.index("Only you saw:") + 1
    assert lines[whisper].startswith("Psst, kim: your charm is")
    assert "Psst, Ada (AI)" not in out


async def test_options_again_when_the_count_needs_another_option_then_the_ai_kind(secret_nim, database):
    lines = [
        "secretnim",
        *("", "", "4"),  # tokens, crowd, players: four need the house rule
        *("", "yes", ""),  # again; with crowd the default count is 2: only four needed it
        *("clever", "random"),  # AI kind
        *("quit", "quit"),
    ]
    code, out, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert code == 0
    assert "crowd — Let four play (house rule)" in out
    assert "✗ Four players need the crowd house rule: set crowd=yes." in out
    assert "Answer the options again (or quit):" in out
    assert "AI players (random, greedy) [greedy] › " in reader.prompts
    assert "✗ Choose one of random, greedy." in out
    [(table, _)] = await stored_tables(database)
    assert table.options == {"tokens": 10, "crowd": True}
    assert [seat.ai_kind for seat in table.seats] == [None, "random"]


async def test_a_seed_replays_the_same_game(secret_nim, tmp_path):
    logs = []
    for attempt in range(2):
        database = tmp_path / f"seeded{attempt}.sqlite3"
        flags = [
            "--game",
            "secretnim",
            "--players",
            "4",
            "--option",
            "crowd=yes",
            "--ai",
            "random",
            "--seed",
            "21",
        ]
        code, _, _ = await run_console([*flags, "--database", str(database), "--name", "kim"], every_move="1")
        assert code == 0
        [(table, moves)] = await stored_tables(database)
        logs.append((table.seed, moves))
    assert logs[0] == logs[1] and logs[0][0] == 21


async def test_a_saved_game_whose_game_is_gone_is_refused_in_words(toy_game, database, monkeypatch):
    await run_console(nim_flags(database, "--seed", "6"), ["quit"])
    monkeypatch.delitem(REGISTRY, "nim")
    get_game.cache_clear()
    code, out, _ = await run_console(["--database", str(database), "--name", "kim"], ["1", "quit"])
    assert code == 0
    assert "nim #1" in out  # listed under its registry name, since it has no title any more
    assert "✗ Unknown game 'nim'." in out
    assert out.rstrip().endswith("Bye.")


async def test_bad_flags_are_refused_before_anything_is_stored(toy_game, database):
    code, out, _ = await run_console(nim_flags(database, "--option", "colour=red"))
    assert code == 2 and "Nim has no option 'colour'" in out
    code, out, _ = await run_console(nim_flags(database, "--players", "7"))
    assert code == 2 and "2 to 4 players, not 7" in out
    assert await stored_tables(database) == []


def test_move_numbers_and_notation():
    moves = ["take 1", "take 2", "take 3"]
    assert move_from_input("2", moves) == "take 2"
    assert move_from_input("TAKE 3", moves) == "TAKE 3"  # notation goes to the game as typed
    assert move_from_input("3", ["3", "5"]) == "3"  # a move spelt as a number is that move
    with pytest.raises(MoveNumberError, match="from 1 to 3"):
        move_from_input("4", moves)


def test_option_flags():
    assert parse_option_flags(["tokens=5", " mode = pairs "]) == {"tokens": "5", "mode": "pairs"}
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option_flags(["tokens"])


def test_ai_kind_falls_back_with_a_note(toy_game):
    assert pick_ai_kind(toy_game, "random") == ("random", None)
    kind, note = pick_ai_kind(toy_game, None)
    assert kind == "random" and "no 'greedy'" in note


def test_verdict_words():
    table = Table(
        game="nim",
        host="local:kim",
        seats=[Seat(index=i, name=n, user_id=f"local:{n}") for i, n in enumerate("abcd")],
    )
    tie = Outcome(scores=[5, 5, 3, 3], ranks=[1, 1, 3, 3])
    assert verdict(table, tie, "local:a") == "You share the win!"
    assert verdict(table, tie, "local:c") == "You finished joint 3rd of 4."
    assert (
        verdict(table, Outcome(scores=[3, 5, 1, 0], ranks=[2, 1, 3, 4]), "local:a")
        == "You finished 2nd of 4."
    )


def test_teams_in_the_verdict_and_the_final_scores():
    table = Table(
        game="figures",
        host="local:a",
        seats=[Seat(index=i, name=n, user_id=f"local:{n}") for i, n in enumerate("abcd")],
    )
    pairs = Outcome(scores=[9, 2, 9, 2], ranks=[1, 3, 1, 3], teams=[[0, 2], [1, 3]])
    assert verdict(table, pairs, "local:c") == "Your team wins!"
    assert verdict(table, pairs, "local:b") == "Your team finished 2nd of 2 teams."
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(outcome_panel(table, pairs, "local:a"))
    rows = [
        [cell.strip() for cell in line.split("│") if cell.strip()]
        for line in out.getvalue().splitlines()
        if re.match(r"│ │\s+\d", line)
    ]
    assert rows == [
        ["1", "1", "a (you)", "Pair A (seats 1 + 3)", "9"],
        ["1", "3", "c", "Pair A (seats 1 + 3)", "9"],
        ["3", "2", "b", "Pair B (seats 2 + 4)", "2"],
        ["3", "4", "d", "Pair B (seats 2 + 4)", "2"],
    ]


async def test_a_pairs_match_numbers_seats_and_pairs_at_the_end_as_its_board_does(database):
    """Seed 1 seats the lobby's second pair first: kim (lobby seat 1) sits at the board's seat 2,
    in pair B; the final table says so too, rather than counting seats in lobby order."""
    options = ["--option", "mode=pairs", "--option", "match_end=hands", "--option", "number_of_hands=1"]
    argv = ["--game", "figures", "--database", str(database), "--name", "kim", "--ai", "random", "--seed", "1"]
    code, out, _ = await run_console([*argv, *options], every_move="1")
    assert code == 0
    lines = panel_lines(out)
    header = max(index for index, line in enumerate(lines) if line.startswith("Seat  Player"))
    board = {}
    for line in lines[header + 1 : header + 5]:
        number, name, pair = re.match(r"^[> ]?\s*(\d)\s+(.+?)\s+([AB])\s", line).groups()
        board[name] = (number, pair)
    assert board["kim"] == ("2", "B")
    in_play_order = ", ".join(f"{number}. {name}" for name, (number, _) in board.items())
    players = next(line for line in lines if line.startswith("Players: "))
    assert re.sub(r" \(you\)| \[random\]", "", players) == f"Players: {in_play_order}"
    members = {pair: sorted(number for number, p in board.values() if p == pair) for pair in "AB"}
    final = [
        [cell.strip() for cell in line.split("│") if cell.strip()]
        for line in out.splitlines()
        if re.match(r"│ │\s+\d", line)
    ]
    assert len(final) == 4
    for _rank, number, name, team, _score in final:
        name = name.removesuffix(" (you)")
        pair = board[name][1]
        assert (number, team) == (board[name][0], f"Pair {pair} (seats {' + '.join(members[pair])})")
