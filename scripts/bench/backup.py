"""Drives scripts/bench/backup.sh: seeds a data set, then times hearth backup / hearth restore and
plain pg_dump / pg_restore of the same database, and prints them side by side."""
import os, statistics, subprocess, sys, time, urllib.parse

from hearth_graphql import client, seed_household

url, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
hearth = os.path.abspath(".build/release/hearth")
graphql = client(url, timeout=600)
socket = urllib.parse.quote(os.environ["PGHOST"], safe="")


def run(command, **options):
    done = subprocess.run(command, capture_output=True, text=True, **options)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def psql(sql, database="hearth"):
    return run(["psql", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", database, "-c", sql])


def timed(prepare, command):
    """The median seconds of `command` over the runs (`prepare()` before each, not timed)."""
    times = []
    for _ in range(runs):
        prepare()
        started = time.perf_counter()
        run(command)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def fresh(database):
    def prepare():
        run(["dropdb", "--if-exists", database])
        run(["createdb", database])
    return prepare


def remove(path):
    def prepare():
        if os.path.exists(path):
            os.remove(path)
    return prepare


kit = os.path.join(work, "kit.txt")
with open(kit, "w") as file:
    file.write(run([hearth, "backup", "key", "--data-dir", os.path.join(work, "postgres")]).strip().splitlines()[-1] + "\n")
token = graphql('mutation { signUp(input: {email: "backup@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]


def measure(label):
    backup, dump = os.path.join(work, "hearth.backup"), os.path.join(work, "plain.dump")
    data_dir = os.path.join(work, "postgres")
    hearth_backup = timed(remove(backup), [hearth, "backup", "--to", backup, "--data-dir", data_dir, "--log-level", "warning"])
    plain_dump = timed(remove(dump), ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file=" + dump])
    target = f"postgres://hearth@/restored?host={socket}"
    hearth_restore = timed(fresh("restored"), [hearth, "restore", backup, "--database-url", target, "--key-file", kit, "--log-level", "warning"])
    restored = psql("SELECT count(*) FROM products", "restored").strip()
    plain_restore = timed(fresh("plain"), ["pg_restore", "--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges", "-d", "plain", dump])
    sizes = os.path.getsize(backup), os.path.getsize(dump)
    rows = [("backup", hearth_backup, plain_dump), ("restore", hearth_restore, plain_restore)]
    print(f"\n{label}: {restored} products restored; backup file {sizes[0] / 1e6:.2f} MB (encrypted) vs pg_dump {sizes[1] / 1e6:.2f} MB "
          f"({sizes[0] / sizes[1]:.3f}x)")
    print(f"| {'':8} | {'hearth (s)':>10} | {'plain (s)':>9} | {'ratio':>6} |")
    print(f"|{'-' * 10}|{'-' * 12}|{'-' * 11}|{'-' * 8}|")
    for name, ours, theirs in rows:
        print(f"| {name:8} | {ours:10.3f} | {theirs:9.3f} | {ours / theirs:5.2f}x |")


household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
seed_household(psql, household, stores=20, products=200, tasks=2000)
measure("The dashboard's data set (20 stores x 200 products, 2 000 tasks)")
psql(f"DELETE FROM households WHERE id = '{household}'")
household = graphql('mutation { createHousehold(input: {name: "Big", timeZone: "Europe/Berlin"}) { id } }', token=token)["createHousehold"]["id"]
seed_household(psql, household, stores=25, products=1000, tasks=2000)
measure("25 000 products (25 stores x 1 000, 2 000 tasks)")
