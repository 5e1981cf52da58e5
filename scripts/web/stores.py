"""The household app's store screens, notifications list, instance page and API explorer, in Debian's
Chromium driven by Playwright, against a running Hearth (argv[1]) that may fetch the fixture shop
`alpha` (argv[2], the fixture shop's origin; Hearth lets `alpha.test` through to it). argv[3] and
argv[4] are an instance administrator's email and password.

Ada (the administrator, owner of the household) adds the store and sees its products; Ben (a member)
searches them offline, sees a price drop after a sync in his feed and unread count without reloading,
opens the product's chart, lists a product that left, and marks all read; the instance page shows
every service to Ada and nothing to Ben; the explorer runs a query and shows a type's documentation.
axe-core on every screen. Prints a JSON report; exits non-zero at the first failure.
"""
import re
import sys
import time
import urllib.request

from playwright.sync_api import expect

from webtest import Run

BASE = sys.argv[1].rstrip("/")
SHOP = sys.argv[2].rstrip("/")
ADMIN_EMAIL, ADMIN_PASSWORD = sys.argv[3], sys.argv[4]
STAMP = str(int(time.time() * 1000))
run = Run(BASE)
report, step, gql = run.report, run.step, run.gql
run.refused = []
expect.set_options(timeout=45_000)
SERVICES = ["Database", "Event bus", "People and sessions", "Households", "Stores and their sync loop",
            "Tasks and reminders", "Notification delivery"]


def shop(**change):
    """Changes the fixture shop (`/_control`): a price, a product gone."""
    query = "&".join(f"{key}={value}" for key, value in change.items())
    urllib.request.urlopen(urllib.request.Request(f"{SHOP}/_control/shops/alpha?{query}", data=b"", method="POST"), timeout=10).read()


def sign_in(context, email, password):
    page = context.new_page()
    page.goto(BASE + "/signin")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Agenda")).to_be_visible()
    return page


def nav(page, name):
    page.get_by_role("navigation", name="Main").get_by_role("link", name=re.compile(f"^{name}")).click()


def main():
    # The people and their household, made over the API; the journey uses them.
    global ada_token, household, ben_email, ben_password, ben_token
    ada_token = gql("mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }",
                    {"e": ADMIN_EMAIL, "p": ADMIN_PASSWORD})["signIn"]["token"]
    household = gql('mutation { createHousehold(input: {name: "Maple Road", timeZone: "Europe/Berlin"}) { id } }', token=ada_token)["createHousehold"]["id"]
    ben_email, ben_password = f"ben-{STAMP}@example.org", "correct horse battery"
    ben_token = gql("mutation($e: String!, $p: String!) { signUp(input: {displayName: \"Ben\", email: $e, password: $p}) { token } }",
                    {"e": ben_email, "p": ben_password})["signUp"]["token"]
    code = gql("mutation($h: UUID!) { createInvitation(householdId: $h, role: MEMBER) { code } }", {"h": household}, ada_token)["createInvitation"]["code"]
    gql("mutation($c: String!) { acceptInvitation(code: $c) { id } }", {"c": code}, ben_token)

    run.browse(journey)


