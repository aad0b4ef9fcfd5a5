"""Laws of board values on random boards (hypothesis): a board is the sum
of its regions; transposing Domineering swaps the players; a pickled value
crosses into another process intact."""

from concurrent.futures import ProcessPoolExecutor

from hypothesis import given, settings
from hypothesis import strategies as st

import partizan
from partizan import Board


@st.composite
def grids(draw, max_w=4, max_h=4):
    w = draw(st.integers(1, max_w))
    h = draw(st.integers(1, max_h))
    cells = draw(st.lists(st.sampled_from(".#"), min_size=w * h, max_size=w * h))
    return ["".join(cells[r * w:(r + 1) * w]) for r in range(h)]


LAWS = settings(max_examples=80, deadline=None)


@LAWS
@given(grids())
def test_a_board_is_the_sum_of_its_regions(rows):
    b = Board("domineering", "|".join(rows))
    assert sum((p.value() for p in b.regions()), partizan.zero) == b.value()


@LAWS
@given(grids())
def test_transpose_negates_domineering(rows):
    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    assert Board("domineering", "|".join(cols)).value() == -Board("domineering", "|".join(rows)).value()


@LAWS
@given(grids(3, 3))
def test_outcome_search_agrees_with_the_value(rows):
    b = Board("domineering", "|".join(rows))
    assert b.outcome() == b.value().outcome


def _value_of(text):
    return partizan.value("domineering", text)


def test_values_cross_processes():
    boards = ["...|...", "..|..|..", "....|.##.", "#..|...|..#"]
    with ProcessPoolExecutor(2) as ex:
        got = list(ex.map(_value_of, boards))
    assert got == [_value_of(b) for b in boards]
    assert len(set(got)) == len(set(map(str, got)))
