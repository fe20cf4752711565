"""The local table driven in-process with scripted input, on a real SQLite file and the toy Nim."""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3

import pytest
from rich.console import Console

from config import thinker_for
from console import app
from console.app import INTERRUPTED_EXIT_CODE, parse_option_flags
from console.session import MoveNumberError, move_from_input, pick_ai_kind
from console.views import outcome_panel, verdict
from db import SqliteStore
from engine.core import Outcome
from engine.games import REGISTRY, get_game
from engine.referee import FINISHED, RUNNING, PoolThinker, Seat, Table

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

    # No flags: the start screen offers the saved game as r1 ("r": the latest).
    code, out, _ = await run_console(
        ["--database", str(database), "--name", "kim"], ["r", "take 3", "quit", "quit"]
    )
    assert code == 0
    assert "Resume a game" in out and re.search(r"│ r1 +│ Nim #1 ", out)
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
        "9",  # too many players
        "x",
        "3",
        "abc",  # tokens: not a number
        "0",  # below the minimum
        "5",
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
    assert "AI level" not in "".join(reader.prompts)  # Nim's AI plays one way only: nothing to ask
    [(table, _)] = await stored_tables(database)
    assert table.options == {"tokens": 5}
    assert [seat.ai_kind for seat in table.seats] == [None, "normal", "normal"]
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
    assert "2. Ada (AI) [normal]" in out
    lines = panel_lines(out)
    whisper = lines.index("Only you saw:") + 1
    assert lines[whisper].startswith("Psst, kim: your charm is")
    assert "Psst, Ada (AI)" not in out


async def test_the_count_first_then_its_house_rule_then_the_options_then_the_ai_kind(secret_nim, database):
    lines = [
        "secretnim",
        "4",  # four need the crowd house rule: asked right away, before any other option
        "no",  # declined: the count is asked again
        "4",
        "",  # yes (the default)
        "",  # tokens
        *("clever", "random"),  # AI level (a kind the game offers by name is taken too)
        *("quit", "quit"),
    ]
    code, out, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert code == 0
    assert "Secret Nim (2–3 players (4 with crowd))" in out
    assert reader.prompts[1:7] == [
        "Players, you included (2–4) [2] › ",
        "4 players need crowd: turn it on? [yes] › ",
        "Players, you included (2–4) [2] › ",
        "4 players need crowd: turn it on? [yes] › ",
        "tokens [10] › ",
        "AI level (easy, normal, strong) [normal] › ",
    ]
    assert "crowd — Let four play (house rule)" in out
    assert "Then choose another number of players (crowd stays off)." in out
    assert "✗" in out and "✗ Choose one of easy, normal, strong." in out
    assert "strong — searches deeper" in out  # each level said in words before the question
    assert "Four players need the crowd house rule" not in out  # never refused after the fact
    [(table, _)] = await stored_tables(database)
    assert table.options == {"tokens": 10, "crowd": True}
    assert [seat.ai_kind for seat in table.seats] == [None, "random", "random", "random"]


async def test_an_option_that_does_not_apply_is_not_asked(secret_nim, database):
    # Two players: crowd is only about four, so it keeps its default without a question.
    lines = ["secretnim", "2", "", "", "quit", "quit"]
    code, _, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert code == 0
    assert not any(prompt.startswith("crowd") or "crowd" in prompt for prompt in reader.prompts)
    [(table, _)] = await stored_tables(database)
    assert table.options == {"tokens": 10, "crowd": False}


async def test_figures_asks_target_score_only_when_the_match_is_played_to_a_target(database):
    lines = ["1", "", "hands", "3", "", "quit", "quit"]  # mode, match_end, number_of_hands, AI
    code, out, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert code == 0
    assert "New game of Figures" in out
    assert not any(prompt.startswith("target_score") for prompt in reader.prompts)
    assert "number_of_hands [8] › " in reader.prompts
    [(table, _)] = await stored_tables(database)
    assert (table.options["match_end"], table.options["number_of_hands"]) == ("hands", 3)

    # And the other way round, with a saved game on the screen: "1" is still Figures.
    lines = ["1", "", "", "40", "", "quit", "quit"]  # mode, match_end, target_score, AI
    code, out, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert "Resume a game" in out and "New game of Figures" in out
    assert "target_score [31] › " in reader.prompts
    assert not any(prompt.startswith("number_of_hands") for prompt in reader.prompts)
    [_, (table, _)] = await stored_tables(database)
    assert (table.options["match_end"], table.options["target_score"]) == ("target", 40)


