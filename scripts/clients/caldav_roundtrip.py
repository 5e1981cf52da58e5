"""Works with one household's calendars on Hearth through the `caldav` library from PyPI, as a
calendar app would, in steps the test checks through GraphQL between them. Every body Hearth
returns is parsed with `icalendar`. Prints what it saw as JSON. Used by CalDAVOverHTTPTests.

Usage:
  caldav_roundtrip.py create URL EMAIL TOKEN HOUSEHOLD
      finds the household's two calendars, takes their sync tokens, saves a VTODO (DUE in
      Europe/Berlin, CATEGORIES, a VALARM 30 minutes before, properties Hearth does not model)
      and a VEVENT; prints their URLs, ETags and the tokens.
  caldav_roundtrip.py edit URL EMAIL TOKEN HOUSEHOLD TASK_TOKEN EVENT_TOKEN
      renames and completes the task, deletes the event, then syncs both calendars from the
      earlier tokens; prints what each sync returned (changed and deleted URLs) and the task."""
import json, sys

import caldav
import icalendar
from caldav.lib import error

step, url, email, token, household = sys.argv[1:6]

TODO = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//Test Client//EN
BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:STANDARD
DTSTART:19701025T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700329T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VTODO
UID:roundtrip-todo-1@example.org
DTSTAMP:20261120T080000Z
SUMMARY:Buy candles
DESCRIPTION:Beeswax\\, not paraffin
DUE;TZID=Europe/Berlin:20261130T170000
PRIORITY:2
CATEGORIES:Errands,Kitchen
X-APPLE-SORT-ORDER:42
X-EXAMPLE-CLIENT-STATE:keep me exactly
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:Buy candles
TRIGGER;RELATED=END:-PT30M
END:VALARM
END:VTODO
END:VCALENDAR
"""

EVENT = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//Test Client//EN
BEGIN:VEVENT
UID:roundtrip-event-1@example.org
DTSTAMP:20261120T080000Z
SUMMARY:Advent dinner
DTSTART:20261129T170000Z
DTEND:20261129T200000Z
LOCATION:Grandma's
END:VEVENT
END:VCALENDAR
"""


def parsed(data):
    """The body parsed by icalendar (which raises on what it cannot read)."""
    return icalendar.Calendar.from_ical(data)


def synced(calendar, sync_token):
    """A sync-collection from the token: the URLs changed and those deleted (404 when fetched)."""
    found = calendar.objects_by_sync_token(sync_token=sync_token, load_objects=False, disable_fallback=True)
    changed, deleted = [], []
    for item in found:
        try:
            item.load()
            parsed(item.data)
            changed.append(str(item.url))
        except error.NotFoundError:
            deleted.append(str(item.url))
    return {"changed": sorted(changed), "deleted": sorted(deleted), "token": found.sync_token}


with caldav.DAVClient(url=url, username=email, password=token) as client:
    calendars = {str(c.url).rstrip("/").rsplit("/", 1)[-1]: c for c in client.principal().calendars()}
    tasks, events = calendars[household + "-tasks"], calendars[household + "-events"]
    if step == "create":
        task_token = tasks.objects_by_sync_token(disable_fallback=True).sync_token
        event_token = events.objects_by_sync_token(disable_fallback=True).sync_token
        todo = tasks.save_todo(ical=TODO)
        event = events.save_event(ical=EVENT)
        todo.load()
        stored = parsed(todo.data)
        print(json.dumps({
            "todo": str(todo.url), "event": str(event.url), "taskToken": task_token, "eventToken": event_token,
            "todoData": todo.data, "todoCategories": [str(c) for c in stored.walk("VTODO")[0].get("CATEGORIES").cats],
            "todos": [str(t.url) for t in tasks.todos()], "events": [str(e.url) for e in events.events()],
        }))
    elif step == "edit":
        task_token, event_token = sys.argv[6:8]
        todo = tasks.todo_by_uid("roundtrip-todo-1@example.org")
        todo.icalendar_component["SUMMARY"] = "Buy beeswax candles"
        todo.save()
        todo.complete()
        events.event_by_uid("roundtrip-event-1@example.org").delete()
        todo = tasks.todo_by_uid("roundtrip-todo-1@example.org")
        parsed(todo.data)
        print(json.dumps({"tasks": synced(tasks, task_token), "events": synced(events, event_token), "todoData": todo.data,
                          "todo": str(todo.url)}))
