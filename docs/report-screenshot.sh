#!/usr/bin/env bash
# Renders `ledger report --html` for the demo history with headless Chromium
# (Debian's `chromium` package) and writes docs/report.png, so the page can be
# looked at as a lifter would see it. Usage: docs/report-screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/report.png}"
if ! command -v chromium >/dev/null; then
  apt-get install -y -q chromium >/dev/null
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swift build -c release --product ledger >/dev/null
ledger=.build/release/ledger
"$ledger" demo --db "$work/demo.sqlite" >/dev/null
"$ledger" report --html "$work/report.html" --db "$work/demo.sqlite"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=820,2500 \
  --screenshot="$work/report.png" "file://$work/report.html" 2>/dev/null
cp "$work/report.png" "$out"
echo "wrote $out"
