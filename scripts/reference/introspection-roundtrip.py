#!/usr/bin/env python3
"""Introspection round trip with graphql-core (the Python port of graphql-js).

  introspection-roundtrip.py --print-query
      prints get_introspection_query() with every option on;
  introspection-roundtrip.py RESULT.json SCHEMA.graphql
      rebuilds a schema from the introspection result (build_client_schema), prints it, and
      compares with print_schema(build_schema(SDL)): prints "equal", or "different" and a diff.
  introspection-roundtrip.py --url URL SCHEMA.graphql
      the same, with the result fetched over HTTP: the query POSTed to URL as a GraphQL server
      expects it.
"""
import difflib
import json
import sys
import urllib.request

from graphql import build_client_schema, build_schema, get_introspection_query, print_schema

QUERY = get_introspection_query(
    descriptions=True, specified_by_url=True, directive_is_repeatable=True, schema_description=True,
    input_value_deprecation=True, input_object_one_of=True)

if sys.argv[1:] == ["--print-query"]:
    print(QUERY)
    sys.exit(0)

if sys.argv[1] == "--url":
    request = urllib.request.Request(
        sys.argv[2], data=json.dumps({"query": QUERY}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        result = json.load(response)
    sys.argv[1:] = ["-", sys.argv[3]]
else:
    result = json.load(open(sys.argv[1]))
if result.get("errors"):
    print("different: the introspection result has errors:", json.dumps(result["errors"][:5]))
    sys.exit(0)
rebuilt = print_schema(build_client_schema(result["data"]))
expected = print_schema(build_schema(open(sys.argv[2]).read()))
if rebuilt == expected:
    print(f"equal ({len(expected)} characters)")
else:
    print("different")
    for line in list(difflib.unified_diff(expected.splitlines(), rebuilt.splitlines(), lineterm=""))[:200]:
        print(line)
