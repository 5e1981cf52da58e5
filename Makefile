# Hearth: `make run` starts the server, `make test` runs the test suite.
SHELL := /bin/bash
SWIFT ?= swift
HEARTH_ARGS ?=

.PHONY: run test stress build bench bench-http fuzz postgres-server graphql-reference web-verifiers clean-data

run: postgres-server
	$(SWIFT) build -c release --product hearth
	.build/release/hearth serve $(HEARTH_ARGS)

# The browser tests and caldav-server-tester (hundreds of requests, with waits of its own) run
# after the rest, on a quiet machine: beside the whole suite on two cores they would slow both
# (and the suite's time limits are about Hearth, not its clients).
# At most 32 test cases run at once (swift-testing starts all ~860 at once otherwise: each makes a
# database and a server, and on two cores requests then waited past every deadline).
TEST_WIDTH ?= 32
test: postgres-server graphql-reference web-verifiers
	$(SWIFT) build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
		$(SWIFT) test --skip-build --skip WebAppBrowserTests --skip CalDAVServerTesterTests
	$(SWIFT) test --skip-build --filter WebAppBrowserTests
	$(SWIFT) test --skip-build --filter CalDAVServerTesterTests

# The concurrency torture test, longer and wider than in `make test`: 32 writers on two instances
# for two minutes (HEARTH_TORTURE_WRITERS, HEARTH_TORTURE_SECONDS; HEARTH_TORTURE_SEED replays a run).
stress: postgres-server
	$(SWIFT) build --build-tests
	HEARTH_TORTURE_WRITERS=$${HEARTH_TORTURE_WRITERS:-32} HEARTH_TORTURE_SECONDS=$${HEARTH_TORTURE_SECONDS:-120} \
		$(SWIFT) test --skip-build --filter 'ConcurrencyTortureTests/writersOnTwoInstancesNeverFailAndAgreeAfterwards'

build:
	$(SWIFT) build

# Parse speed, schema building and validation speed, then full-request speed, against graphql-js
# and GraphQLSwift: three tables (see Benchmarks/).
bench: graphql-reference web-verifiers
	scripts/bench/parse.sh
	scripts/bench/validation.sh
	scripts/bench/execution.sh
	scripts/bench/stores.sh
	scripts/bench/agenda.sh
	scripts/bench/dashboard.sh
	scripts/bench/recurrence.sh
	scripts/bench/sync.sh
	scripts/bench/delivery.sh
	scripts/bench/web.sh
	scripts/bench/backup.sh
	scripts/bench/caldav.sh
	scripts/bench/hostile-memory.sh

# Schema-driven fuzzing (Schemathesis) of a Hearth started for it, anonymous and signed in, with
# many more examples than `make test` runs (HEARTH_FUZZ_EXAMPLES, default 300 per operation).
fuzz: postgres-server graphql-reference
	scripts/fuzz/long-run.sh

# HTTP load with wrk: /healthz, POST /graphql and a persisted query over GET, in one run.
bench-http: postgres-server
	scripts/bench/http.sh

