# Sourced by the benchmarks that load a running Hearth (http.sh, sign-in-timing.sh): from the
# repository root, `start_hearth [serve options…]` builds a release `hearth`, starts it on an
# embedded PostgreSQL in a scratch folder ($work) and sets $url; on exit the server stops and the
# folder goes. HEARTH_BINARY=path runs that build instead (to set two builds side by side in one
# sitting: copy .build/release/hearth before a change, then run each).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

work=$(mktemp -d /tmp/hearth-bench.XXXXXX)
chmod 755 "$work"  # the cluster runs as the postgres user when we are root
server=""
stop_hearth() {
  if [ -n "$server" ]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap stop_hearth EXIT

start_hearth() {
  local binary=${HEARTH_BINARY:-.build/release/hearth}
  [ -n "${HEARTH_BINARY:-}" ] || swift build -c release --product hearth >&2
  "$binary" serve --port 0 --data-dir "$work/postgres" --log-level warning "$@" \
    > "$work/stdout" 2> "$work/stderr" &
  server=$!
  for _ in $(seq 1 600); do
    grep -q "listening on" "$work/stdout" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "$work/stderr" >&2; exit 1; }
    sleep 0.1
  done
  url=$(grep -o "http://[0-9.:]*" "$work/stdout" | head -1)
  [ -n "$url" ] || { echo "hearth did not start" >&2; cat "$work/stderr" >&2; exit 1; }
}
