"""Drives scripts/bench/stores.sh's measurements against a running Hearth and fixture shop."""
import re, sys, time, urllib.request

from hearth_graphql import client, p50_p90

url, shop_url, pid, log_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

graphql = client(url)

def memory(field):
    with open("/proc/%s/status" % pid) as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) / 1024  # MiB
    return 0.0

def statements():
    with open(log_path) as log:
        lines = [line for line in log if "store added" in line or "store synced" in line]
    def figures(line):
        return {key: int(value) for key, value in re.findall(r"(pages|statements|products|written|events)=(\d+)", line)}
    return [figures(line) for line in lines]

token = graphql('mutation { signUp(input: {email: "bench@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
household = graphql('mutation { createHousehold(input: {name: "Bench"}) { id } }', token=token)["createHousehold"]["id"]
rss_before = memory("VmRSS")

started = time.perf_counter()
store = graphql('mutation($h: UUID!) { addStore(householdId: $h, domain: "big.test") { id productCount } }', {"h": household}, token)["addStore"]
import_seconds = time.perf_counter() - started

urllib.request.urlopen(urllib.request.Request(shop_url + "/_control/shops/big?changePercent=1", data=b"", method="POST")).read()
time.sleep(61)  # the minimum spacing between two syncs of one store
started = time.perf_counter()
graphql('mutation($s: UUID!) { syncStore(id: $s) { syncStatus { state } } }', {"s": store["id"]}, token)
sync_seconds = time.perf_counter() - started
peak_growth = memory("VmHWM") - rss_before

query = '''query($s: UUID!) { store(id: $s) { products(first: 50, sort: PRICE_ASC, stock: IN_STOCK, search: "wool") {
  totalCount edges { node { id title minPrice maxPrice available } } } } }'''
p50, p90 = p50_p90(lambda: graphql(query, {"s": store["id"]}, token))

runs = statements()
print("| store of %d products | measured | target |" % store["productCount"])
print("|---|---:|---:|")
print("| initial import (addStore) | %.1f s | < 20 s |" % import_seconds)
print("| re-sync, 1 %% of variants changed | %.1f s | < 10 s |" % sync_seconds)
print("| server peak memory growth (VmHWM − RSS before) | %.0f MiB | < 150 MiB |" % peak_growth)
print("| products(first: 50, PRICE_ASC, IN_STOCK, \"wool\") p50 / p90 of 100 | %.1f / %.1f ms | < 20 ms |"
      % (p50, p90))
for name, run in zip(["import", "re-sync"], runs):
    if run.get("pages"):
        print("| SQL statements, %s | %d for %d pages (%.1f per page), %d events |"
              % (name, run["statements"], run["pages"], run["statements"] / run["pages"], run.get("events", 0)))
