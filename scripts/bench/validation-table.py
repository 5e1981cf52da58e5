#!/usr/bin/env python3
"""Joins graphql-js's schema/validation figures (JSON lines) and ordo-one/benchmark's text output
(ValidationBenchmarks) into one table."""
import json
import re
import sys

js_path, swift_path = sys.argv[1], sys.argv[2]
js = {}
version = "graphql-js"
for line in open(js_path):
    if line.strip():
        row = json.loads(line)
        js[row["name"]] = row
        version = row["implementation"]

swift = {}
current = None
scale = {"": 1, "K": 1_000, "M": 1_000_000}
for line in open(swift_path):
    title = re.match(r"^(Hearth|GraphQLSwift) (\S+)\s*$", line)
    if title:
        current = swift.setdefault(title.group(2), {}).setdefault(title.group(1), {})
        continue
    if current is None or not line.startswith("│"):
        continue
    cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
    metric = re.match(r"(Time \(wall clock\)|Malloc \(total\))(?: \((\w+)\))?", cells[0])
    if not metric or len(cells) < 4:
        continue
    unit = metric.group(2) or ""
    median = float(cells[3].replace(",", ""))
    if metric.group(1).startswith("Time"):
        current["us"] = median * {"ns": 0.001, "μs": 1, "ms": 1000, "s": 1_000_000}[unit]
    else:
        current["mallocs"] = median * scale[unit]

labels = {
    "build-github-schema": "build GitHub schema from SDL (+ schema validation)",
    "validate-introspection": "validate introspection query (GitHub schema)",
    "validate-invalid-query": "validate query with 23 errors (GitHub schema)",
    "repeated-fields": "validate 250 repeated fields",
}
print(f"| case | Hearth µs | Hearth allocs | {version} µs | GraphQLSwift µs | GraphQLSwift allocs | graphql-js ÷ Hearth | GraphQLSwift ÷ Hearth |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
failed = False
for name, label in labels.items():
    if name not in js or name not in swift:
        continue
    hearth, peer = swift[name].get("Hearth", {}), swift[name].get("GraphQLSwift", {})
    h, g, s = hearth.get("us"), js[name]["usPerRun"], peer.get("us")
    if h is None or s is None:
        continue
    print(f"| {label} | {h:.1f} | {hearth.get('mallocs', 0):.0f} | {g:.1f} | {s:.1f} | {peer.get('mallocs', 0):.0f} | {g / h:.1f}× | {s / h:.1f}× |")
    failed = failed or g / h < 1 or s / h < 10
print()
print("Medians, µs per run. Target: graphql-js ÷ Hearth ≥ 1 and GraphQLSwift ÷ Hearth ≥ 10.")
if failed:
    print("Target missed on at least one case.")
