"""Ctrl-C (a real SIGINT) stops the Cram census, the Sylver Coinage census
and the outcome search: KeyboardInterrupt within seconds, and the library
still works afterwards."""

import signal
import subprocess
import sys
import time

import pytest

CHILD = """
import sys, time, partizan
work = {
    "cram": lambda: partizan.cram_census(15),
    "sylver": lambda: partizan.sylver_census(30),
    "outcome": lambda: partizan.Board("domineering", "|".join(["........"] * 8)).outcome(),
}[sys.argv[1]]
print("ready", flush=True)
start = time.monotonic()
try:
    work()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted after %.2f s" % (time.monotonic() - start), flush=True)
    assert partizan.Board("domineering", "..").outcome() == "R"  # still usable
    assert partizan.cram_census(3).records
    print("usable", flush=True)
"""


@pytest.mark.parametrize("work", ["cram", "sylver", "outcome"])
def test_ctrl_c_stops_it(work):
    proc = subprocess.Popen([sys.executable, "-c", CHILD, work], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        proc.kill()
    assert "interrupted after" in out and "usable" in out, out
    assert proc.returncode == 0
    assert waited < 10, waited
