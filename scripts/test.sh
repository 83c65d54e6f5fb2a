#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the whole suite:
# lint and type checks on the engine, unit/scenario/property tests, API and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev,ai,web,openspiel]'

# Browser tests drive Debian's Chromium (never a downloaded browser).
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    fi
fi

.venv/bin/ruff check src/reliquary/engine
.venv/bin/mypy
.venv/bin/pytest -n 2 "$@"
