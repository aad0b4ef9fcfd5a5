"""Values: notation, arithmetic, order, facts, pickling."""

import copy
import pickle
from fractions import Fraction

import pytest

import partizan
from partizan import construct, game, nimber


def test_notation_round_trips():
    for text in ["0", "3/2", "-1/4", "*", "*2", "^", "v*", "{1|-1}", "{2|0||-1}", "^*"]:
        g = game(text)
        assert game(str(g)) == g
    assert str(game("{1|-1}")) == "±1"
    assert repr(game("*")) == "game('*')"


def test_canonical_simplification():
    # {0|0} is *, {0|*} is ^, {-1|1} is the number 0, {1/2|2} is 1.
    assert construct([0], [0]) == partizan.star
    assert construct([0], [partizan.star]) == partizan.up
    assert construct([-1], [1]) == 0
    assert construct([Fraction(1, 2)], [2]) == 1
    assert str(construct([], [])) == "0"


def test_arithmetic():
    assert game("^") + game("*") == game("^*")
    assert game("*") + game("*") == 0
    assert game("1/2") + game("1/2") == 1
    assert -game("^") == game("v")
    assert game("{2|0||-1}") - game("{2|0||-1}") == 0
    assert 1 + game("1/2") == Fraction(3, 2)
    assert 3 * game("1/4") == game("3/4")
    assert game("*") * 2 == 0


def test_order_is_the_cgt_order():
    star, up = partizan.star, partizan.up
    assert up > 0 and not (up <= 0)
    assert not (star <= 0) and not (star >= 0) and star.confused(0)
    assert up.confused(star)  # ^ is fuzzy with *
    assert game("{1|-1}").confused(0)
    assert game("1/2") < 1
    assert game("v") < 0 < up < game("1/64")
    assert (game(1) == 1) and (game(1) != 2)


def test_facts():
    g = game("{2|-1/2}")
    assert g.outcome == "N"
    assert g.left_stop == 2 and g.right_stop == Fraction(-1, 2)
    assert g.mean == Fraction(3, 4) and g.temperature == Fraction(5, 4)
    assert not g.is_number
    assert game("3/8").as_fraction() == Fraction(3, 8)
    with pytest.raises(ValueError):
        game("*").as_fraction()
    assert game(0).outcome == "P" and game(1).outcome == "L" and game(-1).outcome == "R"
    assert nimber(3).nimber == 3 and game("^").nimber is None
    assert game("*2").birthday == 2
    assert game(5).temperature == -1


def test_options_of_the_canonical_form():
    g = game("{2|0||-1}")
    assert g.left_options == [game("{2|0}")]
    assert g.right_options == [game(-1)]
    assert construct(g.left_options, g.right_options) == g
    assert game(0).left_options == [] and game(0).right_options == []


def test_thermograph_breakpoints():
    # {2|-1/2}: walls 2 - t and -1/2 + t meet at t = 5/4, x = 3/4.
    t = game("{2|-1/2}").thermograph()
    assert t["mast"] == Fraction(3, 4) and t["temperature"] == Fraction(5, 4)
    assert t["left"][0] == (-1, 3)  # 2 - t at t = -1
    assert t["left"][-1] == (Fraction(5, 4), Fraction(3, 4))
    assert t["right"][-1] == (Fraction(5, 4), Fraction(3, 4))
    # an integer is a mast from -1
    assert game(2).thermograph()["left"] == [(-1, 2)]


def test_hash_and_pickle_by_encoding():
    vals = [game(t) for t in ["0", "*", "^", "{2|0||-1}", "3/2", "±1"]]
    assert len({*vals, *[game(str(v)) for v in vals]}) == len(vals)
    for v in vals:
        assert pickle.loads(pickle.dumps(v)) == v
        assert partizan.from_bytes(v.to_bytes()) == v
        assert hash(partizan.from_bytes(v.to_bytes())) == hash(v)
        assert copy.deepcopy(v) == v
    d = {game("^"): "up"}
    assert d[construct([0], [partizan.star])] == "up"
    with pytest.raises(ValueError):
        partizan.from_bytes(b"not a game")


def test_bad_input_is_a_value_error():
    for bad in ["{1|", "", "{|}}", "1/3"]:
        with pytest.raises(ValueError):
            game(bad)
    with pytest.raises(ValueError):
        game(Fraction(1, 3))
    with pytest.raises(TypeError):
        construct([None], [])
    # A string is a value in notation wherever a value is taken, so "1"
    # equals game(1); a string that is not notation is simply unequal.
    assert (game(1) == "1") is True
    assert (game(1) == "one") is False


def test_latex():
    # core's LaTeX (Arena::display_latex), in math mode
    assert game("{2|0||-1}")._repr_latex_() == r"$\{2 \mid 0 \,\|\, -1\}$"
    assert game("^").latex() == r"\uparrow" and game("*2").latex() == r"\ast 2"


def test_values_cross_threads():
    from concurrent.futures import ThreadPoolExecutor

    def work(i):
        g = game(f"{{{i}|-{i}}}")
        return (g + g - g - g) == 0 and g.temperature == i

    with ThreadPoolExecutor(4) as ex:
        assert all(ex.map(work, range(1, 50)))
