#!/usr/bin/env bash
# `make bench` (second table): building GitHub's schema from SDL and validating documents with
# Hearth's engine, graphql-js (node-graphql) and GraphQLSwift, in one run, printed as one table.
# Inputs: ../shared/bench (or HEARTH_BENCH_INPUTS), graphql-js's getIntrospectionQuery() and
# scripts/bench/invalid-query.graphql.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d /tmp/hearth-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export HEARTH_BENCH_INPUTS=${HEARTH_BENCH_INPUTS:-$root/../shared/bench}
export HEARTH_BENCH_INTROSPECTION=$work/introspection.graphql
[ -f "$HEARTH_BENCH_INPUTS/github-schema.graphql" ] || echo "note: $HEARTH_BENCH_INPUTS/github-schema.graphql not found; only the repeated-fields row is measured (set HEARTH_BENCH_INPUTS)" >&2

node -e "require('fs').writeFileSync(process.argv[1], require('./scripts/reference/load-graphql')().getIntrospectionQuery())" "$HEARTH_BENCH_INTROSPECTION"
echo "graphql-js (schema building and validation)…" >&2
node scripts/bench/graphql-js-validation.js "$HEARTH_BENCH_INPUTS" > "$work/graphql-js.jsonl"
echo "Hearth and GraphQLSwift (schema building and validation)…" >&2
swift package --package-path Benchmarks --disable-sandbox benchmark --target ValidationBenchmarks --no-progress \
  > "$work/swift.txt"
python3 scripts/bench/validation-table.py "$work/graphql-js.jsonl" "$work/swift.txt"
