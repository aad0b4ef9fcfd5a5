"""partizan.atlas_build_cluster: the top size of an atlas build as shard
tasks on a local Dask cluster (worker processes, as on a real cluster),
merged into the level a single-process build writes, byte for byte; a
worker killed in the middle of a shard costs that shard only.

Needs ``dask[distributed]`` (installed by .ci/python); skipped without it.
"""

import json
import os
import signal
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
            client, cells, shards, shared, on_progress=lambda d, n, r: seen.append((d, n))
        )
        assert len(workers) == 2
    assert got["merged"]["classes"] == 4655  # A000105(10)
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
        partizan.atlas_build_cluster(None, 19, 2, "x")
    with pytest.raises(ValueError, match="shards"):
        partizan.atlas_build_cluster(None, 9, 0, "x")
    with pytest.raises(ValueError, match="not both"):
        partizan.atlas_build(9, "x", shards=2, shard=(0, 2))
