"""Views, rendering and results: §4 scoring and ranking, R28-R30, R32, R33 and what each view shows."""

from __future__ import annotations

import random
import re

import pytest

from engine.games.orchard import GAME
from engine.games.orchard.cards import ALL_CARDS, BATCH_IDS, CODE
from engine.games.orchard.rules import placement_gain, total_score

from .support import move, orchard_with, play, stacked_game, with_orchard


def finished_game(players, seed=1, **options):
    state = GAME.new_game(players, seed=seed, options=options)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, events = GAME.apply(state, seat, GAME.default_move(state, seat))
    return state, events


def random_midgame(players, seed, picks):
    rng = random.Random(seed)
    state = GAME.new_game(players, seed=seed)
    for _ in range(picks):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    return state


# ----- §4 results ---------------------------------------------------------------------------------


def test_R28_highest_total_wins():
    state, _ = finished_game(3)
    state = with_orchard(state, 1, orchard_with(mono=["Red h1 s1", "Red h2 s2"]))  # 3 points
    state = with_orchard(state, 2, orchard_with(mono=["Red h3 s3"]))  # 1 point
    outcome = GAME.outcome(state)
    assert outcome.scores == [-12, 3, 1]
    assert outcome.ranks == [3, 1, 2]
    assert outcome.winners == [1]
    assert GAME.view(state, None)["winners"] == [1]


def test_R29_tied_leaders_share_the_win_with_competition_ranks():
    state, _ = finished_game(3)
    state = with_orchard(state, 0, orchard_with(mono=["Red h1 s1", "Red h2 s2"]))
    state = with_orchard(state, 2, orchard_with(feather=["Gold h1 s1", "Gold h1 s2"], mono=["Green h3 s3"]))
    outcome = GAME.outcome(state)
    assert outcome.scores == [3, -12, 3]
    assert outcome.ranks == [1, 3, 1]
    assert outcome.winners == [0, 2]


def test_R29_everyone_tied():
    state, events = finished_game(4)  # every card into BAD: everyone -12
    assert GAME.outcome(state).ranks == [1, 1, 1, 1]
    assert events[-1].text == "Game over: {p0} -12, {p1} -12, {p2} -12, {p3} -12. {p0}, {p1}, {p2}, and {p3} win."  # a list as the language writes it (engine.i18n.join_and)


def test_R30_scores_count_on_the_final_orchard_only():
    # The tree shows 20 while it stands; a later card of its colour outside BAD leaves 0 at the end.
    deck = ["Red h1 s1", "Gold h2 s2", "Gold h3 s3"] + [f"Green h{h} s{s}" for h in (1, 2, 3) for s in (1, 2, 3)]
    state = stacked_game(1, deck)
    state = play(state, [("Red h1 s1", "special")])
    assert GAME.view(state, None)["scores"] == [20]
    state = play(state, [("Gold h2 s2", "bad"), ("Gold h3 s3", "bad")])
    greens = [f"Green h{h} s{s}" for h in (1, 2, 3) for s in (1, 2, 3)]
    state = play(state, [(text, "bad") for text in greens])
    assert GAME.outcome(state).scores == [20 - 11]
    # Now the same game, but the last card spoils the tree instead.
    state = stacked_game(1, deck[:11] + ["Red h5 s5"])
    state = play(state, [("Red h1 s1", "special"), ("Gold h2 s2", "bad"), ("Gold h3 s3", "bad")])
    state = play(state, [(text, "bad") for text in greens[:8]])
    assert GAME.view(state, None)["scores"] == [20 - 10]
    state = play(state, [("Red h5 s5", "mono")])
    assert GAME.outcome(state).scores == [0 - 10 + 1]


def test_R33_solo_has_a_total_but_no_winner():
    state, events = finished_game(1, easy=True)
    view = GAME.view(state, None)
    assert view["solo"] is True and view["winners"] == []
    assert GAME.outcome(state).ranks == [1]  # the contract needs a rank; solo reports the total
    assert events[-1].text == "Game over: {p0} finishes with 0 points."
    assert "Final total: 0 points." in GAME.render_board(view, ["Solo"])


# ----- views --------------------------------------------------------------------------------------


def test_public_view_has_what_a_front_end_needs_and_no_hidden_order():
    state = GAME.new_game(4, seed=11, options={"first_picker": "host"})
    view = GAME.view(state, None)
    assert view["players"] == 4
    assert view["turn"] == 0 and view["to_act"] == [0]
    assert view["phase"] == "picking" and view["round"] == 1 and view["pick"] == 1
    assert view["pool"] == [CODE[c] for c in state.pool]
    assert view["deck_left"] == 75 - 12
    assert "Pick a pool card" in view["prompt"]
    assert set(view["orchards"][0]["batches"]) == set(BATCH_IDS)
    text = repr(view)
    assert "rng" not in text and "seed" not in text
    undrawn = {CODE[c] for c in state.deck}
    assert not any(code in text for code in undrawn)


