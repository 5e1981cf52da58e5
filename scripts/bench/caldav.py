"""Drives scripts/bench/caldav.sh: the same 2 000 events PUT into a Hearth household's events
calendar and into a Radicale calendar, then, over one keep-alive connection each, as a calendar
app syncs: an initial sync (PROPFIND depth 1 for the ETags, then one calendar-multiget of every
item) and an incremental sync-collection from a token after 10 items changed (and a multiget of
those 10). The median of RUNS of each, with the bytes answered."""
import base64, http.client, os, re, statistics, subprocess, sys, time, urllib.parse
from concurrent.futures import ThreadPoolExecutor

from hearth_graphql import client

hearth_url, radicale_url, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ITEMS = 2000

graphql = client(hearth_url, timeout=600)
token = graphql('mutation { signUp(input: {email: "caldav@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
access = graphql('mutation { createAccessToken(input: {name: "bench", scopes: [READ, WRITE]}) { token } }', token=token)["createAccessToken"]["token"]
me = graphql("{ me { id } }", token=token)["me"]["id"]


class Server:
    """One CalDAV server: a keep-alive connection, Basic credentials and its calendar's path."""
    def __init__(self, name, url, user, password, calendar):
        self.name, self.calendar = name, calendar
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=600)

    def request(self, method, path, body=None, headers=None, connection=None):
        connection = connection or self.connection
        headers = dict(headers or {}, Authorization=self.auth)
        if body is not None:
            headers.setdefault("Content-Type", "application/xml; charset=utf-8")
        connection.request(method, path, body=body.encode() if isinstance(body, str) else body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()


hearth = Server("Hearth", hearth_url, "caldav@example.org", access, f"/dav/calendars/{me}/{household}-events/")
radicale = Server("Radicale", radicale_url, "bench", "bench", "/bench/events/")
status, text = radicale.request("MKCALENDAR", radicale.calendar, """<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Bench</d:displayname>
<c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>""")
assert status == 201, (status, text)


def event(number, summary=None):
    day, hour = divmod(number, 8)
    start = f"2030{1 + day // 28 % 12:02d}{1 + day % 28:02d}T{9 + hour:02d}0000Z"
    end = start[:9] + f"{9 + hour:02d}4500Z"
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Hearth bench//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:bench-{number}@example.org\r\nDTSTAMP:20261126T120000Z\r\nDTSTART:{start}\r\nDTEND:{end}\r\n"
            f"SUMMARY:{summary or f'Event {number}'}\r\nDESCRIPTION:Bring item {number}\\, and a smile\r\nLOCATION:Room {number % 17}\r\n"
            "CATEGORIES:bench\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def seed(server):
    """PUTs every event (8 connections at once)."""
    def put(numbers):
        connection = http.client.HTTPConnection(server.host, server.port, timeout=600)
        for number in numbers:
            status, text = server.request("PUT", f"{server.calendar}bench-{number}.ics", event(number),
                                          {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"}, connection)
            assert status == 201, (server.name, status, text)
    started = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(put, [range(start, ITEMS, 8) for start in range(8)]))
    return time.perf_counter() - started


PROPFIND = '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>'


def multiget(hrefs):
    return ('<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">'
            "<d:prop><d:getetag/><c:calendar-data/></d:prop>" + "".join(f"<d:href>{h}</d:href>" for h in hrefs) + "</c:calendar-multiget>")


def sync_collection(token):
    return ('<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>' + token
            + "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>")


def item_hrefs(server, body):
    return [h for h in re.findall(r"<(?:\w+:)?href>([^<]+)</(?:\w+:)?href>", body) if h.rstrip("/") != server.calendar.rstrip("/")]


def initial_sync(server):
    status, listing = server.request("PROPFIND", server.calendar, PROPFIND, {"Depth": "1"})
    assert status == 207, (server.name, status)
    hrefs = item_hrefs(server, listing)
    assert len(hrefs) == ITEMS, (server.name, len(hrefs))
    status, items = server.request("REPORT", server.calendar, multiget(hrefs), {"Depth": "1"})
    assert status == 207 and items.count("BEGIN:VEVENT") == ITEMS, (server.name, status, items.count("BEGIN:VEVENT"))
    return len(listing) + len(items)


def current_token(server):
    status, body = server.request("REPORT", server.calendar, sync_collection(""), {"Depth": "1"})
    assert status == 207, (server.name, status, body[:300])
    return re.search(r"<(?:\w+:)?sync-token>([^<]+)<", body).group(1)


def incremental_sync(server, token, changed):
    status, body = server.request("REPORT", server.calendar, sync_collection(token), {"Depth": "1"})
    assert status == 207, (server.name, status)
    hrefs = item_hrefs(server, body)
    assert sorted(hrefs) == sorted(changed), (server.name, len(hrefs))
    status, items = server.request("REPORT", server.calendar, multiget(hrefs), {"Depth": "1"})
    assert status == 207 and items.count("BEGIN:VEVENT") == 10, (server.name, status)
    return len(body) + len(items)


results = {}
for server in (hearth, radicale):
    seeded = seed(server)
    initial, incremental = [], []
    size = {}
    for run in range(runs + 1):
        started = time.perf_counter()
        size["initial"] = initial_sync(server)
        elapsed = time.perf_counter() - started
        if run:
            initial.append(elapsed)  # the first run warms up
    for run in range(runs + 1):
        token = current_token(server)
        changed = []
        for number in range(run * 10, run * 10 + 10):
            href = f"{server.calendar}bench-{number}.ics"
            status, _ = server.request("PUT", href, event(number, f"Changed {run}"), {"Content-Type": "text/calendar; charset=utf-8"})
            assert status in (201, 204), (server.name, status)
            changed.append(href)
        started = time.perf_counter()
        size["incremental"] = incremental_sync(server, token, changed)
        elapsed = time.perf_counter() - started
        if run:
            incremental.append(elapsed)
    results[server.name] = {"seed": seeded, "initial": statistics.median(initial), "incremental": statistics.median(incremental), "size": size}

h, r = results["Hearth"], results["Radicale"]
print(f"CalDAV: {ITEMS} events, one calendar app's sync over one keep-alive connection; median of {runs} (Radicale {sys.argv[4]})")
print()
print("| | Hearth | Radicale | Radicale ÷ Hearth |")
print("|---|---:|---:|---:|")
print(f"| PUT {ITEMS} events (8 at once) | {h['seed']:.2f} s | {r['seed']:.2f} s | {r['seed'] / h['seed']:.2f}× |")
print(f"| initial sync: PROPFIND depth 1 + multiget of all | {h['initial'] * 1000:.0f} ms | {r['initial'] * 1000:.0f} ms | {r['initial'] / h['initial']:.2f}× |")
print(f"| incremental: sync-collection after 10 changes + multiget of them | {h['incremental'] * 1000:.1f} ms | {r['incremental'] * 1000:.1f} ms | "
      f"{r['incremental'] / h['incremental']:.2f}× |")
print(f"| bytes answered, initial / incremental | {h['size']['initial']:,} / {h['size']['incremental']:,} | "
      f"{r['size']['initial']:,} / {r['size']['incremental']:,} | |")
