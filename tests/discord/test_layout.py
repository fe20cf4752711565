"""Which controls a list of legal moves gets, within Discord's limits."""

from __future__ import annotations

from cogs.games import move_choices
from cogs.layout import MAX_MOVE_TEXT, MoveGroup, plan_controls


def cards(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{number:02d}" for number in range(1, count + 1)]


def test_a_few_short_moves_are_buttons() -> None:
    plan = plan_controls(["7c", "Kd", "pass"])
    assert plan.kind == "buttons" and plan.buttons == ("7c", "Kd", "pass")


def test_a_long_label_or_a_sixth_move_makes_a_select() -> None:
    assert plan_controls(["pass", "kings 5c 6s 7d and a very long tail"]).kind == "select"
    plan = plan_controls(cards("a", 6))
    assert plan.kind == "select" and plan.groups == (MoveGroup("Choose your move", tuple(cards("a", 6))),)


def test_up_to_25_moves_fit_one_select() -> None:
    plan = plan_controls(cards("a", 25))
    assert plan.kind == "select" and len(plan.groups) == 1 and plan.offered == 25


def test_more_moves_are_grouped_by_first_word_one_select_each() -> None:
    moves = (
        [f"play {card}" for card in cards("a", 30)] + [f"discard {card}" for card in cards("a", 3)] + ["pass"]
    )
    plan = plan_controls(moves)
    assert plan.kind == "select"
    assert [group.label for group in plan.groups] == [
        "play (1-25 of 30)",
        "play (26-30 of 30)",
        "discard",
        "Moves",
    ]
    assert plan.groups[-1].moves == ("pass",)
    assert plan.offered == len(moves) and all(len(group.moves) <= 25 for group in plan.groups)


def test_one_word_moves_share_a_group_instead_of_one_group_each() -> None:
    moves = cards("c", 10) + [f"kings {card} x y" for card in cards("k", 30)]
    plan = plan_controls(moves)
    assert [group.label for group in plan.groups] == ["Moves", "kings (1-25 of 30)", "kings (26-30 of 30)"]


def test_more_groups_than_rows_become_a_two_step_choice() -> None:
    moves = [f"{verb} {card}" for verb in ("a", "b", "c", "d", "e", "f") for card in cards("x", 6)]
    plan = plan_controls(moves)
    assert plan.kind == "two_step" and len(plan.groups) == 6 and plan.offered == 36


def test_more_groups_than_a_select_can_list_are_cut_into_plain_pages() -> None:
    moves = [f"w{index} x" for index in range(30)]  # 30 groups of one
    plan = plan_controls(moves)
    assert plan.kind == "select"
    assert [group.label for group in plan.groups] == ["Moves (1-25 of 30)", "Moves (26-30 of 30)"]
    huge = [f"m{index}" for index in range(700)]
    plan = plan_controls(huge)
    assert plan.kind == "two_step" and len(plan.groups) == 25 and plan.left_out == 700 - 625


def test_moves_too_long_for_a_custom_id_are_left_to_the_play_command() -> None:
    plan = plan_controls(["pass", "x" * (MAX_MOVE_TEXT + 1)])
    assert plan.buttons == ("pass",) and plan.left_out == 1
    assert plan_controls([]).kind == "none"


def test_autocomplete_offers_matching_moves_that_fit_a_choice() -> None:
    long = "play " + "x" * 120
    choices = move_choices(["pass", long, "play a01", "play b02"], "play")
    assert [choice.value for choice in choices] == ["play a01", "play b02"]
    assert len(move_choices([f"m{n}" for n in range(40)], "")) == 25
