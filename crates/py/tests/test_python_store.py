"""Games defined in Python keep their values in the persistent store: a
second process reads them back without calling the options functions, a
new rules version recomputes, and a damaged entry is never believed."""

import json
import sqlite3
import subprocess
import sys
from fractions import Fraction

import pytest

import partizan
from partizan import stable_key

# A child process: Toads and Frogs with counted option calls, valued
# through the store named on the command line; prints value and counts.
CHILD = r"""
import json, sys, partizan

calls = 0

class Toads(partizan.Ruleset):
    name = "toads-test"
    version = sys.argv[2]

    def left_options(self, row):
        global calls
        calls += 1
        return [row[:i] + ".T" + row[i + 2:] for i in range(len(row) - 1) if row[i:i + 2] == "T."] + [
            row[:i] + ".FT" + row[i + 3:] for i in range(len(row) - 2) if row[i:i + 3] == "TF."]

    def right_options(self, row):
        global calls
        calls += 1
        return [row[:i] + "F." + row[i + 2:] for i in range(len(row) - 1) if row[i:i + 2] == ".F"] + [
            row[:i] + "FT." + row[i + 3:] for i in range(len(row) - 2) if row[i:i + 3] == ".TF"]

    def components(self, row):
        return row.split("#")

with partizan.Store(sys.argv[1]) as store:
    r = Toads()
    g = r.value(sys.argv[3], store=store)
print(json.dumps({"value": str(g), "calls": calls, "stats": r.stats()}))
"""

BOARD = "TT..FF#T.F.TF#TTF..F"


def child(store, version="1", board=BOARD):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(store), version, board],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def built_in(board):
    return sum((partizan.value("toads", part) for part in board.split("#")), partizan.zero)


def test_a_second_process_reads_the_value_back(tmp_path):
    store = tmp_path / "store.redb"
    first = child(store)
    assert first["calls"] > 0 and first["stats"]["store_added"] >= 4  # root and 3 parts
    assert partizan.game(first["value"]) == built_in(BOARD)
    again = child(store)
    assert again["calls"] == 0, again  # the options functions were never called
    assert again["value"] == first["value"]
    assert again["stats"]["store_hits"] == 1 and again["stats"]["store_added"] == 0
    # a part seen before, in a new board: read from the store, the rest computed
    mixed = child(store, board="T.F.TF#T..F")
    assert mixed["stats"]["store_hits"] == 1
    assert partizan.game(mixed["value"]) == built_in("T.F.TF#T..F")
    # the CLI's store: the entries are there, under the documented keys
    with partizan.Store(store) as s:
        assert s.stats()["census_entries"] >= 6


def test_a_new_rules_version_is_recomputed(tmp_path):
    store = tmp_path / "store.redb"
    child(store, version="1")
    v2 = child(store, version="2")
    assert v2["calls"] > 0 and v2["stats"]["store_hits"] == 0


def test_a_damaged_entry_is_recomputed_not_believed(tmp_path):
    store = tmp_path / "store.redb"
    board = "T.F.TF"
    first = child(store, board=board)
    # Flip one byte of every stored Python value, behind the store's back.
    db = sqlite3.connect(store)
    rows = db.execute("SELECT key, value FROM census WHERE key LIKE 'python/%'").fetchall()
    assert rows
    for key, value in rows:
        value = bytearray(value)
        value[len(value) // 2] ^= 0x01
        db.execute("UPDATE census SET value = ? WHERE key = ?", (bytes(value), key))
    db.commit()
    db.close()
    again = child(store, board=board)
    assert again["calls"] > 0 and again["stats"]["store_rejected"] >= 1
    assert again["value"] == first["value"]
    # ...and the fresh value replaced the damaged row
    assert child(store, board=board)["calls"] == 0


def test_store_needs_a_name_version_and_stable_keys(tmp_path):
    nim = partizan.ruleset(lambda n: range(n), lambda n: range(n))
    with partizan.Store(tmp_path / "s.redb") as store:
        with pytest.raises(ValueError, match="name"):
            nim.value(3, store=store)
        named = partizan.ruleset(lambda n: range(n), lambda n: range(n), name="nim", version="1")
        assert named.value(4, store=store) == partizan.nimber(4)
        bad = partizan.ruleset(lambda n: [], lambda n: [], name="Bad Name", version="1")
        with pytest.raises(ValueError, match="name"):
            bad.value(0, store=store)
        odd = partizan.ruleset(lambda p: [], lambda p: [], name="odd", version="1")
        with pytest.raises(TypeError, match="key"):
            odd.value(object(), store=store)
        keyed = partizan.ruleset(
            lambda p: [], lambda p: [], name="keyed", version="1", key=lambda p: b"the-one"
        )
        assert keyed.value(object(), store=store) == 0


def test_stable_keys():
    assert stable_key(frozenset({(1, 2), (0, 1)})) == stable_key(frozenset({(0, 1), (1, 2)}))
    keys = [stable_key(p) for p in [1, "1", b"1", (1,), [1], True, None, Fraction(1, 2), (1, 2), ((1,), 2)]]
    assert len(set(keys)) == len(keys)
    # the same in another process (string hashing is randomised per process)
    code = "import partizan; print(partizan.stable_key(frozenset({'ab', 'cd', 'ef', ('x', 1)})).hex())"
    outs = {subprocess.check_output([sys.executable, "-c", code], text=True) for _ in range(3)}
    assert len(outs) == 1
