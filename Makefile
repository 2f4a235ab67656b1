# Two commands do everything on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run run-replicas lint test test-fast test-all bench screenshots clean

# The venv is rebuilt only when a requirements file changes (stamp files), so re-runs are fast.
$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

.stamp-run: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

.stamp-dev: requirements.txt requirements-dev.txt .stamp-run
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

run: .stamp-run
	$(BIN)/streamlit run server.py --server.port $(PORT)

# N replicas behind nginx (Debian's package) on one machine, for trying the scale-out: docs/DEPLOY.md.
N ?= 2
run-replicas: .stamp-run
	$(BIN)/python scripts/replicas.py --replicas $(N) --port $(PORT)

# Every run prints its 15 slowest tests; `make test-all` also prints the line coverage of the
# core and the UI helpers (files at 100 % are left out of the table; the data file goes into the ignored .venv).
# Two pytest-xdist workers (JOBS=0: everything in one process): on 2 cores one worker's browser waits and
# subprocesses leave room for the other (measured: 7.1 instead of 8.9 min); each worker starts its own server.
JOBS ?= 2
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider --durations=15 -n $(JOBS)
COVERAGE := --cov=s2s_core --cov=s2s_ui --cov-report=term:skip-covered --cov-precision=1
export COVERAGE_FILE := $(VENV)/.coverage

# House style: ruff lint + format check (ruff.toml), and no copied block of 6+ lines between the app's files
# (pylint's duplicate-code check; imports, docstrings and comments are not counted). Two pylint jobs: the check
# still compares every pair of files (pylint merges the jobs' line tables), in 11 s instead of 16 s on 2 cores.
LINTED := pages s2s_ui s2s_core s2s_db s2s_jobs scripts
lint: .stamp-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pylint -j 2 --disable=all --enable=duplicate-code --min-similarity-lines=6 --score=n \
		$$(find $(LINTED) -name '*.py' -not -path '*/__pycache__/*')

# Every layer (core, AppTest, generated code, browser, robustness) with a small sample of the fuzz, the
# concurrent sessions, the hosted-demo walk and the screenshots. README "Tests" has the measured time. No line
# coverage here: tracing cost the CPU-bound tests about 30 % and pushed a clean clone past its 10-minute budget.
test: lint
	$(PYTEST) tests

# Everything at full size: fuzz 25 steps per page and language, ten sessions at once, the hosted demo on every
# page, screenshots of every page (pytest --full; see tests/sizes.py).
test-all: lint
	$(PYTEST) tests $(COVERAGE) --full

# Core, AppTest, generated code and the house rules, no browser: the quick loop while developing.
test-fast: .stamp-dev
	$(PYTEST) tests -m "not browser"

# Every page at 1280 px and 390 px, Korean and English, into screenshots/.
screenshots: .stamp-dev
	$(PYTEST) tests/browser/test_screenshots.py --full

# Every figure of docs/PERFORMANCE.md: each script rewrites its own marked block there (--no-readme: print only).
bench: .stamp-dev
	$(BIN)/python scripts/bench.py
	$(BIN)/python scripts/bench_translation.py  # the Translation lab: time to 90 %, alignment, three cells
	$(BIN)/python scripts/audit_a11y.py  # axe-core on every page, both themes and languages: the a11y table

clean:
	rm -rf $(VENV) .stamp-run .stamp-dev screenshots
