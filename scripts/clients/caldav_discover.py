"""Discovers a person's calendars on Hearth with the `caldav` library from PyPI, as a calendar
app would: from the server's address and the person's email and access token to the principal,
its calendar home and its calendars. Prints them as JSON. Used by CalDAVOverHTTPTests.
Usage: caldav_discover.py URL EMAIL TOKEN"""
import json, sys

import caldav

url, email, token = sys.argv[1:4]
with caldav.DAVClient(url=url, username=email, password=token) as client:
    principal = client.principal()
    calendars = principal.calendars()
    print(json.dumps({
        "principal": str(principal.url),
        "calendars": [{"name": calendar.get_display_name(), "url": str(calendar.url),
                       "components": calendar.get_supported_components()} for calendar in calendars],
    }))
