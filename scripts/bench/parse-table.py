#!/usr/bin/env python3
"""Joins graphql-js's figures (JSON lines) and ordo-one/benchmark's text output into one table."""
import sys

from ordo_output import read_graphql_js, read_ordo

js, version = read_graphql_js(sys.argv[1])
swift = read_ordo(sys.argv[2], r"^(Hearth|GraphQLSwift) parse (\S+)\s*$")

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
