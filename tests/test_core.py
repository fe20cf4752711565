"""The shared contract types: options, seeded randomness, ranking."""

import pytest

from engine.core import Option, Rng, SetupError, ranks_from_keys


def test_rng_is_reproducible_and_advances():
    first, second = Rng(seed=7), Rng(seed=7)
    deck_a, deck_b = list(range(40)), list(range(40))
    first.shuffle(deck_a)
    second.shuffle(deck_b)
    assert deck_a == deck_b
    assert first.counter == 1
    again = list(range(40))
    first.shuffle(again)
    assert again != deck_a  # the next draw differs


def test_ranks_share_places_on_ties():
    assert ranks_from_keys([10, 5, 10, 1]) == [1, 3, 1, 4]
    assert ranks_from_keys([3, 3, 3]) == [1, 1, 1]


@pytest.mark.parametrize(
    ("raw", "expected"), [("true", True), ("off", False), (True, True), ("1", True)]
)
def test_bool_option_parses(raw, expected):
    assert Option(name="easy", kind="bool", default=False, description="").parse(raw) is expected


def test_option_errors_are_readable():
    option = Option(name="target", kind="int", default=31, description="", minimum=1)
    with pytest.raises(SetupError, match="at least 1"):
        option.parse("0")
    with pytest.raises(SetupError, match="whole number"):
        option.parse("many")
    mode = Option(name="mode", kind="choice", default="individual", description="", choices=("individual", "pairs"))
    with pytest.raises(SetupError, match="individual, pairs"):
        mode.parse("teams")


def test_secret_view_defaults_to_what_the_seat_sees_beyond_the_public_view(toy_game):
    state = toy_game.new_game(2, 3)
    # Nim's seat view is the public view plus the seat's charm: that is its secret.
    assert toy_game.secret_view(state, 1) == {"charm": state.charms[1]}


def test_an_option_says_when_it_applies():
    target = Option(name="target", kind="int", default=31, description="", applies_when=(("end", "target"),))
    assert target.applies(4, {"end": "target"}) and not target.applies(4, {"end": "hands"})
    assert not target.applies(None, {})  # the option it depends on is not chosen yet
    house = Option(name="house", kind="bool", default=False, description="", for_players=(3, 5))
    assert house.applies(3, {}) and not house.applies(4, {})
    assert house.applies(None, {})  # count unknown (a lobby): shown


def test_a_game_package_states_its_state_type_and_text_modules_by_its_layout_alone():
    """Game[S, M] names the state type and the package holds notation.py, render.py and draw.py:
    a game class repeats none of them (Vege tables, whose S is a union, names its own)."""
    from engine.games import get_game
    from engine.games.figures import notation, render
    from engine.games.figures.model import FiguresState
    from engine.games.vegetables.duo import notation as duo_notation
    from engine.games.vegetables.model import VegetablesState

    figures = get_game("figures")
    assert figures.state_type is FiguresState
    assert (figures.notation_module, figures.render_module) == (notation, render)
    assert figures.format_move(figures.parse_move("7c")) == "7c"
    vegetables = get_game("vegetables")
    assert (vegetables.state_type, vegetables.notation_module) == (VegetablesState, duo_notation)
    # The draw module is found by name only, not imported: drawing needs Pillow.
    assert [get_game(name).draw_module for name in ("figures", "granja", "orchard", "vegetables")] == [
        f"engine.games.{name}.draw" for name in ("figures", "granja", "orchard", "vegetables")
    ]


def test_a_game_outside_a_package_finds_no_text_modules_but_still_its_state_type():
    import msgspec

    from engine.core import Game

    class Tiny(msgspec.Struct):
        left: int = 3

    class TinyGame(Game[Tiny, int]):  # in a plain test module: nothing beside it to find
        name = "tiny"

    assert TinyGame.state_type is Tiny
    assert (TinyGame.notation_module, TinyGame.render_module) == (None, None)
    assert TinyGame.draw_module is None  # so it draws no pictures (Game.draws)
