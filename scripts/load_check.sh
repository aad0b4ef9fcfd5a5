#!/usr/bin/env bash
# Load check of the local site: a few hundred concurrent mixed requests
# (value, graph, explore, census, semigroups, Sylver Coinage, bad input)
# against a server on 127.0.0.1 started by the test itself. Bounded in count
# and time; fails on any answer other than the designed ones (200, the 400s
# and 404s bad input earns, 503 busy/out of time). Prints p50/p90/p99.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo test --release -p partizan-web --test all load:: -- --nocapture"$@"
