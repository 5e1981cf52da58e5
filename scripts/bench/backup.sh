#!/usr/bin/env bash
# Backups (issue 37): `hearth backup` and `hearth restore` — time and file size — beside plain
# `pg_dump --format=custom` and `pg_restore --single-transaction` of the same database in the same
# run, for the dashboard's data set (20 stores × 200 products, 2 000 tasks) and for 25 000 products.
# Hearth's backup also counts, encrypts, checksums and reads the whole file back; its restore reads
# and checks the whole file first, then loads it into an empty database and settles the sync log.
# Both restores go into a fresh database of the same cluster. Release build, embedded PostgreSQL;
# the median of RUNS (default 3) each.
# Usage: scripts/bench/backup.sh   (RUNS=5 to change)
source "$(dirname "$0")/hearth-server.sh"
for tool in psql pg_dump pg_restore createdb dropdb; do
  command -v $tool >/dev/null || { echo "backup.sh needs $tool (apt-get install postgresql-client)" >&2; exit 1; }
done
start_hearth
password=$(cat "$work/postgres/hearth.password")
export PGPASSWORD=$password PGHOST="$work/postgres" PGUSER=hearth PGDATABASE=hearth
python3 "$(dirname "$0")/backup.py" "$url" "$work" "${RUNS:-3}"
