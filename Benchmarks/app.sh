#!/usr/bin/env bash
# The lifter's app's speed (issue 80) on the real account the server benchmark uses (the three largest real
# exports in one log, 77,707 events): a release `ledger app` over that file on loopback, timed in Chromium with the
# page's Performance API (Benchmarks/app/app_timing.py): the first load, a tap to the set shown, each command's
# round trip, and 200 commands queued offline flushed when the network returns.
#
#   Benchmarks/app.sh                # needs ../shared/data/real-exports
#   Benchmarks/app.sh --db demo.sqlite --taps 100
#
# Needs chromium and chromedriver (Debian: chromium chromium-driver).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
taps=50; given=""
while [ $# -gt 0 ]; do
  case "$1" in
    --db) given="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --taps) taps="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work="${BENCH_WORK:-${TMPDIR:-/tmp}/repledger-bench}"
mkdir -p "$work"
(cd "$root" && swift build -c release --product ledger --product ledger-server >/dev/null 2>&1 || swift build -c release >/dev/null)
ledger="$root/.build/release/ledger"
db="$given"
if [ -z "$db" ]; then
  db="$work/app-real-account.sqlite"
  if [ ! -f "$db" ]; then
    exports="$root/../shared/data/real-exports"
    for file in strong_Andrew50_Lifting_aj.csv strong_Andrew50_Lifting.csv hevy_NathanN-275_Lifting-stats.csv; do
      kind=${file%%_*}
      "$ledger" import "$kind" "$exports/$file" --db "$db.partial" --timezone UTC --unit kg --json >/dev/null
    done
    mv "$db.partial" "$db"
  fi
fi
copy="$work/app-run.sqlite"
cp "$db" "$copy"
out="$work/app.out"
"$ledger" app --db "$copy" --listen 127.0.0.1:0 >"$out" 2>"$work/app.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q http "$out" 2>/dev/null && break; sleep 0.1; done
address=$(grep -o 'http[^ ]*' "$out")
events=$("$ledger" verify --db "$copy" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
timing=$(python3 "$here/app/app_timing.py" "$address" "$taps")
python3 - "$events" "$timing" <<'PY'
import json, sys
events, t = int(sys.argv[1]), json.loads(sys.argv[2])
def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
def median(xs):
    return sorted(xs)[len(xs) // 2]
print(f"the lifter's app over {events:,} events (ledger app, release, loopback), Chromium at 390 x 844")
print(f"  first load to the workout shown: median {median(t['firstLoadMs']):.0f} ms, max {max(t['firstLoadMs']):.0f} ms (goal <= 1000)")
print(f"  a tap to the set shown: median {median(t['tapToShownMs']):.1f} ms, p95 {p95(t['tapToShownMs']):.1f} ms over {len(t['tapToShownMs'])} taps (goal <= 50)")
print(f"  a command's round trip: median {median(t['commandMs']):.1f} ms, p95 {p95(t['commandMs']):.1f} ms over {len(t['commandMs'])} (goal p95 <= 20)")
print(f"  200 commands queued offline, flushed: {t['flush200Ms']:.0f} ms (goal <= 3000)")
PY
