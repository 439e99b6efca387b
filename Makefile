# Two commands for a newcomer: `make run` and `make test` (README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
# The demo server shows the app's own 404/403 pages, not Django's debug pages (which list every
# URL to whoever mistypes one). `make run DEBUG=1` for the debug pages while developing.
DEBUG ?= 0

.PHONY: run test test-quick coverage install lint typecheck install-hooks bench bench-live bench-compare bench-pages bench-replay bench-flood messages clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python 3.11 or newer is needed (found: $$($(PYTHON) --version))."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall only when the requirement files change.
$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	@echo ""
	@echo "  The Table is at http://$(HOST):$(PORT)/  (Ctrl+C stops it)"
	@echo ""
	DEBUG=$(DEBUG) $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --lifespan on

# The whole suite, spread over the machine's cores (pytest-xdist: a worker a core, each with its
# own test database, Redis database and ports; tests/conftest.py), the slowest tests listed.
TEST_WORKERS ?= auto
test: $(VENV)/.installed-dev
	$(BIN)/pre-commit run --all-files --show-diff-on-failure
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --maxprocesses=8 --durations=25

# The inner loop only: no browser, no PostgreSQL, no Redis. `make test` and CI run everything.
test-quick: $(VENV)/.installed-dev
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --maxprocesses=8 -m "not browser and not postgres and not redis"

# Line and branch coverage of the app (pyproject.toml's [tool.coverage]) under the suite without a
# browser, a package a line; not part of `make test`: measuring slows every test down. A failing
# test (its failure is printed) still leaves what the rest covered to report.
coverage: $(VENV)/.installed-dev
	rm -f .coverage .coverage.* coverage.json
	-$(BIN)/python -m coverage run -m pytest -n $(TEST_WORKERS) --maxprocesses=8 -q -m "not browser"
	$(BIN)/python -m coverage combine -q
	$(BIN)/python -m coverage report
	$(BIN)/python -m coverage json -q
	@$(BIN)/python -c "$$COVERAGE_BY_PACKAGE"

define COVERAGE_BY_PACKAGE
import json
sums = {}
for path, data in json.load(open("coverage.json"))["files"].items():
    s = data["summary"]
    row = sums.setdefault(path.split("/")[0], [0, 0, 0, 0])
    for i, key in enumerate(["covered_lines", "num_statements", "covered_branches", "num_branches"]):
        row[i] += s[key]
print(f"{'package':<10} {'lines':>17} {'branches':>17}")
for package, (lines, statements, branches, all_branches) in sorted(sums.items()):
    print(f"{package:<10} {lines:>6}/{statements:<5} {100 * lines / statements:5.1f}%"
          f" {branches:>5}/{all_branches:<5} {100 * branches / all_branches:5.1f}%")
endef
export COVERAGE_BY_PACKAGE

# Fixes what ruff can, then runs every hook a commit runs (.pre-commit-config.yaml), as CI does.
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIN)/pre-commit run --all-files

# The types where the contracts are (pyproject.toml's [tool.mypy]: the System protocol and its
# parts, every system, the engine, the panels); a hook of .pre-commit-config.yaml, so `make lint`,
# `make test` and CI run it too.
typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# Runs the same hooks on every commit of this checkout.
install-hooks: $(VENV)/.installed-dev
	$(BIN)/pre-commit install

bench: $(VENV)/.installed-dev
	$(BIN)/python bench/odds.py

bench-live: $(VENV)/.installed
	$(BIN)/python bench/live_table.py $(ARGS)

bench-compare: $(VENV)/.installed
	$(BIN)/python bench/compare.py $(or $(BASE),main) $(ARGS)

bench-pages: $(VENV)/.installed
	$(BIN)/python bench/pages.py $(ARGS)

# A socket's replay of the last 500 entries of a big log (issue 42).
bench-replay: $(VENV)/.installed
	$(BIN)/python bench/replay.py $(ARGS)

# One account's flood against a quiet table; BEFORE=<directory or revision> measures it too.
bench-flood: $(VENV)/.installed
	$(BIN)/python bench/flood.py $(if $(BEFORE),--before $(BEFORE)) $(ARGS)

# Needs GNU gettext; the compiled catalogues are committed so `make run` does not.
messages: $(VENV)/.installed-dev
	$(BIN)/python manage.py makemessages -l pl --no-obsolete --ignore=.venv --ignore=bench
	$(BIN)/python manage.py compilemessages -l pl --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
