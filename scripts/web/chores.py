"""A chore that comes back and rotates, in Debian's Chromium driven by Playwright, against a running
Hearth (argv[1]).

Ann (the owner, on a laptop) makes "Bins" repeat every week on Tuesdays with her and Ben taking
turns; she marks it done and is told when it comes next; Ben's phone shows it is his turn, due the
next Tuesday. Then both phones complete the same occurrence offline: back online, it moved on once.
Ben skips one, says he is away, and the members screen shows who did what. Every element is found
by role and accessible name; axe-core on each screen. Prints a JSON report; exits non-zero at the
first failure.
"""
import datetime
import re
import sys
import time
import zoneinfo

from playwright.sync_api import expect

from webtest import Run

BASE = sys.argv[1].rstrip("/")
STAMP = str(int(time.time() * 1000))
run = Run(BASE)
report, step, gql, until = run.report, run.step, run.gql, run.until
expect.set_options(timeout=45_000)
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def tuesday_after(day):
    """The first Tuesday after `day` (a date)."""
    return day + datetime.timedelta(days=(1 - day.weekday()) % 7 or 7)


def short(day):
    """As the app writes a day: "Tue 8 Dec"."""
    return f"{day.strftime('%a')} {day.day} {day.strftime('%b')}"


def bins(token, household):
    data = gql("""query($h: UUID!) { household(id: $h) { tasks(first: 10) { edges { node {
                  id title deadline assigneeId completions { totalCount } } } } } }""", {"h": household}, token)
    return next((e["node"] for e in data["household"]["tasks"]["edges"] if e["node"]["title"] == "Bins"), None)


def sign_in(context, email):
    page = context.new_page()
    page.goto(BASE + "/signin")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Agenda")).to_be_visible()
    return page


def nav(page, name):
    page.get_by_role("navigation", name="Main").get_by_role("link", name=re.compile(f"^{name}")).click()


def status(page):
    return page.get_by_role("status").filter(has_text=re.compile("Online|Offline|Syncing|Downloading"))


def main():
    global ann_token, ben_token, household, ann_email, ben_email, ann_id, ben_id
    ann_email, ben_email = f"ann-{STAMP}@example.org", f"ben-{STAMP}@example.org"
    signed = gql("mutation($e: String!) { signUp(input: {displayName: \"Ann\", email: $e, password: \"correct horse battery\"}) { token user { id } } }",
                 {"e": ann_email})["signUp"]
    ann_token, ann_id = signed["token"], signed["user"]["id"]
    household = gql('mutation { createHousehold(input: {name: "Bin Street", timeZone: "Europe/Berlin"}) { id } }', token=ann_token)["createHousehold"]["id"]
    signed = gql("mutation($e: String!) { signUp(input: {displayName: \"Ben\", email: $e, password: \"correct horse battery\"}) { token user { id } } }",
                 {"e": ben_email})["signUp"]
    ben_token, ben_id = signed["token"], signed["user"]["id"]
    code = gql("mutation($h: UUID!) { createInvitation(householdId: $h, role: MEMBER) { code } }", {"h": household}, ann_token)["createInvitation"]["code"]
    gql("mutation($c: String!) { acceptInvitation(code: $c) { id } }", {"c": code}, ben_token)
    run.browse(journey)


