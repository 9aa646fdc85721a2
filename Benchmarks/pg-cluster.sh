# Sourced by the PostgreSQL benchmarks: starts a throwaway PostgreSQL cluster
# (initdb as the postgres user, trust on a free loopback port, removed on
# exit) and sets `work`, `port` and `pgbin`; `free_port` and `start_cluster
# DIR PORT` start more (the standbys of replicas.sh).
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_cluster() {
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$1/data" -l "$1/log" -w \
      -o "-p $2 -k $1 -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null
}
work=$(mktemp -d)
cleanup() { runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
chown postgres "$work"
port=$(free_port)
runuser -u postgres -- "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
start_cluster "$work" "$port"
