#!/usr/bin/env bash
# HTTP load with wrk on loopback (2 threads, 32 connections, 10 s each, one run): GET /healthz,
# POST /graphql { serverInfo { version } }, and the same query as an automatic persisted query
# over GET. Starts a release build of `hearth serve` on an embedded PostgreSQL in a scratch folder.
# Usage: scripts/bench/http.sh   (DURATION=10s THREADS=2 CONNECTIONS=32 to change the load)
source "$(dirname "$0")/hearth-server.sh"
duration=${DURATION:-10s}
threads=${THREADS:-2}
connections=${CONNECTIONS:-32}
command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }; }

start_hearth

query='{ serverInfo { version } }'
hash=$(printf '%s' "$query" | sha256sum | cut -d' ' -f1)
body=$(printf '{"query":"%s"}' "$query")
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
LUA
# Register the persisted query, then check each endpoint answers before loading it.
curl -sf "$url/graphql" -H 'Content-Type: application/json' \
  -d "{\"query\":\"$query\",\"extensions\":{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"$hash\"}}}" > /dev/null
extensions=$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))" \
  "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"$hash\"}}")
apq="$url/graphql?extensions=$extensions"
curl -sf "$url/healthz" > /dev/null
curl -sf "$url/graphql" -H 'Content-Type: application/json' -d "$body" | grep -q '"version"'
curl -sf "$apq" | grep -q '"version"'

run() { # name, wrk arguments…
  local name=$1; shift
  local output
  output=$(wrk -t"$threads" -c"$connections" -d"$duration" --latency "$@")
  local rps p50 p99 errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$output")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$output")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$output")
  errors=$(awk '/Non-2xx or 3xx responses/ {print $5}' <<<"$output")
  echo "$name|$rps|$p50|$p99|${errors:-0}"
}
results=()
results+=("$(run 'GET /healthz' "$url/healthz")")
results+=("$(run 'POST /graphql { serverInfo { version } }' -s "$work/post.lua" "$url/graphql")")
results+=("$(run 'GET /graphql, persisted query' "$apq")")

echo "| request | requests/s | p50 | p99 | non-2xx | ÷ /healthz |"
echo "|---|---:|---:|---:|---:|---:|"
base=$(cut -d'|' -f2 <<<"${results[0]}")
for row in "${results[@]}"; do
  IFS='|' read -r name rps p50 p99 errors <<<"$row"
  ratio=$(python3 -c "print(f'{float($rps) / float($base):.2f}')")
  echo "| $name | $rps | $p50 | $p99 | $errors | $ratio |"
done
echo
echo "wrk -t$threads -c$connections -d$duration on loopback, one run, release build; hearth and wrk share the machine's cores."