def journey(playwright):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    ann = browser.new_context(timezone_id="Europe/Berlin", viewport={"width": 1100, "height": 900})
    run.watch_console(ann)
    a = sign_in(ann, ann_email)
    ben = browser.new_context(timezone_id="Europe/Berlin", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    run.watch_console(ben)
    b = sign_in(ben, ben_email)

    # Ann makes the chore: every week on Tuesday at 07:00, Ann and Ben taking turns.
    first = tuesday_after(datetime.datetime.now(BERLIN).date())
    nav(a, "Tasks")
    a.get_by_label("New task").fill("Bins")
    a.get_by_label("New task").press("Enter")
    a.get_by_role("link", name="Bins", exact=True).click()
    expect(a.get_by_label("Title")).to_have_value("Bins")
    a.get_by_label("Deadline").fill(f"{first.isoformat()}T07:00")
    a.get_by_role("combobox", name="Repeat", exact=True).select_option(label="Every week")
    expect(a.get_by_role("spinbutton", name="Every", exact=True)).to_have_value("1")
    on = a.get_by_role("group", name="On", exact=True)
    on.get_by_role("checkbox", name="Tue").check()
    expect(a.get_by_role("combobox", name="Ends", exact=True)).to_have_value("never")
    expect(a.get_by_role("checkbox", name="From when it was done")).not_to_be_checked()
    turns = a.get_by_role("group", name="Whose turn")
    turns.get_by_role("checkbox", name="Ann").check()
    turns.get_by_role("checkbox", name="Ben").check()
    expect(a.get_by_text(f"Next: {short(first)}, {short(first + datetime.timedelta(days=7))}")).to_be_visible()
    run.accessible(a, "repeat picker")
    a.get_by_role("button", name="Save").click()
    made = until("the repeating chore reaches the server", lambda: (lambda t: t if t and t["deadline"] else None)(bins(ann_token, household)),
                 ann_token, household)
    assert made["assigneeId"] == ann_id, made
    repeat = gql("query($id: UUID!) { task(id: $id) { repeat { rule from } rotation { memberIds } } }", {"id": made["id"]}, ann_token)["task"]
    assert repeat["repeat"] == {"rule": "FREQ=WEEKLY;BYDAY=TU", "from": "SCHEDULE"}, repeat
    assert repeat["rotation"]["memberIds"] == [ann_id, ben_id], repeat
    step("a weekly chore on Tuesdays with two people taking turns is set in the repeat picker")

    # Ann marks it done: the app says when it comes next; Ben's phone shows his turn, due the next Tuesday.
    expect(a.get_by_text("Ann’s turn")).to_be_visible()
    expect(status(a)).to_contain_text("all changes synced")
    a.get_by_role("button", name="Mark done").click()
    second = first + datetime.timedelta(days=7)
    expect(a.get_by_text(f"Done — next: {short(second)}")).to_be_visible()
    expect(a.get_by_text("Ben’s turn")).to_be_visible()
    nav(b, "Tasks")
    row = b.get_by_role("listitem").filter(has=b.get_by_role("link", name="Bins", exact=True))
    expect(row).to_contain_text("→ Ben")
    expect(row).to_contain_text(short(second).split(" ")[1])
    until("the completion reaches the server", lambda: (lambda t: t if t and t["completions"]["totalCount"] == 1 else None)(bins(ann_token, household)),
          ann_token, household)
    expect(status(a)).to_contain_text("all changes synced")
    run.accessible(b, "tasks with a repeating chore on a phone")
    step("completed by Ann it becomes Ben's, due next Tuesday, on both screens")

    # Both phones complete the same occurrence offline: it moves on once.
    b.get_by_role("link", name="Bins", exact=True).click()
    expect(b.get_by_text("Ben’s turn")).to_be_visible()
    ann.set_offline(True)
    ben.set_offline(True)
    expect(status(a)).to_contain_text("Offline")
    expect(status(b)).to_contain_text("Offline")
    a.get_by_role("button", name="Mark done").click()
    b.get_by_role("button", name="Mark done").click()
    third = second + datetime.timedelta(days=7)
    expect(b.get_by_text(f"Done — next: {short(third)}")).to_be_visible()
    ann.set_offline(False)
    ben.set_offline(False)
    expect(status(a)).to_contain_text("all changes synced")
    expect(status(b)).to_contain_text("all changes synced")
    task = until("both offline completions are pushed", lambda: (lambda t: t if t and t["completions"]["totalCount"] >= 2 else None)(bins(ann_token, household)),
                 ann_token, household)
    assert task["completions"]["totalCount"] == 2, f"the occurrence was completed twice: {task}"
    assert task["deadline"].startswith(third.isoformat()), task
    step("the same occurrence completed offline on two phones moves the chore on once")

    # Skip this time; Ben is away; who did what.
    b.get_by_role("button", name="Skip this time").click()
    expect(b.get_by_text(f"Skipped — next: {short(third + datetime.timedelta(days=7))}")).to_be_visible()
    nav(b, "Members")
    b.get_by_label("Away until").fill(f"{(third + datetime.timedelta(days=30)).isoformat()}T12:00")
    b.get_by_role("button", name="Save").click()
    expect(b.get_by_text("your turns pass to others meanwhile")).to_be_visible()
    away = gql("query($h: UUID!) { household(id: $h) { members { edges { node { user { id } awayUntil } } } } }", {"h": household}, ann_token)
    assert any(e["node"]["user"]["id"] == ben_id and e["node"]["awayUntil"] for e in away["household"]["members"]["edges"]), away
    chores = b.get_by_role("list", name="Who did what")
    expect(chores).to_contain_text("Ann: ")
    run.accessible(b, "members with away and who did what")
    step("skip this time, away until, and who did what")
    browser.close()
    assert not run.refused, f"the page's policy refused: {run.refused}"


run.finish(main)
