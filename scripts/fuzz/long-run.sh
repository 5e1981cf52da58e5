#!/usr/bin/env bash
# `make fuzz`: builds Hearth, starts it on a throwaway embedded cluster and a free port, signs up a
# person, and fuzzes /graphql with Schemathesis anonymously and signed in (HEARTH_FUZZ_EXAMPLES
# examples per operation, default 300), then stops the server. Exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/../.."
examples=${HEARTH_FUZZ_EXAMPLES:-300}
swift build --product hearth >/dev/null
data=$(mktemp -d /tmp/hearth-fuzz.XXXXXX)
chmod 755 "$data"  # the embedded cluster runs as the postgres user when started as root
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.build/debug/hearth serve --port "$port" --data-dir "$data/pg" >"$data/hearth.log" 2>&1 &
server=$!
trap 'kill -INT $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
    kill -0 $server 2>/dev/null || { cat "$data/hearth.log"; exit 1; }
    sleep 0.5
done
token=$(curl -sf "http://127.0.0.1:$port/graphql" -H 'Content-Type: application/json' \
    -d '{"query":"mutation { signUp(input: {email: \"fuzz@example.org\", password: \"correct horse\", displayName: \"Fuzz\"}) { token } }"}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["signUp"]["token"])')
echo "== anonymous, $examples examples per operation"
scripts/fuzz/graphql-fuzz.sh "http://127.0.0.1:$port/graphql" "$examples"
echo "== signed in, $examples examples per operation"
scripts/fuzz/graphql-fuzz.sh "http://127.0.0.1:$port/graphql" "$examples" "$token"
if grep -q "resolver failed" "$data/hearth.log"; then
    echo "internal errors in the server log:"
    grep "resolver failed" "$data/hearth.log" | head
    exit 1
fi
echo "no finding"

