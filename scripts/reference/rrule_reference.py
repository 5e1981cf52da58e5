#!/usr/bin/env python3
"""python-dateutil's occurrences of repeat rules, for the differential test of recurrencePreview.

    rrule_reference.py CASES.json

CASES.json: a list of {"rule": RRULE value, "start": ISO 8601 instant, "timeZone": IANA name,
"first": N}. Prints a JSON list with, for each case, its first N occurrences as ISO 8601 UTC
instants with milliseconds (as Hearth writes them), or {"error": text} when dateutil refuses it.
DTSTART is the start's wall time in the zone (zoneinfo: a skipped wall time moves forward by the
gap, a repeated one is its first showing)."""
import json
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr


def occurrences(case):
    zone = ZoneInfo(case["timeZone"])
    start = datetime.fromisoformat(case["start"].replace("Z", "+00:00")).astimezone(zone)
    rule = rrulestr(case["rule"], dtstart=start)
    found = []
    for occurrence in rule:
        found.append(occurrence.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z"))
        if len(found) == case["first"]:
            break
    return found


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        cases = json.load(file)
    answers = []
    for case in cases:
        try:
            answers.append(occurrences(case))
        except Exception as error:  # the case's answer, not the script's failure
            answers.append({"error": f"{type(error).__name__}: {error}"})
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
