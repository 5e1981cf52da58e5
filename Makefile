# Hearth: `make run` starts the server, `make test` runs the test suite.
SHELL := /bin/bash
SWIFT ?= swift
HEARTH_ARGS ?=

.PHONY: run test build bench postgres-server graphql-reference clean-data

run: postgres-server
	$(SWIFT) build -c release --product hearth
	.build/release/hearth serve $(HEARTH_ARGS)

test: postgres-server graphql-reference
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build:
	$(SWIFT) build

# Parse speed against graphql-js and GraphQLSwift, as one table (see Benchmarks/).
bench: graphql-reference
	scripts/bench/parse.sh

# graphql-js (Debian's node-graphql): the reference for the differential parser test and the
# speed peer for `make bench`.
graphql-reference:
	@if node -e "require('/usr/share/nodejs/graphql')" >/dev/null 2>&1 || node -e "require('graphql')" >/dev/null 2>&1; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "Installing graphql-js for the differential tests (apt-get install -y node-graphql)…"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q node-graphql; \
	elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then \
		sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q node-graphql; \
	else \
		echo "graphql-js not found: the differential parser test will be skipped (Debian: apt-get install -y node-graphql)." >&2; \
	fi

# The embedded cluster needs PostgreSQL's server programs (initdb, postgres).
postgres-server:
	@if [ -n "$$DATABASE_URL" ] && [ "$(MAKECMDGOALS)" = run ]; then exit 0; fi; true
	@if command -v postgres >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then exit 0; fi; \
	if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "Installing the PostgreSQL server (apt-get install -y postgresql)…"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
	elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then \
		echo "Installing the PostgreSQL server (sudo apt-get install -y postgresql)…"; \
		sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
	else \
		echo "PostgreSQL server programs not found. Install them (Debian/Ubuntu: apt-get install -y postgresql)," >&2; \
		echo "or run against an existing server: DATABASE_URL=postgres://user:password@host:5432/hearth make run" >&2; \
		exit 1; \
	fi

# Removes the embedded cluster's data (asks first).
clean-data:
	@read -p "Delete ./.hearth (all local Hearth data)? [y/N] " answer; [ "$$answer" = y ] && rm -rf .hearth || true
