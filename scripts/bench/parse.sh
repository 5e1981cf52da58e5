#!/usr/bin/env bash
# `make bench`: parse speed of Hearth's GraphQL parser against graphql-js (node-graphql) and
# GraphQLSwift on the same inputs, in one run, printed as one table.
# Inputs: ../shared/bench (or HEARTH_BENCH_INPUTS) and graphql-js's getIntrospectionQuery().
source "$(dirname "$0")/lib.sh"

for input in kitchen-sink.graphql github-schema.graphql; do note_missing "$input" "that row is skipped"; done

echo "graphql-js…" >&2
node scripts/bench/graphql-js.js --write-introspection "$HEARTH_BENCH_INTROSPECTION" "$HEARTH_BENCH_INPUTS" > "$work/graphql-js.jsonl"
echo "Hearth and GraphQLSwift (ordo-one/benchmark; the first build takes a few minutes)…" >&2
swift package --package-path Benchmarks --disable-sandbox benchmark --target ParserBenchmarks --no-progress \
  > "$work/swift.txt"
python3 scripts/bench/parse-table.py "$work/graphql-js.jsonl" "$work/swift.txt"
