# Sourced by the PostgreSQL benchmarks: starts a throwaway PostgreSQL cluster
# (initdb as the postgres user, trust on a free loopback port, removed on
# exit) and sets `work`, `port` and `pgbin`.
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d)
cleanup() { runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
chown postgres "$work"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
runuser -u postgres -- "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/data" -l "$work/log" -w \
    -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null
