"""Drives scripts/bench/agenda.sh: seeds a household's items, then times `agenda` over HTTP."""
import os, subprocess, sys, time

from hearth_graphql import client, p50_p90

url, data_dir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

graphql = client(url, timeout=120)

token = graphql('mutation { signUp(input: {email: "agenda@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
for name in ["home", "garden", "school"]:
    graphql('mutation($h: UUID!, $n: String!) { createLabel(householdId: $h, name: $n, color: "blue") { id } }', {"h": household, "n": name}, token)

# A year of items from 2030-01-01: every third an event (1-3 hours), the rest tasks with deadlines.
seed = f"""
INSERT INTO task_items (id, household_id, kind, title, notes, priority, deadline, starts_at, ends_at, created_by, created_at,
                        updated_by, updated_at, create_digest, reminder_id, reminder_due_at)
SELECT gen_random_uuid(), '{household}', CASE WHEN i % 3 = 0 THEN 'EVENT' ELSE 'TASK' END, 'Item ' || i, NULL,
       (ARRAY['NONE','LOW','MEDIUM','HIGH'])[1 + i % 4],
       CASE WHEN i % 3 = 0 THEN NULL ELSE t END,
       CASE WHEN i % 3 = 0 THEN t END, CASE WHEN i % 3 = 0 THEN t + (1 + i % 3) * interval '1 hour' END,
       NULL, now(), NULL, now(), 'bench', gen_random_uuid(), NULL
FROM (SELECT i, timestamptz '2030-01-01 00:00+00' + (i * (365.0 * 86400 / {count})) * interval '1 second' AS t
      FROM generate_series(1, {count}) AS i) s;
INSERT INTO task_labels (task_id, label_id)
SELECT t.id, l.id FROM task_items t JOIN labels l ON l.household_id = t.household_id
WHERE t.household_id = '{household}' AND (hashtext(t.id::text) & 3) = 0 AND l.name = 'home';
INSERT INTO subtasks (id, task_id, position, title, created_at)
SELECT gen_random_uuid(), t.id, p, 'Step ' || p, now() FROM task_items t, generate_series(0, 1) AS p
WHERE t.household_id = '{household}' AND (hashtext(t.id::text) & 7) = 1;
ANALYZE task_items; ANALYZE task_labels; ANALYZE subtasks;
"""
password = open(os.path.join(data_dir, "hearth.password")).read().strip()
env = dict(os.environ, PGPASSWORD=password)
started = time.perf_counter()
subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", data_dir, "-U", "hearth", "hearth", "-c", seed], check=True, env=env)
seed_seconds = time.perf_counter() - started

query = '''query($h: UUID!, $from: DateTime!, $to: DateTime!) { agenda(householdId: $h, from: $from, to: $to) {
  id kind title priority occursAt startsAt endsAt deadline completed labels { name color } subtasks { title done } } }'''

def measure(start, end):
    variables = {"h": household, "from": start, "to": end}
    size = len(graphql(query, variables, token)["agenda"])
    return (size,) + p50_p90(lambda: graphql(query, variables, token))

week = measure("2030-06-03T00:00:00+02:00", "2030-06-10T00:00:00+02:00")
month = measure("2030-06-01T00:00:00+02:00", "2030-07-01T00:00:00+02:00")
print("| agenda over a household of %d items (seeded in %.1f s) | items answered | p50 | p90 | target |" % (count, seed_seconds))
print("|---|---:|---:|---:|---:|")
print("| one week | %d | %.1f ms | %.1f ms | p50 < 20 ms |" % week)
print("| one month | %d | %.1f ms | %.1f ms | — |" % month)
