# Oklahoma Scorekeeper: `make run` serves the app, `make test` runs every check, `make bench` measures.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000
PORT ?= 8000

# A Python 3.12+ : the one .python-version selects through pyenv, else python3.13/3.12/python3 on PATH.
FIND_PYTHON = for c in "$$(pyenv prefix 2>/dev/null | head -n1)/bin/python" python3.13 python3.12 python3; do \
	  p=$$(command -v "$$c" 2>/dev/null) || continue; \
	  "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo "$$p"; exit 0; }; \
	done; exit 1

.PHONY: run dev test test-fast lint format bench migrate lock clean browser netns postgres caddy messages alone

$(PY):
	@py=$$($(FIND_PYTHON)) || { echo "Error: Python 3.12 or newer is required (Django 6.1). Install it, e.g. 'pyenv install 3.13', or put python3.12+ on PATH." >&2; exit 1; }; \
	echo "Using $$py ($$($$py --version))"; \
	$$py -m venv $(VENV)

# Exactly what the lock files pin, checked against their hashes: a fresh clone installs what was tested.
$(VENV)/.app: requirements/app.lock | $(PY)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements/app.lock
	touch $@

$(VENV)/.dev: requirements/dev.lock | $(PY)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements/dev.lock
	touch $@ $(VENV)/.app

# The phone alone's engine (/alone/): Pyodide pinned by its sha512, fetched once from the npm registry by
# a stdlib step (no node needed), and the engine zipped from this checkout (scorekeeper/alone/assets.py).
alone: $(VENV)/.app
	@$(PY) -m scorekeeper.alone.assets

migrate: $(VENV)/.app
	$(PY) manage.py migrate --noinput

# How a table plays: every phone on the local network, debug off, gunicorn + WhiteNoise; prints the
# address and a QR code of it (manage.py serve, which migrates and collects the static files only
# when something changed: a warm start is quick). PORT=8001 make run for another port.
run: $(VENV)/.app alone
	$(PY) manage.py serve --port $(PORT)

# Development: Django's autoreloading server with debug on, on this machine only.
dev: $(VENV)/.app alone
	DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=1 $(PY) manage.py runserver $(HOST)

# Debian's Chromium for the browser tests (Playwright never downloads a browser here).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "Installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

# iproute2's ip for the test of make run on a network address (in network namespaces of its own).
netns:
	@if ! command -v ip >/dev/null 2>&1; then \
	  echo "Installing iproute2 for the network test of make run"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq iproute2 >/dev/null; \
	fi

# The checks of .pre-commit-config.yaml, run with the venv's tools (the versions dev.lock pins, no
# network): ruff, ruff format, django-upgrade and djade only report here; `make format` applies them.
PY_FILES := find manage.py scorekeeper benchmarks tests -name '*.py' -print0
TEMPLATES := find templates -name '*.html' -print0
DJANGO_TARGET := 6.1

lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY_FILES) | xargs -0 $(VENV)/bin/django-upgrade --target-version $(DJANGO_TARGET) --check
	$(TEMPLATES) | xargs -0 $(VENV)/bin/djade --target-version $(DJANGO_TARGET) --check
	$(PY) -m mypy

format: $(VENV)/.dev
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .
	$(PY_FILES) | xargs -0 $(VENV)/bin/django-upgrade --target-version $(DJANGO_TARGET) --exit-zero-even-if-changed
	@# djade exits 1 when it rewrote a file: a second pass in check mode fails only on a real error.
	$(TEMPLATES) | xargs -0 $(VENV)/bin/djade --target-version $(DJANGO_TARGET) \
	  || $(TEMPLATES) | xargs -0 $(VENV)/bin/djade --target-version $(DJANGO_TARGET) --check

# PostgreSQL's server programs for the tests on PostgreSQL (Debian's postgresql package when missing).
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then \
	  echo "Installing Debian's postgresql for the tests on PostgreSQL"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi

# Debian's Caddy for the test of two app servers behind one reverse proxy (deploy/Caddyfile). The tests run
# their own Caddy on free ports; the package's own service (port 80, where systemd runs) is stopped again.
caddy:
	@if ! command -v caddy >/dev/null 2>&1; then \
	  echo "Installing Debian's caddy for the test behind a reverse proxy"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq caddy >/dev/null; \
	  if [ -d /run/systemd/system ]; then $$SUDO systemctl disable --now caddy >/dev/null 2>&1 || true; fi; \
	fi

# Every test on SQLite (the default database), then the database tests again on PostgreSQL: on the
# server DATABASE_URL names when it names one, else on a throwaway server started and stopped here.
test: $(VENV)/.dev browser netns postgres caddy alone lint
	env -u DATABASE_URL $(PY) -m pytest
	$(PY) -m tests.postgres -- $(PY) -m pytest -m "not browser" --ignore=tests/rules

# The engine and the app on SQLite without the slow tests (tests/conftest.py's SLOW: properties with many
# examples, histories at scale, a server started), the browser or PostgreSQL, on every core (pytest-xdist),
# for every edit. What it takes: 2 min 20 s of CPU (1,529 tests, measured 2026-11-28), so about 1¼ minutes
# on two idle cores; on a shared machine longer (5¾ minutes on two cores at a load average of 9).
test-fast: $(VENV)/.dev alone
	env -u DATABASE_URL $(PY) -m pytest -q -n auto -m "not slow and not browser"

# `make bench` runs every part; `make bench web` (or live, engine_gin, ...) only the parts named.
BENCH_PARTS := $(filter-out bench,$(MAKECMDGOALS))
bench: $(VENV)/.dev alone
	$(PY) -m benchmarks $(BENCH_PARTS)
ifneq ($(filter bench,$(MAKECMDGOALS)),)
$(BENCH_PARTS):
	@:
endif

# The German catalogs (scorekeeper/i18n.py): extract every message of the pages, the Python code and the
# engine (makemessages with the engine's keywords msg/nmsg/N_; an entry no code uses any more is dropped),
# then compile them. The .po and .mo files are committed: a fresh clone has them without this step, which
# needs GNU gettext (Debian's package).
MESSAGES_IGNORE := -i '.venv/*' -i 'tests/*' -i 'benchmarks/*' -i 'staticfiles/*' -i 'var/*'
messages: $(VENV)/.dev
	@command -v msgfmt >/dev/null || { echo "Installing GNU gettext for make messages"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gettext >/dev/null; }
	$(PY) manage.py makemessages -l de --no-wrap --no-location --no-obsolete $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l de $(MESSAGES_IGNORE)

# Regenerate the lock files from pyproject.toml (needs the network), for every Python the project takes.
# uv comes from dev.lock like every other tool, pinned and hash-checked.
lock: $(VENV)/.dev
	$(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.12 --generate-hashes -o requirements/app.lock -q
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --universal --python-version 3.12 --generate-hashes -o requirements/dev.lock -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