# graphql-js (Debian's node-graphql): the reference for the differential tests and the
# speed peer for `make bench`. scripts/reference/load-graphql.js is where it is looked for.
# graphql-core 3.2 (PyPI, graphql-js 16's port): builds a client schema from Hearth's introspection
# for the round-trip test. gql (PyPI), the third-party client test, goes into its own environment
# (.build/python-gql): it needs graphql-core 3.3. The Web Push (http_ece, py_vapid) and Standard
# Webhooks verifiers of the delivery tests go into .build/python-webpush; the official MCP client
# (`mcp`) of the assistants' tests into .build/python-mcp; `icalendar` (it reads the calendar
# feeds), the `caldav` client, caldav-server-tester, vobject (the tester reads events with it) and
# recurring-ical-events (it expands the repeating events Hearth serves) into .build/python-caldav.
graphql-reference:
	@node scripts/reference/load-graphql.js >/dev/null 2>&1 || \
	scripts/install-debian-package.sh "graphql-js for the differential tests" node-graphql || \
	echo "graphql-js not found: the differential parser test will be skipped (Debian: apt-get install -y node-graphql)." >&2
	@python3 -c 'import graphql, sys; sys.exit(graphql.__version__[:4] != "3.2.")' >/dev/null 2>&1 || \
	python3 -m pip install --quiet "graphql-core==3.2.8" >/dev/null 2>&1 || \
	python3 -m pip install --quiet --break-system-packages "graphql-core==3.2.8" >/dev/null 2>&1 || \
	echo "graphql-core 3.2 not found: the introspection round-trip test will be skipped (pip install graphql-core==3.2.8)." >&2
	@.build/python-gql/bin/python -c 'import gql, requests, websockets' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-gql && .build/python-gql/bin/pip install --quiet "gql[requests,websockets]>=4,<5"; } >/dev/null 2>&1 || \
	echo "gql not installed in .build/python-gql: the gql client test will be skipped (python3 -m venv; pip install gql)." >&2
	@.build/python-webpush/bin/python -c 'import http_ece, py_vapid, standardwebhooks' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-webpush && .build/python-webpush/bin/pip install --quiet "http_ece>=1.2,<2" "py_vapid>=1.9,<2" "standardwebhooks>=1.0,<2"; } >/dev/null 2>&1 || \
	echo "Web Push and webhook verifiers not installed in .build/python-webpush: the delivery tests will be skipped (python3 -m venv; pip install http_ece py_vapid standardwebhooks)." >&2
	@.build/python-mcp/bin/python -c 'import mcp, httpx2, jsonschema' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-mcp && .build/python-mcp/bin/pip install --quiet "mcp>=2.3,<3" "jsonschema>=4.20,<5"; } >/dev/null 2>&1 || \
	echo "The MCP client not installed in .build/python-mcp: the MCP tests will be skipped (python3 -m venv; pip install mcp)." >&2
	@.build/python-caldav/bin/python -c 'import icalendar, caldav, caldav_server_tester, vobject, recurring_ical_events' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-caldav && .build/python-caldav/bin/pip install --quiet "icalendar>=6,<8" "caldav>=3.6,<4" \
		"caldav-server-tester>=1.7,<2" "vobject>=0.9,<1" "recurring-ical-events>=3.3,<4"; } >/dev/null 2>&1 || \
	echo "icalendar, caldav, caldav-server-tester and recurring-ical-events not installed in .build/python-caldav: the calendar tests will be skipped (python3 -m venv; pip install icalendar caldav caldav-server-tester vobject recurring-ical-events)." >&2
	@.build/python-recurrence/bin/python -c 'import dateutil, recurring_ical_events' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-recurrence && .build/python-recurrence/bin/pip install --quiet "python-dateutil>=2.9,<3" \
		"recurring-ical-events>=3.3,<4"; } >/dev/null 2>&1 || \
	echo "python-dateutil and recurring-ical-events not installed in .build/python-recurrence: the recurrence differential tests will be skipped (python3 -m venv; pip install python-dateutil recurring-ical-events)." >&2
	@.build/python-schemathesis/bin/schemathesis --version >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-schemathesis && .build/python-schemathesis/bin/pip install --quiet "schemathesis>=4.3,<5"; } >/dev/null 2>&1 || \
	echo "Schemathesis not installed in .build/python-schemathesis: the fuzz test will be skipped (python3 -m venv; pip install schemathesis)." >&2

# The household app's verifiers: TypeScript's tsc (Debian's node-typescript) type-checks web/; openssl makes
# the HTTPS tests' certificates; Debian's
# Chromium, driven by Playwright (PyPI, in .build/python-web) with axe-core (axe-playwright-python), runs it
# as a family would. Playwright's own browser download is not used: the tests launch /usr/bin/chromium.
web-verifiers:
	@command -v tsc >/dev/null 2>&1 || \
	scripts/install-debian-package.sh "TypeScript, to type-check the app" node-typescript || \
	echo "tsc not found: the app's type check will be skipped (Debian: apt-get install -y node-typescript)." >&2
	@command -v openssl >/dev/null 2>&1 || \
	scripts/install-debian-package.sh "openssl, to make the HTTPS tests' certificates" openssl || \
	echo "openssl not found: the HTTPS tests will be skipped (Debian: apt-get install -y openssl)." >&2
	@command -v chromium >/dev/null 2>&1 || \
	scripts/install-debian-package.sh "Chromium, for the app's browser tests" chromium fonts-dejavu-core || \
	echo "Chromium not found: the app's browser tests will be skipped (Debian: apt-get install -y chromium)." >&2
	@.build/python-web/bin/python -c 'import playwright, axe_playwright_python' >/dev/null 2>&1 || \
	{ python3 -m venv .build/python-web && .build/python-web/bin/pip install --quiet "playwright>=1.40,<2" "axe-playwright-python>=0.1.4,<1"; } >/dev/null 2>&1 || \
	echo "Playwright not installed in .build/python-web: the app's browser tests will be skipped (python3 -m venv; pip install playwright axe-playwright-python)." >&2

# The embedded cluster needs PostgreSQL's server programs (initdb, postgres); `make run` with
# DATABASE_URL set does not.
postgres-server:
	@if [ -n "$$DATABASE_URL" ] && [ "$(MAKECMDGOALS)" = run ]; then exit 0; fi; \
	if command -v postgres >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then exit 0; fi; \
	if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then exit 0; fi; \
	scripts/install-debian-package.sh "the PostgreSQL server" postgresql || { \
		echo "PostgreSQL server programs not found. Install them (Debian/Ubuntu: apt-get install -y postgresql)," >&2; \
		echo "or run against an existing server: DATABASE_URL=postgres://user:password@host:5432/hearth make run" >&2; \
		exit 1; }

# Removes the embedded cluster's data (asks first).
clean-data:
	@read -p "Delete ./.hearth (all local Hearth data)? [y/N] " answer; [ "$$answer" = y ] && rm -rf .hearth || true
