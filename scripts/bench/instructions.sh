#!/usr/bin/env bash
# Instructions per parse of each benchmark input, counted by callgrind: stable where timings on a
# shared machine are not, so a change to the parser can be judged from one run.
# Usage: scripts/bench/instructions.sh [REVISION]
# With a revision (a commit, tag or branch), the same count is made for the engine at that revision
# (built in a scratch worktree with this tree's Benchmarks/) and printed beside it.
# Each input is parsed N and 2N times; the difference over N parses is one parse's instructions
# (program start, reading the input and the first parse's warm-up cancel out).
source "$(dirname "$0")/lib.sh"

if ! command -v valgrind > /dev/null; then
  echo "installing valgrind (apt)…" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind > /dev/null
fi
for input in kitchen-sink.graphql github-schema.graphql; do note_missing "$input" "that row is skipped"; done
write_introspection_query

# Builds ParseInstructions from the Benchmarks package in $1; prints the binary's path.
build_driver() {
  swift build --package-path "$1/Benchmarks" -c release --product ParseInstructions >&2
  echo "$(swift build --package-path "$1/Benchmarks" -c release --show-bin-path)/ParseInstructions"
}

# Instructions of one run: "count BINARY INPUT ITERATIONS". A driver that fails (its message on
# stderr) fails the script instead of yielding the count of a run that parsed nothing.
count() {
  local log
  if ! log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 >/dev/null); then
    echo "$log" | grep -v '^==' >&2
    exit 1
  fi
  echo "$log" | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

# Instructions per parse: "per_parse BINARY INPUT N".
per_parse() {
  local once twice
  once=$(count "$1" "$2" "$3")
  twice=$(count "$1" "$2" $(($3 * 2)))
  [ -n "$once" ] && [ -n "$twice" ] || { echo "callgrind gave no count for $2" >&2; exit 1; }
  echo $(((twice - once) / $3))
}

echo "building ParseInstructions…" >&2
current=$(build_driver "$root")
base=""
if [ $# -ge 1 ]; then
  echo "building the engine at $1 (scratch worktree)…" >&2
  git worktree add --detach -q "$work/base" "$1"
  trap 'git -C "$root" worktree remove --force "$work/base" 2>/dev/null; rm -rf "$work"' EXIT
  rm -rf "$work/base/Benchmarks" && cp -R "$root/Benchmarks" "$work/base/Benchmarks"
  rm -rf "$work/base/Benchmarks/.build"
  base=$(build_driver "$work/base")
fi

if [ -n "$base" ]; then
  echo "| input | instructions per parse at $1 | now | now ÷ before |"
  echo "|---|---:|---:|---:|"
else
  echo "| input | instructions per parse |"
  echo "|---|---:|"
fi
for input in introspection:1000 kitchen-sink:1000 github-schema:5; do
  name=${input%%:*}
  n=${input##*:}
  if [ "$name" != introspection ] && [ ! -f "$HEARTH_BENCH_INPUTS/$name.graphql" ]; then continue; fi
  now=$(per_parse "$current" "$name" "$n")
  if [ -n "$base" ]; then
    before=$(per_parse "$base" "$name" "$n")
    printf '| %s | %s | %s | %s |\n' "$name" "$before" "$now" "$(python3 -c "print(f'{$now / $before:.3f}')")"
  else
    printf '| %s | %s |\n' "$name" "$now"
  fi
done
