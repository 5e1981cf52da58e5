#!/usr/bin/env bash
# Local-first sync over a household of 10 000 tasks (release build, embedded PostgreSQL, one run):
# a snapshot pulled in pages of 500 (time, and the server's resident memory before and at its peak
# while it answers), the same with a 25 000-product store added, an incremental pull after 100
# changes (p50 of 30), a push of 500 mutations, and the same 500 changes as 500 ordinary
# `updateTask` requests, one after another as a device replaying its queue would send them.
# Usage: scripts/bench/sync.sh   (TASKS=10000 PRODUCTS=25000 to change the sizes)
source "$(dirname "$0")/hearth-server.sh"
tasks=${TASKS:-10000}
products=${PRODUCTS:-25000}
command -v psql >/dev/null || { echo "sync.sh needs psql (apt-get install postgresql-client)" >&2; exit 1; }

start_hearth --no-sync-loop
HEARTH_PID=$server python3 "$(dirname "$0")/sync.py" "$url" "$work/postgres" "$tasks" "$products"
