"""``python -m partizan.jobs_bridge tcp://HOST:8786``: the bridge between
``partizan outcome RULESET BOARD --cluster tcp://HOST:8786`` and a Dask
distributed cluster.

The command line's master starts this module and speaks ``partizan
job-worker``'s lines to it: a job per line in, an answer per line out. The
bridge connects to the scheduler, says it is ready and how many jobs it
takes at once (the cluster's worker threads), submits each job as a task
(``partizan.run_job`` on the job's line, its table capped at
``--max-table-mb``, default 1024, so the cluster's workers need the
``partizan`` package), and writes each answer as its task ends, whatever
the order. A ``{"cancel": ID}`` line cancels a job's task. Dask reruns the
task of a worker that died; a task that fails is answered as a failure.
The master checks every answer's certificate itself.

The ready line offers progress (``"progress": true``): a job line that
asks for it (``"progress_ms": MS``) runs as a task that logs the nodes
of its search every MS milliseconds as a Dask event under this bridge's
own topic, and the bridge writes each as ``{"progress": ID, "nodes": N}``
while the job is out (shown by the master, never believed).

A scheduler it cannot reach, or a cluster without workers, is said on the
first line (``{"ready": false, "why": ...}``) and the bridge exits 2.
"""

from __future__ import annotations

import json
import sys
import threading
import uuid


def _say(out, lock, obj) -> None:
    line = obj if isinstance(obj, str) else json.dumps(obj)
    with lock:
        out.write(line + "\n")
        out.flush()


def _telling_task(line: str, cap: int, every_ms: int, topic: str) -> str:
    """A job's task that logs its nodes so far as Dask events on ``topic``
    (``{"job": ID, "nodes": N}``) while it searches; the answer's line."""
    from distributed import get_worker

    from . import _partizan

    try:
        job = json.loads(line).get("id")
        worker = get_worker()
    except (ValueError, AttributeError):
        return _partizan.run_job(line, cap)

    def tell(nodes: int) -> None:
        try:
            worker.log_event(topic, {"job": job, "nodes": nodes})
        except Exception:  # noqa: BLE001 - progress is only shown
            pass

    return _partizan.run_job(line, cap, tell=tell, every_ms=every_ms)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out, lock = sys.stdout, threading.Lock()
    usage = "usage: python -m partizan.jobs_bridge ADDRESS [--max-table-mb MB]"
    cap = 1024
    if len(argv) == 3 and argv[1] == "--max-table-mb":
        try:
            cap = int(argv[2])
        except ValueError:
            cap = 0
        if cap < 1:
            _say(out, lock, {"ready": False, "why": f"--max-table-mb must be a positive number of MB, not {argv[2]!r}"})
            return 2
    elif len(argv) != 1:
        _say(out, lock, {"ready": False, "why": usage})
        return 2
    address = argv[0]
    try:
        from distributed import Client
    except ImportError:
        _say(out, lock, {"ready": False, "why": "the bridge needs dask.distributed: pip install 'dask[distributed]'"})
        return 2
    from . import _partizan

    try:
        client = Client(address, timeout="20s", set_as_default=False)
    except Exception as e:  # noqa: BLE001 - said on the first line
        why = f"cannot reach the Dask scheduler at {address}: {type(e).__name__}: {e}"
        _say(out, lock, {"ready": False, "why": " ".join(why.split())[:300]})
        return 2
    slots = sum(client.nthreads().values())
    if slots < 1:
        _say(out, lock, {"ready": False, "why": f"the Dask cluster at {address} has no workers"})
        client.close()
        return 2
    tasks = {}
    topic = f"partizan-progress-{uuid.uuid4().hex}"

    def told(event) -> None:
        msg = event[1] if isinstance(event, tuple) and len(event) == 2 else event
        if not isinstance(msg, dict):
            return
        job, nodes = msg.get("job"), msg.get("nodes")
        if job in tasks and isinstance(job, int) and isinstance(nodes, int) and nodes >= 0:
            _say(out, lock, {"progress": job, "nodes": nodes})

    try:
        client.subscribe_topic(topic, told)
        tells = True
    except Exception:  # noqa: BLE001 - a scheduler without events: no progress
        tells = False
    _say(out, lock, {"ready": True, "workers": slots, "name": f"dask {address}", "progress": tells})

    def answered(fut, job):
        if fut.cancelled():
            return
        try:
            line = fut.result()
        except Exception as e:  # noqa: BLE001 - a failed task is a failed job
            line = json.dumps({"job": job, "answer": "failed", "why": f"{type(e).__name__}: {e}"[:300]})
        tasks.pop(job, None)
        _say(out, lock, line)

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        if "cancel" in msg:
            fut = tasks.pop(msg["cancel"], None)
            if fut is not None:
                fut.cancel()
            continue
        job = msg.get("id")
        every = msg.get("progress_ms")
        if tells and isinstance(every, int) and every > 0:
            every = min(max(every, 100), 3_600_000)
            fut = client.submit(_telling_task, line, cap, every, topic, pure=False)
        else:
            fut = client.submit(_partizan.run_job, line, cap, pure=False)
        tasks[job] = fut
        fut.add_done_callback(lambda f, job=job: answered(f, job))
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
