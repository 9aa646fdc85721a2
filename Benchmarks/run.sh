#!/usr/bin/env bash
# Runs every benchmark workload next to its raw floor and the peer, in one run,
# and prints the table (also written to Benchmarks/results-<events>.json).
#
#   Benchmarks/run.sh                 # 100k events
#   Benchmarks/run.sh --events 1M     # the full run (generates a 1M-event log once, about 30 s)
#   Benchmarks/run.sh --smoke         # 10k events, one run, no peer, debug builds: what CI runs
#
# The peer is the Python `eventsourcing` library, pinned to 9.5.6, installed
# into Benchmarks/.venv on first use. Logs and scratch files go to $BENCH_WORK
# (default: a folder in the system's temporary directory).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
events="100k"; runs=5; peer=1; extra=(); config=release
while [ $# -gt 0 ]; do
  case "$1" in
    --events) events="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    # The smoke checks that every workload runs, not its figures: debug
    # builds, so CI reuses the `ledger` its tests built instead of building
    # the server's packages again in release (about ten minutes on 2 cores).
    --smoke) events="10k"; runs=1; peer=0; config=debug; extra+=(--cold-runs 3 --curve); shift ;;
    --no-peer) peer=0; shift ;;
    *) extra+=("$1"); shift ;;
  esac
done
work="${BENCH_WORK:-${TMPDIR:-/tmp}/repledger-bench}"
mkdir -p "$work"

echo "building ($config)…" >&2
(cd "$root" && swift build -c "$config" --product ledger >/dev/null)
# BENCH_SCRATCH: the harness's build folder (Benchmarks/.build unless set; CI gives the main
# build's, whose modules of the ledger it then reuses).
scratch="${BENCH_SCRATCH:-$here/.build}"
(cd "$here" && swift build --scratch-path "$scratch" -c "$config" --product repledger-bench >/dev/null)

args=(--events "$events" --runs "$runs" --work "$work" --ledger "$root/.build/$config/ledger"
      --json "$here/results-$events.json")
if [ "$peer" = 1 ]; then
  if [ ! -x "$here/.venv/bin/python" ]; then
    echo "installing the peer (eventsourcing 9.5.6) into Benchmarks/.venv…" >&2
    python3 -m venv "$here/.venv"
    "$here/.venv/bin/pip" install -q "eventsourcing==9.5.6"
  fi
  args+=(--python "$here/.venv/bin/python")
fi
[ "$config" = debug ] && echo "debug builds: every workload below ran; its figures and goals are not measurements (run without --smoke for those)" >&2
"$scratch/$config/repledger-bench" "${args[@]}" "${extra[@]}"
