"""A reminder pushed to the household app's service worker, in Debian's Chromium driven by
Playwright, against a running Hearth (argv[1]) whose --public-url is that address and whose
reminder and delivery loops run.

No push service is reachable here, so this script stands in for one: Hearth delivers the reminder
to a webhook this script serves on loopback (the same JSON a Web Push message carries), and the
script hands it to the service worker as a push message (Chromium's DevTools protocol,
ServiceWorker.deliverPushMessage). Then: the notification shows with Complete and Snooze; with
every page closed, the Complete button (a notificationclick with action "complete") completes the
task through the reminder's action link; a DISMISS closes a reminder. Prints a JSON report; exits
non-zero at the first failure.
"""
import datetime
import http.server
import json
import queue
import sys
import threading
import time

from playwright.sync_api import sync_playwright

from webtest import Run

BASE = sys.argv[1].rstrip("/")
STAMP = str(int(time.time() * 1000))
run = Run(BASE)
report, step, gql, until = run.report, run.step, run.gql, run.until


# The stand-in push service: what Hearth delivers to the webhook, in order.
delivered = queue.Queue()


class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        delivered.put(json.loads(body)["data"])
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
threading.Thread(target=hook.serve_forever, daemon=True).start()


def remind(token, household, title):
    """A task whose reminder fires in a second; the message Hearth delivers for it."""
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    task = gql("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
               {"h": household, "i": {"title": title, "deadline": stamp(now + datetime.timedelta(hours=1)),
                                      "remindAt": stamp(now + datetime.timedelta(seconds=1))}}, token)["createTask"]["id"]
    message = delivered.get(timeout=60)
    assert message["kind"] == "REMINDER" and message["taskId"] == task, message
    return task, message


def main():
    token = gql('mutation($e: String!) { signUp(input: {email: $e, password: "correct horse battery", displayName: "Pia"}) { token } }',
                {"e": f"pia-{STAMP}@example.org"})["signUp"]["token"]
    household = gql('mutation { createHousehold(input: {name: "Push test", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
    gql("mutation($u: URL!) { addWebhook(input: {url: $u, kinds: [REMINDER]}) { secret } }",
        {"u": f"http://127.0.0.1:{hook.server_port}/push"}, token)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = browser.new_context()
        context.grant_permissions(["notifications"], origin=BASE)
        page = context.new_page()
        page.goto(BASE + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        devtools = context.new_cdp_session(page)
        registrations = []
        devtools.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
        devtools.send("ServiceWorker.enable")
        until_registered = time.monotonic() + 30
        while not any(not r.get("isDeleted") for r in registrations) and time.monotonic() < until_registered:
            page.wait_for_timeout(100)
        registration = next(r["registrationId"] for r in registrations if not r.get("isDeleted"))

        def push(message):
            devtools.send("ServiceWorker.deliverPushMessage", {"origin": BASE, "registrationId": registration, "data": json.dumps(message)})

        shown = "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, actions: n.actions.map(a => [a.action, a.title])})))"

        task, message = remind(token, household, "Water the plants")
        assert [link["title"] for link in message["actionLinks"]] == ["Complete", "Snooze 15 min"], message
        push(message)
        page.wait_for_function(f"({shown}).then(ns => ns.length === 1)")
        notification = page.evaluate(shown)[0]
        assert notification["title"] == "Water the plants" and notification["tag"] == message["id"], notification
        assert notification["actions"] == [["complete", "Complete"], ["snooze", "Snooze 15 min"]], notification
        step("a pushed reminder shows with Complete and Snooze")

        # Every page closed: the button works through the service worker alone.
        page.close()
        worker = context.service_workers[0]
        worker.evaluate("""async () => {
            const [shown] = await self.registration.getNotifications();
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification: shown, action: "complete" }));
        }""")
        until("the task completed by its notification's button",
              lambda: gql("query($t: UUID!) { task(id: $t) { completed } }", {"t": task}, token)["task"]["completed"], token, household)
        step("Complete works with the app closed")

        page = context.new_page()
        page.goto(BASE + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        devtools = context.new_cdp_session(page)
        devtools.send("ServiceWorker.enable")
        second, message = remind(token, household, "Call the plumber")
        push(message)
        page.wait_for_function(f"({shown}).then(ns => ns.some(n => n.tag === {json.dumps(message['id'])}))")
        gql("mutation($t: UUID!) { completeTask(id: $t) { completed } }", {"t": second}, token)
        push({"id": message["id"], "kind": "DISMISS"})
        page.wait_for_function(f"({shown}).then(ns => !ns.some(n => n.tag === {json.dumps(message['id'])}))")
        step("DISMISS closes the reminder")
        browser.close()


run.finish(main)
