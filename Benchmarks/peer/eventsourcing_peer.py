"""The peer workload: the Python `eventsourcing` library (pinned 9.5.6) with
its SQLite recorder, doing what RepLedger does in the same run.

Input: JSON lines, one workout each: {"id": "...", "sets": [[exerciseId, weightKg, reps, warmup], ...]}
(written by repledger-bench from the generated log).
1. Appends: each workout is an aggregate; its start and every set are events;
   whole workouts are saved together, about 1,000 events per `save` (one
   transaction), as RepLedger's import path batches them.
2. Replay: every stored event through the application's notification log, in
   pages, into the same records fold (best weight per exercise, warm-ups
   excluded).
Prints one JSON object with the figures.
"""
import json
import os
import sys
import time

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Workout(Aggregate):
    @event("Started")
    def __init__(self, name: str):
        self.name = name
        self.sets = 0

    @event("SetLogged")
    def log_set(self, exercise_id: str, weight_kg: float, reps: int, warmup: bool):
        self.sets += 1


class Ledger(Application):
    # Pages of 1,000 notifications (the default section is 10).
    log_section_size = 1000


def measure(app: Application, workouts: list, per_save: int) -> dict:
    """Saves whole workouts, about `per_save` events per `save`, then replays
    every event through the notification log into the records fold."""
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
                key = domain_event.exercise_id
                if domain_event.weight_kg > best.get(key, 0):
                    best[key] = domain_event.weight_kg
        start = page[-1].id + 1
    replay_seconds = time.perf_counter() - t

    return {"appendEvents": events, "appendSeconds": append_seconds, "replayEvents": replayed,
            "replaySeconds": replay_seconds, "exercises": len(best), "bestKg": best}


def main(workouts_path: str, db_path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    workouts = [json.loads(line) for line in open(workouts_path, encoding="utf-8")]
    app = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db_path})

    figures = measure(app, workouts, per_save=1000)

    import eventsourcing
    print(json.dumps({
        "library": "eventsourcing " + getattr(eventsourcing, "__version__", "9.5.6"),
        "workouts": len(workouts),
        **figures,
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