def test_R32_everything_but_the_deck_is_public():
    state = random_midgame(3, seed=5, picks=10)
    public = GAME.view(state, None)
    for seat in range(3):
        private = GAME.view(state, seat)
        assert {key: private[key] for key in public} == public
        assert private["seat"] == seat
        for orchard, shown in zip(state.orchards, public["orchards"], strict=True):
            assert list(shown["batches"].values()) == [[CODE[c] for c in batch] for batch in orchard]


@pytest.mark.parametrize("seed", range(8))
def test_private_placements_list_exactly_the_legal_moves_with_their_true_gains(seed):
    for easy in (False, True):
        state = random_midgame(2, seed=seed, picks=seed * 2)
        state.easy = easy
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        assert view["your_turn"] is True
        listed = {
            f"{code} {batch_id}": gain for code, gains in view["placements"].items() for batch_id, gain in gains.items()
        }
        legal = GAME.legal_moves(state, seat)
        assert set(listed) == {GAME.format_move(m) for m in legal}
        before = total_score(state.orchards[seat], easy)
        for legal_move in legal:
            after, _ = GAME.apply(state, seat, legal_move)
            assert listed[GAME.format_move(legal_move)] == total_score(after.orchards[seat], easy) - before


def test_placement_gain_counts_the_tree_loss():
    orchard = orchard_with(special=["Green h3 s3"], mono=["Gold h1 s1"])
    green = ALL_CARDS[0]
    assert placement_gain(orchard, green, BATCH_IDS.index("unlucky"), easy=False) == -20
    assert placement_gain(orchard, green, BATCH_IDS.index("bad"), easy=False) == -1
    assert placement_gain(orchard, green, BATCH_IDS.index("bad"), easy=True) == 0
    assert placement_gain(orchard, green, BATCH_IDS.index("const"), easy=False) == 3 - 20


# ----- rendering ----------------------------------------------------------------------------------


def test_render_board_shows_pool_orchards_scores_and_turn():
    deck = ["Red h1 s2", "Red h4 s5", "Gold h2 s3", "Gold h4 s3", "Green h1 s1", "Green h5 s5"]
    state = stacked_game(2, deck, first_picker="host")
    state = play(state, [("Red h1 s2", "mono"), ("Gold h2 s3", "unlucky"), ("Red h4 s5", "mono")])
    text = GAME.render_board(GAME.view(state, None), ["Ann", "Bob"])
    assert "round 1/4" in text and "pick 4/6" in text
    assert "To pick: Bob" in text
    assert "Pool: Green-h1-s1 Green-h5-s5 Gold-h4-s3" in text
    assert "Ann: 3 points" in text and ">Bob: 0 points" in text
    assert "  mono      3  Red-h1-s2 Red-h4-s5" in text
    assert "  unlucky   0  Gold-h2-s3 (sum 3)" in text
    assert "  special   0  -" in text


def test_one_card_notation_in_the_pool_the_batches_the_hand_and_the_log():
    deck = ["Red h1 s2", "Red h4 s5", "Gold h2 s3", "Gold h4 s3", "Green h1 s1", "Green h5 s5"]
    state = stacked_game(2, deck, first_picker="host")
    state, events = GAME.apply(state, 0, GAME.parse_move("Gold h2 s3 unlucky"))
    board = GAME.render_board(GAME.view(state, None), ["Ann", "Bob"])
    private = GAME.render_private(GAME.view(state, 1), ["Ann", "Bob"])
    log = " ".join(event.text for event in events)
    for text in (board, log):
        assert "Gold-h2-s3" in text
    assert "Red-h1-s2" in board and "Red-h1-s2:" in private  # the pool, and the placements
    assert "Red-h1-s2 mono" in [GAME.format_move(move) for move in GAME.legal_moves(state, 1)]
    compact = re.compile(r"\b(?:Gr|Go|Re)\d\d\b")  # the four-character form the board used
    assert not compact.search(board) and not compact.search(private) and not compact.search(log)


def test_render_private_lists_each_pool_card_with_gains():
    state = stacked_game(1, ["Red h1 s2", "Red h4 s5", "Gold h2 s3"])
    state = play(state, [("Red h1 s2", "mono")])
    text = GAME.render_private(GAME.view(state, 0), ["Solo"])
    assert text.startswith("Your pick")
    assert "Red-h4-s5: mono +2, feather +0, unlucky +0, forte +0, sweet +0, const +3, bad -1" in text
    assert "Gold-h2-s3: feather +0, special +20" in text
    finished, _ = finished_game(1)
    assert "game is over" in GAME.render_private(GAME.view(finished, 0), ["Solo"])


