#!/usr/bin/env bash
# The household app in Debian's Chromium (Playwright from .build/python-web), against a release Hearth on
# an embedded PostgreSQL, one run: first open of a household of 2 000 tasks to a usable agenda (snapshot
# into IndexedDB), second open from IndexedDB, a local change to the screen, another member's change to
# the screen, and the app shell's bytes; beside the API's own snapshot time for the same household.
# Usage: scripts/bench/web.sh   (TASKS=2000 to change the size)
source "$(dirname "$0")/hearth-server.sh"
tasks=${TASKS:-2000}
command -v psql >/dev/null || { echo "web.sh needs psql (apt-get install postgresql-client)" >&2; exit 1; }
python=.build/python-web/bin/python
"$python" -c 'import playwright' 2>/dev/null || { echo "web.sh needs Playwright in .build/python-web (make web-verifiers)" >&2; exit 1; }
[ -x /usr/bin/chromium ] || { echo "web.sh needs Debian's chromium (make web-verifiers)" >&2; exit 1; }

start_hearth --no-sync-loop --sign-ups-per-address 100
PYTHONPATH="$(dirname "$0")" "$python" "$(dirname "$0")/web.py" "$url" "$work/postgres" "$tasks"
