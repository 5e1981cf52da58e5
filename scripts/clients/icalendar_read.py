"""Reads an iCalendar document (the file its argument names) with the `icalendar` library from PyPI, as a
calendar app's parser would, and prints what it found as JSON: the calendar's properties, its
time zones and its events with their times resolved to UTC. Any parse error the library records
is listed under "errors" (the caller expects none). Used by CalendarFeedOverHTTPTests."""
import json, sys
from datetime import date, datetime, timezone

import icalendar

with open(sys.argv[1], "rb") as file:
    text = file.read()
calendar = icalendar.Calendar.from_ical(text)
errors = []


def when(value):
    if value is None:
        return None
    moment = value.dt
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            errors.append("a floating time: " + str(moment))
            return moment.isoformat()
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(moment, date):
        return moment.isoformat()
    return str(moment)


for component in calendar.walk():
    for error in getattr(component, "errors", []):
        errors.append(f"{component.name}: {error}")

events = []
for event in calendar.walk("VEVENT"):
    categories = event.get("CATEGORIES")
    names = []
    if categories is not None:
        for entry in categories if isinstance(categories, list) else [categories]:
            names.extend(str(c) for c in entry.cats)
    events.append({
        "uid": str(event.get("UID")),
        "summary": str(event.get("SUMMARY")),
        "start": when(event.get("DTSTART")),
        "end": when(event.get("DTEND")),
        "tzid": event.get("DTSTART").params.get("TZID") if event.get("DTSTART") is not None else None,
        "location": str(event.get("LOCATION")) if event.get("LOCATION") is not None else None,
        "description": str(event.get("DESCRIPTION")) if event.get("DESCRIPTION") is not None else None,
        "categories": names,
        "priority": int(event.get("PRIORITY")) if event.get("PRIORITY") is not None else None,
    })

print(json.dumps({
    "name": str(calendar.get("X-WR-CALNAME")),
    "ttl": str(calendar.get("X-PUBLISHED-TTL")),
    "timezones": [str(tz.get("TZID")) for tz in calendar.walk("VTIMEZONE")],
    "events": events,
    "errors": errors,
}))
