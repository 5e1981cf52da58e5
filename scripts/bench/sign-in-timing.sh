#!/usr/bin/env bash
# Failed sign-ins take the same time whether the email has an account or not: a release build
# of `hearth serve` (bcrypt cost 12) on a scratch embedded cluster, ROUNDS alternating failed
# sign-ins for an existing and an unknown email over loopback, mean time of each and their ratio.
# Usage: scripts/bench/sign-in-timing.sh   (ROUNDS=20 to change the count)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${ROUNDS:-20}

work=$(mktemp -d /tmp/hearth-signin-bench.XXXXXX)
chmod 755 "$work"
server=""
cleanup() {
  if [ -n "$server" ]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

swift build -c release --product hearth >&2
# The limit on failed sign-ins is raised so that it does not end the measurement.
.build/release/hearth serve --port 0 --data-dir "$work/postgres" --log-level warning --sign-in-attempts 1000 \
  > "$work/stdout" 2> "$work/stderr" &
server=$!
for _ in $(seq 1 600); do
  grep -q "listening on" "$work/stdout" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/stderr" >&2; exit 1; }
  sleep 0.1
done
url=$(grep -o "http://[0-9.:]*" "$work/stdout" | head -1)
[ -n "$url" ] || { echo "hearth did not start" >&2; exit 1; }

graphql() { curl -s -o /dev/null -w "%{time_total}" "$url/graphql" -H 'Content-Type: application/json' -d "$1"; }
graphql '{"query":"mutation { signUp(input: {email: \"known@example.org\", password: \"correct horse\", displayName: \"K\"}) { token } }"}' > /dev/null
for _ in $(seq 1 "$rounds"); do
  for email in known@example.org unknown@example.org; do
    printf '%s %s\n' "$email" "$(graphql "{\"query\":\"mutation { signIn(email: \\\"$email\\\", password: \\\"wrong horse\\\") { token } }\"}")"
  done
done | awk -v rounds="$rounds" '
  { sum[$1] += $2 }
  END {
    known = 1000 * sum["known@example.org"] / rounds; unknown = 1000 * sum["unknown@example.org"] / rounds
    printf "| failed sign-in | mean over %d |\n|---|---:|\n", rounds
    printf "| existing email, wrong password | %.1f ms |\n| unknown email | %.1f ms |\n", known, unknown
    printf "\nunknown ÷ existing: %.3f (bcrypt cost 12, release build, one run)\n", unknown / known
  }'
