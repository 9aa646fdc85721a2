"""Times the lifter's app in Chromium through chromedriver's WebDriver protocol (plain HTTP), with the page's own
Performance API: the first load, a tap to the set shown, each command's round trip to the server (its resource
timing entry), and 200 commands queued offline flushed once the network returns.

    python3 app_timing.py ADDRESS TAPS

ADDRESS is what `ledger app` printed (its one-time code opens the app's session). Prints one JSON object.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inspector"))
from browser_timing import call, free_port  # noqa: E402


def main():
    address, taps = sys.argv[1], int(sys.argv[2])
    port = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                call(base, "GET", "/status")
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"]}}}}
        s = "/session/" + call(base, "POST", "/session", caps)["sessionId"]

        def run(script, *args):
            return call(base, "POST", s + "/execute/sync", {"script": script, "args": list(args)})

        def run_async(script, *args):
            return call(base, "POST", s + "/execute/async", {"script": script, "args": list(args)})

        def until(condition, seconds=120):
            end = time.time() + seconds
            while time.time() < end:
                if run("return " + condition):
                    return
                time.sleep(0.01)
            raise RuntimeError("never: " + condition)

        def network(offline):
            call(base, "POST", s + "/goog/cdp/execute", {"cmd": "Network.enable", "params": {}})
            call(base, "POST", s + "/goog/cdp/execute", {"cmd": "Network.emulateNetworkConditions", "params": {
                "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}})

        call(base, "POST", s + "/timeouts", {"script": 120000})
        call(base, "POST", s + "/url", {"url": address})
        until("document.readyState === 'complete' && document.getElementById('pending')?.textContent !== ''")
        # First load: from the navigation's start to the workout screen shown with the server's answer, five times.
        first = []
        for _ in range(5):
            call(base, "POST", s + "/url", {"url": address.split("/app/open")[0] + "/app"})
            first.append(run_async(
                "const done = arguments[0];"
                "const ready = () => document.getElementById('pending')?.textContent && !document.getElementById('title').textContent.startsWith('RepLedger');"
                "const poll = () => ready() ? done(performance.now()) : requestAnimationFrame(poll); poll();"))
        run("document.getElementById('start').hidden || document.getElementById('start').click()")
        until("!document.getElementById('log').hidden && document.getElementById('pending').dataset.pending === '0'")
        run("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(5000)")

        # A tap to the set shown: Log set submitted, until its row is on the screen (the outbox's pending row).
        tap = []
        for n in range(taps):
            tap.append(run_async(
                "const [reps, done] = arguments; const cards = document.getElementById('exercises');"
                "const before = cards.querySelectorAll('li').length; const f = document.getElementById('log');"
                "f.exercise.value = 'Bench Press (Barbell)'; f.weight.value = '80'; f.reps.value = String(reps);"
                "const t0 = performance.now(); f.requestSubmit();"
                "const poll = () => cards.querySelectorAll('li').length > before ? done(performance.now() - t0) : requestAnimationFrame(poll); poll();",
                n % 10 + 1))
            until("document.getElementById('pending').dataset.pending === '0'")
        commands = run("return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/commands')).map(e => e.duration)")

        # 200 commands queued offline, then flushed: from the network's return until the last is on the server.
        network(True)
        for n in range(200):
            run("const f = document.getElementById('log'); f.exercise.value = 'Bench Press (Barbell)'; f.weight.value = '60';"
                "f.reps.value = arguments[0]; f.requestSubmit();", str(n % 10 + 1))
        until("document.getElementById('pending').dataset.pending === '200'")
        start = time.time()
        network(False)
        until("document.getElementById('pending').dataset.pending === '0'")
        flush = (time.time() - start) * 1000
        print(json.dumps({"firstLoadMs": first, "tapToShownMs": tap, "commandMs": commands, "flush200Ms": flush}))
        call(base, "DELETE", s)
    finally:
        driver.kill()


if __name__ == "__main__":
    main()
