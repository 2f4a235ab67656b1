# Two commands do everything on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run test test-fast bench screenshots clean

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
	$(BIN)/streamlit run app.py --server.port $(PORT)

# Every test layer: core unit tests, AppTest in both languages, generated code, browser tests.
test: .stamp-dev
	$(BIN)/python -m pytest tests -q -p no:cacheprovider

# Core and AppTest layers only (no browser): the quick loop while developing.
test-fast: .stamp-dev
	$(BIN)/python -m pytest tests -q -p no:cacheprovider --ignore=tests/browser

screenshots: .stamp-dev
	$(BIN)/python -m pytest tests/browser/test_screenshots.py -q -p no:cacheprovider

bench: .stamp-dev
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) .stamp-run .stamp-dev screenshots
