"""The job-level search from Python (``partizan.outcome_jobs``) and on a Dask
cluster: a two-worker ``distributed.LocalCluster`` runs the jobs, through the
package (``client=``) and through the command line's bridge (``partizan
outcome --cluster ADDRESS``); the answers are the plain search's, and a
worker that lies cannot change them.
"""

import json
import os
import subprocess
import sys
import time

import pytest

import partizan

BOARDS = [
    ("domineering", "|".join(["." * c] * r))
    for r in range(2, 5)
    for c in range(2, 5)
] + [("clobber", "xoxo|oxox|xoxo"), ("cram", "....|....|....")]


def _wins(ruleset, board, first):
    """The plain search's answer: does ``first``, moving first, win?"""
    cls = partizan.Board(ruleset, board).outcome()
    return cls == "N" or cls == first[0].upper()


def _a_named_move_wins(ruleset, first, rep):
    """The report's winning move: one exactly when ``first`` wins, and the
    plain search says the opponent, moving first after it, loses."""
    if not rep["first_wins"]:
        assert rep["move"] is None, rep
        return
    after = rep["move"]["board"]
    assert rep["move"]["cells"], rep
    reply = "right" if first == "left" else "left"
    assert not _wins(ruleset, after, reply), (ruleset, rep)


@pytest.mark.parametrize("first", ["left", "right"])
def test_threads_agree_with_the_plain_search(first):
    for ruleset, board in BOARDS:
        rep = partizan.outcome_jobs(ruleset, board, first=first, job_nodes=1, job_plies=1)
        assert rep["first_wins"] == _wins(ruleset, board, first), (ruleset, board, rep)
        assert rep["counts"]["lies"] == {}
        _a_named_move_wins(ruleset, first, rep)
    # a root decided as one job (no tree below it) still names its move
    rep = partizan.outcome_jobs("domineering", "...|...|...", first="left", table_mb=4)
    assert rep["counts"]["sent"] + rep["counts"]["searched_here"] == 1, rep
    _a_named_move_wins("domineering", "left", rep)
    assert rep["move"] is not None


