#!/usr/bin/env bash
# Recovery time on pg_auto_failover (issue 51): a monitor and two nodes on
# loopback, `ledger serve` given the monitor's connection string, three
# writers pushing; five drills that kill -9 the primary node (keeper and
# PostgreSQL) and five planned switchovers, each timed from the kill (or the
# switchover's start) to the first acknowledged push. Prints every drill and
# the distribution (docs/CAPACITY.md keeps them).
#
#   Benchmarks/failover.sh                  # the monitor's default timings
#   Benchmarks/failover.sh --timings quick  # the tests' short ones (AutoFailoverFormation.quickTimings)
#   Benchmarks/failover.sh --drills 3
#
# Needs Debian's postgresql-15 and postgresql-15-auto-failover; runs as root (nodes run as postgres).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
timings=default; drills=5
while [ $# -gt 0 ]; do
  case "$1" in
    --timings) timings="$2"; shift 2 ;;
    --drills) drills="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
chown postgres "$work"
mkdir -p "$work/keepers"
env_vars=(XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/share" XDG_RUNTIME_DIR="$work/run" PATH="$pgbin:/usr/bin:/bin")
autoctl="runuser -u postgres -- env ${env_vars[*]} pg_autoctl"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
  for f in "$work"/keepers/*; do [ -f "$f" ] && kill -9 -- "-$(cat "$f")" 2>/dev/null || true; done
  for d in "$work"/monitor "$work"/node_*; do
    [ -f "$d/postmaster.pid" ] && runuser -u postgres -- "$pgbin/pg_ctl" -D "$d" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
start_keeper() {  # NAME: pg_autoctl run in a process group of its own; its id kept for the drills
  local pidfile="$work/run/pg_autoctl$work/$1/pg_autoctl.pid"
  rm -f "$pidfile"
  setsid $autoctl run --pgdata "$work/$1" </dev/null >>"$work/$1.log" 2>&1 &
  echo $! > "$work/keepers/$1"
}
export -f start_keeper
settled() { $autoctl show state --pgdata "$work/monitor" --json 2>/dev/null | python3 -c '
import json,sys; s=json.load(sys.stdin); sys.exit(0 if len(s)==int(sys.argv[1]) and all(n["current_group_state"]==n["assigned_group_state"] for n in s) else 1)' "$1"; }

mport=$(free_port)
$autoctl create monitor --pgdata "$work/monitor" --pgport "$mport" --hostname 127.0.0.1 --listen 127.0.0.1 --auth trust --no-ssl >/dev/null 2>&1
start_keeper monitor
until psql -h 127.0.0.1 -p "$mport" -U postgres -d pg_auto_failover -Atc 'SELECT 1' >/dev/null 2>&1; do sleep 0.2; done
if [ "$timings" = quick ]; then
  for setting in health_check_period=1000 health_check_timeout=2000 health_check_max_retries=1 health_check_retry_delay=500 \
                 node_considered_unhealthy_timeout=5000 primary_demote_timeout=5000; do
    psql -h 127.0.0.1 -p "$mport" -U postgres -d pg_auto_failover -qc "ALTER SYSTEM SET pgautofailover.${setting%%=*} = ${setting##*=}"
  done
  psql -h 127.0.0.1 -p "$mport" -U postgres -d pg_auto_failover -qc "SELECT pg_reload_conf()"
fi
for i in 1 2; do
  $autoctl create postgres --pgdata "$work/node_$i" --pgport "$(free_port)" --hostname 127.0.0.1 --listen 127.0.0.1 --auth trust \
      --no-ssl --monitor "postgres://autoctl_node@127.0.0.1:$mport/pg_auto_failover?sslmode=prefer" --dbname ledger --name "node_$i" >/dev/null 2>&1
  start_keeper "node_$i"
  until settled "$i"; do sleep 0.5; done
done
uri=$($autoctl show uri --pgdata "$work/monitor" --formation default)
echo "formation: $uri (timings: $timings)"

# A release build, unless LEDGER_BIN names one (the recovery time is the manager's seconds, not the server's milliseconds).
if [ -n "${LEDGER_BIN:-}" ]; then
  ledger="$LEDGER_BIN"
else
  (cd "$root" && swift build -c release --product ledger >/dev/null)
  ledger="$(cd "$root" && swift build -c release --show-bin-path)/ledger"
fi
export PGUSER=postgres
keys="$work/keys"
# The writers are a load, not clients: the published limits would pace them.
"$ledger" serve --listen 127.0.0.1:0 --postgres "$uri" --keys "$keys" --key-requests-per-minute 0 --account-requests-per-minute 0 \
    --key-appends-per-minute 0 --account-appends-per-minute 0 > "$work/serve.out" 2> "$work/serve.log" &
server_pid=$!
until grep -q listening "$work/serve.out" 2>/dev/null; do sleep 0.2; done
base="http://$(grep -o '127\.0\.0\.1:[0-9]*' "$work/serve.out" | head -n 1)"
created=$("$ledger" server account create drills --json --postgres "$uri" --keys "$keys")
account=$(echo "$created" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accountId"])')
token=$(echo "$created" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

export AUTOCTL="$autoctl" MONITOR_PGDATA="$work/monitor" KEEPER_PID_DIR="$work/keepers" NODE_DIR_node_1="$work/node_1" NODE_DIR_node_2="$work/node_2"
printf '#!/usr/bin/env bash\nset -e\n%s\nautoctl="%s"; work="%s"\nstart_keeper "$1"\n' "$(declare -f start_keeper)" "$autoctl" "$work" > "$work/start-node"
chmod +x "$work/start-node"
export START_NODE="$work/start-node"
echo "machine: $(nproc) cores, $(uname -r); ledger: $ledger"
python3 "$here/failover/drills.py" "$base" "$account" "$token" kill "$drills"
python3 "$here/failover/drills.py" "$base" "$account" "$token" switchover "$drills"
verify=$(curl -s -H "Authorization: Bearer $token" "$base/v1/accounts/$account/verify")
echo "verify: $verify"
