"""Accessibility audit: axe-core (WCAG 2.1 A and AA rules) on every page, light and dark theme, both languages.

Usage: .venv/bin/python scripts/audit_a11y.py [--only attention,home] [--langs en,ko] [--no-readme]
Run by `make bench`; writes the per-page counts into docs/PERFORMANCE.md between the a11y-audit markers. Only the
open tab of a page's details is drawn (s2s_ui/explainer.details), so in the first language each other tab is opened
and audited too.
tests/browser/test_a11y_browser.py runs the same `audit()` on a sample of pages in `make test` (all in --full).

axe-core comes bundled with axe-playwright-python (requirements-dev.txt) and is injected into the page by
Playwright: no network. What is excluded is markup the app does not write and cannot change, each with its
reason (docs/PERFORMANCE.md "Accessibility" repeats them); everything else on the page counts.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.serve import free_port, start, stop, wait_healthy  # noqa: E402
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, DESKTOP, open_page  # noqa: E402

PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
MARKERS = ("<!-- a11y-audit:start -->", "<!-- a11y-audit:end -->")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# The accessibility budget (docs/PERFORMANCE.md): none of these from the app's own markup.
BLOCKING = ("critical", "serious")
THEMES = ("light", "dark")
EXCLUDED = {
    # Streamlit's sidebar navigation puts each group's <li> items in a <div> inside the <ul> (axe: list, listitem).
    '[data-testid="stSidebarNavItems"]': "Streamlit's own navigation list markup (st.navigation)",
    # Nothing of the charts is excluded: a layer that can draw nothing for some input (the faded 'before' copy
    # before an edit, a layer filtered to empty) is left out or marked aria: false by its page, so no empty mark
    # container with a role and no name is left (axe: svg-img-alt; issue 25).
}
# Charts in the visible tab have drawn (those in hidden tabs are not drawn until their tab opens).
VISIBLE_CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .filter(c => c.offsetParent !== null)
    .every(c => c.querySelector('svg, canvas'))"""


def audit(page) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA violations on the page as it stands, the EXCLUDED markup left out."""
    from axe_playwright_python.sync_playwright import Axe

    # a chart that never draws is a finding of the page's own tests: audit what is there after a minute
    with contextlib.suppress(Exception):
        page.wait_for_function(VISIBLE_CHARTS_DRAWN, timeout=60_000)
    context = {"exclude": [[selector] for selector in EXCLUDED]}
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    return Axe().run(page, context=context, options=options).response["violations"]


def blocking(violations: list[dict]) -> list[str]:
    """One line per critical or serious violation: rule, impact, how many elements, the first element's HTML."""
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['nodes'][0]['html'][:160]}"
        for v in violations
        if v["impact"] in BLOCKING
    ]


def audit_tabs(page, where: str) -> list[dict]:
    """Open each of the page's other tabs (only the open one is drawn: s2s_ui/explainer.details) and audit it."""
    from tests.browser.harness import open_tab

    found: list[dict] = []
    tabs = page.locator('[data-testid="stMain"] [data-testid="stTab"]')
    for i in range(1, tabs.count()):
        open_tab(page, tabs.nth(i))
        violations = audit(page)
        for line in blocking(violations):
            print(f"  {where} tab {i + 1}: {line}", flush=True)
        found += violations
    print(f"  {where}: {tabs.count() - 1} more tabs audited", flush=True)
    return found


def run(only: list[str] | None, langs: list[str], tabs: bool = True) -> dict[str, Counter]:
    """Per page: how many violations of each impact, summed over the themes and languages audited (and, in the
    first language, over every tab of the page's folded details)."""
    from playwright.sync_api import sync_playwright

    from s2s_ui.registry import existing_pages

    counts: dict[str, Counter] = {}
    port = free_port()
    proc = start(port)
    try:
        wait_healthy(proc, port)
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for spec in [s for s in existing_pages() if not only or s.ns in only]:
                counts[spec.ns] = Counter()
                for theme in THEMES:
                    for lang in langs:
                        context = browser.new_context(viewport=DESKTOP, color_scheme=theme)
                        page = context.new_page()
                        page.set_default_timeout(180_000)
                        try:
                            open_page(page, base, spec.url, lang)
                            found = audit(page)
                            if tabs and lang == langs[0]:
                                found += audit_tabs(page, f"{spec.ns} {theme} {lang}")
                        except Exception as err:  # a page that does not open is counted, not a reason to stop
                            counts[spec.ns]["not audited"] += 1
                            print(f"  {spec.ns} {theme} {lang}: not audited: {str(err)[:200]}", flush=True)
                            found = []
                        finally:
                            context.close()
                        counts[spec.ns].update(v["impact"] for v in found for _ in v["nodes"])
                        for line in blocking(found):
                            print(f"  {spec.ns} {theme} {lang}: {line}", flush=True)
                print(f"  {spec.ns}: {dict(counts[spec.ns]) or 'no violations'}", flush=True)
            browser.close()
    finally:
        stop(proc)
    return counts


def table(counts: dict[str, Counter], langs: list[str]) -> str:
    impacts = ("critical", "serious", "moderate", "minor", "not audited")
    lines = [
        f"Measured {dt.date.today().isoformat()} by `make bench` (scripts/audit_a11y.py): axe-core WCAG 2.1 A/AA, "
        f"{' and '.join(THEMES)} theme × {', '.join(langs)}, and in {langs[0]} every tab of the page's details "
        "opened in turn; elements in violation, summed per page "
        "(not audited: runs where the page did not open, e.g. a traceback).",
        "",
        "| page | " + " | ".join(impacts) + " |",
        "|---|" + "---|" * len(impacts),
    ]
    lines += [f"| {ns} | " + " | ".join(str(c.get(i, 0)) for i in impacts) + " |" for ns, c in counts.items()]
    over = [ns for ns, c in counts.items() if any(c.get(i) for i in BLOCKING)]
    lines += ["", f"Over budget (a critical or serious violation): {', '.join(over)}." if over else "Within budget."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated page namespaces (default: every page)")
    parser.add_argument("--langs", default="en,ko")
    parser.add_argument("--no-readme", action="store_true", help="print the block(s); do not write docs/PERFORMANCE.md")
    parser.add_argument("--no-tabs", action="store_true", help="audit each page's first screen only")
    args = parser.parse_args()
    langs = args.langs.split(",")
    counts = run(args.only.split(",") if args.only else None, langs, tabs=not args.no_tabs)
    block = table(counts, langs)
    print("\n" + block)
    text = PERFORMANCE.read_text()
    start_at, end_at = text.find(MARKERS[0]), text.find(MARKERS[1])
    if not args.no_readme and 0 <= start_at < end_at:
        PERFORMANCE.write_text(text[: start_at + len(MARKERS[0])] + "\n" + block + "\n" + text[end_at:])
        print(f"docs/PERFORMANCE.md: the a11y-audit block rewritten ({len(counts)} pages).")


if __name__ == "__main__":
    main()
