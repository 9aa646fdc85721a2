"""Failover drills against a running `ledger serve` on a pg_auto_failover
formation (started by Benchmarks/failover.sh): three writers push batches of
five new workouts; each drill kills the primary node (its keeper and its
PostgreSQL, kill -9) or asks the monitor for a switchover, and times from
that moment to the first push acknowledged after it. The killed node's keeper
is started again and the formation left to settle before the next drill.
Prints each time and the distribution; nothing here asserts a time."""
import json, os, signal, subprocess, sys, threading, time, urllib.request, uuid

base, account, token, kind, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
autoctl = os.environ["AUTOCTL"].split()  # the pg_autoctl command, as the postgres user, with the formation's environment
monitor = os.environ["MONITOR_PGDATA"]

def push():
    events = []
    for _ in range(5):
        w = str(uuid.uuid4())
        events.append({"eventId": str(uuid.uuid4()), "stream": "workout-" + w, "type": "WorkoutStarted", "schema": 1,
                       "occurredAt": "2026-11-02T10:00:00.000Z",
                       "payload": {"workoutId": w, "name": "Drill", "origin": "empty", "templateId": None,
                                   "programId": None, "programDayIndex": None}})
    request = urllib.request.Request(base + "/v1/accounts/%s/events" % account, data=json.dumps({"events": events}).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception:
        return -1

pushes = []  # (sent, answered, status) of every push
statuses = {}
lock = threading.Lock()
stop = False

def writer():
    while not stop:
        sent = time.monotonic()
        status = push()
        with lock:
            statuses[status] = statuses.get(status, 0) + 1
            pushes.append((sent, time.monotonic(), status))
        if status != 200:
            time.sleep(0.05)

def state():
    out = subprocess.run(autoctl + ["show", "state", "--pgdata", monitor, "--json"], capture_output=True, text=True).stdout
    try:
        return json.loads(out)
    except ValueError:
        return []

def settled():
    s = state()
    return len(s) == 2 and all(n["current_group_state"] == n["assigned_group_state"] for n in s) \
        and any(n["current_group_state"] == "primary" for n in s)

def wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True

threads = [threading.Thread(target=writer, daemon=True) for _ in range(3)]
for t in threads:
    t.start()
times = []
for drill in range(count):
    if not wait(settled, 300):
        sys.exit("the formation did not settle: %s" % state())
    time.sleep(2)  # some acknowledged pushes before the moment
    primary = next(n for n in state() if n["current_group_state"] == "primary")
    name = primary["nodename"]
    start = time.monotonic()
    if kind == "kill":
        keeper = int(open(os.environ["KEEPER_PID_DIR"] + "/" + name).read())
        postmaster = int(open(os.environ["NODE_DIR_" + name] + "/postmaster.pid").readline())
        os.killpg(keeper, signal.SIGKILL)
        try:
            os.kill(postmaster, signal.SIGKILL)
        except ProcessLookupError:
            pass
    else:
        subprocess.run(autoctl + ["perform", "switchover", "--pgdata", monitor], capture_output=True, check=True)
    # Over once pushes have been acknowledged for three seconds running, none refused since.
    def over():
        with lock:
            recent = [p for p in pushes if p[0] > start]
        refused = [p[0] for p in recent if p[2] != 200]
        last = max(refused, default=start)
        return any(p[2] == 200 for p in recent) and time.monotonic() - last > 3 and any(p[0] > last and p[2] == 200 for p in recent)
    if not wait(over, 300):
        sys.exit("no push acknowledged within 300 s of the %s" % kind)
    with lock:
        recent = [p for p in pushes if p[0] > start]
    refused = [p[0] for p in recent if p[2] != 200]
    last = max(refused, default=start)
    first = min(p[1] for p in recent if p[2] == 200 and p[0] > last)
    # A kill: from the kill to the first push acknowledged after the last refusal. A switchover: the window
    # in which pushes were refused (none: 0).
    took = first - start if kind == "kill" else (first - min(refused) if refused else 0.0)
    times.append(took)
    print("drill %d (%s of %s): %.2f s (%d pushes refused)" % (drill + 1, kind, name, took, len(refused)), flush=True)
    if kind == "kill":
        subprocess.run([os.environ["START_NODE"], name], check=True)
stop = True
for t in threads:
    t.join()
times.sort()
def q(p):
    return times[min(len(times) - 1, int(round(p * (len(times) - 1))))]
print("%s: %d drills, writes unavailable min %.2f s, median %.2f s, max %.2f s; pushes answered %s"
      % (kind, len(times), times[0], q(0.5), times[-1], dict(sorted(statuses.items()))))
