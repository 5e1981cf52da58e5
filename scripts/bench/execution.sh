#!/usr/bin/env bash
# `make bench` (third table): full GraphQL requests (parse + validate + execute + serialize) with
# Hearth's engine and graphql-js (node-graphql), in one run, printed as one table.
# Inputs: ../shared/bench (or HEARTH_BENCH_INPUTS) and graphql-js's getIntrospectionQuery().
source "$(dirname "$0")/lib.sh"

note_missing github-schema.graphql "the introspection row is skipped"
write_introspection_query
echo "graphql-js (full requests)…" >&2
node scripts/bench/graphql-js-execution.js "$HEARTH_BENCH_INPUTS" > "$work/graphql-js.jsonl"
echo "Hearth (full requests)…" >&2
swift package --package-path Benchmarks --disable-sandbox benchmark --target ExecutionBenchmarks --no-progress \
  > "$work/swift.txt"
python3 scripts/bench/execution-table.py "$work/graphql-js.jsonl" "$work/swift.txt"
