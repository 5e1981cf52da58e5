#!/usr/bin/env bash
# `make bench` (second table): building GitHub's schema from SDL and validating documents with
# Hearth's engine, graphql-js (node-graphql) and GraphQLSwift, in one run, printed as one table.
# Inputs: ../shared/bench (or HEARTH_BENCH_INPUTS), graphql-js's getIntrospectionQuery() and
# scripts/bench/invalid-query.graphql.
source "$(dirname "$0")/lib.sh"

note_missing github-schema.graphql "only the repeated-fields row is measured"
write_introspection_query
echo "graphql-js (schema building and validation)…" >&2
node scripts/bench/graphql-js-validation.js "$HEARTH_BENCH_INPUTS" > "$work/graphql-js.jsonl"
echo "Hearth and GraphQLSwift (schema building and validation)…" >&2
swift package --package-path Benchmarks --disable-sandbox benchmark --target ValidationBenchmarks --no-progress \
  > "$work/swift.txt"
python3 scripts/bench/validation-table.py "$work/graphql-js.jsonl" "$work/swift.txt"
