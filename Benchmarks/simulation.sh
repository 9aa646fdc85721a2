#!/usr/bin/env bash
# Runs the sync simulation over many seeds and prints how many ran, how fast,
# and every fault and anomaly counted (docs/RELIABILITY.md quotes it).
#
#   Benchmarks/simulation.sh                # 1,000 seeds
#   Benchmarks/simulation.sh --seeds 10000  # the published run
#   Benchmarks/simulation.sh --debug        # in the debug build `swift test` made (no second build)
#   Benchmarks/simulation.sh --skip-build   # the tests are built already
#
# The seeds run in the test bundle's parallel cases (SyncSimulationTests.shards),
# built optimized with testing enabled in a folder of its own ($SIM_SCRATCH, else
# .build/simulation: some 19 minutes the first time on 2 cores, minutes after a change). A failing
# seed prints the command that replays it, which replays it in the debug build too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seeds=1000; build=1; debug=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    --debug) debug=1; shift ;;
    *) echo "unknown option: $1 (takes --seeds N, --debug, --skip-build)" >&2; exit 2 ;;
  esac
done
cd "$root"
if [ "$debug" = 1 ]; then
  flags=()
else
  flags=(-c release -Xswiftc -enable-testing --scratch-path "${SIM_SCRATCH:-$root/.build/simulation}")
fi
[ "$build" = 1 ] && swift build --build-tests "${flags[@]}" >/dev/null
bundle="$(swift build "${flags[@]}" --show-bin-path)/RepLedgerPackageTests.xctest"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s.%N)
status=0
REPLEDGER_SIM_SEEDS="$seeds" "$bundle" \
  --testing-library swift-testing --filter 'SyncSimulationTests/everySeed' > "$log" 2>&1 || status=$?
end=$(date +%s.%N)
grep -E 'seed [0-9]+:|replay:' "$log" || true
grep '^simulation shard=' "$log" | awk -v wall="$(echo "$end - $start" | bc)" '
  { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "seeds" || kv[1] == "anomalous" || kv[1] == "events") total[kv[1]] += kv[2] }
    n = split($0, parts, " ")
    if (n >= 7) { m = split(substr($0, index($0, parts[7])), kinds, ";")
      for (j = 1; j <= m; j++) { split(kinds[j], kv, "="); faults[kv[1]] += kv[2] } } }
  END {
    printf "seeds %d, anomalous %d, events on the servers %d, %.1f s wall (%.1f seeds/s; 10,000 seeds in %.1f min)\n",
      total["seeds"], total["anomalous"], total["events"], wall, total["seeds"] / wall, 10000 / (total["seeds"] / wall) / 60
    for (k in faults) printf "  %-40s %d\n", k, faults[k] }' | sort
exit $status
