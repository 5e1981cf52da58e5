"""Reading the two halves of a `make bench` table: graphql-js's JSON lines and the text that
ordo-one/benchmark prints (a title line per benchmark, then a table of percentiles)."""
import json
import re

SCALE = {"": 1, "K": 1_000, "M": 1_000_000}
TIME_UNITS = {"ns": 0.001, "μs": 1, "ms": 1000, "s": 1_000_000}


def read_graphql_js(path):
    """{case name: row} and the implementation's name ("graphql-js 16.6.0")."""
    rows, version = {}, "graphql-js"
    for line in open(path):
        if line.strip():
            row = json.loads(line)
            rows[row["name"]] = row
            version = row["implementation"]
    return rows, version


def read_ordo(path, title):
    """{case: {implementation: {"us": median µs, "mallocs": median allocations}}}, where `title`
    matches a benchmark's title line with groups (implementation, case)."""
    results, current = {}, None
    for line in open(path):
        match = re.match(title, line)
        if match:
            current = results.setdefault(match.group(2), {}).setdefault(match.group(1), {})
            continue
        if current is None or not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        # "Time (wall clock) (ns) *" or "Malloc (total) (K) *": the last parenthesis is the unit.
        metric = re.match(r"(Time \(wall clock\)|Malloc \(total\))(?: \((\w+)\))?", cells[0])
        if not metric or len(cells) < 4:
            continue
        unit = metric.group(2) or ""
        median = float(cells[3].replace(",", ""))
        if metric.group(1).startswith("Time"):
            current["us"] = median * TIME_UNITS[unit]
        else:
            current["mallocs"] = median * SCALE[unit]
    return results
