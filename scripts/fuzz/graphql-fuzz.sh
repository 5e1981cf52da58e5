#!/usr/bin/env bash
# Schema-driven fuzzing of a running Hearth's /graphql with Schemathesis (PyPI), anonymous and
# signed in, with a fixed seed: every generated operation must get an answer without a 5xx (but
# TIMEOUT), without INTERNAL_SERVER_ERROR and with a code on every error (scripts/fuzz/hearth_hooks.py).
#
#   scripts/fuzz/graphql-fuzz.sh URL EXAMPLES [TOKEN]
#
# Schemathesis lives in its own environment, .build/python-schemathesis (installed on first use).
set -euo pipefail
cd "$(dirname "$0")/../.."
url=$1
examples=$2
token=${3:-}
venv=.build/python-schemathesis
if ! "$venv/bin/schemathesis" --version >/dev/null 2>&1; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis>=4.3,<5"
fi
export SCHEMATHESIS_HOOKS=hearth_hooks
export PYTHONPATH=scripts/fuzz
args=(run "$url" --max-examples "$examples" --seed 20261123 --generation-deterministic
      --checks hearth_never_fails --workers 2 --no-color --suppress-health-check all)
[ -n "$token" ] && args+=(--header "Authorization: Bearer $token")
exec "$venv/bin/schemathesis" "${args[@]}"