async def test_vegetables_for_three_asks_the_house_rule_first_and_not_the_expert_deal(database):
    lines = ["vegetables", "3", "yes", "", "quit", "quit"]
    code, out, reader = await run_console(["--database", str(database), "--name", "kim"], lines)
    assert code == 0
    assert "Vege tables (2 or 4 players (3 or 5 with house_variant))" in out
    assert reader.prompts[2] == "3 players need house_variant: turn it on? [yes] › "
    assert not any(prompt.startswith("expert_jokers") for prompt in reader.prompts)
    assert "✗" not in out  # nothing was refused and asked again
    [(table, _)] = await stored_tables(database)
    assert table.options == {"expert_jokers": False, "house_variant": True} and len(table.seats) == 3


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
    code, out, _ = await run_console(["--database", str(database), "--name", "kim"], ["r1", "quit"])
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
    assert pick_ai_kind(toy_game, None) == ("normal", None)
    assert pick_ai_kind(toy_game, "strong") == ("strong", None)  # a level: the game plays it as it can
    kind, note = pick_ai_kind(toy_game, "clever")
    assert kind == "normal" and "no 'clever'" in note


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


async def test_listed_moves_say_what_they_do_when_their_notation_does_not(database):
    # La Granja's first move: each card play is listed with what that side of the card is.
    flags = ["--game", "granja", "--players", "2", "--seed", "3", "--database", str(database), "--name", "kim"]
    code, out, _ = await run_console(flags, ["quit"])
    assert code == 0
    assert re.search(r"\b1\. play C\d{3} field \(an? \w+ field\)", out)
    assert re.search(r"play C\d{3} barrow \(barrow [a-z+ ]+ for \d VP\)", out)
    assert "Options:" not in out  # the private view does not list the moves a second time


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


async def test_the_local_table_shows_positions_from_snapshots_only(toy_game, database, monkeypatch):
    """One read model: no raw state, and no board, view, moves or outcome read one by one."""
    from engine.referee import Referee

    def refused(name: str):
        async def read(*args, **kwargs):
            raise AssertionError(f"the local table read {name}() instead of its snapshot")

        return read

    for name in ("state", "to_act", "board_text", "private_text", "legal_moves", "described_moves", "outcome"):
        monkeypatch.setattr(Referee, name, refused(name))
    code, out, _ = await run_console(nim_flags(database, "--players", "2", "--seed", "7"), every_move="1")
    assert code == 0 and "Final scores" in out and "Tokens: 10" in out


async def test_the_level_is_chosen_at_set_up_and_hint_says_what_normal_would_play(
    secret_nim, database, monkeypatch
):
    made = []
    monkeypatch.setattr(app, "thinker_for", lambda settings: made.append(thinker_for(settings)) or made[-1])
    lines = [
        "secretnim",
        "2",
        "",  # tokens: 10
        "strong",  # the AI level
        "hint",  # at the move prompt: a hint, then the prompt again
        "take 1",
        *("quit", "quit"),
    ]
    code, out, reader = await run_console(["--database", str(database), "--name", "kim", "--seed", "3"], lines)
    assert code == 0
    assert "AI level (easy, normal, strong) [normal] › " in reader.prompts
    assert "2. Ada (AI) [strong]" in out
    # Secret Nim's every level is its greedy player (it takes the most tokens): normal takes 3.
    [hint] = [line for line in panel_lines(out) if line.startswith("normal would choose")]
    assert hint == "normal would choose take 3: the best move right now."
    assert reader.prompts.count("Your move › ") >= 2  # asked again after the hint
    [(table, moves)] = await stored_tables(database)
    assert [seat.ai_kind for seat in table.seats] == [None, "strong"]
    assert moves[0].move == "take 1"  # the hint played nothing
    # The hint was thought in the pool of worker processes, which the table closed on leaving.
    [pool] = made
    assert isinstance(pool, PoolThinker) and pool.started == 1 and pool.closed and not pool.running
