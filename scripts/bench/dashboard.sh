#!/usr/bin/env bash
# A member's dashboard (issue 22's query: households → 20 stores with their first 10 products by
# price and unread counts, 50 tasks with labels and subtasks, a 7-day agenda, unread count, 10
# notifications) over a household of 20 stores × 200 products and 2 000 tasks: wrk with 16
# connections for 15 s (requests/s, p50, p99, SQL statements per request from pg_stat_statements),
# beside the same answer built by one hand-written SQL statement run by pgbench at the same
# concurrency: the physical reference. Release build, embedded PostgreSQL, the data vacuumed and
# analyzed as autovacuum leaves an import, each side warmed up for WARMUP=3 s, one run; then ROUNDS=3
# alternating SLICE=5 s slices of each, whose ratios compare the two on the same machine speed.
# Also prints the CPU each request cost Hearth and PostgreSQL; PERF=1 adds a perf profile of Hearth,
# MALLOCS=50 Hearth's mallocs per request (a uprobe: exact, whatever the machine's speed);
# after the load, each statement of one dashboard request is checked with its plan (auto_explain):
# which ones sort rows or read a whole table.
# Usage: scripts/bench/dashboard.sh   (DURATION=15 CONNECTIONS=16 to change the load)
source "$(dirname "$0")/hearth-server.sh"
duration=${DURATION:-15}
connections=${CONNECTIONS:-16}
command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }; }
for tool in wrk pgbench psql; do
  command -v $tool >/dev/null || { echo "dashboard.sh needs $tool (apt-get install wrk postgresql-client)" >&2; exit 1; }
done

# pg_stat_statements counts the statements: loaded at the cluster's start, so start, set, restart.
start_hearth
password=$(cat "$work/postgres/hearth.password")
export PGPASSWORD=$password PGHOST="$work/postgres" PGUSER=hearth PGDATABASE=hearth
# auto_explain stays off until dashboard.py turns it on for one request after the load; the plans
# go to the cluster's own log files (postgres/log).
psql -q -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements', 'auto_explain'" -c "ALTER SYSTEM SET logging_collector = on"
kill -INT "$server"; wait "$server" 2>/dev/null || true
start_hearth
psql -q -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
  -c "ALTER SYSTEM SET pg_stat_statements.track_planning = on" -c "SELECT pg_reload_conf()"

HEARTH_PID=$server python3 "$(dirname "$0")/dashboard.py" "$url" "$work" "$duration" "$connections"
