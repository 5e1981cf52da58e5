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

    def watch_console(self, context):
        """Notes what the context's pages say the Content-Security-Policy refused (inline script or
        style would be); sets generous time-outs (the suite runs beside every other test)."""
        context.set_default_timeout(45_000)
        self.contexts = getattr(self, "contexts", []) + [context]
        self.refused = getattr(self, "refused", [])
        context.on("console", lambda message: self.refused.append(message.text) if "Content Security Policy" in message.text else None)
        # Uncaught errors in the app, reported with the run (a failing step then says why).
        context.on("weberror", lambda error: self.report.setdefault("pageErrors", []).append(str(error.error)[:500]))

    def finish(self, body):
        """Runs the script's `body`, then prints the report as JSON; a failure is reported with the
        step it followed, and the script exits with status 1."""
        try:
            body()
        except BaseException as error:
            steps = self.report["steps"]
            self.report["failed"] = f"after step {steps[-1] if steps else '(none)'}: {type(error).__name__}: {error}"[:4000]
            print(json.dumps(self.report))
            sys.exit(1)
        print(json.dumps(self.report))

    def browse(self, journey):
        """Runs `journey(playwright)`; when it fails, notes what each open page showed before the browser closes."""
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            try:
                journey(playwright)
            except BaseException:
                self.report["screens"] = self.screens()
                raise

    def screens(self):
        """What every open page shows (its address and accessibility tree), for a failure's report."""
        shown = []
        for context in getattr(self, "contexts", []):
            for page in context.pages:
                try:
                    shown.append({"url": page.url, "screen": page.locator("body").aria_snapshot(timeout=2000)[:3000]})
                except Exception as error:  # a closed page or browser: say so
                    shown.append({"url": page.url, "screen": f"(unreadable: {error})"[:200]})
        return shown

    def accessible(self, page, screen):
        """axe-core on the screen as it is: no critical or serious violation (counted in the report)."""
        from axe_playwright_python.sync_playwright import Axe
        self.axe = getattr(self, "axe", None) or Axe()
        results = self.axe.run(page)
        bad = [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
               for v in results.response["violations"] if v["impact"] in ("critical", "serious")]
        self.report.setdefault("axe", {})[screen] = len(bad)
        assert not bad, f"axe found serious problems on {screen}: {json.dumps(bad)}"

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
