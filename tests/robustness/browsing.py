"""Browser helpers with generous timeouts: ten sessions at once on a busy 2-core machine are slow, not broken."""

from __future__ import annotations

from tests.browser.harness import settle

SLOW = 600_000  # ms: ten Chromium tabs drawing charts on a loaded 2-core box took ~4 min once


def open_settled(page, url: str, timeout: float = SLOW) -> None:
    """Go to url, wait for the first full draw, then for a possible second run (URL-bound widgets)."""
    page.goto(url, timeout=timeout)
    settle(page, timeout=timeout)


def goto_all(pages, urls, timeout: float = SLOW) -> None:
    """Start every navigation before waiting for any, so the server runs the scripts at the same time."""
    for page, url in zip(pages, urls, strict=True):
        page.goto(url, wait_until="commit", timeout=timeout)
    for page in pages:
        settle(page, timeout=timeout)
