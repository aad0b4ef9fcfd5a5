"""The value atlas on a Dask cluster: the top size of a build as shard
tasks, then one streaming merge.

``atlas_build_cluster(client, max_cells, shards, dir)`` runs on the
workers of a ``distributed.Client``:

1. one task that builds (or resumes) the levels below ``max_cells``;
2. one task per shard of the top size (``atlas_build(..., shard=(k, n))``:
   the classes grown from the k-th of n slices of the size below, disjoint
   and together the whole level), a shard whose file is already there
   skipped, so a rerun after any failure does only what is missing;
3. one task that merges the shard files into the level, its summary and
   its index by streaming (every shard file checked as it is read, and 64
   classes of each, drawn at random, valued again by the board engine
   before anything is written: a worker that lies about values is caught
   with a probability that grows with how much it lies) and removes the
   shard files.

``dir`` must be a directory every worker reads and writes (a shared file
system); the client itself never reads it. A worker killed in the middle
of a shard loses that shard only: the scheduler sends the task to another
worker (up to its ``allowed-failures``, 3 by default), and a shard file is
written under a temporary name and renamed, so no half shard is ever
taken for a whole one. Every task appends a JSON line to
``dir/atlas-cluster.log`` when it starts and when it ends (host, process,
seconds, classes): where each shard ran, and how often.

``python -m partizan.atlas_cluster ADDRESS --max-cells N --shards K --dir
DIR`` does the same from the command line (``partizan atlas build
--cluster ADDRESS`` starts it): it connects to the scheduler at ``ADDRESS``
and writes one JSON line on standard output per step (``{"event":
"connected" | "below" | "shard" | "done" | "error", ...}``), the last one
``"done"`` with the report, or ``"error"`` with a one-line reason (a
scheduler it cannot reach, a cluster without workers, ``distributed`` not
installed, a task that failed) and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from . import _partizan

__all__ = ["atlas_build_cluster", "main", "LOG_NAME"]

LOG_NAME = "atlas-cluster.log"


def _shard_file(directory: str, cells: int, k: int, n: int) -> Path:
    return Path(directory) / f"level-{cells:02}.shard-{k}-of-{n}.pzal"


def _log(directory: str, **record: Any) -> None:
    record.update(host=socket.gethostname(), pid=os.getpid(), time=time.time())
    with open(Path(directory) / LOG_NAME, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")


def _below_task(
    directory: str, cells: int, threads: Optional[int], max_memory_mb: Optional[int] = None
) -> Dict[str, Any]:
    """The levels to ``cells`` (resumed from what is there)."""
    _log(directory, event="start", task="below", cells=cells)
    t0 = time.time()
    out = _partizan.atlas_build(cells, directory, threads=threads, max_memory_mb=max_memory_mb)
    _log(directory, event="done", task="below", cells=cells, seconds=time.time() - t0)
    return out


def _shard_task(
    directory: str,
    cells: int,
    k: int,
    n: int,
    threads: Optional[int],
    max_memory_mb: Optional[int] = None,
) -> Dict[str, Any]:
    """Shard ``k`` of ``n`` of size ``cells``, unless its file is there."""
    here = {"shard": k, "host": socket.gethostname(), "pid": os.getpid()}
    if _shard_file(directory, cells, k, n).is_file():
        _log(directory, event="skipped", task="shard", cells=cells, shard=k, shards=n)
        return {**here, "skipped": True}
    _log(directory, event="start", task="shard", cells=cells, shard=k, shards=n)
    t0 = time.time()
    out = _partizan.atlas_build(
        cells, directory, threads=threads, shard=(k, n), max_memory_mb=max_memory_mb
    )
    top = out["levels"][-1]
    seconds = time.time() - t0
    _log(
        directory,
        event="done",
        task="shard",
        cells=cells,
        shard=k,
        shards=n,
        classes=top["classes"],
        seconds=seconds,
    )
    return {**here, "skipped": False, "classes": top["classes"], "seconds": seconds}


def _merge_task(directory: str, cells: int, n: int, keep_shards: bool) -> Dict[str, Any]:
    """The shard files merged into the level; then removed (unless kept)."""
    _log(directory, event="start", task="merge", cells=cells, shards=n)
    t0 = time.time()
    out = _partizan.atlas_merge(cells, n, directory)
    if not keep_shards:
        for k in range(n):
            _shard_file(directory, cells, k, n).unlink(missing_ok=True)
    _log(directory, event="done", task="merge", cells=cells, shards=n, seconds=time.time() - t0)
    return out


def atlas_build_cluster(
    client: Any,
    max_cells: int,
    shards: int,
    dir: Optional[os.PathLike] = None,
    *,
    threads: Optional[int] = 1,
    below_threads: Optional[int] = None,
    retries: int = 2,
    keep_shards: bool = False,
    max_memory_mb: Optional[int] = None,
    on_progress: Optional[Callable[[int, int, Dict[str, Any]], None]] = None,
    on_below: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> Dict[str, Any]:
    """Build the atlas to ``max_cells`` in ``dir`` (a directory every worker
    of ``client``, a ``distributed.Client``, shares), the top size in
    ``shards`` shard tasks of ``threads`` threads each (give the cluster's
    workers as many threads as ``threads``), the sizes below in one task
    of ``below_threads`` (default: every core of its worker).

    A level already in ``dir`` is not built again; shards already there are
    skipped, so after a failure the same call resumes. ``retries`` is how
    often a task that raised is tried again (a killed worker's task is
    rescheduled by the scheduler on its own). ``on_progress(done, shards,
    result)`` is called as each shard ends, ``on_below(result)`` when the
    sizes below are there. ``max_memory_mb`` is each task's budget for
    its worker process's memory: a task past it raises ``MemoryError``
    (the worker lives on; what the task finished stays in ``dir``).

    Returns ``{"dir", "cells", "below", "shards": [{"shard", "skipped",
    "classes", "seconds", "host", "pid"}, ...], "merged": {"cells",
    "classes", "new_values"}}`` (``"merged"`` is ``None`` when the level was
    there already).
    """
    try:
        import distributed
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError(
            "atlas_build_cluster needs dask.distributed: pip install 'dask[distributed]'"
        ) from e
    if not 1 <= max_cells <= 21:
        raise ValueError(f"atlas: max_cells must be 1 to 21, not {max_cells}")
    if shards < 1:
        raise ValueError(f"atlas: shards must be at least 1, not {shards}")
    if dir is None:
        env = os.environ.get("PARTIZAN_ATLAS")
        if not env:
            raise ValueError("atlas: give dir (a directory every worker shares)")
        dir = env
    directory = str(Path(dir).resolve())
    Path(directory).mkdir(parents=True, exist_ok=True)
    report: Dict[str, Any] = {"dir": directory, "cells": max_cells, "below": None}
    if (Path(directory) / f"level-{max_cells:02}.pzal").is_file():
        return {**report, "shards": [], "merged": None}
    tag = f"partizan-atlas-{max_cells}-{shards}-{time.time_ns()}"
    if max_cells > 1:
        report["below"] = client.submit(
            _below_task,
            directory,
            max_cells - 1,
            below_threads,
            max_memory_mb,
            key=f"{tag}-below",
            pure=False,
            retries=retries,
        ).result()
        if on_below is not None:
            on_below(report["below"])
    futures = [
        client.submit(
            _shard_task,
            directory,
            max_cells,
            k,
            shards,
            threads,
            max_memory_mb,
            key=f"{tag}-shard-{k}",
            pure=False,
            retries=retries,
        )
        for k in range(shards)
    ]
    results: List[Dict[str, Any]] = []
    # this client's loop: as_completed would look for a default client
    for fut in distributed.as_completed(futures, loop=client.loop):
        r = fut.result()
        results.append(r)
        if on_progress is not None:
            on_progress(len(results), shards, r)
    report["shards"] = sorted(results, key=lambda r: r["shard"])
    report["merged"] = client.submit(
        _merge_task,
        directory,
        max_cells,
        shards,
        keep_shards,
        key=f"{tag}-merge",
        pure=False,
        retries=retries,
    ).result()
    return report


def _say(obj: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m partizan.atlas_cluster ADDRESS --max-cells N --shards K
    --dir DIR``: :func:`atlas_build_cluster` on the Dask scheduler at
    ``ADDRESS``, a JSON line per step on standard output (see the module's
    text). Returns the exit code: 0 when the level is there, 2 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m partizan.atlas_cluster",
        description="Build the value atlas on a Dask cluster (a JSON line per step).",
    )
    parser.add_argument("address", help="the scheduler, e.g. tcp://HOST:8786")
    parser.add_argument("--max-cells", type=int, required=True)
    parser.add_argument("--shards", type=int, required=True)
    parser.add_argument("--dir", required=True, help="a directory every worker shares")
    parser.add_argument("--threads", type=int, default=1, help="threads of each shard task")
    parser.add_argument("--below-threads", type=int, default=None)
    parser.add_argument("--keep-shards", action="store_true")
    parser.add_argument("--timeout", default="20s", help="how long to try the scheduler")
    args = parser.parse_args(argv)

    def fail(why: str) -> int:
        _say({"event": "error", "error": _one_line(why)})
        return 2

    try:
        from distributed import Client
    except ImportError:
        return fail("needs dask.distributed: pip install 'dask[distributed]'")
    try:
        client = Client(args.address, timeout=args.timeout, set_as_default=False)
    except Exception as e:  # noqa: BLE001 - said in one line
        return fail(f"cannot reach the Dask scheduler at {args.address}: {type(e).__name__}: {e}")
    try:
        slots = sum(client.nthreads().values())
        if slots < 1:
            return fail(f"the Dask cluster at {args.address} has no workers")
        _say({"event": "connected", "address": args.address, "threads": slots})
        report = atlas_build_cluster(
            client,
            args.max_cells,
            args.shards,
            args.dir,
            threads=args.threads,
            below_threads=args.below_threads,
            keep_shards=args.keep_shards,
            on_progress=lambda done, n, r: _say(
                {"event": "shard", "done": done, "shards": n, **r}
            ),
            on_below=lambda r: _say({"event": "below", **r}),
        )
    except Exception as e:  # noqa: BLE001 - a failed task or bad arguments
        return fail(f"{type(e).__name__}: {e}")
    finally:
        client.close()
    _say({"event": "done", "report": report})
    return 0


if __name__ == "__main__":
    # The package's copy of this module, so that the tasks reach the
    # workers as ``partizan.atlas_cluster``'s functions, not ``__main__``'s.
    from partizan.atlas_cluster import main as _main

    sys.exit(_main())