def test_table_limits_are_checked_and_capped():
    job = {"id": 7, "ruleset": "domineering", "board": "....|....", "mover": "L",
           "max_nodes": 1000000, "table_bytes": 1 << 40, "certify": False}
    line = json.dumps(job)
    reply = json.loads(partizan.run_job(line, max_table_mb=1))
    assert reply["job"] == 7 and reply["answer"] in ("win", "loss"), reply
    for bad in (0, -1, 1 << 30):
        with pytest.raises((ValueError, OverflowError)):
            partizan.run_job(line, max_table_mb=bad)
    with pytest.raises(ValueError, match="table_mb"):
        partizan.outcome_jobs("domineering", "..|..", table_mb=0)
    out = subprocess.run(
        [sys.executable, "-m", "partizan.jobs_bridge", "tcp://127.0.0.1:9", "--max-table-mb", "none"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 2
    said = json.loads(out.stdout.strip().splitlines()[0])
    assert said["ready"] is False and "--max-table-mb" in said["why"], said


def test_a_lying_callable_cannot_change_the_answer():
    board = "....|....|....|...."
    other = {"certificate": None}

    def liar(line):
        job = json.loads(line)
        if other["certificate"] is None:
            # a true certificate, but of another board
            real = json.loads(partizan.run_job(json.dumps({**job, "board": "..|.."})))
            other["certificate"] = real["certificate"]
        return json.dumps({"job": job["id"], "answer": "win", "certificate": other["certificate"]})

    rep = partizan.outcome_jobs("domineering", board, first="left", run=liar, workers=1,
                                job_nodes=1, job_plies=1)
    assert rep["first_wins"] == _wins("domineering", board, "left")
    assert rep["counts"]["lies"]["mismatch"] >= 1
    with pytest.raises(ValueError):
        partizan.outcome_jobs("domineering", board, run=liar, client=object())
    with pytest.raises(ValueError):
        partizan.outcome_jobs("domineering", "no board", workers=1)


def test_a_job_timeout_retires_a_silent_worker_only():
    """A ``run`` worker reports no progress, so it is timed from the moment
    its job is sent: slower than ``job_timeout`` it is retired and the
    master searches the job (the answer the same); within it, its answer
    is taken."""
    board = "...|...|..."

    def slow(line):
        time.sleep(1.5)
        return partizan.run_job(line)

    want = _wins("domineering", board, "left")
    rep = partizan.outcome_jobs("domineering", board, first="left", run=slow, workers=1,
                                job_timeout=0.5)
    assert rep["first_wins"] == want
    assert rep["counts"]["timeouts"] == 1, rep
    assert "no progress" in rep["workers"][0]["retired"], rep
    rep = partizan.outcome_jobs("domineering", board, first="left", run=slow, workers=1,
                                job_timeout=30)
    assert rep["first_wins"] == want
    assert rep["counts"]["timeouts"] == 0 and rep["workers"][0]["retired"] is None, rep
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="job_timeout"):
            partizan.outcome_jobs("domineering", board, job_timeout=bad)


def test_agreement_of_two_workers_instead_of_certificates():
    for ruleset, board in BOARDS:
        for first in ("left", "right"):
            rep = partizan.outcome_jobs(ruleset, board, first=first, job_nodes=20000,
                                        job_plies=2, trust="agreement")
            assert rep["first_wins"] == _wins(ruleset, board, first), (ruleset, board)
            assert rep["trust"] == "agreement"
            assert rep["counts"]["accepted"] == 0
            assert rep["counts"]["lies"] == {}
    # A callable that flips every decided answer, alone: each of its claims is
    # settled by the master's own search, and it is caught.
    def flipper(line):
        reply = json.loads(partizan.run_job(line))
        assert "certificate" not in reply
        flip = {"win": "loss", "loss": "win"}
        reply["answer"] = flip.get(reply["answer"], reply["answer"])
        return json.dumps(reply)

    board = "....|....|....|...."
    rep = partizan.outcome_jobs("domineering", board, first="left", run=flipper, workers=1,
                                job_nodes=20000, job_plies=2, trust="agreement")
    assert rep["first_wins"] == _wins("domineering", board, "left")
    assert rep["counts"]["lies"]["outvoted"] >= 1
    with pytest.raises(ValueError, match="trust"):
        partizan.outcome_jobs("domineering", board, trust="faith")


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


def test_a_dask_client_runs_the_jobs(cluster):
    with distributed.Client(cluster) as client:
        for ruleset, board in BOARDS[:6] + BOARDS[-2:]:
            for first in ("left", "right"):
                rep = partizan.outcome_jobs(ruleset, board, first=first, client=client,
                                            job_nodes=1, job_plies=1, table_mb=8)
                assert rep["first_wins"] == _wins(ruleset, board, first), (ruleset, board)
                assert rep["counts"]["lies"] == {}
                _a_named_move_wins(ruleset, first, rep)
                assert [w["name"] for w in rep["workers"]] == ["python-0", "python-1"]


def _bin():
    from test_dask_shards import BIN  # the same binary the atlas shard test finds

    if BIN is None:
        pytest.skip("no partizan binary (set PARTIZAN_BIN or build partizan-cli)")
    return BIN


def test_the_command_line_runs_its_jobs_on_the_cluster(cluster):
    binary = _bin()
    for ruleset, board in [("domineering", "....|....|....|...."), ("clobber", "xoxo|oxox|xoxo")]:
        out = subprocess.run(
            [binary, "outcome", ruleset, board, "--cluster", cluster.scheduler_address,
             "--python", sys.executable, "--job-nodes", "1", "--job-plies", "1",
             "--table-mb", "8", "--no-store", "--json"],
            capture_output=True, text=True, timeout=600,
        )
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert got["class"] == partizan.Board(ruleset, board).outcome(), got
        assert got["workers"].startswith("dask "), got
        for s in got["searches"]:
            assert s["counts"]["lies"] == {}
            _a_named_move_wins(ruleset, s["first"], s)


def test_the_bridge_tells_the_nodes_of_a_job_on_the_cluster(cluster):
    """The bridge offers progress; a job line asking for it (every 200 ms)
    runs as a task that logs its nodes as Dask events, and the bridge
    writes them as progress lines, rising, before the job's answer; a job
    not asking gets only its answer."""
    bridge = subprocess.Popen(
        [sys.executable, "-m", "partizan.jobs_bridge", cluster.scheduler_address, "--max-table-mb", "8"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        ready = json.loads(bridge.stdout.readline())
        assert ready["ready"] and ready["progress"] is True, ready
        asking = json.loads(_nine_by_nine_job(11, 3_000_000))
        asking["progress_ms"] = 200
        for line in (json.dumps(asking), _nine_by_nine_job(12, 3_000_000)):
            bridge.stdin.write(line + "\n")
            bridge.stdin.flush()
            job = json.loads(line)["id"]
            told = []
            while True:
                msg = json.loads(bridge.stdout.readline())
                if "progress" in msg:
                    assert msg["progress"] == job, msg
                    told.append(msg["nodes"])
                    continue
                assert msg["job"] == job and msg["answer"] == "unresolved", msg
                break
            if job == 11:
                assert told and all(a < b for a, b in zip(told, told[1:])), told
                assert told[-1] <= msg["nodes"], (told, msg)
            else:
                assert told == [], told
    finally:
        bridge.stdin.close()
        bridge.wait(timeout=60)


def test_an_unreachable_scheduler_is_one_line_and_exit_2():
    binary = _bin()
    out = subprocess.run(
        [binary, "outcome", "domineering", "...|...", "--cluster", "tcp://127.0.0.1:9",
         "--python", sys.executable, "--no-store"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 2, out.stderr
    assert "cannot reach the Dask scheduler" in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def _rect(rows, cols, cell):
    return "|".join("".join(cell(r, c) for c in range(cols)) for r in range(rows))


# the list: Domineering rectangles with sides 2 to 7 (sides of 8:
# PZ_SIDES=8), the Clobber checkerboards to 4 x 5, Cram rectangles to 5 x 6
SIDES = int(os.environ.get("PZ_SIDES", "7"))
EVERY_BOARD = (
    [("domineering", _rect(r, c, lambda r, c: ".")) for r in range(2, SIDES + 1) for c in range(2, SIDES + 1)]
    + [
        ("clobber", _rect(r, c, lambda r, c: "xo"[(r + c) % 2]))
        for r, c in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)]
    ]
    + [("cram", _rect(r, c, lambda r, c: ".")) for r, c in [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6)]]
)


def test_every_board_of_the_list_on_the_cluster(cluster):
    """Both first players of every board of the list through the two Dask
    workers (the root expanded, every child a job of at most 2^16 nodes, so
    the larger boards take many jobs): the plain search's answer, no lie."""
    with distributed.Client(cluster) as client:
        for ruleset, board in EVERY_BOARD:
            for first in ("left", "right"):
                rep = partizan.outcome_jobs(ruleset, board, first=first, client=client,
                                            job_nodes=1 << 16, job_plies=1)
                assert rep["first_wins"] == _wins(ruleset, board, first), (ruleset, board, first)
                assert rep["counts"]["lies"] == {} and rep["counts"]["failures"] == 0, rep["counts"]


def test_a_whole_certificate_from_python_checks(tmp_path):
    """``certificate=``: one proof of the root (the tree, each decided
    job's certificate a part) that the independent checker accepts; a
    resumed run (``jobs_file``) still writes it; a flipped claim fails."""
    board = "....|....|....|...."
    for first in ("left", "right"):
        cert = tmp_path / f"{first}.cert"
        rep = partizan.outcome_jobs("domineering", board, first=first, job_nodes=1,
                                    job_plies=1, certificate=cert)
        assert rep["certificate"]["parts"] > 0, rep
        assert rep["certificate"]["file"] == str(cert)
        checked = partizan.check_certificate(str(cert))
        assert checked[f"{first}_first_wins"] == rep["first_wins"], checked
        text = cert.read_text()
        claim = f"claim {first} wins" if rep["first_wins"] else f"claim {first} loses"
        flipped = claim.replace("wins", "loses") if rep["first_wins"] else claim.replace("loses", "wins")
        assert claim in text
        cert.write_text(text.replace(claim, flipped, 1))
        with pytest.raises(ValueError):
            partizan.check_certificate(str(cert))
    # resumed from its tree file: the kept certificates beside it
    tree = tmp_path / "tree.pjt"
    gz = tmp_path / "again.cert.gz"
    first = partizan.outcome_jobs("domineering", board, job_nodes=1, job_plies=1,
                                  jobs_file=tree, certificate=gz)
    assert (tmp_path / "tree.pjt.certs").is_dir()
    again = partizan.outcome_jobs("domineering", board, job_nodes=1, job_plies=1,
                                  jobs_file=tree, certificate=gz)
    assert again["counts"]["sent"] == 0, again
    assert again["certificate"]["parts"] == first["certificate"]["parts"]
    assert partizan.check_certificate(str(gz))["left_first_wins"] == first["first_wins"]
    with pytest.raises(ValueError, match="agreement"):
        partizan.outcome_jobs("domineering", board, trust="agreement", certificate=tmp_path / "x")
    with pytest.raises(ValueError, match="directory"):
        partizan.outcome_jobs("domineering", board, certificate=tmp_path)


def _nine_by_nine_job(job_id, nodes):
    """A 9 x 9 Domineering job of ``nodes`` nodes, Left first: unresolved
    (about a second for two million nodes)."""
    return json.dumps({"id": job_id, "ruleset": "domineering", "board": "|".join(["." * 9] * 9),
                       "mover": "L", "max_nodes": nodes, "table_bytes": 1 << 22, "certify": False})


def test_a_job_tells_its_nodes_as_it_runs():
    told = []
    reply = json.loads(partizan.run_job(_nine_by_nine_job(5, 2_000_000), tell=told.append, every_ms=100))
    assert reply["job"] == 5 and reply["answer"] == "unresolved", reply
    assert told, "no count told"
    assert all(a < b for a, b in zip(told, told[1:])), told
    assert 0 < told[-1] <= reply["nodes"]

    def fails(nodes):
        raise KeyError("the watcher is gone")

    with pytest.raises(KeyError, match="gone"):
        partizan.run_job(_nine_by_nine_job(6, 2_000_000), tell=fails, every_ms=100)
    for bad in (0, 99, 3_600_001):
        with pytest.raises(ValueError, match="every_ms"):
            partizan.run_job(_nine_by_nine_job(7, 1), tell=told.append, every_ms=bad)
    # a line that is no job is answered with a failure, told or not
    assert json.loads(partizan.run_job("nonsense", tell=told.append))["answer"] == "failed"


LONG = "|".join(["......"] * 7)  # about a thousand jobs of 2,000 nodes


def test_progress_is_shown_and_can_stop_the_search(tmp_path, capsys):
    seen = []
    board = "|".join(["....."] * 5)  # about 45 jobs
    rep = partizan.outcome_jobs("domineering", board, first="right", job_nodes=50, job_plies=2,
                                progress=seen.append, progress_every=0)
    assert rep["first_wins"] == _wins("domineering", board, "right")
    assert len(seen) >= 2, seen
    for p in seen:
        assert p["first"] == "right" and p["text"].startswith("Right first: "), p
        assert {"counts", "in_flight", "live_workers", "out_nodes", "root_numbers", "line",
                "elapsed_ms", "worker_nodes_per_sec"} <= set(p), p
    assert seen[-1]["counts"]["sent"] >= seen[0]["counts"]["sent"]
    # True: the command line's line on standard error
    partizan.outcome_jobs("domineering", board, job_nodes=50, job_plies=1, progress=True, progress_every=0)
    err = capsys.readouterr().err
    assert "Left first: " in err and "worker nodes/s" in err and "root pn" in err, err

    # a callable that raises stops the search with its exception; the tree
    # is kept, and the search resumes from it to the plain answer
    tree = tmp_path / "long.pjt"
    calls = []

    def enough(p):
        calls.append(p)
        if len(calls) >= 3:
            raise LookupError("seen enough")

    with pytest.raises(LookupError, match="seen enough"):
        partizan.outcome_jobs("domineering", LONG, job_nodes=2000, job_plies=1, jobs_file=tree,
                              progress=enough, progress_every=0)
    assert tree.exists()
    with pytest.raises(TimeoutError, match="max_seconds"):
        partizan.outcome_jobs("domineering", LONG, job_nodes=2000, job_plies=1, jobs_file=tree,
                              max_seconds=0.5)
    rep = partizan.outcome_jobs("domineering", LONG, job_nodes=2000, job_plies=1, jobs_file=tree)
    assert rep["first_wins"] == _wins("domineering", LONG, "left")
    for bad in ({"progress_every": -1}, {"max_seconds": 0}, {"max_seconds": float("nan")}):
        with pytest.raises(ValueError):
            partizan.outcome_jobs("domineering", "..|..", **bad)
    with pytest.raises(TypeError, match="progress"):
        partizan.outcome_jobs("domineering", "..|..", progress="yes")
    # False shows nothing, as None
    assert partizan.outcome_jobs("domineering", "..|..", progress=False)["first_wins"] is not None
