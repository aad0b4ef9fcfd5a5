"""The value atlas from Python: built into a directory, queried and
summarised through the same library calls as ``partizan atlas``.

Oracles: the class counts are the free-polyomino counts (A000105); the
regions to eight cells are the census's 1,042; the regions found by value
add up to the report's per-size kind counts; the sharded build gives the
same tables as the plain one.
"""

import pytest

import partizan

A000105 = [1, 1, 2, 5, 12, 35, 108, 369, 1285]


@pytest.fixture(scope="module")
def atlas_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("atlas")
    built = partizan.atlas_build(9, str(d), threads=2)
    assert [lv["classes"] for lv in built["levels"]] == A000105
    assert not any(lv["loaded"] for lv in built["levels"])
    return d


def test_build_resumes_from_the_directory(atlas_dir):
    again = partizan.atlas_build(9, str(atlas_dir))
    assert all(lv["loaded"] for lv in again["levels"])


def test_summary_tables(atlas_dir):
    s = partizan.atlas_summary(dir=str(atlas_dir))
    assert s["max_cells"] == 9
    regions = sum(s["by_size"][str(n)]["regions"] for n in range(1, 9))
    assert regions == 1042, "the census's regions to eight cells"
    # no region to nine cells is hotter than 2
    assert s["hotter_than_two"] == {str(n): False for n in range(1, 10)}
    assert len(partizan.atlas_summary(5, hottest=3, dir=str(atlas_dir))["hottest"]) <= 3


def test_find_agrees_with_the_summary(atlas_dir):
    s = partizan.atlas_summary(dir=str(atlas_dir))
    star = partizan.atlas_find("*", max_cells=7, limit=5, dir=str(atlas_dir))
    want = sum(
        s["by_size"][str(n)]["nimbers"].get("1", 0) for n in range(1, 8)
    )
    assert star["total"] == want > 0
    assert star["max_cells"] == 7
    assert 0 < len(star["regions"]) <= 5
    assert all(r["value"] == "*" for r in star["regions"])
    cells = [r["cells"] for r in star["regions"]]
    assert cells == sorted(cells), "smallest sizes first"
    tiny = partizan.atlas_find(kind="tiny", dir=str(atlas_dir))
    assert tiny["regions"][0]["board"] == "..|..|..|.."
    hot = partizan.atlas_find(min_temperature="3/2", limit=0, dir=str(atlas_dir))
    assert hot["total"] > 0 and hot["regions"] == []


def test_shards_give_the_same_tables(atlas_dir, tmp_path):
    built = partizan.atlas_build(9, str(tmp_path), shards=3)
    assert built["levels"][-1]["classes"] == 1285
    assert partizan.atlas_summary(dir=str(tmp_path)) == partizan.atlas_summary(
        dir=str(atlas_dir)
    )


def test_a_level_without_its_seal_is_checked_and_sealed_before_it_is_believed(tmp_path):
    partizan.atlas_build(7, str(tmp_path))
    want = partizan.atlas_summary(dir=str(tmp_path))
    (tmp_path / "level-07.pzal.seal").unlink()
    with pytest.raises(RuntimeError, match="not believed"):
        partizan.atlas_summary(dir=str(tmp_path))
    done = partizan.atlas_seal(verify=1000, dir=str(tmp_path))
    assert done["sealed"] == [7]
    # every one of the 108 classes of 7 cells valued again by the board engine
    assert done["levels"][-1]["verified"] == 108
    assert partizan.atlas_summary(dir=str(tmp_path)) == want
    assert partizan.atlas_seal(dir=str(tmp_path))["sealed"] == []


def test_a_process_without_a_key_file_refuses_to_seal(tmp_path):
    """An interpreter that can keep no key file (no home, no PARTIZAN_KEY)
    seals nothing: its seals would be refused by every later process."""
    import os
    import subprocess
    import sys

    partizan.atlas_build(4, str(tmp_path))
    (tmp_path / "level-04.pzal.seal").unlink()
    env = {k: v for k, v in os.environ.items()
           if k not in ("HOME", "XDG_DATA_HOME", "APPDATA", "PARTIZAN_KEY")}
    code = (
        "import partizan, sys\n"
        "try:\n"
        f"    partizan.atlas_seal(dir={str(tmp_path)!r})\n"
        "except RuntimeError as e:\n"
        "    print(e); sys.exit(3)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "cannot seal" in run.stdout and "PARTIZAN_KEY" in run.stdout
    assert not (tmp_path / "level-04.pzal.seal").exists()


def test_bad_requests(atlas_dir, tmp_path):
    with pytest.raises(ValueError, match="value"):
        partizan.atlas_find(dir=str(atlas_dir))
    with pytest.raises(ValueError, match="kind"):
        partizan.atlas_find(kind="warm", dir=str(atlas_dir))
    with pytest.raises(ValueError, match="asked"):
        partizan.atlas_find("*", max_cells=12, dir=str(atlas_dir))
    # shapes reach 21 cells; 22 is refused before anything is built
    with pytest.raises(ValueError, match="21"):
        partizan.atlas_build(22, str(tmp_path))
    with pytest.raises(ValueError):
        partizan.atlas_summary(dir=str(tmp_path / "empty"))


def _resident_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 >> 20


def test_a_memory_budget_stops_the_build_and_keeps_what_it_finished(tmp_path):
    """``max_memory_mb``: a build that grows past it stops between chunks
    with ``MemoryError`` (no killed interpreter), the levels it finished
    kept; a rerun resumes from them."""
    with pytest.raises(ValueError, match="max_memory_mb"):
        partizan.atlas_build(5, str(tmp_path), max_memory_mb=0)
    budget = _resident_mb() + 40
    with pytest.raises(MemoryError, match="max_memory_mb") as e:
        # to 16 cells takes gigabytes; 40 MB more than now is spent early
        partizan.atlas_build(16, str(tmp_path), threads=2, max_memory_mb=budget)
    assert "rerun resumes" in str(e.value)
    kept = sorted(p.name for p in tmp_path.glob("level-??.pzal"))
    assert "level-08.pzal" in kept and "level-16.pzal" not in kept, kept
    again = partizan.atlas_build(9, str(tmp_path))
    assert all(lv["loaded"] for lv in again["levels"]), again
