# Sourced by the scripts/bench/*.sh tables: runs from the repository root with a scratch folder
# ($work, removed on exit) and the inputs' locations exported for the Swift benchmarks:
# HEARTH_BENCH_INPUTS (../shared/bench unless set) and HEARTH_BENCH_INTROSPECTION.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
work=$(mktemp -d /tmp/hearth-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export HEARTH_BENCH_INPUTS=${HEARTH_BENCH_INPUTS:-$root/../shared/bench}
export HEARTH_BENCH_INTROSPECTION=$work/introspection.graphql

# Writes graphql-js's getIntrospectionQuery() to $HEARTH_BENCH_INTROSPECTION.
write_introspection_query() {
  node -e "require('fs').writeFileSync(process.argv[1], require('./scripts/reference/load-graphql')().getIntrospectionQuery())" \
    "$HEARTH_BENCH_INTROSPECTION"
}

# Notes a missing input file: "note_missing FILE WHAT-IS-SKIPPED".
note_missing() {
  [ -f "$HEARTH_BENCH_INPUTS/$1" ] || echo "note: $HEARTH_BENCH_INPUTS/$1 not found; $2 (set HEARTH_BENCH_INPUTS)" >&2
}
