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
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d)
cleanup() { runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
chown postgres "$work"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
runuser -u postgres -- "$bin/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -l "$work/log" -w \
    -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null
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
