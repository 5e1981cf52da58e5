"""The household app as a family uses it, in Debian's Chromium driven by Playwright, against a
running Hearth (argv[1], e.g. http://127.0.0.1:8080); argv[2] is where the README's screenshot goes.

Every step finds elements by role and accessible name, as a person or a screen reader would; the
result is checked through the API as well. Prints a JSON report; exits non-zero at the first failure.
"""
import re
import sys
import time

from playwright.sync_api import expect

from webtest import Run

BASE = sys.argv[1].rstrip("/")
SCREENSHOT = sys.argv[2] if len(sys.argv) > 2 else None
STAMP = str(int(time.time() * 1000))
run = Run(BASE)
report, step, gql, until = run.report, run.step, run.gql, run.until
report["axe"] = {}
# Generous: the suite runs beside every other test on two cores, and a loaded machine is slow, not wrong.
expect.set_options(timeout=45_000)


def token_of(page):
    return page.evaluate("JSON.parse(localStorage.getItem('hearth.session')).token")


watch_console, accessible = run.watch_console, run.accessible
run.refused = refused = []  # what the pages' consoles said the policy refused


def sign_up(page, name, email, password="correct horse battery"):
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Create account").click()


def task(page, title):
    return page.get_by_role("listitem").filter(has=page.get_by_role("link", name=title, exact=True))


def add_task(page, title):
    box = page.get_by_label("New task")
    box.fill(title)
    box.press("Enter")
    expect(task(page, title)).to_be_visible()


def open_task(page, title):
    page.get_by_role("link", name=title, exact=True).click()
    expect(page.get_by_label("Title")).to_have_value(title)


def edit(page, title, field, value):
    """Opens a task from the task list, changes one field, saves, and returns to the list."""
    open_task(page, title)
    page.get_by_label(field, exact=True).fill(value)
    page.get_by_role("button", name="Save").click()
    page.get_by_role("link", name="Tasks", exact=True).click()


def tasks_of(token, household):
    data = gql("query($h: UUID!) { household(id: $h) { tasks(first: 100, filter: {}) { edges { node { id title notes } } } } }",
               {"h": household}, token)
    return [edge["node"] for edge in data["household"]["tasks"]["edges"]]


def with_title(tasks, title):
    """`tasks` when one of them has `title`, else None (for `until`)."""
    return tasks if any(t["title"] == title for t in tasks) else None


def status(page):
    return page.get_by_role("status").filter(has_text=re.compile("Online|Offline|Syncing|Downloading"))


