"""Repeating items on Hearth through the `caldav` library from PyPI, as calendar apps handle them,
in steps the test checks through GraphQL between them. Prints what it saw as JSON. Used by
CalDAVRecurrenceTests.

Usage:
  caldav_repeating.py todo URL EMAIL TOKEN HOUSEHOLD UID MODE
      saves a weekly VTODO (DUE Tuesday 1 January 2030, 07:00 in Europe/Berlin) under UID and completes
      it as MODE says: `inplace` (the series marked COMPLETED, as Tasks.org and DAVx5 send it) or
      `override` (a RECURRENCE-ID instance marked COMPLETED, the caldav library's THISANDFUTURE mode, as
      Thunderbird and Evolution do); then sends the same completed copy again (a stale client).
      Prints the task as Hearth serves it after each step.
  caldav_repeating.py event URL EMAIL TOKEN HOUSEHOLD FROM TO
      saves a weekly VEVENT with an EXDATE, a cancelled occurrence and a moved and renamed one, reads
      it back, moves one more occurrence as a calendar app does (an override added to what Hearth
      served, saved with If-Match), reads it back again, and expands what Hearth serves with
      `recurring-ical-events` over FROM..TO (UTC, YYYYMMDDTHHMMSSZ): prints the occurrences' starts in
      UTC with their titles, and the body."""
import datetime
import json
import sys

import caldav
import icalendar

step, url, email, token, household = sys.argv[1:6]

ZONE = """BEGIN:VTIMEZONE
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
"""


def todo_body(uid):
    return f"""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//Test Client//EN
{ZONE}BEGIN:VTODO
UID:{uid}
DTSTAMP:20291201T080000Z
SUMMARY:Bins
DTSTART;TZID=Europe/Berlin:20300101T070000
DUE;TZID=Europe/Berlin:20300101T070000
RRULE:FREQ=WEEKLY
STATUS:NEEDS-ACTION
END:VTODO
END:VCALENDAR
"""


EVENT = f"""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//Test Client//EN
{ZONE}BEGIN:VEVENT
UID:choir@example.org
DTSTAMP:20291201T080000Z
SUMMARY:Choir
DTSTART;TZID=Europe/Berlin:20300106T180000
DTEND;TZID=Europe/Berlin:20300106T200000
RRULE:FREQ=WEEKLY;COUNT=6
EXDATE;TZID=Europe/Berlin:20300113T180000
END:VEVENT
BEGIN:VEVENT
UID:choir@example.org
DTSTAMP:20291201T080000Z
RECURRENCE-ID;TZID=Europe/Berlin:20300127T180000
SUMMARY:Choir
DTSTART;TZID=Europe/Berlin:20300127T180000
DTEND;TZID=Europe/Berlin:20300127T200000
STATUS:CANCELLED
END:VEVENT
BEGIN:VEVENT
UID:choir@example.org
DTSTAMP:20291201T080000Z
RECURRENCE-ID;TZID=Europe/Berlin:20300120T180000
SUMMARY:Choir (dress rehearsal)
LOCATION:Town hall
DTSTART;TZID=Europe/Berlin:20300121T190000
DTEND;TZID=Europe/Berlin:20300121T213000
END:VEVENT
END:VCALENDAR
"""


def overrides(body):
    """The changed occurrences of what Hearth serves: RECURRENCE-ID, DTSTART, DTEND (local, as
    written), SUMMARY and LOCATION of each override."""
    def local(value):
        return value.dt.strftime("%Y%m%dT%H%M%S") + (" " + str(value.dt.tzinfo) if value.dt.tzinfo else "")
    return [[local(c.get("RECURRENCE-ID")), local(c.get("DTSTART")), local(c.get("DTEND")), str(c.get("SUMMARY")), str(c.get("LOCATION", ""))]
            for c in icalendar.Calendar.from_ical(body).walk("VEVENT") if c.get("RECURRENCE-ID") is not None]


def served(item):
    """What Hearth serves of a VTODO now: its DUE (UTC), status and rule."""
    item.load()
    component = icalendar.Calendar.from_ical(item.data).walk("VTODO")[0]
    due = component.get("DUE").dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"due": due, "status": str(component.get("STATUS")), "rrule": component.get("RRULE").to_ical().decode()}


