"""Robustness tests: reuse the browser harness (server, Chromium) and skip browser cases loudly without it."""

from __future__ import annotations

import os
import sys

import pytest

from tests.browser.conftest import _browser_missing_reason, app_server, browser, new_page  # noqa: F401 (fixtures)


def pytest_collection_modifyitems(config, items):
    mine = [item for item in items if "tests/robustness" in str(item.fspath) and item.get_closest_marker("browser")]
    reason = _browser_missing_reason()
    if not mine or reason is None:
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"browser tests are required here but cannot run: {reason}")
    for item in mine:
        item.add_marker(pytest.mark.skip(reason=f"BROWSER TESTS SKIPPED: {reason}"))
    print(f"\n*** ROBUSTNESS BROWSER TESTS SKIPPED: {reason} ***\n", file=sys.stderr)
