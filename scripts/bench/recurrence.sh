#!/usr/bin/env bash
# Repeat rules: 1 000 household rules (ten kinds, each from 100 first dates) previewed 100
# occurrences each through `recurrencePreview` over HTTP (release build, 40 rules a request),
# beside python-dateutil's rrule computing the same dates in process (.build/python-recurrence,
# which `make bench` installs); and 1 000 repeating events expanded over a year by `agenda` beside
# dateutil's `between`. Best of three runs each, one sitting.
# Usage: scripts/bench/recurrence.sh
source "$(dirname "$0")/hearth-server.sh"
python=.build/python-recurrence/bin/python
"$python" -c 'import dateutil' 2>/dev/null || { echo "recurrence.sh needs python-dateutil in .build/python-recurrence (make bench installs it)" >&2; exit 1; }
start_hearth
"$python" "$(dirname "$0")/recurrence.py" "$url"
