#!/usr/bin/env bash
# The agenda over a household with 10 000 items (release build, one run): items are seeded
# straight into the embedded PostgreSQL (a year of tasks and events, with labels and subtasks),
# then `agenda` for one week and for one month is asked 100 times each over HTTP; p50 and p90.
# Usage: scripts/bench/agenda.sh   (ITEMS=10000 to change the size)
source "$(dirname "$0")/hearth-server.sh"
items=${ITEMS:-10000}

start_hearth --log-level warning
python3 "$(dirname "$0")/agenda.py" "$url" "$work/postgres" "$items"
