# Oklahoma Scorekeeper: `make run` serves the app, `make test` runs every test, `make bench` measures.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

# A Python 3.12+ : the one .python-version selects through pyenv, else python3.13/3.12/python3 on PATH.
FIND_PYTHON = for c in "$$(pyenv prefix 2>/dev/null | head -n1)/bin/python" python3.13 python3.12 python3; do \
	  p=$$(command -v "$$c" 2>/dev/null) || continue; \
	  "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo "$$p"; exit 0; }; \
	done; exit 1

.PHONY: run test bench migrate clean browser

$(VENV)/.installed: pyproject.toml
	@py=$$($(FIND_PYTHON)) || { echo "Error: Python 3.12 or newer is required (Django 6.1). Install it, e.g. 'pyenv install 3.13', or put python3.12+ on PATH." >&2; exit 1; }; \
	echo "Using $$py ($$($$py --version))"; \
	[ -x $(PY) ] || $$py -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

migrate: $(VENV)/.installed
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py runserver $(HOST)

# Debian's Chromium for the browser tests (Playwright never downloads a browser here).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "Installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

test: $(VENV)/.installed browser
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) -m scorekeeper.bench

clean:
	rm -rf $(VENV) .pytest_cache
