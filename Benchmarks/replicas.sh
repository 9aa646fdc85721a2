#!/usr/bin/env bash
# Hot standbys serving reads: a throwaway PostgreSQL 15 primary with two
# streaming standbys (pg_basebackup), then the same catch-up (4 devices
# pulling a 100,000-event account at once) through a server with 0, 1 and
# 2 standbys given as --postgres-read; and the WAL bytes per event pushed.
#
#   Benchmarks/replicas.sh                       # 100,000 events, 4 devices
#   EVENTS=20000 READERS=2 Benchmarks/replicas.sh
#   SYNC=1 Benchmarks/replicas.sh                # with a synchronous standby: each commit waits for one
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
echo "building (release)…" >&2
(cd "$root" && swift build -c release --product ledger >/dev/null && swift build -c release --product ledger-server >/dev/null)
(cd "$here" && swift build -c release --product repledger-server-bench >/dev/null)
. "$here/pg-cluster.sh"
standbys=()
stop_standbys() { for s in "${standbys[@]}"; do runuser -u postgres -- "$pgbin/pg_ctl" -D "$s/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$s"; done; cleanup; }
trap stop_standbys EXIT
replica_urls=()
for i in 1 2; do
  s=$(mktemp -d); chown postgres "$s"; standbys+=("$s")
  p=$(free_port)
  runuser -u postgres -- "$pgbin/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$s/data" -R -X stream --checkpoint=fast
  start_cluster "$s" "$p"
  replica_urls+=("postgres://postgres@127.0.0.1:$p/bench")
done
if [ "${SYNC:-0}" = 1 ]; then
  psql -h 127.0.0.1 -p "$port" -U postgres -qc "ALTER SYSTEM SET synchronous_standby_names = '*'" -c "SELECT pg_reload_conf()" >/dev/null
  echo "synchronous_standby_names = '*': every commit waits for a standby's flush"
fi
events="${EVENTS:-100000}"
for n in 0 1 2; do
  db="bench$n"
  psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE $db"
  reads=()
  for ((i = 0; i < n; i++)); do reads+=(--postgres-read "${replica_urls[$i]%/bench}/$db"); done
  "$here/.build/release/repledger-server-bench" --ledger "$root/.build/release/ledger" --work "${TMPDIR:-/tmp}/repledger-replicas" \
      --replica-reads --postgres "postgres://postgres@127.0.0.1:$port/$db" "${reads[@]}" \
      --catch-up "$events" --readers "${READERS:-4}" --devices "${DEVICES:-20}" --seconds "${SECONDS_LIVE:-10}"
done
