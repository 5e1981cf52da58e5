#!/usr/bin/env bash
# What hostile documents cost the server's memory: a release build of `hearth serve` on a scratch
# embedded cluster, the resident memory (VmRSS) before, the peak (VmHWM) and after ROUNDS rounds of
# hostile documents sent 8 at a time (the 55 KB alias bomb, 98 conflicting aliases, fragments
# doubling 30 times, a 100 000-item list, a 900 KB string), and how long the batch took.
# Usage: scripts/bench/hostile-memory.sh   (ROUNDS=40 to change the count)
source "$(dirname "$0")/hearth-server.sh"
rounds=${ROUNDS:-40}
start_hearth
pid=$server
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
before=$(rss)
elapsed=$(python3 - "$url" "$rounds" <<'PY'
import concurrent.futures, json, sys, time, urllib.error, urllib.request
url, rounds = sys.argv[1] + "/graphql", int(sys.argv[2])
bomb = "{ " + " ".join("a:__typename" if i % 2 == 0 else "a:exportPreferences" for i in range(3330)) + " }"
conflicts = "{ " + " ".join("a:__typename" if i % 2 == 0 else "a:exportPreferences" for i in range(98)) + " }"
fragments = "{ ...F0 } " + " ".join(f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(30)) \
    + " fragment F30 on Query { serverInfo { version } }"
documents = [bomb, conflicts, fragments, "{ serverInfo(x: [" + "1," * 100_000 + "]) { version } }",
             '{ serverInfo(x: "' + "a" * 900_000 + '") { version } }']
def send(document):
    request = urllib.request.Request(url, data=json.dumps({"query": document}).encode(),
                                     headers={"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
    try:
        return urllib.request.urlopen(request, timeout=120).status
    except urllib.error.HTTPError as error:
        return error.code
started = time.monotonic()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    statuses = list(pool.map(send, [d for d in documents for _ in range(rounds)]))
assert all(400 <= s < 500 for s in statuses), sorted(set(statuses))
print(f"{time.monotonic() - started:.2f}")
PY
)
after=$(rss)
peak=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
requests=$((rounds * 5))
printf "| hostile documents (%d requests, 8 at a time) | value |\n|---|---:|\n" "$requests"
printf "| resident memory before | %d MiB |\n| peak | %d MiB |\n| after | %d MiB |\n| time for the batch | %s s |\n" \
  $((before / 1024)) $((peak / 1024)) $((after / 1024)) "$elapsed"
