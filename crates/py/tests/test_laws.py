"""Algebraic laws of short games on random values (hypothesis)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import partizan
from partizan import construct, game

BASE = ["0", "1", "-1", "2", "1/2", "-3/4", "*", "*2", "^", "v", "{1|-1}", "{2|0}"]

leaves = st.sampled_from(BASE).map(game)
values = st.recursive(
    leaves,
    lambda kids: st.tuples(
        st.lists(kids, max_size=2), st.lists(kids, max_size=2)
    ).map(lambda lr: construct(*lr)),
    max_leaves=6,
)

LAWS = settings(max_examples=150, deadline=None)


@LAWS
@given(values, values)
def test_sum_commutes(a, b):
    assert a + b == b + a


@LAWS
@given(values, values, values)
def test_sum_associates(a, b, c):
    assert (a + b) + c == a + (b + c)


@LAWS
@given(values)
def test_identity_and_inverse(a):
    assert a + 0 == a
    assert a - a == 0
    assert -(-a) == a
    assert a + (-a) == partizan.zero


@LAWS
@given(values, values)
def test_exactly_one_relation(a, b):
    rel = [a < b, a > b, a == b, a.confused(b)]
    assert rel.count(True) == 1
    assert (a <= b) == (a < b or a == b)
    assert (a <= b) == ((b - a) >= 0)


@LAWS
@given(values, values, values)
def test_order_respects_sums(a, b, c):
    if a <= b:
        assert a + c <= b + c


@LAWS
@given(values)
def test_outcome_agrees_with_order(a):
    expect = {"L": a > 0, "R": a < 0, "P": a == 0, "N": a.confused(0)}
    assert expect[a.outcome]


@LAWS
@given(values, values)
def test_mean_is_additive(a, b):
    assert (a + b).mean == a.mean + b.mean


@LAWS
@given(values)
def test_stops_and_numbers(a):
    assert a.left_stop >= a.right_stop
    if a.is_number:
        x = a.as_fraction()
        assert a.left_stop == a.right_stop == a.mean == x
        assert isinstance(x, Fraction)


@LAWS
@given(values)
def test_round_trips(a):
    assert game(str(a)) == a
    assert partizan.from_bytes(a.to_bytes()) == a
    assert construct(a.left_options, a.right_options) == a
