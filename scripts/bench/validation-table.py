#!/usr/bin/env python3
"""Joins graphql-js's schema/validation figures (JSON lines) and ordo-one/benchmark's text output
(ValidationBenchmarks) into one table."""
import sys

from ordo_output import read_graphql_js, read_ordo

js, version = read_graphql_js(sys.argv[1])
swift = read_ordo(sys.argv[2], r"^(Hearth|GraphQLSwift) (\S+)\s*$")

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
