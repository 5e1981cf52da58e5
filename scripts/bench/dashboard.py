"""Drives scripts/bench/dashboard.sh: seeds the household, loads the dashboard with wrk and the
hand-written statement with pgbench, and prints both side by side."""
import datetime, json, os, re, statistics, subprocess, sys

from hearth_graphql import client, seed_household

url, work, duration, connections = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
graphql = client(url, timeout=120)

token = graphql('mutation { signUp(input: {email: "dash@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
me = graphql("{ me { id } }", token=token)["me"]["id"]
household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
now = datetime.datetime.now(datetime.timezone.utc)


def psql(sql):
    done = subprocess.run(["psql", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("psql failed: " + done.stderr)
    return done.stdout


seed_household(psql, household, stores=20, products=200, tasks=2000)

start, end = now.strftime("%Y-%m-%dT%H:%M:%SZ"), (now + datetime.timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")
query = """query Dashboard($from: DateTime!, $to: DateTime!) { households { edges { node { name
  stores(first: 20) { edges { node { name productCount unreadEventCount syncStatus { state }
    products(first: 10, sort: PRICE_ASC) { edges { node { title minPrice variants { price available } } } } } } }
  tasks(first: 50) { edges { node { title labels { name } subtasks { title done } } } }
  agenda(from: $from, to: $to) { title } unreadEventCount } } }
  notifications(first: 10) { edges { node { title } } } }"""
answer = graphql(query, {"from": start, "to": end}, token)
hearth_bytes = len(json.dumps({"data": answer}, separators=(",", ":")))

# The same answer in one statement, the way a hand-written endpoint would build it.
reference = f"""
SELECT json_build_object('data', json_build_object(
  'households', json_build_object('edges', (SELECT coalesce(json_agg(json_build_object('node', json_build_object(
    'name', h.name,
    'stores', json_build_object('edges', (SELECT coalesce(json_agg(json_build_object('node', json_build_object(
        'name', s.name, 'productCount', s.product_count,
        'unreadEventCount', (SELECT count(*) FROM store_events e WHERE e.store_id = s.id
            AND e.id > coalesce((SELECT m.read_up_to FROM store_read_marks m WHERE m.user_id = '{me}' AND m.store_id = s.id), 0)
            AND NOT EXISTS (SELECT 1 FROM store_event_reads r WHERE r.user_id = '{me}' AND r.event_id = e.id)),
        'syncStatus', json_build_object('state', CASE WHEN s.last_synced_at IS NULL THEN 'NEVER_SYNCED' ELSE 'SYNCED' END),
        'products', json_build_object('edges', (SELECT coalesce(json_agg(json_build_object('node', json_build_object(
            'title', p.title, 'minPrice', to_char(p.min_price / 100.0, 'FM999999990.00'),
            'variants', (SELECT json_agg(json_build_object('price', to_char(v.price / 100.0, 'FM999999990.00'), 'available', v.available)
                                         ORDER BY v.position, v.shopify_id) FROM variants v WHERE v.product_id = p.id))) ORDER BY p.min_price, p.id), '[]')
          FROM (SELECT * FROM products p WHERE p.store_id = s.id AND p.removed_at IS NULL ORDER BY p.min_price, p.id LIMIT 10) p))))
        ORDER BY s.created_at, s.id), '[]')
      FROM (SELECT * FROM stores s WHERE s.household_id = h.id ORDER BY s.created_at, s.id LIMIT 20) s)),
    'tasks', json_build_object('edges', (SELECT coalesce(json_agg(json_build_object('node', json_build_object(
        'title', t.title,
        'labels', (SELECT coalesce(json_agg(json_build_object('name', l.name) ORDER BY lower(l.name)), '[]') FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = t.id),
        'subtasks', (SELECT coalesce(json_agg(json_build_object('title', st.title, 'done', st.done) ORDER BY st.position), '[]') FROM subtasks st WHERE st.task_id = t.id)))
        ORDER BY t.deadline NULLS LAST, t.id), '[]')
      FROM (SELECT * FROM task_items t WHERE t.household_id = h.id ORDER BY t.deadline NULLS LAST, t.id LIMIT 50) t)),
    'agenda', (SELECT coalesce(json_agg(json_build_object('title', t.title) ORDER BY coalesce(t.starts_at, t.deadline), t.id), '[]')
      FROM task_items t WHERE t.household_id = h.id AND ((t.kind = 'TASK' AND t.deadline >= '{start}' AND t.deadline < '{end}')
        OR (t.kind = 'EVENT' AND t.starts_at < '{end}' AND t.ends_at > '{start}'))),
    'unreadEventCount', (SELECT count(*) FROM store_events e WHERE e.household_id = h.id
        AND e.id > coalesce((SELECT m.read_up_to FROM store_read_marks m WHERE m.user_id = '{me}' AND m.store_id = e.store_id), 0)
        AND NOT EXISTS (SELECT 1 FROM store_event_reads r WHERE r.user_id = '{me}' AND r.event_id = e.id))))
    ORDER BY h.created_at, h.id), '[]')
    FROM households h JOIN household_members hm ON hm.household_id = h.id AND hm.user_id = '{me}')),
  'notifications', json_build_object('edges', (SELECT coalesce(json_agg(json_build_object('node', json_build_object('title', n.title))
      ORDER BY n.created_at DESC, n.id DESC), '[]')
    FROM (SELECT * FROM notifications n WHERE n.user_id = '{me}' ORDER BY n.created_at DESC, n.id DESC LIMIT 10) n))))::text;
"""
reference_bytes = len(psql(reference).strip())
script = os.path.join(work, "dashboard.sql")
with open(script, "w") as file:
    file.write(" ".join(reference.split()) + "\n")

# Hearth under wrk.
lua = os.path.join(work, "dashboard.lua")
with open(lua, "w") as file:
    body = json.dumps({"query": query, "variables": {"from": start, "to": end}})
    file.write('wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' % json.dumps(body))
    file.write('wrk.headers["Authorization"] = "Bearer %s"\n' % token)
def cpu_seconds(pids, kernel_only=False):
    """User plus system CPU seconds of the processes `pids` (those still running); system alone with `kernel_only`."""
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[12]) if kernel_only else int(fields[11]) + int(fields[12])
        except (FileNotFoundError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def postgres_pids():
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{pid}/cmdline", "rb").read().startswith(b"postgres"):
                pids.append(int(pid))
        except (FileNotFoundError, ProcessLookupError):
            pass  # a process that ended while the list was read
    return pids


def hearth_load(seconds, *options):
    """wrk's command for `seconds` of the dashboard at the benchmark's concurrency."""
    return ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", *options, "-s", lua, url + "/graphql"]


def reference_load(seconds, *options):
    """pgbench's command for `seconds` of the reference statement at the same concurrency."""
    return ["pgbench", "-n", "-c", str(connections), "-j", "2", "-T", str(seconds), "-f", script, *options, "hearth"]


# Each side first runs WARMUP seconds (default 3) of its load untimed: the pool's connections open,
# their statements are prepared and planned, caches fill, as on a server that has been running.
warmup = int(os.environ.get("WARMUP", "3"))
if warmup > 0:
    subprocess.run(hearth_load(warmup), check=True, capture_output=True)
    subprocess.run(reference_load(warmup), check=True, capture_output=True)

hearth_pid = int(os.environ["HEARTH_PID"])
psql("SELECT pg_stat_statements_reset()")
postgres = postgres_pids()
cpu_before = (cpu_seconds([hearth_pid]), cpu_seconds(postgres), cpu_seconds([hearth_pid], kernel_only=True))
load = subprocess.Popen(hearth_load(duration, "--latency"), stdout=subprocess.PIPE, text=True)
profile = None
if os.environ.get("PERF"):
    # A profile of Hearth in the middle of the load: where its CPU goes, by symbol.
    # PERF_DATA=path keeps the recording for `perf report -i path` (callers, children);
    # PERF_CALL_GRAPH=dwarf records whole stacks (Swift's release code keeps no frame pointers).
    data = os.environ.get("PERF_DATA") or os.path.join(work, "perf.data")
    subprocess.run(["perf", "record", "-q", "-F", os.environ.get("PERF_FREQ", "499"),
                    "--call-graph", os.environ.get("PERF_CALL_GRAPH", "fp"), "-o", data, "-p", str(hearth_pid), "--", "sleep", str(max(1, duration - 5))],
                   check=True, capture_output=True)
    profile = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol", "--stdio", "-g", "none", "--percent-limit", "1.5"],
                             check=True, capture_output=True, text=True).stdout
output = load.communicate()[0]
cpu_after = (cpu_seconds([hearth_pid]), cpu_seconds(postgres), cpu_seconds([hearth_pid], kernel_only=True))
statements = int(psql("SELECT sum(calls) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'hearth')").strip() or 0)
# Where PostgreSQL's time went: each statement's planning and execution per call.
by_statement = psql("SELECT calls, round((total_plan_time / calls)::numeric, 3), round((total_exec_time / calls)::numeric, 3), "
                    "regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements "
                    "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'hearth') AND calls > 10 ORDER BY total_exec_time + total_plan_time DESC LIMIT 14")
requests = int(re.search(r"(\d+) requests in", output).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
if errors:
    sys.exit("wrk saw %s failed responses" % errors.group(1))
hearth_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def wrk_ms(label):
    value = re.search(r"^\s+%s\s+([\d.]+)(us|ms|s)" % label, output, re.M)
    number, unit = float(value.group(1)), value.group(2)
    return number / 1000 if unit == "us" else number * 1000 if unit == "s" else number


# The reference under pgbench, same concurrency, per-transaction log for percentiles.
log_prefix = os.path.join(work, "pgbench")
bench = subprocess.run(reference_load(duration, "-l", "--log-prefix", log_prefix), check=True, capture_output=True, text=True).stdout
reference_tps = float(re.search(r"tps = ([\d.]+)", bench).group(1))
latencies = []
for name in os.listdir(work):
    if name.startswith("pgbench."):
        with open(os.path.join(work, name)) as log:
            latencies += [int(line.split()[2]) / 1000 for line in log if line.strip()]
latencies.sort()

# The machine's speed drifts (a shared VM: the same build serves 100 to 190 requests/s from one
# minute to the next), so the two loads above, a duration apart, can meet different machines.
# Short alternating slices put each of Hearth's beside a reference one taken seconds later: their
# ratios, and the median, compare like with like (ROUNDS=0 leaves them out).
rounds, slice_seconds = int(os.environ.get("ROUNDS", "3")), int(os.environ.get("SLICE", "5"))
pairs = []
for _ in range(rounds):
    sliced = subprocess.run(hearth_load(slice_seconds), check=True, capture_output=True, text=True).stdout
    slice_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", sliced).group(1))
    sliced = subprocess.run(reference_load(slice_seconds), check=True, capture_output=True, text=True).stdout
    pairs.append((slice_rps, float(re.search(r"tps = ([\d.]+)", sliced).group(1))))

print("| dashboard, 20 stores × 200 products, 2 000 tasks, %d connections, %d s | requests/s | p50 | p99 | statements per request | answer |" % (connections, duration))
print("|---|---:|---:|---:|---:|---:|")
print("| Hearth (wrk) | %.0f | %.1f ms | %.1f ms | %.1f | %d bytes |" % (hearth_rps, wrk_ms("50%"), wrk_ms("99%"), statements / max(requests, 1), hearth_bytes))
print("| one hand-written statement (pgbench) | %.0f | %.1f ms | %.1f ms | 1 | %d bytes |" % (
    reference_tps, statistics.median(latencies), latencies[int(len(latencies) * 0.99) - 1], reference_bytes))
print("| Hearth ÷ reference | %.2f | | | | |" % (hearth_rps / reference_tps))
if pairs:
    print("\nAlternating %d s slices, Hearth then the reference: %s; median ratio %.2f" % (
        slice_seconds, ", ".join("%.0f/%.0f = %.2f" % (hearth, reference, hearth / reference) for hearth, reference in pairs),
        statistics.median(hearth / reference for hearth, reference in pairs)))
print()
print("CPU per Hearth request: Hearth %.1f ms (%.1f of it in the kernel), PostgreSQL %.1f ms" % (
    (cpu_after[0] - cpu_before[0]) * 1000 / max(requests, 1), (cpu_after[2] - cpu_before[2]) * 1000 / max(requests, 1),
    (cpu_after[1] - cpu_before[1]) * 1000 / max(requests, 1)))
print("\nEach statement (calls during the load; planning and execution, ms per call):")
for line in by_statement.splitlines():
    calls, plan, execute, text = line.split("|", 3)
    print("  %7s  plan %6s  run %6s  %s" % (calls, plan, execute, text[:90]))
if profile:
    print("\nWhere Hearth's CPU went (perf, symbols above 1.5 %):")
    for line in profile.splitlines():
        parts = line.split()
        if len(parts) >= 4 and not line.startswith("#"):
            print("%8s  %-24s %s" % (parts[0], parts[1], parts[3][:100]))


if os.environ.get("MALLOCS"):
    # Allocations per request, counted (not sampled) by a uprobe on libc's malloc in the Hearth
    # process while MALLOCS (default 50) requests run one at a time: a figure this machine's
    # drifting speed does not move. Needs perf with uprobes (perf probe); the probe is removed after.
    libc = next(path for path in ("/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6") if os.path.exists(path))
    count = int(os.environ["MALLOCS"]) if os.environ["MALLOCS"].isdigit() and int(os.environ["MALLOCS"]) > 0 else 50
    body_file = os.path.join(work, "dashboard.json")
    with open(body_file, "w") as file:
        file.write(body)
    subprocess.run(["perf", "probe", "-q", "-d", "probe_libc:malloc"], capture_output=True)
    subprocess.run(["perf", "probe", "-q", "-x", libc, "malloc"], check=True, capture_output=True)
    try:
        requests_loop = ('for i in $(seq %d); do curl -sf -o /dev/null -H "Content-Type: application/json" '
                         '-H "Authorization: Bearer %s" --data @%s %s/graphql || exit 1; done') % (count, token, body_file, url)
        counted = subprocess.run(["perf", "stat", "-x", ",", "-e", "probe_libc:malloc", "-p", str(hearth_pid), "--", "sh", "-c", requests_loop],
                                 check=True, capture_output=True, text=True).stderr
        mallocs = int(next(line for line in counted.splitlines() if "probe_libc:malloc" in line).split(",")[0])
        print("\nAllocations: %d mallocs per dashboard request (uprobe on malloc, %d requests one at a time)" % (mallocs // count, count))
    finally:
        subprocess.run(["perf", "probe", "-q", "-d", "probe_libc:malloc"], capture_output=True)

# The plans of one dashboard request's statements (auto_explain, turned on for it alone): the
# statements that sort rows instead of reading them in an index's order, or scan a whole table.
psql("ALTER SYSTEM SET auto_explain.log_min_duration = 0")
psql("SELECT pg_reload_conf()")
logs = os.path.join(work, "postgres", "log")
before = {name: os.path.getsize(os.path.join(logs, name)) for name in os.listdir(logs)} if os.path.isdir(logs) else {}
graphql(query, {"from": start, "to": end}, token)
psql("ALTER SYSTEM SET auto_explain.log_min_duration = -1")
psql("SELECT pg_reload_conf()")
text = ""
for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
    with open(os.path.join(logs, name), errors="replace") as log:
        log.seek(before.get(name, 0))
        text += log.read()
plans = [entry for entry in re.split(r"\n(?=\S.*LOG:\s+duration:)", text) if "Query Text:" in entry and "pg_" not in entry.split("Query Text:")[1][:40]]
print("\nThe plans of one dashboard request (%d statements):" % len(plans))
for entry in plans:
    statement = re.sub(r"\s+", " ", entry.split("Query Text:")[1].split("\n  ")[0]).strip()[:90]
    findings = []
    sorted_rows = [int(rows) for rows in re.findall(r"Sort\s+\(cost=[\d.]+\.\.[\d.]+ rows=(\d+)", entry)]
    if sorted_rows:
        findings.append("sorts %d rows" % max(sorted_rows))
    scans = {}
    for table, rows in re.findall(r"Seq Scan on (\w+)(?: \w+)?\s+\(cost=[\d.]+\.\.[\d.]+ rows=(\d+)", entry):
        scans[table] = max(scans.get(table, 0), int(rows))
    if scans:
        findings.append("scans " + ", ".join("%s (%d rows)" % item for item in sorted(scans.items())))
    print("  %-44s %s" % ("; ".join(findings) or "index order, no scan", statement[:70]))
print("(estimated rows; a sort of a batch's few rows and a whole scan of a tiny table are what the planner should choose)")
