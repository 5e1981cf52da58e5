#!/usr/bin/env bash
# Installs Debian packages with apt-get: directly as root, else through sudo.
# Usage: install-debian-package.sh WHAT PACKAGE…   (WHAT says why, for the log line)
# Exits 1 without apt-get (or without root and sudo), so the caller can explain the alternative.
set -euo pipefail
what=$1
shift
if ! command -v apt-get >/dev/null 2>&1; then exit 1; fi
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  exit 1
fi
echo "Installing $what (${sudo[*]:+sudo }apt-get install -y $*)…"
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
