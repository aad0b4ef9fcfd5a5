"""The census and Sylver Coinage through Python: the essays' figures."""

from fractions import Fraction

import pytest

import partizan


@pytest.fixture(scope="module")
def census8():
    return partizan.domineering_census(8)


def test_region_census_to_eight_cells(census8):
    # The essay's figures: 1,042 regions, 315 numbers, 141 exact,
    # 209 contained, 505 points, 619 / 661, misses 53 / 53.
    t = census8.report["totals"]
    assert len(census8.records) == t["shapes"] == 1042
    assert (t["numbers"], t["exact"], t["contained"], t["points"]) == (315, 141, 209, 505)
    assert (t["count_between_stops"], t["interval_meets_stops"]) == (619, 661)
    assert (t["misses_above"], t["misses_below"]) == (53, 53)
    assert sum(r.number is not None for r in census8.records) == 315
    assert sum(r.exact for r in census8.records) == 141


def test_census_records_are_values(census8):
    for r in census8.records[:200]:
        assert r.board().value() == r.game()
        assert r.left_stop == r.game().left_stop
    one = census8.records[0]
    assert one.cells == 1 and one.value == "0" and one.number == Fraction(0)
    d = census8.to_dicts()[5]
    assert set(d) >= {"shape", "value", "count", "low", "high", "exact"}


def test_to_pandas(census8):
    pd = pytest.importorskip("pandas")
    df = census8.to_pandas()
    assert len(df) == 1042 and isinstance(df, pd.DataFrame)


def test_cram_census():
    c = partizan.cram_census(6)
    assert all(r.nim >= 0 for r in c.records)
    for r in c.records[:40]:
        assert r.board().value() == partizan.nimber(r.nim)


def test_sylver_census_to_sixteen_gaps():
    c = partizan.sylver_census(16)
    # 583 irreducible positions with 2 to 16 gaps; median 269 closures at 16.
    assert c.totals["positions"] == 583 == len(c.positions)
    g16 = [g for g in c.by_genus if g["max_gaps"] == 16][0]
    assert g16["finishing_median_closures"] == 269.0
    assert c.totals["told"]["cheaper_than_finishing"] in range(0, 8)
    try:
        import pandas  # noqa: F401
    except ImportError:
        return
    assert len(c.to_pandas()) == 583


def test_sylver_play_and_semigroups():
    # <2, 3> leaves only the gap 1: no moves, lost for the player to move.
    p = partizan.sylver_play([2, 3])
    assert p.outcome == "loss" and p.winning_move is None
    assert partizan.semigroup_counts(10) == [1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204]
    with pytest.raises(ValueError):
        partizan.sylver_play([4, 6])


@pytest.mark.parametrize(
    "work",
    [
        lambda: partizan.cram_census(11),
        lambda: partizan.sylver_census(18),
        # (Domineering's own search now settles 5x6 in a few thousand nodes; a
        # Clobber 4x5 checkerboard is some 80,000.)
        lambda: partizan.Board("clobber", "xoxox|oxoxo|xoxox|oxoxo").outcome(),
    ],
    ids=["cram census", "sylver census", "outcome search"],
)
def test_long_computations_release_the_gil(work):
    import threading
    import time

    done = []
    t = threading.Thread(target=lambda: done.append(work()))
    ticks = 0
    t.start()
    while t.is_alive():
        ticks += 1
        time.sleep(0)
    t.join()
    assert done
    # with the GIL held for the whole run this loop could not run
    assert ticks > 100, ticks
