"""A webhook receiver for the tests: checks each delivery's signature as a receiver would.

    webhook_receiver.py DIR

Listens on a free loopback port and writes it to DIR/port. Each POST is appended to DIR/received.jsonl
as {"delivery", "event", "valid", "answered", "body"}; `valid` is whether RepLedger-Signature
(t=UNIX,v1=HEX, HEX the HMAC-SHA256 of "t.body" under the secret in DIR/secret) matches. It answers with the status
in DIR/answer (200 when the file is absent), so a test can make it fail and recover. DIR/answer may
instead say `hang` (the delivery is recorded, answered 0, and the connection held without an answer
for ten minutes) or `huge` (200, then a body of 2 GiB sent until the client hangs up).
"""
import hashlib
import hmac
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

folder = sys.argv[1]

# A test process that serves in process ignores SIGTERM (its lifecycle catches the signal), and a
# child inherits that: take the default back so that the test's terminate ends this receiver.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
parent = os.getppid()


def leave_with_parent():
    """Ends the receiver when the test that started it is gone, however it ended."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=leave_with_parent, daemon=True).start()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = dict(p.split("=", 1) for p in self.headers.get("RepLedger-Signature", "").split(",") if "=" in p)
        try:
            with open(os.path.join(folder, "secret")) as f:
                secret = f.read().strip().encode()
        except OSError:
            secret = b""
        expected = hmac.new(secret, parts.get("t", "").encode() + b"." + body, hashlib.sha256).hexdigest()
        valid = "v1" in parts and hmac.compare_digest(expected, parts["v1"])
        try:
            with open(os.path.join(folder, "answer")) as f:
                answer = f.read().strip()
        except OSError:
            answer = "200"
        status = int(answer) if answer.isdigit() else (0 if answer == "hang" else 200)
        record = {
            "delivery": self.headers.get("RepLedger-Delivery"),
            "event": self.headers.get("RepLedger-Event"),
            "valid": valid,
            "answered": status,
            "body": body.decode(),
        }
        with open(os.path.join(folder, "received.jsonl"), "a") as f:
            f.write(json.dumps(record) + "\n")
        if answer == "hang":
            time.sleep(600)
            return
        self.send_response(status)
        if answer == "huge":
            self.send_header("Content-Length", str(2 << 30))
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range((2 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass
            return
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.replace(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
server.serve_forever()
