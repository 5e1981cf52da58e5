#!/usr/bin/env bash
# `make bench` (third table): full GraphQL requests (parse + validate + execute + serialize) with
# Hearth's engine and graphql-js (node-graphql), in one run, printed as one table.
# Inputs: ../shared/bench (or HEARTH_BENCH_INPUTS) and graphql-js's getIntrospectionQuery().
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d /tmp/hearth-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export HEARTH_BENCH_INPUTS=${HEARTH_BENCH_INPUTS:-$root/../shared/bench}
export HEARTH_BENCH_INTROSPECTION=$work/introspection.graphql
[ -f "$HEARTH_BENCH_INPUTS/github-schema.graphql" ] || echo "note: $HEARTH_BENCH_INPUTS/github-schema.graphql not found; the introspection row is skipped (set HEARTH_BENCH_INPUTS)" >&2

node -e "require('fs').writeFileSync(process.argv[1], require('./scripts/reference/load-graphql')().getIntrospectionQuery())" "$HEARTH_BENCH_INTROSPECTION"
echo "graphql-js (full requests)…" >&2
node scripts/bench/graphql-js-execution.js "$HEARTH_BENCH_INPUTS" > "$work/graphql-js.jsonl"
echo "Hearth (full requests)…" >&2
swift package --package-path Benchmarks --disable-sandbox benchmark --target ExecutionBenchmarks --no-progress \
  > "$work/swift.txt"
python3 scripts/bench/execution-table.py "$work/graphql-js.jsonl" "$work/swift.txt"
