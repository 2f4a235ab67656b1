"""Shared pytest set-up for every layer.

- One torch thread per test process, so parallel work stays predictable.
- The browser fixtures (server, Chromium, pages) are registered here, once, for tests/browser and
  tests/robustness alike (see tests/browser/harness.py for why once matters).
- Browser-marked tests fail the run when REQUIRE_BROWSER=1 (CI) and no browser is available, and are
  skipped loudly elsewhere.
- AppTest runs the app exactly as a server does: only the open tab of a page's details is drawn, so a test opens a
  tab as a learner does (tests/app/conftest.open_tab, or the link's ?<ns>_tabs=<id>) before reading it.
- The model store (s2s_jobs/store.py) of every server and runner a test starts is one temp folder per test run
  ($S2S_DATA_DIR), made by the run's main process (xdist's workers inherit it) and removed at its end: the first
  server to train a default model stores it, later servers of the run load it, and nothing is left in the
  repository's data/ folder.
- `--full` (or FULL_TESTS=1): the sampled tests (fuzz, concurrency, hosted-demo walk, screenshots) run at
  full size, as `make test-all` does; see tests/sizes.py.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest
import torch

from tests.browser.harness import app_server, browser, browser_missing_reason, new_page  # noqa: F401 (fixtures)

torch.set_num_threads(1)


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", help="run the sampled tests at full size (= FULL_TESTS=1)")


def pytest_configure(config):
    # Set before any test module is imported, so module-level parametrisations see it (tests/sizes.py).
    if config.getoption("--full"):
        os.environ["FULL_TESTS"] = "1"
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a worker: its main process made the run's store and named it in the environment it inherited
    config._s2s_data_dir = tempfile.mkdtemp(prefix="s2s-test-data-")
    os.environ["S2S_DATA_DIR"] = config._s2s_data_dir


def pytest_unconfigure(config):
    data_dir = getattr(config, "_s2s_data_dir", None)
    if data_dir:
        shutil.rmtree(data_dir, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    needs_browser = [item for item in items if item.get_closest_marker("browser")]
    reason = browser_missing_reason()
    if not needs_browser or reason is None:
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"browser tests are required here but cannot run: {reason}")
    for item in needs_browser:
        item.add_marker(pytest.mark.skip(reason=f"BROWSER TESTS SKIPPED: {reason}"))
    print(f"\n*** {len(needs_browser)} BROWSER TESTS SKIPPED: {reason} ***\n", file=sys.stderr)
