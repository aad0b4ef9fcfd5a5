"""Boards of the built-in rulesets: values, regions, options, graphs, the
store, the GIL and Ctrl-C."""

import pickle
import signal
import subprocess
import sys
import threading
import time
from fractions import Fraction

import pytest

import partizan
from partizan import Board, game

FOUR_BY_FOUR = "....|....|....|...."


def test_value_of_a_board():
    v = partizan.value("domineering", "...|...")
    assert v == game("{2|-1/2}")
    assert (v.mean, v.temperature) == (Fraction(3, 4), Fraction(5, 4))
    assert partizan.value("domineering", "..") == -1  # Right's one domino
    assert partizan.value("domineering", ".|.") == 1
    assert Board("clobber", "xo").value() == game("*")


def test_every_ruleset_values_its_example():
    names = [r["name"] for r in partizan.rulesets()]
    # the registry's order: the five grid games first, then the newer ones
    assert names[:5] == ["domineering", "cram", "clobber", "konane", "amazons"]
    assert "toads-and-frogs" in names and len(names) == len(set(names)) >= 12
    for r in partizan.rulesets():
        if r["loopy"]:
            # Loopy rulesets are valued from their position graph.
            assert partizan.loopy_board(r["name"], r["example"])["outcome"]
            continue
        b = Board(r["name"], r["example"])
        assert str(b) == r["example"]
        assert b.outcome() == b.value().outcome


def test_savings_do_not_change_values():
    b = Board("domineering", "...|.#.|...")
    v = b.value()
    assert b.value(memo=False, decompose="off", symmetry=False) == v
    assert b.value(decompose="root") == v
    v2, stats = b.solve_with_stats()
    assert v2 == v and stats["nodes"] > 0 and stats["store_hits"] == 0
    with pytest.raises(ValueError):
        b.value(decompose="sideways")


def test_four_by_four_graph():
    # The essay's figure: 5,700 positions, 6,257,129 recursion-tree nodes.
    g = Board("domineering", FOUR_BY_FOUR).graph()
    assert g["positions"] == 5700
    assert g["tree_nodes"] == 6_257_129
    assert g["product"] == 5700 and len(g["regions"]) == 1


def test_staircase_wall_graph_is_a_product():
    # A staircase wall: 2,187 positions = 27 x 81.
    g = Board("domineering", ".#...|..#..|..#..|..#..").graph()
    assert g["positions"] == 2187
    assert sorted(r["positions"] for r in g["regions"]) == [27, 81]


def test_regions_and_options():
    b = Board("domineering", "..#..|..#..")
    parts = b.regions()
    assert [str(p) for p in parts] == ["..|..", "..|.."]
    assert sum((p.value() for p in parts), partizan.zero) == b.value()
    assert len(Board("domineering", "..|..").options("left")) == 2
    assert len(Board("domineering", "...").options("right")) == 2
    assert Board("domineering", "...").options("left") == []
    with pytest.raises(ValueError):
        b.options("up")


def test_bad_boards_and_rulesets():
    with pytest.raises(ValueError, match="ragged rows"):
        Board("domineering", "..|.")
    with pytest.raises(ValueError, match="unknown ruleset"):
        Board("chess", "..")
    assert Board("Kōnane", "xo.").ruleset == "konane"


def test_board_objects():
    b = Board("clobber", "xo.|.ox")
    assert repr(b) == "Board('clobber', 'xo.|.ox')"
    assert (b.width, b.height) == (3, 2)
    assert pickle.loads(pickle.dumps(b)) == b
    assert len({b, Board("clobber", "xo.|.ox")}) == 1
    svg = b._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 4


def test_store_shared_and_reused(tmp_path):
    path = tmp_path / "store.redb"
    b = Board("domineering", "....|....|....")
    with partizan.Store(str(path)) as store:
        v1, s1 = b.solve_with_stats(store)
        assert s1["store_added"] > 0
        v2, s2 = b.solve_with_stats(store)
        assert v2 == v1 and s2["store_hits"] > 0
        stats = store.stats()
        assert stats["regions"]["domineering"] == stats["total_regions"] > 0
    assert store.closed
    with pytest.raises(ValueError, match="closed"):
        b.value(store)
    # a new handle on the same file sees the values
    with partizan.Store(str(path)) as again:
        _, s3 = b.solve_with_stats(again)
        assert s3["store_hits"] > 0 and s3["store_added"] == 0


