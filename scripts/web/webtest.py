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

    @staticmethod
    def until(description, check, timeout=20.0):
        """Polls the API (not the page) until `check` returns a truthy value."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            last = check()
            if last:
                return last
            time.sleep(0.1)
        raise AssertionError(f"{description}: still {last!r} after {timeout} s")
