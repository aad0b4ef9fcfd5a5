"""The value atlas beyond one machine: the two shards of its top size run on
a local two-worker Dask distributed cluster (one task pinned to each
worker), each worker calling the ``partizan`` CLI on a shared directory;
``partizan atlas merge`` then combines the slices into one level, which must
equal, byte for byte, the level a single-process build writes.

Needs ``dask[distributed]`` (installed by .ci/python) and the ``partizan``
binary: ``$PARTIZAN_BIN``, else ``partizan`` on ``PATH``, else the clone's
``target/{release,debug}/partizan`` (the clone of this file, or ``$OLDPWD``,
where .ci/python was before it changed to its copy of the tests; .ci/run
has built the debug binary by then).
The test skips, saying why, when either is missing.
"""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

distributed = pytest.importorskip("distributed")

MAX_CELLS = 9
SHARDS = 2


def _binary():
    env = os.environ.get("PARTIZAN_BIN")
    if env:
        return env
    found = shutil.which("partizan")
    if found:
        return found
    # the source tree: this file's, or where .ci/python came from (it runs
    # the tests from a copy elsewhere, after `cd`, so $OLDPWD is the clone)
    here = pathlib.Path(__file__).resolve().parents
    roots = [here[3]] if len(here) > 3 else []
    if os.environ.get("OLDPWD"):
        roots.append(pathlib.Path(os.environ["OLDPWD"]))
    for root in roots:
        for profile in ("release", "debug"):
            p = root / "target" / profile / "partizan"
            if p.is_file():
                return str(p)
    return None


BIN = _binary()
pytestmark = pytest.mark.skipif(
    BIN is None, reason="no partizan binary (set PARTIZAN_BIN or build partizan-cli)"
)


def _run(*args):
    out = subprocess.run(
        [BIN, *args, "--json"], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _shard(binary, directory, k, n, max_cells):
    """One Dask task: shard k of n of the top size, on this worker."""
    out = subprocess.run(
        [
            binary,
            "atlas",
            "build",
            "--max-cells",
            str(max_cells),
            "--shard",
            f"{k}/{n}",
            "--threads",
            "1",
            "--dir",
            directory,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return {"worker": distributed.get_worker().address, "build": json.loads(out.stdout)}


def test_two_shards_on_a_two_worker_dask_cluster_merge_into_one_level(tmp_path):
    shared = tmp_path / "sharded"
    whole = tmp_path / "whole"
    # the sizes below the top, once, before the shards
    _run("atlas", "build", "--max-cells", str(MAX_CELLS - 1), "--dir", str(shared))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        workers = sorted(client.scheduler_info()["workers"])
        assert len(workers) == 2
        futures = [
            client.submit(
                _shard, BIN, str(shared), k, SHARDS, MAX_CELLS, workers=[workers[k]], pure=False
            )
            for k in range(SHARDS)
        ]
        results = client.gather(futures)
    # each shard ran on its own worker and valued its slice only
    assert sorted(r["worker"] for r in results) == workers
    top = [r["build"]["levels"][-1] for r in results]
    assert all(not t["loaded"] for t in top)
    assert sum(t["classes"] for t in top) == 1285  # A000105(9)
    for k in range(SHARDS):
        assert (shared / f"level-{MAX_CELLS:02}.shard-{k}-of-{SHARDS}.pzal").is_file()
    merged = _run(
        "atlas", "merge", "--cells", str(MAX_CELLS), "--shards", str(SHARDS), "--dir", str(shared)
    )
    assert merged["classes"] == 1285
    # the same level as one build in one process
    _run("atlas", "build", "--max-cells", str(MAX_CELLS), "--dir", str(whole))
    name = f"level-{MAX_CELLS:02}.pzal"
    assert (shared / name).read_bytes() == (whole / name).read_bytes()
    report = _run("atlas", "report", "--dir", str(shared))
    assert report["by_size"][str(MAX_CELLS)]["regions"] == 2542
    assert sum(report["by_size"][str(n)]["regions"] for n in range(1, 9)) == 1042
