"""The peer on PostgreSQL: the Python `eventsourcing` library (pinned 9.5.6)
with its PostgreSQL recorder, on the same database as RepLedger's store.

Usage: eventsourcing_pg_peer.py WORKOUTS.jsonl postgres://USER@HOST:PORT/DB EVENTS_PER_SAVE
Input as for eventsourcing_peer.py. Appends whole workouts, about
EVENTS_PER_SAVE events per `save` (one transaction), then replays every
event through the notification log into the same records fold. Its tables
are dropped first, so each run starts empty. Prints one JSON object.
"""
import json
import sys
from urllib.parse import urlparse

import psycopg
from eventsourcing_peer import Ledger, measure


def main(workouts_path: str, url: str, per_save: int) -> None:
    u = urlparse(url)
    dbname = u.path.lstrip("/")
    table = "ledger_events"  # the recorder names it after the application
    with psycopg.connect(host=u.hostname, port=u.port or 5432, user=u.username, password=u.password or "", dbname=dbname,
                         autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS %s" % table)
    workouts = [json.loads(line) for line in open(workouts_path, encoding="utf-8")]
    app = Ledger(env={
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname, "POSTGRES_HOST": u.hostname, "POSTGRES_PORT": str(u.port or 5432),
        "POSTGRES_USER": u.username, "POSTGRES_PASSWORD": u.password or "",
        "CREATE_TABLE": "y",
    })

    figures = measure(app, workouts, per_save)
    app.close()
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