def test_render_private_of_a_waiting_seat():
    state = GAME.new_game(2, seed=1, options={"first_picker": "host"})
    assert GAME.render_private(GAME.view(state, 1), ["A", "B"]).startswith("If you picked now")


@pytest.mark.parametrize("players", range(1, 7))
def test_board_stays_compact(players):
    names = [f"A rather long name {seat}" for seat in range(players)]
    rng = random.Random(players)
    state = GAME.new_game(players, seed=players)
    greedy = GAME.ai_players()["greedy"]()
    longest = 0
    while True:
        longest = max(longest, len(GAME.render_board(GAME.view(state, None), names)))
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, greedy.choose(GAME, state, seat, rng))
    assert longest <= 2000  # a plain Discord message, with the cards written in full


def test_summary_and_notation_help_are_filled():
    assert 10 <= len(GAME.summary.splitlines()) <= 20
    for batch_id in BATCH_IDS:
        assert batch_id in GAME.summary and batch_id in GAME.notation_help
    assert max(map(len, GAME.summary.splitlines())) <= 100


def test_event_texts_name_seats_by_placeholder():
    state = stacked_game(2, ["Red h1 s2", "Red h4 s5", "Gold h2 s3", "Gold h4 s3", "Green h1 s1", "Green h5 s5"],
                         first_picker="host")  # fmt: skip
    state, events = GAME.apply(state, 0, move("Red h1 s2", "mono"))
    assert events[0].text == "{p0} put Red-h1-s2 in Monochrome (that batch now scores 1, total 1)."
    assert events[0].actor == 0 and events[0].visible_to is None


# ----- what to do next, and the worst-case size ---------------------------------------------------


def test_board_tells_the_picker_how_to_write_a_move():
    state = GAME.new_game(3, seed=4, options={"first_picker": "host"})
    state = play(state, [(CODE[state.pool[0]], "bad")])
    text = GAME.render_board(GAME.view(state, None), ["Ann", "Bob", "Cy"])
    lines = text.splitlines()
    assert lines[1] == "To pick: Bob (round started with Ann)"
    assert lines[2].startswith("Pool: ")
    example = lines[3].split("e.g. ")[1].rstrip(".")
    assert GAME.parse_move(example) in GAME.legal_moves(state, 1)


def test_solo_board_names_the_player_without_a_rotation_note():
    state = GAME.new_game(1, seed=4)
    text = GAME.render_board(GAME.view(state, None), ["Solo"])
    assert "To pick: Solo\n" in text and "round started" not in text
    assert "Pick a pool card" in text


def test_private_text_on_your_turn_ends_with_how_to_write_the_move():
    state = GAME.new_game(2, seed=4, options={"first_picker": "host"})
    mine = GAME.render_private(GAME.view(state, 0), ["A", "B"])
    example = mine.splitlines()[-1].split("e.g. ")[1].rstrip(".")
    assert GAME.parse_move(example) in GAME.legal_moves(state, 0)
    assert "e.g." not in GAME.render_private(GAME.view(state, 1), ["A", "B"])  # not B's turn


def crowded_six_player_state(cards_each):
    """Six orchards with every batch filled (the longest board lines), drawn from the deck."""
    state = GAME.new_game(6, seed=9)
    if cards_each == 12:  # the game is over: the last pool has been taken
        state.deck += state.pool
        state.pool = []
    free = iter(state.deck)
    sizes = [2, 1, 1, 2, 1, 1, 1, 1] if cards_each == 10 else [2, 2, 1, 2, 2, 1, 1, 1]
    for seat in range(6):
        state.orchards[seat] = [[next(free) for _ in range(size)] for size in sizes]
    state.deck = list(free)
    state.current_round = 6
    return state


@pytest.mark.parametrize("cards_each", [10, 12])
@pytest.mark.parametrize("easy", [False, True])
def test_worst_case_six_player_board_fits_a_discord_message(cards_each, easy):
    names = [f"An extremely long display name {seat}" for seat in range(6)]
    state = crowded_six_player_state(cards_each)
    state.easy = easy
    view = GAME.view(state, None)
    if cards_each == 12:
        view["winners"] = list(range(6))  # the longest result line: a six-way tie
    board = GAME.render_board(view, names)
    # Every card written in full (the one card notation): it still fits one plain message.
    assert len(board) <= 2000, len(board)


def test_longest_private_text_fits_a_discord_message():
    # Round 1 at six players: twelve pool cards, each legal in all eight empty batches.
    state = GAME.new_game(6, seed=9, options={"first_picker": "host"})
    private = GAME.render_private(GAME.view(state, 0), [f"An extremely long display name {s}" for s in range(6)])
    assert private.count("special +20") == 12
    assert len(private) <= 1800, len(private)
