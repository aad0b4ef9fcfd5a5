"""partizan.atlas_build_cluster: the top size of an atlas build as shard
tasks on a local Dask cluster (worker processes, as on a real cluster),
merged into the level a single-process build writes, byte for byte; a
worker killed in the middle of a shard costs that shard only. The same
from the command line (``partizan atlas build --cluster ADDRESS``, which
runs ``python -m partizan.atlas_cluster``): the same files as a local
build, and every level read back and checked by the binary.

Needs ``dask[distributed]`` (installed by .ci/python); skipped without it.
The command-line tests need the ``partizan`` binary, found as
test_dask_shards.py finds it (skipped, saying so, without it).
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import partizan

distributed = pytest.importorskip("distributed")


def _files(d, cells):
    names = [f"level-{cells:02}.pzal", f"level-{cells:02}.summary.pzal", f"level-{cells:02}.index.pzal"]
    return {n: (d / n).read_bytes() for n in names}


def _log(d):
    path = d / partizan.atlas_cluster.LOG_NAME
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _cluster():
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )


def test_three_shards_on_two_workers_give_the_level_of_one_build(tmp_path):
    cells, shards = 10, 3
    shared, whole = tmp_path / "shared", tmp_path / "whole"
    seen = []
    with _cluster() as cluster, distributed.Client(cluster) as client:
        workers = {w["id"] for w in client.scheduler_info()["workers"].values()}
        got = partizan.atlas_build_cluster(
            client, cells, shards, shared, on_progress=lambda d, n, r: seen.append((d, n)),
            max_memory_mb=64000,  # passed to each task; roomy here
        )
        assert len(workers) == 2
    assert got["merged"]["classes"] == 4655  # A000105(10)
    # the workers' word checked: 64 random classes of each shard valued
    # again by the board engine before the merge wrote anything
    assert got["merged"]["verified"] == 64 * shards
    assert sum(s["classes"] for s in got["shards"]) == 4655
    assert [s["shard"] for s in got["shards"]] == [0, 1, 2]
    assert not any(s["skipped"] for s in got["shards"])
    assert seen == [(1, 3), (2, 3), (3, 3)]
    # the shards ran in the workers' processes, not here
    assert all(s["pid"] != os.getpid() for s in got["shards"])
    # the shard files are gone, the level is the one a single build writes
    assert not list(shared.glob("*.shard-*"))
    partizan.atlas_build(cells, whole)
    assert _files(shared, cells) == _files(whole, cells)
    starts = [r for r in _log(shared) if r["event"] == "start" and r["task"] == "shard"]
    assert sorted(r["shard"] for r in starts) == [0, 1, 2]
    # a second call finds the level there and does nothing
    with _cluster() as cluster, distributed.Client(cluster) as client:
        again = partizan.atlas_build_cluster(client, cells, shards, shared)
    assert again["merged"] is None and again["shards"] == []


def test_a_worker_killed_in_a_shard_loses_that_shard_only(tmp_path):
    cells, shards = 13, 2
    shared, whole = tmp_path / "shared", tmp_path / "whole"
    killed = {}

    def killer():
        # the first shard to start: its worker process is killed at once
        deadline = time.time() + 300
        while time.time() < deadline and not killed:
            for r in _log(shared):
                if r["event"] == "start" and r["task"] == "shard":
                    os.kill(r["pid"], signal.SIGKILL)
                    killed.update(r)
                    return
            time.sleep(0.01)

    with _cluster() as cluster, distributed.Client(cluster) as client:
        t = threading.Thread(target=killer)
        t.start()
        got = partizan.atlas_build_cluster(client, cells, shards, shared)
        t.join()
    assert killed, "no shard started"
    log = _log(shared)
    starts = [r for r in log if r["event"] == "start" and r["task"] == "shard"]
    done = [r for r in log if r["event"] == "done" and r["task"] == "shard"]
    victim = killed["shard"]
    # the killed shard started twice (the second time in another process),
    # the other once; each finished once
    runs = [r["pid"] for r in starts if r["shard"] == victim]
    assert len(runs) == 2 and runs[0] == killed["pid"] != runs[1], log
    assert [r["shard"] for r in starts].count(1 - victim) == 1, log
    assert sorted(r["shard"] for r in done) == [0, 1], log
    assert not any(r["pid"] == killed["pid"] for r in done), log
    assert got["merged"]["classes"] == 238591  # A000105(13)
    partizan.atlas_build(cells, whole)
    assert _files(shared, cells) == _files(whole, cells)


def test_bad_arguments_are_refused_before_any_task():
    with pytest.raises(ValueError, match="max_cells"):
        partizan.atlas_build_cluster(None, 22, 2, "x")
    with pytest.raises(ValueError, match="shards"):
        partizan.atlas_build_cluster(None, 9, 0, "x")
    with pytest.raises(ValueError, match="not both"):
        partizan.atlas_build(9, "x", shards=2, shard=(0, 2))


def _bin():
    from test_dask_shards import BIN  # the binary the atlas shard test finds

    if BIN is None:
        pytest.skip("no partizan binary (set PARTIZAN_BIN or build partizan-cli)")
    return BIN


def _level_files(d):
    """Every level, summary and index file in ``d``, by name."""
    return {p.name: p.read_bytes() for p in sorted(d.glob("level-*"))}


def _cli(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=600)


def test_the_command_line_builds_on_the_cluster_and_reads_it_back(tmp_path):
    binary = _bin()
    shared, whole = tmp_path / "shared", tmp_path / "whole"
    cluster_args = ["atlas", "build", "--max-cells", "10", "--shards", "3", "--no-store",
                    "--dir", str(shared), "--python", sys.executable]
    with _cluster() as cluster:
        address = cluster.scheduler_address
        out = _cli(binary, *cluster_args, "--cluster", address, "--json")
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        # a second run finds the level there, and reads every level back
        again = _cli(binary, *cluster_args, "--cluster", address, "--progress=1")
        assert again.returncode == 0, again.stderr
    levels = got["levels"]
    assert [lv["cells"] for lv in levels] == list(range(1, 11))
    assert all(lv["loaded"] for lv in levels), levels  # read back, not computed here
    assert levels[-1]["classes"] == 4655  # A000105(10)
    assert got["cluster"]["address"] == address
    assert got["cluster"]["built"] == list(range(1, 11))
    report = got["cluster"]["report"]
    assert report["merged"]["classes"] == 4655
    assert [sh["shard"] for sh in report["shards"]] == [0, 1, 2]
    assert sum(sh["classes"] for sh in report["shards"]) == 4655
    starts = [r for r in _log(shared) if r["event"] == "start" and r["task"] == "shard"]
    assert sorted(r["shard"] for r in starts) == [0, 1, 2]
    assert not list(shared.glob("*.shard-*"))
    # the files a local build of the same size writes, byte for byte
    local = _cli(binary, "atlas", "build", "--max-cells", "10", "--no-store",
                 "--dir", str(whole), "--json")
    assert local.returncode == 0, local.stderr
    mine, theirs = _level_files(shared), _level_files(whole)
    # level, summary, their seals and index x 10
    assert len(theirs) == 50 and sorted(mine) == sorted(theirs)
    for name in theirs:
        assert mine[name] == theirs[name], name
    # the second run: nothing built, every level loaded, the shards relayed
    assert "found the level there already" in again.stdout, again.stdout
    assert "every level read back and checked here" in again.stdout, again.stdout
    rows = [line.split() for line in again.stdout.splitlines() if line[:5].strip().isdigit()]
    assert [int(r[0]) for r in rows] == list(range(1, 11)), again.stdout
    assert {r[-1] for r in rows} == {"loaded"}, again.stdout
    assert "Dask cluster at" in again.stderr, again.stderr


def test_a_damaged_level_from_the_cluster_is_refused(tmp_path):
    binary = _bin()
    shared = tmp_path / "shared"
    args = ["atlas", "build", "--max-cells", "8", "--shards", "2", "--no-store",
            "--dir", str(shared), "--python", sys.executable]
    with _cluster() as cluster:
        first = _cli(binary, *args, "--cluster", cluster.scheduler_address)
        assert first.returncode == 0, first.stderr
        # one bit of a level below the top flipped, as a worker's disk might
        level = shared / "level-06.pzal"
        data = bytearray(level.read_bytes())
        data[len(data) // 2] ^= 1
        level.write_bytes(bytes(data))
        out = _cli(binary, *args, "--cluster", cluster.scheduler_address)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "level-06" in out.stderr or "level 6" in out.stderr, out.stderr


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path):
    binary = _bin()
    out = _cli(binary, "atlas", "build", "--max-cells", "6", "--shards", "2",
               "--cluster", "tcp://127.0.0.1:9", "--python", sys.executable,
               "--no-store", "--dir", str(tmp_path))
    assert out.returncode == 2, out.stderr
    assert "cannot reach the Dask scheduler" in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not list(tmp_path.glob("level-*"))
