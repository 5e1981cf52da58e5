"""What the browser scripts share: a run's report of steps, the API over HTTP, and waiting on it."""
import json
import sys
import time
import urllib.request


class Run:
    """One script's run against Hearth at `base`: its report (steps done; `failed` on failure)."""

    def __init__(self, base):
        self.base = base.rstrip("/")
        self.report = {"steps": []}

    def step(self, name):
        self.report["steps"].append(name)
        print(f"step: {name}", file=sys.stderr, flush=True)

    def gql(self, query, variables=None, token=None):
        request = urllib.request.Request(
            self.base + "/graphql", data=json.dumps({"query": query, "variables": variables or {}}).encode(),
            headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = json.load(response)
        if body.get("errors"):
            raise AssertionError(f"the API refused {query[:60]}: {body['errors']}")
        return body["data"]

    def until(self, description, check, token, household, timeout=45.0):
        """Waits on `household`'s task changes until `check` holds: the `taskChanged` subscription
        over server-sent events, `check` run once the stream is open and again after each change."""
        request = urllib.request.Request(
            self.base + "/graphql",
            data=json.dumps({"query": "subscription($h: UUID!) { taskChanged(householdId: $h) { taskId } }",
                             "variables": {"h": household}}).encode(),
            headers={"Content-Type": "application/json", "Accept": "text/event-stream", "Authorization": f"Bearer {token}"})
        deadline = time.monotonic() + timeout
        with urllib.request.urlopen(request, timeout=timeout) as stream:
            last = check()
            while not last:
                if time.monotonic() > deadline:
                    break
                line = stream.readline()  # the next line of the stream; a read past `timeout` raises
                if not line:
                    raise AssertionError(f"{description}: the change stream ended, still {last!r}")
                if line.startswith(b"event: next"):
                    last = check()
        if not last:
            raise AssertionError(f"{description}: still {last!r} after {timeout} s")
        return last
