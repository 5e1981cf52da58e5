#!/usr/bin/env python3
"""Joins graphql-js's figures (JSON lines) and ordo-one/benchmark's text output into one table."""
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

# ordo-one/benchmark prints a title line per benchmark, then a table of percentiles.
swift = {}
current = None
scale = {"": 1, "K": 1_000, "M": 1_000_000}
for line in open(swift_path):
    title = re.match(r"^(Hearth|GraphQLSwift) parse (\S+)\s*$", line)
    if title:
        current = swift.setdefault(title.group(2), {}).setdefault(title.group(1), {})
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
        current["us"] = median * {"ns": 0.001, "μs": 1, "ms": 1000, "s": 1_000_000}[unit]
    else:
        current["mallocs"] = median * scale[unit]

print(f"| input | bytes | Hearth µs | Hearth MB/s | Hearth allocs | {version} µs | {version} MB/s | GraphQLSwift µs | GraphQLSwift MB/s | GraphQLSwift allocs | graphql-js ÷ Hearth | GraphQLSwift ÷ Hearth |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
failed = False
for name in ["introspection", "kitchen-sink", "github-schema"]:
    if name not in js or name not in swift:
        continue
    size = js[name]["bytes"]
    hearth, peer = swift[name].get("Hearth", {}), swift[name].get("GraphQLSwift", {})
    h, g, s = hearth.get("us"), js[name]["usPerParse"], peer.get("us")
    if h is None or s is None:
        continue
    print(f"| {name} | {size} | {h:.1f} | {size / h:.0f} | {hearth.get('mallocs', 0):.0f} | {g:.1f} | {size / g:.0f} | "
          f"{s:.1f} | {size / s:.0f} | {peer.get('mallocs', 0):.0f} | {g / h:.2f}× | {s / h:.1f}× |")
    failed = failed or g / h < 1 or s / h < 10
print()
print("Medians. µs per parse; MB/s = bytes ÷ µs. Target: graphql-js ÷ Hearth ≥ 1 and GraphQLSwift ÷ Hearth ≥ 10.")
if failed:
    print("Target missed on at least one input.")