with caldav.DAVClient(url=url, username=email, password=token) as client:
    calendars = {str(c.url).rstrip("/").rsplit("/", 1)[-1]: c for c in client.principal().calendars()}
    tasks, events = calendars[household + "-tasks"], calendars[household + "-events"]
    if step == "todo":
        uid, mode = sys.argv[6:8]
        todo = tasks.save_todo(ical=todo_body(uid))
        report = {"saved": served(todo)}
        todo = tasks.todo_by_uid(uid)
        if mode == "inplace":
            todo.complete(handle_rrule=False)
        else:
            # As Thunderbird writes it: the series as it was, and the occurrence done as an override
            # (built here: the library's own THISANDFUTURE mode reads the first component of the
            # calendar as the task, and Hearth's first component is the VTIMEZONE the task's times need).
            calendar = icalendar.Calendar.from_ical(todo.data)
            master = calendar.walk("VTODO")[0]
            done = icalendar.Todo()
            for name in ("UID", "SUMMARY", "DTSTART", "DUE"):
                done.add(name, master.get(name).dt if hasattr(master.get(name), "dt") else master.get(name))
            done.add("RECURRENCE-ID", master.get("DTSTART").dt)
            done.add("DTSTAMP", datetime.datetime.now(datetime.timezone.utc))
            done.add("STATUS", "COMPLETED")
            done.add("COMPLETED", datetime.datetime.now(datetime.timezone.utc))
            calendar.add_component(done)
            todo.data = calendar.to_ical().decode()
            todo.save()
        stale = todo.data
        report["completed"] = served(tasks.todo_by_uid(uid))
        # The same completed copy again, without If-Match: a client that missed the server's answer.
        client.put(str(todo.url), stale, {"Content-Type": "text/calendar; charset=utf-8"})
        report["again"] = served(tasks.todo_by_uid(uid))
        print(json.dumps(report))
    elif step == "event":
        import recurring_ical_events  # in the same venv as caldav (make test installs it there too)
        start, end = [datetime.datetime.strptime(t, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc) for t in sys.argv[6:8]]
        events.save_event(ical=EVENT)
        event = events.event_by_uid("choir@example.org")
        first_body = event.data
        # Moved as a calendar app moves one occurrence: an override added to what it was served.
        calendar = icalendar.Calendar.from_ical(first_body)
        berlin = calendar.walk("VEVENT")[0].get("DTSTART").dt.tzinfo
        moved = icalendar.Event()
        moved.add("UID", "choir@example.org")
        moved.add("DTSTAMP", datetime.datetime(2029, 12, 2, 8, tzinfo=datetime.timezone.utc))
        moved.add("RECURRENCE-ID", datetime.datetime(2030, 2, 3, 18, tzinfo=berlin))
        moved.add("SUMMARY", "Choir")
        moved.add("DTSTART", datetime.datetime(2030, 2, 4, 18, tzinfo=berlin))
        moved.add("DTEND", datetime.datetime(2030, 2, 4, 20, tzinfo=berlin))
        calendar.add_component(moved)
        event.data = calendar.to_ical().decode()
        event.save()
        body = events.event_by_uid("choir@example.org").data
        occurrences = sorted((o.get("DTSTART").dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), str(o.get("SUMMARY")))
                             for o in recurring_ical_events.of(icalendar.Calendar.from_ical(body)).between(start, end))
        starts = [when for when, _ in occurrences]
        titles = [title for _, title in occurrences]
        found = [str(e.url) for e in events.search(start=datetime.datetime(2030, 2, 1, tzinfo=datetime.timezone.utc),
                                                 end=datetime.datetime(2030, 3, 1, tzinfo=datetime.timezone.utc), event=True)]
        # A series with no end is found decades on, and its occurrences come expanded when asked so.
        events.save_event(ical="""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//Test Client//EN
BEGIN:VEVENT
UID:rent@example.org
DTSTAMP:20291201T080000Z
SUMMARY:Rent
DTSTART:20300112T120000Z
DTEND:20300112T130000Z
RRULE:FREQ=MONTHLY
END:VEVENT
END:VCALENDAR
""")
        far = events.search(start=datetime.datetime(2075, 3, 12, tzinfo=datetime.timezone.utc),
                            end=datetime.datetime(2075, 3, 13, tzinfo=datetime.timezone.utc), event=True, post_filter=False)
        expanded = events.search(start=datetime.datetime(2030, 2, 12, tzinfo=datetime.timezone.utc),
                                 end=datetime.datetime(2030, 2, 13, tzinfo=datetime.timezone.utc), event=True, server_expand=True, post_filter=False)
        moved_expanded = events.search(start=datetime.datetime(2030, 1, 21, tzinfo=datetime.timezone.utc),
                                       end=datetime.datetime(2030, 1, 22, tzinfo=datetime.timezone.utc), event=True, server_expand=True,
                                       post_filter=False)
        print(json.dumps({"starts": starts, "titles": titles, "firstOverrides": overrides(first_body), "overrides": overrides(body), "body": body, "february": found, "url": str(event.url),
                          "movedExpanded": [(e.component["DTSTART"].dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                             e.component["RECURRENCE-ID"].dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
                                            for e in moved_expanded],
                          "farFuture": [str(e.url) for e in far],
                          "expanded": [e.component["DTSTART"].dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") for e in expanded],
                          "expandedBody": [e.data for e in expanded]}))
