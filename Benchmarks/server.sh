#!/usr/bin/env bash
# The server benchmark: a real `ledger serve` (release build) on loopback under
# simulated devices. Prints a table (also written to Benchmarks/results-server.json).
#
#   Benchmarks/server.sh            # 1,000 accounts × 2,000 events, 50 devices for 30 s, a 100k-event catch-up
#   Benchmarks/server.sh --smoke    # 20 accounts × 200 events, 10 devices for 2 s, a 5k catch-up: what CI runs
#   Benchmarks/server.sh --real     # the three largest real exports as one account (77,707 events), on SQLite
#                                   # and then on a throwaway PostgreSQL 15 cluster: push, warm and
#                                   # restarted reads, the device's history, a fresh device's sync
#   Benchmarks/server.sh --roster   # a coach's roster of 50 clients × 20,000 events among 200 other accounts,
#                                   # on SQLite and then on a throwaway PostgreSQL 15 cluster
#   LEDGER=/path/to/ledger Benchmarks/server.sh --real   # the same against another build (its ledger-server beside it)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
args=(--accounts 1000 --events 2000 --devices 50 --seconds 30 --catch-up 100000)
if [ "${1:-}" = "--smoke" ]; then args=(--accounts 20 --events 200 --devices 10 --seconds 2 --catch-up 5000); fi
real=0
if [ "${1:-}" = "--real" ]; then real=1; fi
roster=0
if [ "${1:-}" = "--roster" ]; then roster=1; fi
echo "building (release)…" >&2
(cd "$root" && swift build -c release --product ledger >/dev/null && swift build -c release --product ledger-server >/dev/null)
(cd "$here" && swift build -c release --product repledger-server-bench >/dev/null)
if [ "$real" = 1 ]; then
  exports="$root/../shared/data/real-exports"
  files="$exports/strong_Andrew50_Lifting_aj.csv,$exports/strong_Andrew50_Lifting.csv,$exports/hevy_NathanN-275_Lifting-stats.csv"
  ledger="${LEDGER:-$root/.build/release/ledger}"
  "$here/.build/release/repledger-server-bench" --ledger "$ledger" --work "${TMPDIR:-/tmp}/repledger-real-sqlite" --real "$files"
  . "$here/pg-cluster.sh"
  psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE bench"
  "$here/.build/release/repledger-server-bench" --ledger "$ledger" --work "${TMPDIR:-/tmp}/repledger-real-pg" \
      --real "$files" --postgres "postgres://postgres@127.0.0.1:$port/bench"
  exit 0
fi
if [ "$roster" = 1 ]; then
  ledger="${LEDGER:-$root/.build/release/ledger}"
  shape=(--roster "${ROSTER_CLIENTS:-50}" --events "${ROSTER_EVENTS:-20000}" --others "${ROSTER_OTHERS:-200}")
  "$here/.build/release/repledger-server-bench" --ledger "$ledger" --work "${TMPDIR:-/tmp}/repledger-roster-sqlite" "${shape[@]}"
  . "$here/pg-cluster.sh"
  psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE bench"
  "$here/.build/release/repledger-server-bench" --ledger "$ledger" --work "${TMPDIR:-/tmp}/repledger-roster-pg" "${shape[@]}" \
      --postgres "postgres://postgres@127.0.0.1:$port/bench"
  exit 0
fi
"$here/.build/release/repledger-server-bench" --ledger "$root/.build/release/ledger" \
  --work "${BENCH_WORK:-${TMPDIR:-/tmp}/repledger-server-bench}" --json "$here/results-server.json" "${args[@]}"
