#!/usr/bin/env bash
# Failed sign-ins take the same time whether the email has an account or not: a release build
# of `hearth serve` (bcrypt cost 12) on a scratch embedded cluster, ROUNDS alternating failed
# sign-ins for an existing and an unknown email over loopback, mean time of each and their ratio.
# Usage: scripts/bench/sign-in-timing.sh   (ROUNDS=20 to change the count)
source "$(dirname "$0")/hearth-server.sh"
rounds=${ROUNDS:-20}

# The limit on failed sign-ins is raised so that it does not end the measurement.
start_hearth --sign-in-attempts 1000

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
