#!/usr/bin/env bash
# The server benchmark: a real `ledger serve` (release build) on loopback under
# simulated devices. Prints a table (also written to Benchmarks/results-server.json).
#
#   Benchmarks/server.sh            # 1,000 accounts × 2,000 events, 50 devices for 30 s, a 100k-event catch-up
#   Benchmarks/server.sh --smoke    # 20 accounts × 200 events, 10 devices for 2 s, a 5k catch-up: what CI runs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
args=(--accounts 1000 --events 2000 --devices 50 --seconds 30 --catch-up 100000)
if [ "${1:-}" = "--smoke" ]; then args=(--accounts 20 --events 200 --devices 10 --seconds 2 --catch-up 5000); fi
echo "building (release)…" >&2
(cd "$root" && swift build -c release --product ledger >/dev/null && swift build -c release --product ledger-server >/dev/null)
(cd "$here" && swift build -c release --product repledger-server-bench >/dev/null)
"$here/.build/release/repledger-server-bench" --ledger "$root/.build/release/ledger" \
  --work "${BENCH_WORK:-${TMPDIR:-/tmp}/repledger-server-bench}" --json "$here/results-server.json" "${args[@]}"
