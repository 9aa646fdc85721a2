#!/usr/bin/env bash
# The inspector's speed on a large log (issue 44): a release `ledger inspect`
# over the benchmark's generated log (with the automatic snapshots a device
# keeps), timed in Chromium (Benchmarks/inspector/browser_timing.py), with the
# process's peak memory and a check that the file's bytes did not change.
#
#   Benchmarks/inspector.sh                  # the 1M-event log (generated once by run.sh, about 30 s)
#   Benchmarks/inspector.sh --events 100k
#   Benchmarks/inspector.sh --db demo.sqlite # any ledger: the demo, a real export imported
#
# Needs chromium and chromedriver (Debian: chromium chromium-driver).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
events="1M"; steps=200; given=""
while [ $# -gt 0 ]; do
  case "$1" in
    --events) events="$2"; shift 2 ;;
    --db) given="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work="${BENCH_WORK:-${TMPDIR:-/tmp}/repledger-bench}"
mkdir -p "$work"

# The generated log and its snapshotted copy, as the `cold` workload leaves them (made once per size;
# named by the count, 1000000 for 1M).
count=$(echo "$events" | sed 's/[kK]$/000/; s/M$/000000/')
db="$given"
[ -n "$db" ] || db=$(ls -t "$work"/log-"$count"-v2-snap-*.sqlite 2>/dev/null | grep -v partial | head -n 1 || true)
if [ -z "$db" ]; then
  BENCH_WORK="$work" "$here/run.sh" --events "$events" --only cold --no-peer --runs 1 >/dev/null
  db=$(ls -t "$work"/log-"$count"-v2-snap-*.sqlite | grep -v partial | head -n 1)
fi
(cd "$root" && swift build -c release --product ledger --product ledger-server >/dev/null 2>&1 || swift build -c release >/dev/null)
copy="$work/inspect-$(basename "${given:-$events}" .sqlite).sqlite"
cp "$db" "$copy"
before=$(sha256sum "$copy" | cut -d' ' -f1)

out="$work/inspect.out"
"$root/.build/release/ledger" inspect --db "$copy" --listen 127.0.0.1:0 >"$out" 2>"$work/inspect.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q http "$out" 2>/dev/null && break; sleep 0.1; done
address=$(grep -o 'http[^ ]*' "$out")
origin=${address%%/inspect*}
# `ledger` runs `ledger-server` in its own process (exec), so $pid is the server's.
head=$("$root/.build/release/ledger" verify --db "$copy" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')

browser=$(python3 "$here/inspector/browser_timing.py" "$address" "$head" "$steps")

summary=$(python3 - "$origin" "$head" "$steps" "$browser" "$(grep VmHWM /proc/$pid/status | awk '{print $2}')" <<'PY'
import json, sys
origin, head, steps, browser, hwm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]
steps_ms = browser["asOfStepMs"]
print(f"inspector on {head:,} events, release build, Chromium {len(steps_ms)} steps")
print(f"  as-of view moved one event (arrow keys): median {median(steps_ms):.1f} ms, p95 {p95(steps_ms):.1f} ms, max {max(steps_ms):.1f} ms (goal p95 <= 100)")
print(f"  as-of view, first open at the middle: {browser['asOfFirstMs']:.1f} ms")
print(f"  log page's first screen: median {median(browser['logFirstScreenMs']):.1f} ms, max {max(browser['logFirstScreenMs']):.1f} ms (goal <= 200)")
print(f"  inspect process peak memory (VmHWM): {hwm / 1024:.0f} MB (goal < 200)")
PY
)
echo "$summary"
after=$(sha256sum "$copy" | cut -d' ' -f1)
[ "$before" = "$after" ] && echo "  the file's bytes are unchanged after the run" || { echo "  the file changed!" >&2; exit 1; }
