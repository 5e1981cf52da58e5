"""The household app over HTTPS in Debian's Chromium, driven by Playwright, against `hearth serve`
with a certificate the test made (argv[1], e.g. https://127.0.0.1:8443). Chromium trusts exactly the
test's keys (argv[2]: their SPKI SHA-256 hashes, comma-separated), as a device trusts a home
server's certificate. argv[3] is the certificate's common name the page must come with.

With argv[4] == "sign-up": a person signs up and makes a household; the page is a secure context,
its service worker registers and the poke socket connects over WSS. Otherwise: a fresh browser
(new connections) gets the page with the expected certificate and the service worker registers.
Prints a JSON report; exits non-zero at the first failure.
"""
import sys
import time

from playwright.sync_api import expect

from webtest import Run

BASE, SPKI, COMMON_NAME = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
SIGN_UP = len(sys.argv) > 4 and sys.argv[4] == "sign-up"
run = Run(BASE)
report, step = run.report, run.step
expect.set_options(timeout=45_000)


def journey(playwright):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--no-sandbox", f"--ignore-certificate-errors-spki-list={SPKI}"])
    context = browser.new_context()
    run.watch_console(context)
    page = context.new_page()
    # The app's socket, with every frame it receives (listened to from its creation on).
    sockets = []
    page.on("websocket", lambda ws: sockets.append({"socket": ws, "frames": []}) or ws.on("framereceived", lambda payload: sockets[-1]["frames"].append(payload)))
    response = page.goto(BASE + ("/signup" if SIGN_UP else "/"))
    details = response.security_details() or {}
    assert details.get("subjectName") == COMMON_NAME, f"served with {details}, not the certificate named {COMMON_NAME}"
    assert page.evaluate("window.isSecureContext") is True, "not a secure context"
    step(f"the app loads over HTTPS with the certificate {COMMON_NAME}")
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.active ? registration.scope : null)")
    assert scope == BASE + "/", f"the service worker's scope is {scope}"
    step("its service worker registers")
    if not SIGN_UP:
        return browser.close()

    page.get_by_label("Name", exact=True).fill("Tess")
    page.get_by_label("Email").fill(f"tess-{int(time.time() * 1000)}@example.org")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Create account").click()
    page.get_by_label("Household name").fill("Over HTTPS")
    page.get_by_role("button", name="Create household").click()
    expect(page.get_by_role("heading", name="Agenda")).to_be_visible()
    if not sockets:
        page.wait_for_event("websocket")
    opened = sockets[0]
    assert opened["socket"].url == BASE.replace("https://", "wss://") + "/graphql", f"the poke socket went to {opened['socket'].url}"
    acknowledged = lambda payload: "connection_ack" in str(payload)
    if not any(acknowledged(frame) for frame in opened["frames"]):
        opened["socket"].wait_for_event("framereceived", predicate=acknowledged)
    step("the poke socket connects over WSS")
    assert not run.refused, f"the Content-Security-Policy refused: {run.refused[:5]}"
    browser.close()


run.finish(lambda: run.browse(journey))
