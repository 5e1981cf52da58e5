#!/usr/bin/env bash
# Notification delivery under load (release build, embedded PostgreSQL, one run): 1 000
# notifications fanned out to 3 channels each (a Web Push subscription, an ntfy topic, a webhook)
# against a local receiver (`hearth dev fixture-shop`'s /sink, which answers 201): the time the
# outbox takes to drain and its deliveries per second, beside the raw POST rate of the same HTTP
# client to the same receiver (`hearth dev post-rate`, 16 at once): the limit.
# Usage: scripts/bench/delivery.sh   (NOTIFICATIONS=1000 to change the size)
source "$(dirname "$0")/hearth-server.sh"
count=${NOTIFICATIONS:-1000}
python=.build/python-webpush/bin/python
"$python" -c 'import cryptography' 2>/dev/null || { echo "delivery.sh needs .build/python-webpush (make test installs it)" >&2; exit 1; }
command -v psql >/dev/null || { echo "delivery.sh needs psql (apt-get install postgresql-client)" >&2; exit 1; }

swift build -c release --product hearth >&2
.build/release/hearth dev fixture-shop --port 0 > "$work/sink.out" 2>&1 &
sink=$!
trap 'kill "$sink" 2>/dev/null || true; stop_hearth' EXIT
for _ in $(seq 1 300); do grep -q "listening on" "$work/sink.out" 2>/dev/null && break; sleep 0.1; done
sink_url=$(grep -o "http://[0-9.:]*" "$work/sink.out" | head -1)
[ -n "$sink_url" ] || { echo "the receiver did not start" >&2; cat "$work/sink.out" >&2; exit 1; }

start_hearth --no-sync-loop --delivery-allow-host 127.0.0.1 --vapid-subject mailto:bench@hearth.example
"$python" "$(dirname "$0")/delivery.py" "$url" "$work/postgres" "$count" "$sink_url"