def journey(playwright):
    # hearth.test reaches this Hearth by a name, as a phone reaches a home server: plain HTTP there is not a secure context.
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--host-resolver-rules=MAP hearth.test 127.0.0.1"])
    # Ada, in Berlin.
    ada = browser.new_context(timezone_id="Europe/Berlin", viewport={"width": 1100, "height": 800})
    watch_console(ada)
    a = ada.new_page()
    a.goto(BASE + "/signup")
    accessible(a, "sign-up")
    sign_up(a, "Ada", f"ada-{STAMP}@example.org")
    step("signed up")
    expect(a.get_by_label("Household name")).to_be_visible()
    accessible(a, "first household")
    a.get_by_label("Household name").fill("Elm Street")
    a.get_by_role("button", name="Create household").click()
    expect(a.get_by_role("heading", name="Agenda")).to_be_visible()
    ada_token = token_of(a)
    household = gql("{ households { edges { node { id timeZone } } } }", token=ada_token)["households"]["edges"][0]["node"]
    assert household["timeZone"] == "Europe/Berlin", f"the household's zone is {household['timeZone']}, not the browser's"
    step("created a household in the browser's zone")
    accessible(a, "agenda")

    # Ada invites Bob, who joins by the link in another browser.
    a.get_by_role("link", name="Members").click()
    a.get_by_role("button", name="Invite").click()
    link = a.get_by_role("link", name=re.compile("join"))
    expect(link).to_be_visible()
    join_url = link.inner_text()
    assert "/join/" in join_url
    accessible(a, "members")
    # Bob, in New York, with his system in dark mode.
    bob = browser.new_context(timezone_id="America/New_York", color_scheme="dark")
    watch_console(bob)
    b = bob.new_page()
    b.goto(join_url)
    expect(b.get_by_label("Invitation code")).not_to_have_value("")
    sign_up(b, "Bob", f"bob-{STAMP}@example.org")
    expect(b.get_by_role("heading", name="Agenda")).to_be_visible()
    accessible(b, "agenda, dark")
    bob_token = token_of(b)
    step("Bob joined by the link")

    # Both see each other's tasks, without reloading.
    a.get_by_role("link", name="Tasks", exact=True).click()
    b.get_by_role("link", name="Tasks", exact=True).click()
    add_task(a, "Buy milk")
    expect(task(b, "Buy milk")).to_be_visible()
    add_task(b, "Fix bike")
    expect(task(a, "Fix bike")).to_be_visible()
    expect(a.get_by_role("checkbox", name="Done: Fix bike")).not_to_be_checked()
    accessible(a, "tasks")
    step("each sees the other's tasks without reload")
    a.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # With the service worker in charge, the server's own addresses opened in the browser reach the server
    # (a feed, an action link, CalDAV, an export answer as themselves), while the app's own pages are its shell.
    def navigation(path):
        """Opens `path` in a page of its own, under the service worker; returns the answer the page got."""
        probe = ada.new_page()
        answers = []
        probe.on("response", lambda r: answers.append(r) if r.request.is_navigation_request() and r.url == BASE + path else None)
        try:
            probe.goto(BASE + path)
        except Exception:
            # Chromium turns an error status with an empty body into its own error page, and Playwright's goto
            # fails; the answer itself was seen on its way.
            if not answers:
                raise
        probe.close()
        return answers[0] if answers else None
    for path, expected in [("/feeds/not-a-feed.ics", 404), ("/actions/not-a-link", 404), ("/dav/", 401),
                           (f"/households/{household['id']}/export", 401)]:
        response = navigation(path)
        assert response is not None and response.status == expected and not response.from_service_worker, \
            f"{path}: {response.status if response else None}, from the service worker: {response.from_service_worker if response else None}"
    response = navigation("/households/new")
    assert response is not None and response.from_service_worker, "/households/new is the app's own page, from its shell"
    step("the server's own addresses pass the service worker by")

    # Ada goes offline, edits and creates; the app reloads offline and shows it; Bob edits another field meanwhile.
    ada.set_offline(True)
    expect(status(a)).to_contain_text("Offline")
    edit(a, "Buy milk", "Title", "Buy oat milk")
    add_task(a, "Call grandma")
    expect(status(a)).to_contain_text("2 changes")
    # Bob edits before Ada's reload: a page reloaded under Playwright's offline emulation can reach the
    # network for a moment while it starts (a real offline device cannot), which would race his edit.
    edit(b, "Buy milk", "Notes", "2 litres")
    until("Bob's notes reach the server", lambda: any(t["notes"] == "2 litres" for t in tasks_of(bob_token, household["id"])),
          bob_token, household["id"])
    a.reload()
    expect(task(a, "Buy oat milk")).to_be_visible()
    expect(task(a, "Call grandma")).to_be_visible()
    expect(status(a)).to_contain_text("Offline")
    step("offline edits survive a reload offline")
    ada.set_offline(False)
    expect(status(a)).to_contain_text("all changes synced")
    tasks = until("Ada's changes reach the server", lambda: with_title(tasks_of(ada_token, household["id"]), "Call grandma"),
                  ada_token, household["id"])
    milk = [t for t in tasks if t["title"] in ("Buy milk", "Buy oat milk")]
    assert len(milk) == 1 and milk[0]["title"] == "Buy oat milk" and milk[0]["notes"] == "2 litres", f"both edits kept: {milk}"
    assert sum(1 for t in tasks if t["title"] == "Call grandma") == 1, f"nothing doubled: {tasks}"
    expect(task(b, "Buy oat milk")).to_be_visible()
    step("back online, both edits kept and nothing doubled")

    def same_field_conflict(title, ada_title, bob_title):
        """Ada offline and Bob online retitle the same task; back online, Ada's alert names the field."""
        ada.set_offline(True)
        expect(status(a)).to_contain_text("Offline")
        edit(a, title, "Title", ada_title)
        edit(b, title, "Title", bob_title)
        until("Bob's title reaches the server", lambda: any(t["title"] == bob_title for t in tasks_of(bob_token, household["id"])),
              bob_token, household["id"])
        ada.set_offline(False)
        found = a.get_by_role("alert").filter(has_text="title")
        expect(found).to_be_visible()
        expect(found).to_contain_text(ada_title)
        expect(found).to_contain_text(bob_title)
        return found

    # A same-field conflict: the alert names the field and both values; both choices work.
    alert = same_field_conflict("Fix bike", "Fix red bike", "Fix blue bike")
    accessible(a, "conflict")
    alert.get_by_role("button", name="Keep mine").click()
    until("Ada's kept title reaches the server", lambda: any(t["title"] == "Fix red bike" for t in tasks_of(ada_token, household["id"])),
          ada_token, household["id"])
    expect(task(b, "Fix red bike")).to_be_visible()
    step("conflict: keep mine")
    alert = same_field_conflict("Fix red bike", "Fix green bike", "Fix old bike")
    alert.get_by_role("button", name="Take theirs").click()
    expect(task(a, "Fix old bike")).to_be_visible()
    expect(a.get_by_role("alert")).to_have_count(0)
    expect(status(a)).to_contain_text("all changes synced")
    assert any(t["title"] == "Fix old bike" for t in tasks_of(ada_token, household["id"]))
    step("conflict: take theirs")

    # Two tabs, offline: one's new task appears in the other.
    a2 = ada.new_page()
    a2.goto(BASE + "/tasks")
    expect(task(a2, "Fix old bike")).to_be_visible()
    ada.set_offline(True)
    expect(status(a2)).to_contain_text("Offline")
    add_task(a2, "Water plants")
    expect(task(a, "Water plants")).to_be_visible()
    ada.set_offline(False)
    a2.close()
    expect(status(a)).to_contain_text("all changes synced")
    # Back online after all that, pokes reach Ada again: Bob's next task appears without reload.
    add_task(b, "Take out bins")
    expect(task(a, "Take out bins")).to_be_visible()
    step("two tabs offline see each other's task")

    # Her session ends while a change waits offline: she is asked to sign in again, and the change goes out then.
    ada.set_offline(True)
    expect(status(a)).to_contain_text("Offline")
    add_task(a, "Kept through sign-in")
    gql("mutation { signOutEverywhere }", token=ada_token)
    ada.set_offline(False)
    expect(a.get_by_role("button", name="Sign in")).to_be_visible()
    expect(a.get_by_text("Sign in again to send your 1 change")).to_be_visible()
    a.get_by_label("Email").fill(f"ada-{STAMP}@example.org")
    a.get_by_label("Password").fill("correct horse battery")
    a.get_by_role("button", name="Sign in").click()
    expect(a.get_by_role("heading", name="Agenda")).to_be_visible()
    expect(status(a)).to_contain_text("all changes synced")
    ada_token = token_of(a)
    kept = [t for t in tasks_of(ada_token, household["id"]) if t["title"] == "Kept through sign-in"]
    assert len(kept) == 1, f"the waiting change went out once: {kept}"
    a.get_by_role("link", name="Tasks", exact=True).click()
    step("a change waiting when the session ended goes out after signing in again")

    # A viewer sees no add controls.
    code = gql("mutation($h: UUID!) { createInvitation(householdId: $h, role: VIEWER) { code } }", {"h": household["id"]}, ada_token)["createInvitation"]["code"]
    # Carol, on a phone.
    carol = browser.new_context(**playwright.devices["Pixel 7"])
    watch_console(carol)
    c = carol.new_page()
    c.goto(f"{BASE}/join/{code}")
    sign_up(c, "Carol", f"carol-{STAMP}@example.org")
    expect(c.get_by_role("heading", name="Agenda")).to_be_visible()
    c.get_by_role("link", name="Tasks", exact=True).click()
    try:
        expect(task(c, "Buy oat milk")).to_be_visible()
    except AssertionError:
        print("DEBUG", c.url, c.locator("body").inner_text()[:800], file=sys.stderr)
        raise
    expect(c.get_by_label("New task")).to_have_count(0)
    expect(c.get_by_role("checkbox", name="Done: Buy oat milk")).to_be_disabled()
    accessible(c, "tasks, phone")
    assert c.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the phone screen scrolls sideways"
    step("a viewer sees no add controls")

    # Removed from the household, Carol is told at once and its copy leaves her phone.
    carol_id = gql("{ me { id } }", token=token_of(c))["me"]["id"]
    gql("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", {"h": household["id"], "u": carol_id}, ada_token)
    expect(c.get_by_text("You are no longer a member of Elm Street")).to_be_visible()
    expect(c.get_by_label("Household name")).to_be_visible()
    left = c.evaluate("""async () => {
      const name = 'hearth-' + JSON.parse(localStorage.getItem('hearth.session')).userId;
      const db = await new Promise((resolve, reject) => { const r = indexedDB.open(name); r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      const count = await new Promise((resolve) => { const r = db.transaction('records').objectStore('records').count(); r.onsuccess = () => resolve(r.result); });
      db.close();
      return count;
    }""")
    assert left == 0, f"Carol's phone still holds {left} records of the household"
    step("a removed member is told, and the household leaves her device")

    # Labels, a deadline and an event; the other screens checked by axe; the README's screenshot.
    a.get_by_role("link", name="Settings").click()
    expect(a.get_by_role("heading", name="Settings")).to_be_visible()
    a.get_by_label("Label name").fill("Groceries")
    a.get_by_label("Colour", exact=True).select_option(label="Green")
    a.get_by_role("button", name="Add label").click()
    expect(a.get_by_role("list", name="Labels").get_by_text("Groceries")).to_be_visible()
    accessible(a, "settings")
    a.get_by_role("link", name="Tasks", exact=True).click()
    open_task(a, "Buy oat milk")
    tomorrow = time.strftime("%Y-%m-%d", time.localtime(time.time() + 86_400))
    a.get_by_label("Deadline").fill(f"{tomorrow}T10:30")
    a.get_by_role("checkbox", name="Groceries").check()
    a.get_by_label("Assignee").select_option(label="Bob")
    accessible(a, "task")
    a.get_by_role("button", name="Save").click()
    a.get_by_role("link", name="Agenda").click()
    a.get_by_text("New event").click()
    a.get_by_label("Event title").fill("Dentist")
    a.get_by_label("Starts").fill(f"{tomorrow}T15:00")
    a.get_by_label("Location").fill("Main Street 4")
    a.get_by_role("button", name="Add event").click()
    expect(task(a, "Dentist")).to_be_visible()
    expect(task(a, "Buy oat milk")).to_contain_text("Groceries")
    expect(task(b, "Buy oat milk")).to_be_visible()
    b.get_by_role("link", name="Agenda").click()
    expect(task(b, "Dentist")).to_contain_text("Main Street 4")
    expect(task(b, "Buy oat milk")).to_contain_text("→ Bob")
    expect(status(a)).to_contain_text("all changes synced")
    step("labels, a deadline, an assignee and an event reach the other member")
    if SCREENSHOT:
        a.screenshot(path=SCREENSHOT)

    # The engine's pure parts, tested in the browser.
    build = re.search(r"/assets/([0-9a-f]{16})/", a.content()).group(1)
    unit = bob.new_page()
    unit.goto(f"{BASE}/assets/{build}/test/unit.html")
    expect(unit.get_by_role("status")).to_contain_text("passed", timeout=20_000)
    report["unit"] = unit.get_by_role("status").inner_text()
    assert "failed" not in report["unit"], report["unit"]
    step("unit tests passed in the browser")

    # Sign-out leaves nothing of Ada's readable in this browser.
    a.get_by_role("link", name="Settings").click()
    a.get_by_role("button", name="Sign out", exact=True).click()
    expect(a.get_by_role("button", name="Sign in")).to_be_visible()
    accessible(a, "sign-in")
    left = a.evaluate("""async () => ({
      databases: (await indexedDB.databases()).map((d) => d.name),
      storage: Object.keys(localStorage),
    })""")
    assert not [d for d in left["databases"] if d.startswith("hearth-")], f"IndexedDB still holds {left['databases']}"
    assert not [k for k in left["storage"] if k.startswith("hearth.")], f"localStorage still holds {left['storage']}"
    step("sign-out leaves nothing readable")

    # Opened over plain HTTP by a name on the network: the app works, and says once what it cannot do there.
    insecure = browser.new_context()
    watch_console(insecure)
    i = insecure.new_page()
    i.goto(BASE.replace("127.0.0.1", "hearth.test") + "/signup")
    assert i.evaluate("window.isSecureContext") is False
    warning = i.get_by_text("This address is not secure")
    expect(warning).to_be_visible()
    accessible(i, "insecure address")
    i.get_by_role("link", name="how to serve Hearth over HTTPS").click()
    expect(i.get_by_role("heading", name="HTTPS on a home network")).to_be_visible()
    expect(i.get_by_text("tailscale cert")).to_be_visible()
    accessible(i, "HTTPS help")
    i.go_back()
    sign_up(i, "Ike", f"ike-{STAMP}@example.org")
    i.get_by_label("Household name").fill("Over HTTP")
    i.get_by_role("button", name="Create household").click()
    expect(i.get_by_role("heading", name="Agenda")).to_be_visible()
    i.get_by_role("link", name="Tasks").click()
    add_task(i, "Works without HTTPS")
    ike = token_of(i)
    ike_home = gql("{ households { edges { node { id } } } }", token=ike)["households"]["edges"][0]["node"]["id"]
    until("the task reached the server", lambda: gql("{ households { edges { node { tasks { totalCount } } } } }", token=ike)
          ["households"]["edges"][0]["node"]["tasks"]["totalCount"] == 1, ike, ike_home)
    i.reload()
    expect(i.get_by_role("link", name="Works without HTTPS", exact=True)).to_be_visible()
    expect(warning).to_have_count(0)
    step("over plain HTTP on the network the app works and says once what it cannot do")
    assert not refused, f"the Content-Security-Policy refused: {refused[:5]}"
    browser.close()


run.finish(lambda: run.browse(journey))