def journey(playwright):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    ada = browser.new_context(timezone_id="Europe/Berlin", viewport={"width": 1100, "height": 900})
    run.watch_console(ada)
    a = sign_in(ada, ADMIN_EMAIL, ADMIN_PASSWORD)

    # Ada adds the store: its products arrive through sync.
    nav(a, "Stores")
    expect(a.get_by_role("heading", name="Stores", exact=True)).to_be_visible()
    expect(a.get_by_text("No stores yet")).to_be_visible()
    run.accessible(a, "stores (none)")
    a.get_by_role("button", name="Add store").click()
    a.get_by_label("Store address").fill("nowhere.test")
    a.get_by_role("button", name="Add", exact=True).click()
    expect(a.get_by_text(re.compile("nowhere.test"))).to_be_visible()  # the API's refusal, in words, under the field
    run.accessible(a, "add store (refused)")
    a.get_by_label("Store address").fill("https://Alpha.test/collections/all")
    a.get_by_role("button", name="Add", exact=True).click()
    expect(a.get_by_role("heading", name="alpha", exact=True)).to_be_visible()
    products = a.get_by_role("list", name="Products", exact=True).get_by_role("listitem")
    expect(products).to_have_count(12)
    titles = [edge["node"]["title"] for edge in gql(
        "query($h: UUID!) { household(id: $h) { stores { edges { node { id products(first: 50, sort: TITLE) { edges { node { title } } } } } } } }",
        {"h": household}, ada_token)["household"]["stores"]["edges"][0]["node"]["products"]["edges"]]
    store_id = gql("query($h: UUID!) { household(id: $h) { stores { edges { node { id currency } } } } }", {"h": household}, ada_token)["household"]["stores"]["edges"][0]["node"]
    assert store_id["currency"] == "EUR", store_id
    store_id = store_id["id"]
    expect(a.get_by_text("prices in EUR")).to_be_visible()
    run.accessible(a, "store")
    step("an admin adds a store and sees its products")

    # Ben searches the products with the network gone: the local copy answers.
    ben = browser.new_context(timezone_id="Europe/Berlin", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    run.watch_console(ben)
    b = sign_in(ben, ben_email, ben_password)
    nav(b, "Stores")
    b.get_by_role("link", name="alpha", exact=True).click()
    ben_products = b.get_by_role("list", name="Products", exact=True).get_by_role("listitem")
    expect(ben_products).to_have_count(12)
    expect(b.get_by_role("button", name="Add store")).to_have_count(0)  # members do not add stores
    run.accessible(b, "store on a phone")
    ben.set_offline(True)
    wanted = titles[5]
    b.get_by_label("Search products").fill(wanted.lower())
    expect(ben_products).to_have_count(sum(1 for t in titles if wanted.lower() in t.lower()))
    expect(ben_products.first.get_by_role("link")).to_have_text(wanted)
    b.get_by_label("Search products").fill("no such product at all")
    expect(ben_products).to_have_count(0)
    expect(b.get_by_role("status").filter(has_text="of 12 products")).to_be_visible()
    b.get_by_label("Search products").fill("")
    ben.set_offline(False)
    step("search works offline over the local copy")

    # A price drop: the fixture shop lowers a price, Ada syncs; Ben's feed and count change without a reload.
    nav(b, "Stores")
    b.get_by_role("link", name=re.compile("^All changes")).click()
    expect(b.get_by_role("heading", name="Changes", exact=True)).to_be_visible()
    expect(b.get_by_text("0 unread changes.")).to_be_visible()
    run.accessible(b, "changes (none)")
    dropped = titles[0]
    shop(product=0, price=100)  # sorted by title, product 0 need not be titles[0]: read it back below
    a.get_by_role("button", name="Sync now").click()
    change = b.get_by_role("listitem").filter(has_text="Price dropped")
    expect(change).to_have_count(1)
    dropped = change.get_by_role("link").inner_text()
    expect(b.get_by_text("1 unread change.")).to_be_visible()
    expect(b.get_by_role("navigation", name="Main").get_by_role("link", name=re.compile(r"^Stores\s*1 unread changes$"))).to_be_visible()
    expect(change).to_contain_text("€1.00")
    run.accessible(b, "changes")
    step("a price drop after a sync appears in the other member's feed and unread count without reload")

    # The product's page: price, variants, the chart drawn from the change, with a table.
    change.get_by_role("link", name=dropped).click()
    expect(b.get_by_role("heading", name=dropped)).to_be_visible()
    chart = b.get_by_role("img", name=re.compile("^Price history"))
    expect(chart).to_be_visible()
    assert "1 change" in chart.get_attribute("aria-label"), chart.get_attribute("aria-label")
    b.get_by_text("Price history as a table").click()
    expect(b.get_by_role("cell", name="€1.00").first).to_be_visible()
    run.accessible(b, "product")
    step("the product page shows the price history chart")

    # A product leaves the store: gone from the list, listed when asked for.
    gone = gql("query($s: UUID!) { store(id: $s) { products(first: 50) { edges { node { title } } } } }",
               {"s": store_id}, ada_token)["store"]["products"]["edges"]
    shop(remove=3)
    a.get_by_role("button", name="Sync now").click()
    expect(products).to_have_count(11)
    left = [t for t in titles if t not in {e["node"]["title"] for e in gql(
        "query($s: UUID!) { store(id: $s) { products(first: 50) { edges { node { title } } } } }", {"s": store_id}, ada_token)["store"]["products"]["edges"]}]
    assert len(gone) == 12 and len(left) == 1, left
    a.get_by_label("Show products that left the store").check()
    removed = a.get_by_role("list", name="Products that left the store").get_by_role("listitem")
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text(left[0])
    step("a product that left is listed when asked for")

    # Mark all read: on the Changes screen; the count and the badge follow.
    nav(b, "Stores")
    b.get_by_role("link", name=re.compile("^All changes")).click()
    expect(b.get_by_text(re.compile(r"^[1-9]\d* unread changes?\.$"))).to_be_visible()
    b.get_by_role("button", name="Mark all read").click()
    expect(b.get_by_text("0 unread changes.")).to_be_visible()
    expect(b.get_by_role("navigation", name="Main").get_by_role("link", name="Stores", exact=True)).to_be_visible()
    unread = gql("query($h: UUID!) { household(id: $h) { unreadEventCount } }", {"h": household}, ben_token)["household"]["unreadEventCount"]
    assert unread == 0, f"{unread} changes still unread on the server"
    step("mark all read clears the count")

    # Notifications: the list, and a clear answer when the browser refuses notifications.
    nav(b, "Notifications")
    expect(b.get_by_role("heading", name="Notifications", exact=True)).to_be_visible()
    b.get_by_role("button", name="Enable notifications on this device").click()
    expect(b.get_by_role("status").filter(has_text="The browser refused")).to_be_visible()
    run.accessible(b, "notifications")
    # A person's notifications come from every household: with another one on screen, Maple Road's stay listed.
    maple = b.get_by_role("list", name="Notifications").get_by_role("listitem")
    expect(maple.first).to_be_visible()
    shown = maple.count()
    b.goto(BASE + "/households/new")
    b.get_by_label("Household name").fill("Ben's flat")
    b.get_by_role("button", name="Create household").click()
    expect(b.get_by_role("heading", name="Agenda")).to_be_visible()
    nav(b, "Notifications")
    expect(maple.filter(has_text="Maple Road")).to_have_count(shown)
    b.get_by_label("Household").select_option(label="Maple Road")
    step("notifications offer this device and say why not")

    # Settings: Ben's own, kept on the server.
    nav(b, "Settings")
    expect(b.get_by_role("heading", name="Preferences", exact=True)).to_be_visible()
    b.get_by_label("Theme").select_option("DARK")
    expect(b.locator("html")).to_have_attribute("data-theme", "DARK")
    b.get_by_label("Price drops", exact=True).uncheck()
    expect(b.get_by_text("Price drops: off.")).to_be_visible()
    preferences = gql("{ me { preferences { theme notifications { priceDropped reminders } } } }", token=ben_token)["me"]["preferences"]
    assert preferences == {"theme": "DARK", "notifications": {"priceDropped": False, "reminders": True}}, preferences
    b.get_by_label("Webhook address").fill("http://127.0.0.1:9/hook")
    b.get_by_role("button", name="Add webhook").click()
    expect(b.get_by_text("The webhook's signing secret, shown this once")).to_be_visible()
    expect(b.get_by_role("list", name="Channels").get_by_role("listitem")).to_have_count(1)
    b.get_by_label("Token name").fill("Kitchen display")
    b.get_by_role("button", name="Create token").click()
    shown = b.get_by_text("The token, shown this once")
    expect(shown).to_be_visible()
    token = shown.locator("code").inner_text()
    assert gql("{ me { displayName } }", token=token)["me"]["displayName"] == "Ben", "the token works"
    b.get_by_role("button", name="Revoke Kitchen display").click()
    expect(b.get_by_role("list", name="Access tokens")).to_have_text("No access tokens.")
    run.accessible(b, "settings")
    step("settings: theme, a notification switch, a webhook, an access token made and revoked")

    # The instance page: every service to the administrator, nothing to a member.
    nav(a, "Instance")
    for name in SERVICES:
        expect(a.get_by_role("heading", name=name, exact=True)).to_be_visible()
    expect(a.get_by_role("status").filter(has_text="services are healthy")).to_be_visible()
    expect(a.get_by_text("People", exact=True)).to_be_visible()
    run.accessible(a, "instance")
    expect(b.get_by_role("navigation", name="Main").get_by_role("link", name="Instance")).to_have_count(0)
    b.goto(BASE + "/instance")
    expect(b.get_by_text("Only the instance's administrators see its health.")).to_be_visible()
    expect(b.get_by_role("heading", name="Database")).to_have_count(0)
    step("the instance page shows every service to an administrator and nothing to others")

    # The explorer: a query runs with Ben's session; completion; a type's documentation.
    b.goto(BASE + "/explorer")
    editor = b.get_by_label("Query", exact=True)
    # Completion reads the schema from introspection: it has come once the documentation lists types.
    expect(b.get_by_role("list", name="Types").get_by_role("listitem").first).to_be_visible()
    editor.fill("query Mine {\n  me { displayName }\n  serverInfo { ver")
    editor.press("End")
    editor.press("Control+Space")
    expect(b.get_by_role("option", name=re.compile("^version"))).to_be_visible()
    editor.press("Enter")
    editor.press_sequentially(" } }")
    expect(editor).to_have_value("query Mine {\n  me { displayName }\n  serverInfo { version } }")
    b.get_by_role("button", name="Run").click()
    result = b.get_by_role("region", name="Result")
    expect(result).to_contain_text('"displayName": "Ben"')
    expect(result).to_contain_text("HTTP 200")
    b.get_by_label("Search types").fill("Store")
    b.get_by_role("button", name="StoreEvent", exact=True).click()
    expect(b.get_by_role("heading", name=re.compile("^StoreEvent"))).to_be_visible()
    expect(b.get_by_text("For price and stock changes: the price before and after.")).to_be_visible()
    run.accessible(b, "explorer")
    step("the explorer runs a query and shows a type's documentation")

    assert not run.refused, f"the Content-Security-Policy refused: {run.refused[:5]}"
    browser.close()


run.finish(main)
