"""Runs caldav-server-tester (PyPI) against one household's calendars on Hearth and prints its
findings as JSON. Used by CalDAVServerTesterTests and to write the README's table.

Hearth's calendars are households': they are not made with MKCALENDAR, and each holds one kind
of component (a household's events, VEVENT; its tasks, VTODO). The tester checks events in the
calendar it is pointed at and, when that calendar refuses tasks, makes a task list with
MKCALENDAR; here it is handed the household's task calendar instead. Nothing else is changed.

Usage: caldav_server_tester.py URL EMAIL TOKEN EVENTS_NAME TASKS_NAME"""
import sys

import caldav
from caldav import collection
from caldav_server_tester import caldav_server_tester as tester

url, email, token, events_name, tasks_name = sys.argv[1:6]

make_calendar = collection.CalendarSet.make_calendar


def household_task_list(self, name=None, cal_id=None, supported_calendar_component_set=None, method=None):
    """The household's task calendar where the tester would make a task list; else MKCALENDAR as before."""
    if supported_calendar_component_set == ["VTODO"]:
        for calendar in self.calendars():
            if calendar.get_display_name() == tasks_name:
                return calendar
    return make_calendar(self, name=name, cal_id=cal_id, supported_calendar_component_set=supported_calendar_component_set, method=method)


collection.CalendarSet.make_calendar = household_task_list

sys.argv = ["caldav-server-tester", "--caldav-url", url, "--caldav-username", email, "--caldav-password", token,
            "--caldav-calendar", events_name, "--format", sys.argv[6] if len(sys.argv) > 6 else "json"]
tester.check_server_compatibility()
