"""Times the inspector's pages in Chromium through chromedriver's WebDriver
protocol (plain HTTP, no client library): each navigation's time from the
request's start to the page's load event, read from the page's own
Navigation Timing entry.

    python3 browser_timing.py ADDRESS HEAD STEPS

ADDRESS is what `ledger inspect` printed (its one-time code signs the browser
in). Prints one JSON object: the log page's first screen (5 loads) and the
As-of view moved one event at a time with the arrow keys (STEPS steps around
the middle of the log), each as milliseconds.
"""
import json
import socket
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read() or b"{}").get("value")


def main():
    address, head, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    origin = address.split("/inspect")[0]
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
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"]}}}}
        session = call(base, "POST", "/session", caps)["sessionId"]
        s = f"/session/{session}"

        def navigation_ms():
            return call(base, "POST", s + "/execute/sync", {"script": (
                "const n = performance.getEntriesByType('navigation')[0];"
                "return n ? n.loadEventEnd - n.startTime : null;"), "args": []})

        def wait_for(url_suffix):
            end = time.time() + 60
            while time.time() < end:
                if call(base, "GET", s + "/url").endswith(url_suffix) and call(base, "POST", s + "/execute/sync", {
                        "script": "return document.readyState === 'complete'", "args": []}):
                    return
                time.sleep(0.005)
            raise RuntimeError("page did not load: " + url_suffix)

        call(base, "POST", s + "/url", {"url": address})
        log = []
        for _ in range(5):
            call(base, "POST", s + "/url", {"url": origin + "/inspect/log"})
            log.append(navigation_ms())
        middle = head // 2
        call(base, "POST", s + "/url", {"url": f"{origin}/inspect/at/{middle}"})
        first = navigation_ms()
        position, moves = middle, []
        keys = {"\ue014": 1, "\ue012": -1}
        for i in range(steps):
            # Forward mostly, back every fourth step: a person stepping through a session.
            key = "\ue012" if i % 4 == 3 else "\ue014"
            call(base, "POST", s + "/actions", {"actions": [{"type": "key", "id": "k", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})
            position += keys[key]
            wait_for(f"/inspect/at/{position}")
            moves.append(navigation_ms())
        call(base, "DELETE", s)
        print(json.dumps({"logFirstScreenMs": log, "asOfFirstMs": first, "asOfStepMs": moves}))
    finally:
        driver.kill()


if __name__ == "__main__":
    main()