def test_store_handles_share_the_file_even_when_kept_open(tmp_path):
    path = str(tmp_path / "store.sqlite")
    b = Board("domineering", "...|...|...")
    one, two = partizan.Store(path), partizan.Store(path)
    # by default each computation opens the file and lets go of it after
    assert b.value(one) == b.value(two) == b.value()
    held = partizan.Store(path, keep_open=True)
    assert held.keep_open and not one.keep_open
    # the store takes several readers and writers at once (SQLite WAL):
    # a handle kept open does not lock the others out
    c = Board("domineering", "....|....|....")
    assert c.value(held) == c.value(one)
    _, stats = c.solve_with_stats(one)
    assert stats["store_hits"] > 0
    held.close()
    _, stats = b.solve_with_stats(one)
    assert stats["store_hits"] > 0


def test_gil_is_released_during_a_search():
    b = Board("domineering", ".....|.....|.....|.....|.....")
    done = []
    t = threading.Thread(target=lambda: done.append(b.value(memo=True)))
    ticks = 0
    t.start()
    while t.is_alive():
        ticks += 1
        time.sleep(0)
    t.join()
    assert done and done[0] == b.value()
    # with the GIL held for the whole search this loop could not run
    assert ticks > 100, ticks


CHILD = """
import signal, sys, time, partizan
# Python's own Ctrl-C handler, as an interactive Python has it, even when this
# test runs as a background job (which starts with SIGINT ignored).
signal.signal(signal.SIGINT, signal.default_int_handler)
big = partizan.Board("domineering", "\\n".join(["......."] * 7))
class Slow(partizan.Ruleset):
    # Domineering on frozensets of cells, written in Python
    def left_options(self, cells):
        return [cells - {(r, c), (r + 1, c)} for (r, c) in cells if (r + 1, c) in cells]

    def right_options(self, cells):
        return [cells - {(r, c), (r, c + 1)} for (r, c) in cells if (r, c + 1) in cells]


cells = frozenset((r, c) for r in range(7) for c in range(7))


def certificate_check():
    # 6 x 8 Domineering's proof (about 20 MB, a few seconds to write) takes
    # seconds to replay: long enough to be stopped.
    import os, tempfile
    path = os.path.join(tempfile.mkdtemp(), "d68.cert")
    partizan.Board("domineering", "|".join(["........"] * 6)).outcome(certificate=path)
    return lambda: partizan.check_certificate(path)


work = {
    "value": big.value,
    "graph": big.graph,
    "ruleset": lambda: Slow().value(cells),
    "cram census": lambda: partizan.cram_census(15),
    "sylver census": lambda: partizan.sylver_census(30),
    # 9 x 9: 8 x 8 is decided in under half a second on a fast machine.
    "outcome search": lambda: partizan.Board("domineering", "|".join(["........."] * 9)).outcome(),
    "certificate check": certificate_check,
}[sys.argv[1]]
if sys.argv[1] == "certificate check":
    work = work()
print("ready", flush=True)
start = time.monotonic()
try:
    work()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted after %.2f s" % (time.monotonic() - start), flush=True)
    assert partizan.value("domineering", "..") == -1  # still usable
    assert partizan.Board("domineering", "..").outcome() == "R"
    assert partizan.cram_census(3).records
    print("usable", flush=True)
"""


@pytest.mark.parametrize(
    "work",
    [
        "value",
        "graph",
        "ruleset",
        "cram census",
        "sylver census",
        "outcome search",
        "certificate check",
    ],
)
def test_ctrl_c_stops_a_long_computation(work):
    # A real SIGINT sent to a child process running 7 x 7 Domineering (far
    # beyond what finishes in the test's time): it must stop with
    # KeyboardInterrupt within the timeout, and the library must still work.
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, work], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert "interrupted after" in out and "usable" in out, out
    assert proc.returncode == 0
