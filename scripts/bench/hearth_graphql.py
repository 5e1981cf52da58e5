"""What the Hearth load benchmarks (stores.py, agenda.py, dashboard.py, backup.py) share: GraphQL
over HTTP, timing one request many times, and the dashboard's data set."""
import json, statistics, sys, time, urllib.request


def client(url, timeout=600):
    """A function (query, variables, token) -> data against Hearth at `url`; exits on errors."""
    def graphql(query, variables=None, token=None):
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(url + "/graphql", data=body, headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.load(response)
        if answer.get("errors"):
            sys.exit("GraphQL error: %s" % answer["errors"])
        return answer["data"]
    return graphql


def p50_p90(call, runs=100, warmup=10):
    """Milliseconds of `call()`: the median and the 90th percentile of `runs`, after `warmup`."""
    for _ in range(warmup):
        call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(runs * 0.9) - 1]


def seed_household(psql, household, stores, products, tasks):
    """Fills `household` as the dashboard benchmark measures it, straight in SQL (`psql(sql)` runs
    it): `stores` stores of `products` products with two variants each, eight labels, and `tasks`
    tasks with a label and two subtasks each, then vacuumed, analyzed and checkpointed."""
    psql(f"""
INSERT INTO stores (id, household_id, domain, name, created_at, next_sync_at, product_count)
SELECT gen_random_uuid(), '{household}', 'shop' || s || '.example', 'Shop ' || s, now() + s * interval '1 second', now() + interval '1 day', {products}
FROM generate_series(1, {stores}) AS s;
INSERT INTO products (id, store_id, household_id, shopify_id, title, handle, vendor, product_type, tags, images, image_signature,
                      min_price, max_price, available, search_key, first_seen_at, last_changed_at, content_hash)
SELECT gen_random_uuid(), s.id, s.household_id, p, 'Product ' || p, 'product-' || p, 'Acme', 'Thing', '{{}}', '[]', '',
       1000 + (p * 37 % 200) * 10, 2000 + (p * 37 % 200) * 10, true, 'product ' || p, now(), now(), 'x'
FROM stores s, generate_series(1, {products}) AS p WHERE s.household_id = '{household}';
INSERT INTO variants (id, product_id, store_id, shopify_id, title, position, price, available)
SELECT gen_random_uuid(), p.id, p.store_id, p.shopify_id * 10 + v, 'Size ' || v, v, p.min_price + (v - 1) * 1000, v = 1
FROM products p, generate_series(1, 2) AS v WHERE p.household_id = '{household}';
INSERT INTO labels (id, household_id, name, color, created_at)
SELECT gen_random_uuid(), '{household}', 'Label ' || l, '#3366CC', now() FROM generate_series(1, 8) AS l;
INSERT INTO task_items (id, household_id, kind, title, priority, deadline, created_at, updated_at, create_digest, reminder_id)
SELECT gen_random_uuid(), '{household}', 'TASK', 'Task ' || i, 'NONE', now() + i * interval '72 minutes', now(), now(), 'bench', gen_random_uuid()
FROM generate_series(1, {tasks}) AS i;
INSERT INTO task_labels (task_id, label_id)
SELECT t.id, (SELECT l.id FROM labels l WHERE l.household_id = t.household_id ORDER BY l.name LIMIT 1 OFFSET (hashtext(t.id::text) & 7))
FROM task_items t WHERE t.household_id = '{household}';
INSERT INTO subtasks (id, task_id, position, title, created_at)
SELECT gen_random_uuid(), t.id, p, 'Step ' || p, now() FROM task_items t, generate_series(0, 1) AS p WHERE t.household_id = '{household}';
""")
    # What autovacuum does within a minute or two of such an import, done before measuring: the
    # planner's statistics, and the visibility map that lets covering indexes answer alone. The
    # checkpoint writes the pages all this dirtied now, not while the first load is timed.
    psql("VACUUM (ANALYZE)")
    psql("CHECKPOINT")
