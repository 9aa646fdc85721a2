#!/usr/bin/env bash
# RepLedger's event store on PostgreSQL next to SQLite and the peer
# (eventsourcing 9.5.6 with its PostgreSQL recorder) on the same database, in
# one run. Starts a throwaway PostgreSQL 15 cluster (initdb as the postgres
# user when run as root, a free loopback port), removed afterwards.
#
#   Benchmarks/postgres.sh                # 100k events
#   Benchmarks/postgres.sh --events 1M
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
events="100k"
[ "${1:-}" = "--events" ] && events="$2"
. "$here/pg-cluster.sh"
psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE bench"

if [ ! -x "$here/.venv/bin/python" ] || ! "$here/.venv/bin/python" -c 'import psycopg, eventsourcing' 2>/dev/null; then
    echo "installing the peer (eventsourcing 9.5.6, psycopg) into Benchmarks/.venv…" >&2
    python3 -m venv "$here/.venv"
    "$here/.venv/bin/pip" install -q "eventsourcing==9.5.6" "psycopg[binary]" psycopg_pool
fi
echo "building (release)…" >&2
(cd "$here" && swift build -c release --product repledger-pg-bench >/dev/null)
"$here/.build/release/repledger-pg-bench" --events "$events" --postgres "postgres://postgres@127.0.0.1:$port/bench" \
    --work "$work" --python "$here/.venv/bin/python"
