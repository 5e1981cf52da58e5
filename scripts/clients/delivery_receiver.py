"""Real receivers for Hearth's notification channels, on loopback, for the delivery tests: a Web
Push service that decrypts each message (RFC 8291, http_ece) and verifies its VAPID header
(RFC 8292, py_vapid), an ntfy server that keeps what it is sent, and a webhook receiver that
verifies Standard Webhooks signatures (rejecting replays older than 5 minutes). Run from
.build/python-webpush; prints `listening <port>`, then serves until killed or until its standard
input closes (the test process that started it ended).

  POST /configure             {"<name>": {"privateKey", "auth", "subject"} | {"secret"} | {"statuses": [500, 200, "hang"]}}
                              ("hang": hold the request 30 s before answering, as a receiver that never answers)
  POST /push/<name>           a Web Push message for subscription <name>
  POST /ntfy/<topic>          an ntfy publish
  POST /webhook/<name>        a webhook delivery
  GET  /received              everything received, in order, with what verification found
  GET  /received?atLeast=N     the same, once N requests have arrived (or after 60 s)
"""
import json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, __import__("os").path.dirname(__file__))
import delivery_verify

lock = threading.Condition()
config = {}
received = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/received":
            wanted = int(dict(part.split("=", 1) for part in query.split("&") if "=" in part).get("atLeast", "0"))
            with lock:
                lock.wait_for(lambda: len(received) >= wanted, timeout=60)
                body = json.dumps(received).encode()
            return self.answer(200, body, {"Content-Type": "application/json"})
        self.answer(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = self.path.strip("/").split("/")
        if parts == ["configure"]:
            with lock:
                for name, settings in json.loads(body).items():
                    config.setdefault(name, {}).update(settings)
            return self.answer(204)
        if len(parts) != 2 or parts[0] not in ("push", "ntfy", "webhook"):
            return self.answer(404)
        kind, name = parts
        headers = {key.lower(): value for key, value in self.headers.items()}
        entry = {"kind": kind, "name": name, "headers": headers, "at": time.time()}
        with lock:
            settings = dict(config.get(name, {}))
            statuses = config.get(name, {}).get("statuses") or []
            status = statuses.pop(0) if statuses else 201
        if kind == "push":
            check = delivery_verify.webpush({
                "body": __import__("base64").b64encode(body).decode(), "privateKey": settings.get("privateKey", ""),
                "auth": settings.get("auth", ""), "authorization": headers.get("authorization", ""),
                "endpoint": "http://%s%s" % (headers.get("host", ""), self.path), "subject": settings.get("subject", "")})
            entry.update(check)
            if "plaintext" in check:
                entry["payload"] = json.loads(check["plaintext"])
        elif kind == "ntfy":
            entry["body"] = body.decode()
        else:
            check = delivery_verify.webhook({"secret": settings.get("secret", ""), "headers": headers, "body": body.decode()})
            entry.update(check)
            if "error" in check:
                status = 401
        with lock:
            received.append(entry)
            lock.notify_all()
        if status == "hang":
            time.sleep(30)
            status = 504
        entry["status"] = status
        self.answer(status, b"ok")


def exit_with_parent():
    """Ends the receiver when its standard input closes: the test that started it is gone."""
    sys.stdin.read()
    __import__("os")._exit(0)


if __name__ == "__main__":
    threading.Thread(target=exit_with_parent, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening %d" % server.server_address[1], flush=True)
    server.serve_forever()
