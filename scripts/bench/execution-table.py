#!/usr/bin/env python3
"""Joins graphql-js's full-request figures (JSON lines) and ordo-one/benchmark's text output
(ExecutionBenchmarks) into one table."""
import sys

from ordo_output import read_graphql_js, read_ordo

js, version = read_graphql_js(sys.argv[1])
swift = read_ordo(sys.argv[2], r"^(Hearth|GraphQLSwift) (\S+)\s*$")

labels = {
    "typename": "{ __typename }",
    "rows-100x3": "100 rows × 3 fields",
    "rows-10000x2": "10 000 rows × 2 fields",
    "github-introspection": "introspection query (GitHub schema)",
    "nested-10x10x10-sync": "10 × 10 × 10 nested lists, synchronous resolvers",
    "nested-10x10x10-async": "the same, resolvers suspend",
    "nested-10x10x10-dataloader": "the same, children through a DataLoader",
}
print(f"| case | Hearth µs | Hearth allocs | {version} µs | GraphQLSwift µs | graphql-js ÷ Hearth | GraphQLSwift ÷ Hearth |")
print("|---|---:|---:|---:|---:|---:|---:|")
failed = False
for name, label in labels.items():
    if name not in js or name not in swift or "Hearth" not in swift[name]:
        continue
    hearth, peer = swift[name]["Hearth"], swift[name].get("GraphQLSwift", {})
    h, g, s = hearth.get("us"), js[name]["usPerRun"], peer.get("us")
    peer_text = f"{s:.1f}" if s else "–"
    ratio_text = f"{s / h:.1f}×" if s else "–"
    print(f"| {label} | {h:.2f} | {hearth.get('mallocs', 0):.0f} | {g:.1f} | {peer_text} | {g / h:.1f}× | {ratio_text} |")
    failed = failed or g / h < 1 or (s is not None and s / h < 20)
cached = swift.get("typename-cached", {}).get("Hearth")
if cached:
    print(f"| {{ __typename }}, document cache on | {cached['us']:.2f} | {cached.get('mallocs', 0):.0f} | | | | |")
    failed = failed or cached["us"] >= 5
for name, label in [("github-introspection", "introspection query (GitHub schema)"),
                    ("nested-10x10x10-sync", "10 × 10 × 10 nested lists, synchronous resolvers")]:
    document = swift.get(name + "-document-cached", {}).get("Hearth")
    shared = swift.get(name + "-cached", {}).get("Hearth")
    if document and shared:
        print(f"| {label}, document cached, plans per request | {document['us']:.2f} | {document.get('mallocs', 0):.0f} | | | | |")
        print(f"| {label}, document cached, plans shared | {shared['us']:.2f} | {shared.get('mallocs', 0):.0f} | | | "
              f"{document['us'] / shared['us']:.2f}× (per request ÷ shared) | |")
large = swift.get("typename-github-schema", {}).get("Hearth")
if large:
    print(f"| {{ __typename }} on GitHub's schema (allocations do not grow with the schema) | {large['us']:.2f} | {large.get('mallocs', 0):.0f} | | | | |")
print()
print("Medians, µs per full request (parse + validate + execute + JSON). Targets: graphql-js ÷ Hearth ≥ 1,")
print("GraphQLSwift ÷ Hearth ≥ 20, cached { __typename } under 5 µs.")
if failed:
    print("Target missed on at least one case.")
