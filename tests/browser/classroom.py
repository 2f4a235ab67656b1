"""A class in Chromium, for the classroom browser test and the class benchmark (scripts/bench_class.py): the
teacher starts a class on Home, a page's lesson step is read from its link, and every page can record when its
step changed (in its own clock, so a student's arrival is compared with the teacher's move afterwards)."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from s2s_core.catalog import translate
from tests.browser.harness import settle

FOLLOW_CEILING_S = 30  # a broken poll never arrives; a slow machine's poll still does well inside this

# Installed with context.add_init_script, so it runs in every document the page opens: each change of the link's
# lesson_step is recorded as [step, Date.now()] in sessionStorage (a reload keeps the record). Streamlit writes
# the link with history.pushState / replaceState when a run sets its query parameters, in the run that draws the
# new step's lesson bar.
STEP_RECORDER = """(() => {
  const key = '__s2s_steps';
  const record = () => {
    const step = new URLSearchParams(location.search).get('lesson_step');
    const seen = JSON.parse(sessionStorage.getItem(key) || '[]');
    if (!seen.length || seen[seen.length - 1][0] !== step) {
      seen.push([step, Date.now()]);
      sessionStorage.setItem(key, JSON.stringify(seen));
    }
  };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (...args) { const out = original.apply(this, args); record(); return out; };
  }
  window.addEventListener('popstate', record);
  record();
})();"""


def step_of(page) -> int | None:
    found = page.evaluate("() => new URLSearchParams(location.search).get('lesson_step')")
    return int(found) if found else None


def wait_step(page, n: int, timeout_s: float = FOLLOW_CEILING_S) -> None:
    page.wait_for_function(
        "n => new URLSearchParams(location.search).get('lesson_step') === String(n)", arg=n, timeout=timeout_s * 1000
    )


def arrived_at(page, n: int) -> float | None:
    """When (Date.now(), ms) the page's link first showed lesson step n, from STEP_RECORDER's record."""
    seen = page.evaluate("() => JSON.parse(sessionStorage.getItem('__s2s_steps') || '[]')")
    return next((t for step, t in seen if step == str(n)), None)


def start_class(page, base: str, lesson: str) -> str:
    """On Home: pick the lesson in "Start a class", press Start; the teacher's page is at step 1. The class code."""
    page.goto(f"{base}/?lang=en")
    settle(page)
    title = translate("en", f"lesson_{lesson}.title")
    box = page.locator(".st-key-class_lesson")
    for _ in range(3):  # a click that lands while the page redraws opens no list: click again
        box.locator("input").click()
        option = page.get_by_role("option", name=title, exact=True)
        try:
            option.wait_for(state="visible", timeout=10_000)
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            continue
        option.click()
        break
    settle(page)
    page.locator(".st-key-class_start button").click()
    page.wait_for_function("() => location.search.includes('teacher=')")
    settle(page)
    assert step_of(page) == 1
    assert page.evaluate("() => new URLSearchParams(location.search).get('lesson')") == lesson
    return page.evaluate("() => new URLSearchParams(location.search).get('class')")


def wait_text(page, text: str, timeout_s: float = FOLLOW_CEILING_S) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=\"stMain\"]').innerText.includes(t)",
        arg=text,
        timeout=timeout_s * 1000,
    )
