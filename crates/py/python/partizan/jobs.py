"""The job-level proof-number search from Python.

``outcome_jobs`` decides whether the first player wins a board with a
master's proof-number tree over the top plies whose leaves are *jobs*
(whole outcome searches under a node budget) run by workers: local
threads, the workers of a Dask ``distributed.Client``, or any callable
that takes a job's line and returns the answer's line (the protocol of
``partizan job-worker``). Nothing a worker answers is believed unless the
certificate it sends is replayed by the independent checker here, in this
process; a worker that lies, crashes or returns garbage costs work, never
the answer.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

from . import _partizan

__all__ = ["outcome_jobs", "run_job"]

run_job = _partizan.run_job


def outcome_jobs(
    ruleset: str,
    board: str,
    *,
    first: str = "left",
    client: Any = None,
    run: Optional[Callable[[str], str]] = None,
    workers: Optional[int] = None,
    job_nodes: int = 1 << 20,
    job_plies: int = 0,
    jobs_file: Optional[os.PathLike] = None,
    trust: str = "certificates",
    table_mb: Optional[int] = None,
    certificate: Optional[os.PathLike] = None,
    progress: Any = None,
    progress_every: float = 5.0,
    max_seconds: Optional[float] = None,
    job_timeout: float = 3600.0,
) -> dict:
    """Whether ``first`` (``"left"`` or ``"right"``), moving first on
    ``board``, wins under normal play, by job-level proof-number search.

    Jobs run on ``client`` (a ``distributed.Client``: one job at a time per
    worker thread of its cluster, unless ``workers`` says fewer or more),
    or through ``run`` (a callable from a job's line to its reply's line),
    or on ``workers`` local threads (default 2). ``job_nodes`` is each
    job's node budget (an unresolved job is expanded into its children);
    positions fewer than ``job_plies`` plies deep are expanded by the
    master without a job. With ``jobs_file`` the master's tree is kept
    there (sealed with the user's key) and a run resumes from it.

    ``trust`` says what makes a decided job believed: ``"certificates"``
    (the default: its certificate, replayed by the checker here) or
    ``"agreement"`` (two workers, each sent the job, claim the same; the
    master's own search settles a disagreement and the worker it
    contradicts is struck; no proof is made, so a decided job costs about
    two searches). One lying or broken worker cannot change an answer by
    agreement; two that lie alike can, and so can a bug shared by every
    worker. On a Dask client the two searches are two tasks, which the
    scheduler may place on the same Dask worker. The report's
    ``agreed_in_proof`` counts the leaves the answer rests on that way.

    ``table_mb`` is each job's transposition table in MB (default 16,
    and the master's own searches'). On a Dask client a job gets it in
    full (the cluster is the caller's); ``run_job`` alone caps a job at
    its ``max_table_mb`` (default 1024) whatever the job asks.

    ``certificate`` writes the whole certificate of the decided search
    there (gzip-compressed for a ``.gz`` name): the master's tree, then
    each decided job's checked certificate as a part, one proof that
    ``partizan check`` or ``check_certificate`` accepts on its own. The
    jobs' certificates are kept beside ``jobs_file`` (``FILE.certs``, as
    the command line keeps them), so a resumed run still writes it; it
    needs ``trust="certificates"``. The report's ``certificate`` then
    says what it holds (``file``, ``tree_records``, ``parts``,
    ``part_records``).

    ``progress`` follows a long search: ``True`` prints the command
    line's progress line to standard error every ``progress_every``
    seconds (jobs proved, disproved and unresolved, worker nodes/s with
    the jobs still out counted as far as their workers have told, the
    root's proof and disproof numbers, the most-proving line, the work
    left where an estimate is honest); a callable is called as often with
    a dict of the same (``counts``, ``in_flight``, ``live_workers``,
    ``out_nodes``, ``root_numbers``, ``line``, ``elapsed_ms``,
    ``estimate``, ``worker_nodes_per_sec``, ``first``, and the line as
    ``text``). A callable that raises stops the search, and its exception
    is raised here (the tree kept in ``jobs_file`` when given).
    ``max_seconds`` stops the search after that much wall time with
    ``TimeoutError`` (resumable from ``jobs_file``).

    ``job_timeout`` (seconds, default an hour): a job whose worker shows
    no progress for that long is handed out again and the worker is not
    asked again. Local threads report their nodes as they search, so a
    long job is not taken away while it goes on; a ``client`` or ``run``
    worker reports nothing and is timed from the moment its job was
    sent, so give it at least a whole job's time.

    Returns the report as a dict (``first_wins``, ``move`` (a winning
    first move, ``{"cells": [[row, column], ...], "board": ...}``, when
    the first player wins), ``counts`` with
    ``sent``, ``proved``, ``disproved``, ``unresolved``, ``accepted``,
    ``lies``, ``failures``, ...; ``workers``; ``elapsed`` in ms), the
    fields of ``partizan outcome --jobs N --json``'s ``searches``.
    Ctrl-C stops it (``KeyboardInterrupt``; the tree is kept in
    ``jobs_file`` when given).
    """
    if client is not None and run is not None:
        raise ValueError("give client or run, not both")
    if progress is False:
        progress = None
    elif progress is not None and progress is not True and not callable(progress):
        raise TypeError(f"progress must be True, False, None or a callable, not {progress!r}")
    if client is not None:
        slots = workers or sum(client.nthreads().values())
        if slots < 1:
            raise ValueError("the Dask cluster has no workers")

        cap = 1024 if table_mb is None else int(table_mb)

        def run(line: str, _client=client, _cap=cap) -> str:
            return _client.submit(_partizan.run_job, line, _cap, pure=False).result()

        workers = slots
    elif workers is None:
        workers = 2
    return _partizan._outcome_jobs(
        ruleset,
        board,
        first,
        run,
        int(workers),
        int(job_nodes),
        int(job_plies),
        None if jobs_file is None else os.fspath(jobs_file),
        trust,
        None if table_mb is None else int(table_mb),
        None if certificate is None else os.fspath(certificate),
        progress,
        float(progress_every),
        None if max_seconds is None else float(max_seconds),
        float(job_timeout),
    )
