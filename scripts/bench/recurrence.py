"""Drives scripts/bench/recurrence.sh: household repeat rules, each from 100 first dates, previewed
100 occurrences at a time through `recurrencePreview` (40 rules a request, over HTTP) and by
python-dateutil in this process; then 1 000 repeating events (ten households of 100) expanded over
a year by `agenda` (a month a request, every household's at once) and by dateutil. Occurrences per
second of each, and their ratio."""
import json, sys, time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr
from hearth_graphql import client

url = sys.argv[1]
graphql = client(url, timeout=600)
token = graphql('mutation { signUp(input: {email: "recurrence@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]

RULES = ["FREQ=WEEKLY;BYDAY=TU", "FREQ=DAILY;INTERVAL=3", "FREQ=MONTHLY;BYMONTHDAY=1", "FREQ=YEARLY",
         "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
         "FREQ=YEARLY;BYMONTH=3,9;BYDAY=1SU", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=-1"]
ZONE = "Europe/Berlin"
FIRST = 100
base = datetime(2026, 1, 1, 6, 0, tzinfo=timezone.utc)
cases = [(rule, base + timedelta(days=day, hours=day % 13)) for rule in RULES for day in range(0, 300, 3)]


def hearth():
    total = 0
    for start in range(0, len(cases), 40):
        fields = " ".join(
            f'c{i}: recurrencePreview(rule: "{rule}", start: "{when.strftime("%Y-%m-%dT%H:%M:%SZ")}", timeZone: "{ZONE}", first: {FIRST})'
            for i, (rule, when) in enumerate(cases[start:start + 40]))
        data = graphql("{ " + fields + " }", token=token)
        total += sum(len(dates) for dates in data.values())
    return total


def dateutil():
    zone = ZoneInfo(ZONE)
    total = 0
    for rule, when in cases:
        for count, occurrence in enumerate(rrulestr(rule, dtstart=when.astimezone(zone)), 1):
            occurrence.astimezone(timezone.utc).isoformat()
            if count == FIRST:
                break
        total += count
    return total


def timed(run, rounds=3):
    """Occurrences and the best of `rounds` runs' seconds (after one warm-up run)."""
    occurrences = run()
    best = min(timed_once(run) for _ in range(rounds))
    return occurrences, best


def timed_once(run):
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


# 1 000 repeating events, one hour each (06:00-18:00 UTC, so none crosses a month's first midnight).
HOUSEHOLDS = 10
events = [(rule, base + timedelta(days=day, hours=day % 13)) for rule in RULES for day in range(0, 300, 30)]
households = []
for index in range(HOUSEHOLDS):
    home = graphql('mutation($n: String!) { createHousehold(input: {name: $n, timeZone: "Europe/Berlin"}) { id } }', {"n": f"Street {index}"},
                   token=token)["createHousehold"]["id"]
    households.append(home)
    fields = " ".join(
        f'e{i}: createEvent(householdId: "{home}", input: {{title: "Event {i}", startsAt: "{when.strftime("%Y-%m-%dT%H:%M:%SZ")}", '
        f'endsAt: "{(when + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")}", repeat: {{rule: "{rule}"}}}}) {{ id }}'
        for i, (rule, when) in enumerate(events))
    graphql("mutation { " + fields + " }", token=token)
YEAR = [datetime(2026, month, 1, tzinfo=timezone.utc) for month in range(1, 13)] + [datetime(2027, 1, 1, tzinfo=timezone.utc)]


def agenda():
    total = 0
    for start, end in zip(YEAR, YEAR[1:]):
        query = f'{{ households(first: 100) {{ edges {{ node {{ agenda(from: "{start.isoformat()}", to: "{end.isoformat()}") {{ id startsAt }} }} }} }} }}'
        data = graphql(query, token=token)
        total += sum(len(edge["node"]["agenda"]) for edge in data["households"]["edges"])
    return total


def dateutil_agenda():
    zone = ZoneInfo(ZONE)
    total = 0
    for _ in range(HOUSEHOLDS):
        for rule, when in events:
            first = when.astimezone(zone)
            occurrences = {o for o in rrulestr(rule, dtstart=first).between(YEAR[0], YEAR[-1], inc=True) if o < YEAR[-1]}
            # An event's own first start is always one of its occurrences (dateutil leaves out one the rule does not match).
            if YEAR[0] <= first < YEAR[-1]:
                occurrences.add(first)
            total += sum(1 for o in occurrences if o.astimezone(timezone.utc).isoformat())
    return total


hearth_count, hearth_seconds = timed(hearth)
dateutil_count, dateutil_seconds = timed(dateutil)
assert hearth_count == dateutil_count, (hearth_count, dateutil_count)
hearth_rate, dateutil_rate = hearth_count / hearth_seconds, dateutil_count / dateutil_seconds
print(f"| {len(cases)} repeat rules × {FIRST} occurrences ({hearth_count} dates) | seconds (best of 3) | occurrences/s | per occurrence |")
print("|---|---|---|---|")
print(f"| Hearth `recurrencePreview`, over HTTP, 40 rules a request | {hearth_seconds:.3f} | {hearth_rate:,.0f} | {1e6 / hearth_rate:.2f} µs |")
print(f"| python-dateutil `rrule`, in process | {dateutil_seconds:.3f} | {dateutil_rate:,.0f} | {1e6 / dateutil_rate:.2f} µs |")
print(f"| ratio (goal ≥ 10×) | | {hearth_rate / dateutil_rate:.1f}× | |")

agenda_count, agenda_seconds = timed(agenda)
expected_count, expected_seconds = timed(dateutil_agenda)
assert agenda_count == expected_count, (agenda_count, expected_count)
agenda_rate, expected_rate = agenda_count / agenda_seconds, expected_count / expected_seconds
print()
print(f"| {HOUSEHOLDS * len(events)} repeating events over 2026 ({agenda_count} occurrences) | seconds (best of 3) | occurrences/s | per occurrence |")
print("|---|---|---|---|")
print(f"| Hearth `agenda`, over HTTP, a month a request, {HOUSEHOLDS} households at once | {agenda_seconds:.3f} | {agenda_rate:,.0f} | {1e6 / agenda_rate:.2f} µs |")
print(f"| python-dateutil `rrule.between`, in process | {expected_seconds:.3f} | {expected_rate:,.0f} | {1e6 / expected_rate:.2f} µs |")
print(f"| ratio (goal ≥ 10×) | | {agenda_rate / expected_rate:.1f}× | |")
