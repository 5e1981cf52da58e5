"""Drives scripts/bench/sync.sh: seeds a household, then times pulls and pushes over HTTP."""
import os, statistics, subprocess, sys, threading, time, uuid

from hearth_graphql import client

url, data_dir, task_count, product_count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
pid = int(os.environ["HEARTH_PID"])
graphql = client(url, timeout=600)

token = graphql('mutation { signUp(input: {email: "sync@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
graphql('mutation($h: UUID!) { createLabel(householdId: $h, name: "home", color: "blue") { id } }', {"h": household}, token)

password = open(os.path.join(data_dir, "hearth.password")).read().strip()
env = dict(os.environ, PGPASSWORD=password)


def sql(text):
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", data_dir, "-U", "hearth", "hearth", "-c", text], check=True, env=env)


def rss_kib():
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class PeakMemory:
    """The server's resident memory, sampled every 5 ms while the block runs."""
    def __enter__(self):
        self.before = rss_kib()
        self.peak = self.before
        self.running = True
        def sample():
            while self.running:
                self.peak = max(self.peak, rss_kib())
                time.sleep(0.005)
        self.thread = threading.Thread(target=sample)
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.running = False
        self.thread.join()


sql(f"""
INSERT INTO task_items (id, household_id, kind, title, notes, priority, deadline, created_by, created_at, updated_by, updated_at,
                        create_digest, reminder_id)
SELECT gen_random_uuid(), '{household}', 'TASK', 'Task ' || i, 'Notes ' || i, (ARRAY['NONE','LOW','MEDIUM','HIGH'])[1 + i % 4],
       timestamptz '2030-01-01 00:00+00' + i * interval '1 hour', NULL, now(), NULL, now(), 'bench', gen_random_uuid()
FROM generate_series(1, {task_count}) AS i;
INSERT INTO task_labels (task_id, label_id)
SELECT t.id, l.id FROM task_items t JOIN labels l ON l.household_id = t.household_id WHERE t.household_id = '{household}' AND (hashtext(t.id::text) & 3) = 0;
INSERT INTO subtasks (id, task_id, position, title, created_at)
SELECT gen_random_uuid(), t.id, p, 'Step ' || p, now() FROM task_items t, generate_series(0, 1) AS p
WHERE t.household_id = '{household}' AND (hashtext(t.id::text) & 7) = 1;
ANALYZE;
""")

PULL = '''query($h: UUID!, $a: String, $f: Int) { sync(householdId: $h, after: $a, first: $f) { cursor hasMore
  changes { type id version deleted record { __typename
    ... on Task { id title notes priority deadline completed version labels { id } subtasks { id title done } }
    ... on Product { id title minPrice maxPrice available version }
    ... on Label { id name color version } ... on Household { id name version } ... on Member { role version }
    ... on Store { id name version } } } } }'''


def pull_all(after=None, first=500):
    """Pulls until done; (changes, pages, cursor)."""
    changes, pages = 0, 0
    while True:
        page = graphql(PULL, {"h": household, "a": after, "f": first}, token)["sync"]
        changes += len(page["changes"])
        pages += 1
        after = page["cursor"]
        if not page["hasMore"]:
            return changes, pages, after


def snapshot_row(label):
    with PeakMemory() as memory:
        started = time.perf_counter()
        changes, pages, cursor = pull_all()
        seconds = time.perf_counter() - started
    print("| %s | %d records in %d pages | %.2f s | %.0f records/s | %.0f MiB → %.0f MiB |"
          % (label, changes, pages, seconds, changes / seconds, memory.before / 1024, memory.peak / 1024))
    return cursor


print("| sync over a household | answered | time | rate | server memory (before → peak) |")
print("|---|---:|---:|---:|---:|")
cursor = snapshot_row("snapshot of %d tasks, pages of 500" % task_count)

# A store with products, as a sync would have written them.
store = str(uuid.uuid4())
sql(f"""
INSERT INTO stores (id, household_id, domain, name, created_at, next_sync_at) VALUES ('{store}', '{household}', 'bench.test', 'Bench', now(), now() + interval '1 year');
INSERT INTO products (store_id, household_id, shopify_id, title, handle, vendor, product_type, tags, images, image_signature,
                      min_price, max_price, available, search_key, first_seen_at, last_changed_at, content_hash)
SELECT '{store}', '{household}', i, 'Product ' || i, 'product-' || i, 'Vendor', 'Type', ARRAY['tag'], '[]'::jsonb, '', 1000 + i, 2000 + i, true,
       'product ' || i, now(), now(), 'hash'
FROM generate_series(1, {product_count}) AS i;
ANALYZE;
""")
cursor = snapshot_row("snapshot of %d tasks + a %d-product store" % (task_count, product_count))

# Incremental: 100 tasks change (one statement), then the pull from the cursor before; 30 times.
ids = subprocess.run(["psql", "-At", "-h", data_dir, "-U", "hearth", "hearth", "-c",
                      f"SELECT id FROM task_items WHERE household_id = '{household}' ORDER BY id DESC LIMIT 500"],
                     check=True, env=env, capture_output=True, text=True).stdout.split()
times = []
for round in range(30):
    sql(f"UPDATE task_items SET notes = 'Round {round}' WHERE id IN (SELECT id FROM task_items WHERE household_id = '{household}' ORDER BY id LIMIT 100 OFFSET {round * 100})")
    started = time.perf_counter()
    changes, pages, cursor = pull_all(cursor)
    times.append((time.perf_counter() - started) * 1000)
    assert changes == 100, changes
times.sort()
print()
print("| after 100 changes | pull p50 | p90 |")
print("|---|---:|---:|")
print("| incremental pull (30 rounds) | %.1f ms | %.1f ms |" % (statistics.median(times), times[26]))

# 500 changes: one push, then the same as 500 ordinary updateTask requests.
PUSH = 'mutation($c: UUID!, $m: [ClientMutation!]!) { push(clientId: $c, mutations: $m) { lastMutationId results { status } } }'
mutations = [{"id": i + 1, "op": {"updateTask": {"id": task, "input": {"title": "Pushed %d" % i}}}} for i, task in enumerate(ids)]
started = time.perf_counter()
result = graphql(PUSH, {"c": str(uuid.uuid4()), "m": mutations}, token)["push"]
push_seconds = time.perf_counter() - started
assert result["lastMutationId"] == len(ids) and all(r["status"] == "APPLIED" for r in result["results"]), result["results"][:3]
UPDATE = 'mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { id version } }'
started = time.perf_counter()
for i, task in enumerate(ids):
    graphql(UPDATE, {"id": task, "i": {"title": "Updated %d" % i}}, token)
ordinary_seconds = time.perf_counter() - started
print()
print("| %d task updates | time | per change | ratio |" % len(ids))
print("|---|---:|---:|---:|")
print("| one push | %.2f s | %.2f ms | 1.00 |" % (push_seconds, push_seconds * 1000 / len(ids)))
print("| %d ordinary updateTask requests | %.2f s | %.2f ms | %.2f |" % (len(ids), ordinary_seconds, ordinary_seconds * 1000 / len(ids), ordinary_seconds / push_seconds))
