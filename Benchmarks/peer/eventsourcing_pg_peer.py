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
import time
from urllib.parse import urlparse

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Workout(Aggregate):
    @event("Started")
    def __init__(self, name: str):
        self.name = name

    @event("SetLogged")
    def log_set(self, exercise_id: str, weight_kg: float, reps: int, warmup: bool):
        pass


class Ledger(Application):
    log_section_size = 1000


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

    events = 0
    pending, pending_events = [], 0
    t = time.perf_counter()
    for w in workouts:
        aggregate = Workout(name=w["id"])
        for exercise_id, weight_kg, reps, warmup in w["sets"]:
            aggregate.log_set(exercise_id=exercise_id, weight_kg=weight_kg, reps=reps, warmup=warmup)
        pending.append(aggregate)
        pending_events += 1 + len(w["sets"])
        if pending_events >= per_save:
            app.save(*pending)
            events += pending_events
            pending, pending_events = [], 0
    if pending:
        app.save(*pending)
        events += pending_events
    append_seconds = time.perf_counter() - t

    best = {}
    replayed = 0
    t = time.perf_counter()
    start = 1
    while True:
        page = app.notification_log.select(start=start, limit=1000)
        if not page:
            break
        for notification in page:
            domain_event = app.mapper.to_domain_event(notification)
            replayed += 1
            if isinstance(domain_event, Workout.SetLogged) and not domain_event.warmup and domain_event.weight_kg:
                if domain_event.weight_kg > best.get(domain_event.exercise_id, 0):
                    best[domain_event.exercise_id] = domain_event.weight_kg
        start = page[-1].id + 1
    replay_seconds = time.perf_counter() - t
    app.close()
    print(json.dumps({"appendEvents": events, "appendSeconds": append_seconds,
                      "replayEvents": replayed, "replaySeconds": replay_seconds, "exercises": len(best)}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
