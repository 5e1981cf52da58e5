#!/usr/bin/env bash
# CalDAV (issue 38): a calendar app's initial sync of 2 000 events (PROPFIND depth 1, then one
# calendar-multiget of every item) and its incremental sync-collection after 10 changes, against
# Hearth (release build, embedded PostgreSQL, Basic with an access token) and Radicale (PyPI, in
# .build/python-radicale, its filesystem storage, Basic with a plain htpasswd) serving the same
# items on the same machine in the same run. The median of RUNS (default 5) each.
# Usage: scripts/bench/caldav.sh   (RUNS=9 to change)
source "$(dirname "$0")/hearth-server.sh"
.build/python-radicale/bin/python -c 'import radicale' >/dev/null 2>&1 || \
  { python3 -m venv .build/python-radicale && .build/python-radicale/bin/pip install --quiet "radicale>=3.2,<4"; } >/dev/null 2>&1 || \
  { echo "caldav.sh needs Radicale from PyPI in .build/python-radicale (python3 -m venv; pip install radicale)" >&2; exit 1; }
start_hearth

# Radicale on a free port, with its own folder and one user (bench:bench).
mkdir -p "$work/radicale"
printf 'bench:bench\n' > "$work/radicale/users"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.build/python-radicale/bin/python -m radicale --server-hosts "127.0.0.1:$port" --storage-filesystem-folder "$work/radicale/collections" \
  --auth-type htpasswd --auth-htpasswd-filename "$work/radicale/users" --auth-htpasswd-encryption plain --logging-level warning \
  > "$work/radicale/log" 2>&1 &
radicale=$!
trap 'kill $radicale 2>/dev/null || true; stop_hearth' EXIT
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  kill -0 "$radicale" 2>/dev/null || { cat "$work/radicale/log" >&2; exit 1; }
  sleep 0.1
done
version=$(.build/python-radicale/bin/python -c 'import radicale; print(radicale.VERSION)')
python3 "$(dirname "$0")/caldav.py" "$url" "http://127.0.0.1:$port" "${RUNS:-5}" "$version"
