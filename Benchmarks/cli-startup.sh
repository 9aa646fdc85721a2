#!/usr/bin/env bash
# Cold-process latency of the CLI, two builds side by side in one run: each
# runs `ledger prs --json` on its own copy of the same demo ledger (its own
# snapshots, made by a first run) and `ledger --version`, interleaved, 40
# times; prints the medians and the ratio.
#
#   Benchmarks/cli-startup.sh BEFORE_BINARY AFTER_BINARY
set -euo pipefail
before="$1"; after="$2"; runs="${RUNS:-40}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$before" demo --db "$work/demo.sqlite" --json > /dev/null  # the older build writes it: the newer one upgrades it
for side in before after; do
  cp "$work/demo.sqlite" "$work/$side.sqlite"
  "${!side}" prs --db "$work/$side.sqlite" --json > /dev/null  # the first run stores its snapshots
done
python3 - "$before" "$after" "$work" "$runs" <<'PY'
import statistics, subprocess, sys, time
before, after, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def once(binary, args):
    t = time.perf_counter(); subprocess.run([binary] + args, stdout=subprocess.DEVNULL, check=True); return (time.perf_counter() - t) * 1000
rows = []
for name, args in [("ledger prs --json (demo ledger, snapshots)", lambda side: ["prs", "--db", f"{work}/{side}.sqlite", "--json"]),
                   ("ledger --version", lambda side: ["--version"])]:
    b, a = [], []
    for _ in range(runs):
        b.append(once(before, args("before"))); a.append(once(after, args("after")))
    mb, ma = statistics.median(b), statistics.median(a)
    rows.append((name, mb, ma))
print("| cold process | before | after | after / before |\n| --- | --- | --- | --- |")
for name, mb, ma in rows: print(f"| {name} | {mb:.1f} ms | {ma:.1f} ms | {ma / mb:.2f}× |")
PY
