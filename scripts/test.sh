#!/usr/bin/env bash
# Install everything the tests need, then run the whole suite: lint and type checks (the
# whole package), rules scenarios, property tests, AI, API, PostgreSQL and browser tests.
# Extra arguments go to pytest (e.g. scripts/test.sh tests/rules -x).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev,ai,web,postgres,openspiel,print,env,lab,tui]'

# With gcc (and Python's headers) the install compiles the engine with mypyc
# (docs/compiled.md): the suite then runs against the compiled build, and the
# differential test (tests/compiled) against both builds; there the compiled-build
# tests must not skip.
.venv/bin/reliquary --version
if command -v gcc >/dev/null 2>&1; then export RELIQUARY_REQUIRE_COMPILED=1; fi

# Debian packages: Chromium for the browser tests (never a downloaded browser) and
# PostgreSQL for the several-processes test.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# A throwaway PostgreSQL server on a private port, stopped when the tests end.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_data=$(mktemp -d /tmp/reliquary-pg.XXXXXX)
pg_port=54329
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$pg_data"
as_pg "$pg_bin/initdb -D $pg_data -A trust -U postgres" >/dev/null
as_pg "$pg_bin/pg_ctl -D $pg_data -l $pg_data/server.log -w \
      -o '-p $pg_port -k $pg_data -c listen_addresses=127.0.0.1' start" >/dev/null
trap 'as_pg "$pg_bin/pg_ctl -D $pg_data -m fast stop" >/dev/null 2>&1; rm -rf "$pg_data"' EXIT
as_pg "$pg_bin/createdb -h 127.0.0.1 -p $pg_port -U postgres reliquary_test"
export RELIQUARY_TEST_PG="postgresql+psycopg://postgres@127.0.0.1:$pg_port/reliquary_test"

.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
.venv/bin/pytest -n 2 "$@"
