"""Benchmark every existing page against its budgets and a bare baseline page; rewrites docs/PERFORMANCE.md's blocks.

Usage: .venv/bin/python scripts/bench.py [--reruns 20] [--edits 8] [--sessions 10] [--no-readme] [--only ns,ns]
       [--no-browser] [--no-load]
       .venv/bin/python scripts/bench.py --profile attention   (pyinstrument: where one page's reruns spend time)
       .venv/bin/python scripts/bench.py --steps-only   (only the step latency of the stepped pages and the time
           to open each page until its picture is drawn, on the desktop and on a 4x-throttled phone)
Server side: AppTest runs (first run, reruns at defaults, reruns after a widget change). Browser: `streamlit run`
+ Chromium: cold start to the first drawn page, edit -> redraw per page, server memory (PSS) with 1 and N sessions, and
for every page with the shared step control (STEPPED) the in-browser step latency next to its edit -> redraw.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
import torch  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from s2s_jobs.settings import POOL_IDLE_ENV  # noqa: E402
from s2s_ui.registry import PageSpec, existing_pages  # noqa: E402
from scripts.serve import free_port, start, wait_healthy  # noqa: E402
from scripts.serve import stop as stop_server  # noqa: E402
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, IDLE  # noqa: E402
from tests.robustness.fuzz import run_moves  # noqa: E402

BASELINE = ROOT / "scripts" / "bench_baseline_app.py"


def baseline_hash() -> str:
    """The baseline page's script is frozen: its hash, printed with the figures, shows two runs' ratios compare."""
    return hashlib.sha256(BASELINE.read_bytes()).hexdigest()[:12]


# The marked blocks this script and bench_translation.py / bench_load.py / audit_a11y.py rewrite (--no-readme: none).
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
STEPS_START, STEPS_END = "<!-- bench-steps:start -->", "<!-- bench-steps:end -->"
# Pages whose picture has the shared step control (s2s_ui/steps.py): page namespace -> the control's key.
# A page that gets one registers here; its slider is `.st-key-<key>_chart .vega-bindings input[type=range]`.
STEPPED = {  # page -> the key of its step_view (s2s_ui/steps.py)
    "attention": "att_step",
    "rnn": "rnn_step",
    "lstm": "lstm_step",
    "gru": "gru_step",
    "seq2seq": "seq2seq_step",
    "scoring": "scoring_pos",
    "masks": "masks_pick",
}
STEP_MOVES = 20
STEP_BUDGET_MS = 50
# The budgets (docs/PERFORMANCE.md): times as ratios to the bare baseline page measured in the same run, memory in MB.
RATIO_BUDGET = {"rerun": 1.5, "edit": 1.3, "cold": 1.2}
BUDGET = {"rss1": 400, "rss10": 600}
BENCH_POOL_IDLE = 20  # S2S_POOL_IDLE for the bench's app server (seconds)
EDIT_KINDS = ("number_input", "button_group", "selectbox", "radio", "slider", "checkbox", "toggle")


@dataclass
class Row:
    """One page's figures (ms unless named otherwise); None = not measured (no widget to change, an error)."""

    name: str
    first: float | None = None
    rerun: list[float] = field(default_factory=list)
    change: list[float] = field(default_factory=list)
    changed: str = "—"
    edit: list[float] = field(default_factory=list)
    edit_how: str = "—"
    notes: list[str] = field(default_factory=list)


def med(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def p95(xs: list[float]) -> float | None:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)] if xs else None


# --- server side (AppTest) ----------------------------------------------------------------------------


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def change_states(at: AppTest) -> tuple[str, list[WidgetState]]:
    """A widget of the page and a cycle of valid values for it, as the browser would send them."""
    for node in at.main:
        kind = getattr(node, "type", "")
        if kind not in EDIT_KINDS or getattr(node.proto, "disabled", False):
            continue
        states = []
        if kind == "number_input":
            p = node.proto
            lo = p.min if p.has_min else p.default - 10 * (p.step or 1)
            hi = p.max if p.has_max else p.default + 10 * (p.step or 1)
            step = p.step or 1
            values = [v for v in (p.default + step, p.default, p.default - step) if lo <= v <= hi]
            for v in values:
                ws = WidgetState(id=node.id, double_value=v)
                states.append(ws)
        elif kind in ("button_group",):
            for opt in node.options:
                ws = WidgetState(id=node.id)
                ws.string_array_value.data[:] = [opt]
                states.append(ws)
        elif kind in ("selectbox", "radio"):
            states = [WidgetState(id=node.id, string_value=opt) for opt in node.options]
        elif kind == "slider" and len(node.proto.default) == 1 and node.proto.data_type in (0, 1):
            p = node.proto
            for v in (p.min, p.default[0], p.max):
                ws = WidgetState(id=node.id)
                ws.double_array_value.data[:] = [v]
                states.append(ws)
        elif kind in ("checkbox", "toggle"):
            states = [WidgetState(id=node.id, bool_value=b) for b in (True, False)]
        if len(states) >= 2:
            return f"{kind} {getattr(node, 'key', None) or node.label[:20]!s}", states
    return "—", []


@contextlib.contextmanager
def server_script_cache():
    """AppTest as a running server: every script compiled once, not on every run.

    A server keeps one ScriptCache for its life; AppTest makes a new one for each run, so every run compiled the
    page's file again (and the router's): ~6 ms per run on the 550-line n-gram page, nothing on the baseline's
    30 lines, and none of it happens on a server. One shared cache for the bench's AppTest runs, page and baseline.
    """
    import streamlit.testing.v1.app_test as app_test
    import streamlit.testing.v1.local_script_runner as local_runner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    shared = ScriptCache()
    originals = (app_test.ScriptCache, local_runner.ScriptCache)
    app_test.ScriptCache = local_runner.ScriptCache = lambda: shared
    try:
        yield
    finally:
        app_test.ScriptCache, local_runner.ScriptCache = originals


def bench_server(spec: PageSpec | None, reruns: int) -> Row:
    """First run, reruns at defaults and reruns after a widget change, through AppTest (spec None = baseline)."""
    with server_script_cache():
        return _bench_server(spec, reruns)


def _bench_server(spec: PageSpec | None, reruns: int) -> Row:
    if spec is None:
        row = Row("baseline")
        at = AppTest.from_file(str(BASELINE), default_timeout=120)
        row.first = _timed(at.run)
    else:
        row = Row(spec.ns)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["lang"] = "en"
        if spec.ns == "home":
            row.first = _timed(at.run)
        else:
            at.run()
            row.first = _timed(at.switch_page(spec.file).run)
    if at.exception:
        row.notes.append("exception at defaults")
        return row
    row.rerun = [_timed(at.run) for _ in range(reruns)]
    row.changed, states = change_states(at)
    for i in range(reruns if states else 0):
        move = states[i % len(states)]
        row.change.append(_timed(lambda move=move: run_moves(at, [move])))
    if at.exception:
        row.notes.append(f"exception after changing {row.changed}")
    return row


def profile(ns: str, reruns: int) -> None:
    """Where one page's reruns spend their time (pyinstrument in the script thread, printed)."""
    import streamlit.runtime.scriptrunner.script_runner as runner
    from pyinstrument import Profiler

    spec = next(s for s in existing_pages() if s.ns == ns)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = "en"
    at.run()
    at.switch_page(spec.file).run()
    _, states = change_states(at)
    profiler = Profiler(interval=0.0005)
    original = runner.exec_func_with_error_handling

    def profiled(func, ctx):  # AppTest runs the script in its own thread: profile there
        profiler.start()
        try:
            return original(func, ctx)
        finally:
            profiler.stop()

    runner.exec_func_with_error_handling = profiled
    try:
        for i in range(reruns):
            at.run() if not states else run_moves(at, [states[i % len(states)]])
    finally:
        runner.exec_func_with_error_handling = original
    print(profiler.output_text(unicode=True, color=False, show_all=False))


# --- browser ------------------------------------------------------------------------------------------

OBSERVER = """() => {
  if (window.__bench) return;
  window.__bench = {t0: 0, done: 0, running: false};
  const app = document.querySelector('[data-testid="stApp"]');
  // The states in order from the records' old values: a rerun fast enough to go running -> notRunning before the
  // callback runs arrives as two records at once, and reading only the attribute's value now missed it.
  new MutationObserver((records) => {
    const seq = [...records.map(r => r.oldValue), app.getAttribute('data-test-script-state')];
    for (let k = 1; k < seq.length; k++) {
      if (seq[k] === 'running') window.__bench.running = true;
      else if (seq[k - 1] === 'running' && seq[k] === 'notRunning' && window.__bench.running && window.__bench.t0) {
        window.__bench.running = false;
        requestAnimationFrame(() => { window.__bench.done = performance.now(); });
      }
    }
  }).observe(app, {attributes: true, attributeOldValue: true, attributeFilter: ['data-test-script-state']});
  for (const ev of ['pointerdown', 'keydown'])
    document.addEventListener(ev, () => { if (!window.__bench.t0) window.__bench.t0 = performance.now(); }, true);
}"""


def settle(page, timeout: float = 120_000) -> None:
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_function(
        """() => { const a = document.querySelector('[data-testid="stApp"]');
                   return a && a.getAttribute('data-test-script-state') === 'notRunning'
                       && !document.querySelector('[data-testid="stSkeleton"]'); }""",
        timeout=timeout,
    )


def open_settled(page, url: str) -> None:
    page.goto(url)
    settle(page)
    page.wait_for_timeout(300)  # a bound widget may cause one more rerun
    settle(page)


def _edit_once(page, i: int) -> str | None:
    """One generic edit on the page: a number step (alternating up/down), a segmented option, a checkbox, or a
    sentence field's last word dropped and put back."""
    main = page.locator('[data-testid="stMain"]')
    # visible ones only: a number field folded into a closed expander cannot be clicked
    steppers = main.locator(
        '[data-testid="stNumberInputStep%s"]:not([disabled]):visible' % ("Up" if i % 2 == 0 else "Down")
    )
    if steppers.count():
        steppers.first.click()
        return "number step"
    groups = main.locator('[data-testid="stButtonGroup"]:visible')
    if groups.count():
        # An option that is not the chosen one (a narrow column hides a number input's steppers, and clicking
        # the chosen option again changes nothing, so nothing would rerun).
        # Streamlit 1.67 draws the options as radios marked aria-checked "true" / "false" (the older "...Active"
        # test id is gone). Only an option marked "false" will do: the group also holds a button without the
        # mark (its label's help icon), and clicking that or the chosen option made no rerun to time.
        buttons = groups.first.locator('button[aria-checked="false"]')
        if buttons.count():
            buttons.nth(i % buttons.count()).click()
            return "segmented option"
    boxes = main.locator('[data-testid="stCheckbox"]:visible label')
    if boxes.count():
        boxes.first.click()
        return "checkbox"
    # A sentence field (rnn, ngram): drop its last word, then put it back (the clock starts at Enter's keydown).
    fields = main.locator('[data-testid="stTextInput"]:visible input')
    if fields.count():
        field, words = fields.first, fields.first.input_value().split()
        if i % 2 == 0 and len(words) > 1:
            TEXT_EDITS[page] = words[-1]
            field.fill(" ".join(words[:-1]))
        else:
            field.fill(" ".join([*words, TEXT_EDITS.pop(page, words[-1] if words else "a")]))
        field.press("Enter")
        return "sentence word"
    return None


TEXT_EDITS: dict = {}  # page -> the word the last sentence edit dropped (put back by the next one)


def measure_edits(page, n: int) -> tuple[list[float], str]:
    times: list[float] = []
    how = "—"
    page.evaluate(OBSERVER)
    for i in range(n):
        page.evaluate("() => { window.__bench.t0 = 0; window.__bench.done = 0; window.__bench.running = false; }")
        kind = _edit_once(page, i)
        if kind is None:
            break
        how = kind
        try:
            page.wait_for_function("() => window.__bench.done > 0", timeout=60_000)
        except Exception:
            how = f"{kind} (no rerun)"
            break
        settle(page)
        times.append(page.evaluate("() => window.__bench.done - window.__bench.t0"))
    return times, how


# One move of a stepped picture's slider, timed in the page: set the value, dispatch `input` (as a hand or
# Play does), await two animation frames, then confirm the drawn marks changed; a move whose marks did not
# change within 60 frames does not count (null). The SVG's markup is the drawn marks' signature.
STEP_MOVE = """async ([chart, value]) => {
  const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
  const svg = () => document.querySelector(chart + ' svg.marks');
  const before = svg().innerHTML;
  const frame = () => new Promise(r => requestAnimationFrame(r));
  const t0 = performance.now();
  input.value = String(value);
  input.dispatchEvent(new Event('input', {bubbles: true}));
  await frame(); await frame();
  let t1 = performance.now();
  for (let k = 0; k < 60 && svg().innerHTML === before; k++) { await frame(); t1 = performance.now(); }
  return svg().innerHTML === before ? null : t1 - t0;
}"""


def measure_steps(page, key: str, moves: int = STEP_MOVES) -> tuple[list[float], int]:
    """In-browser step latency of the step control `key`: back and forth over its steps, `moves` times; each
    move waits for the fragment rerun it starts to end first. Returns (times of the moves that redrew, misses)."""
    chart = f".st-key-{key}_chart"
    bounds = page.evaluate(
        "c => { const i = document.querySelector(c + ' .vega-bindings input[type=range]');"
        " return i ? [Number(i.min), Number(i.max), Number(i.value)] : null; }",
        chart,
    )
    if not bounds or bounds[1] <= bounds[0]:
        return [], moves
    lo, hi, value = bounds
    times, misses, direction = [], 0, 1
    for _ in range(moves):
        if not lo <= value + direction <= hi:
            direction = -direction
        value += direction
        took = page.evaluate(STEP_MOVE, [chart, value])
        if took is None:
            misses += 1
        else:
            times.append(float(took))
        settle(page)
    return times, misses


@dataclass(frozen=True)
class Device:
    """A browser the pages are measured in: the desktop, or a mid-range phone (GUIDE §5's phone budgets)."""

    name: str
    viewport: dict
    cpu_slowdown: float = 1  # Chromium's CPU throttling (Emulation.setCPUThrottlingRate): 4 = a mid-range phone
    mobile: bool = False


DESKTOP = Device("desktop 1280 px", {"width": 1280, "height": 900})
PHONE = Device("phone 390 px, 4x CPU throttling", {"width": 390, "height": 844}, cpu_slowdown=4, mobile=True)
OPEN_BUDGET_S = 3.0  # phone: open a page until its picture is drawn
OPEN_REPEATS = 3  # fresh browser contexts per page and device (a student opening a shared link)


def device_page(browser, device: Device):
    """A fresh context (its own Streamlit session, no cache) on `device`, throttled as the device is."""
    context = browser.new_context(
        viewport=device.viewport, locale="en-US", is_mobile=device.mobile, has_touch=device.mobile
    )
    page = context.new_page()
    page.set_default_timeout(180_000)
    if device.cpu_slowdown != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": device.cpu_slowdown})
    return page


def bench_steps(edits: int, moves: int, only: set[str] | None = None) -> list[dict]:
    """For each stepped page: its in-browser step latency on the desktop and on the throttled phone, side by side,
    and its edit -> redraw (desktop), measured in one session per device."""
    from playwright.sync_api import sync_playwright

    specs = [s for s in existing_pages() if s.ns in STEPPED and (not only or s.ns in only)]
    out = {spec.ns: {"name": spec.ns, "key": STEPPED[spec.ns]} for spec in specs}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        port = free_port()
        proc = start(port, ROOT / "app.py")
        try:
            wait_healthy(proc, port)
            for device in (DESKTOP, PHONE):
                page = device_page(browser, device)
                open_settled(page, f"http://127.0.0.1:{port}/?lang=en")
                for spec in specs:
                    open_settled(page, f"http://127.0.0.1:{port}/{spec.url}?lang=en")
                    page.wait_for_selector(f".st-key-{STEPPED[spec.ns]}_chart svg.marks")
                    times, misses = measure_steps(page, STEPPED[spec.ns], moves)
                    row = out[spec.ns]
                    if device is DESKTOP:
                        row["edit"], row["edit_how"] = measure_edits(page, edits)
                        row["steps"], row["misses"] = times, misses
                    else:
                        row["phone_steps"], row["phone_misses"] = times, misses
                    print(
                        f"  steps {spec.ns} ({device.name}): median {fmt(med(times), ' ms', 1)} over {len(times)}"
                        f" moves ({misses} without a redraw)",
                        flush=True,
                    )
                page.context.close()
        finally:
            stop_server(proc)
            browser.close()
    return list(out.values())


# The page's main picture has drawn: the first visible chart in the picture column (s2s_ui/explainer.py) holds an
# SVG or canvas taller than 100 px. The baseline page has no picture column: its one chart.
PICTURE_DRAWN = """() => {
    const column = document.querySelector('.st-key-s2s_picture');
    const charts = [...(column || document).querySelectorAll('[data-testid="stVegaLiteChart"]')];
    const drawn = c => c.querySelector('svg.marks, canvas');
    return column ? charts.some(c => drawn(c) && drawn(c).getBoundingClientRect().height > 100)
                  : charts.some(drawn);
}"""


def time_open(browser, device: Device, url: str) -> float | None:
    """Seconds from navigating a fresh context to `url` until its picture has drawn (None: it never drew)."""
    page = device_page(browser, device)
    try:
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(PICTURE_DRAWN, timeout=120_000, polling="raf")
        return time.perf_counter() - t0
    except Exception:  # a page that never draws is reported as not measured
        return None
    finally:
        page.context.close()


def bench_open(only: set[str] | None = None, repeats: int = OPEN_REPEATS) -> list[dict]:
    """Every page and the baseline page: open -> picture drawn, on the desktop and on the throttled phone."""
    from playwright.sync_api import sync_playwright

    specs = [s for s in existing_pages() if s.ns != "home" and (not only or s.ns in only)]
    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for script, targets in ((BASELINE, [("baseline", "")]), (ROOT / "app.py", [(s.ns, s.url) for s in specs])):
            port = free_port()
            proc = start(port, script)
            try:
                wait_healthy(proc, port)
                warm = device_page(browser, DESKTOP)  # a fresh server's first visit pays its imports: not counted
                open_settled(warm, f"http://127.0.0.1:{port}/?lang=en")
                warm.context.close()
                for name, path in targets:
                    url = f"http://127.0.0.1:{port}/{path}?lang=en"
                    row = {"name": name}
                    for device, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
                        row[label] = [x for x in (time_open(browser, device, url) for _ in range(repeats)) if x]
                    rows.append(row)
                    print(
                        f"  open {name}: desktop {fmt(med(row['desktop']), ' s', 2)},"
                        f" phone {fmt(med(row['phone']), ' s', 2)}",
                        flush=True,
                    )
            finally:
                stop_server(proc)
        browser.close()
    return rows


def _steps_cell(times: list[float], misses: int) -> str:
    counted = f"{len(times)}" + (f", {misses} without a redraw" if misses else "")
    return f"{fmt(med(times), '', 1)}{flag(med(times), STEP_BUDGET_MS)} / {fmt(p95(times), '', 1)} ({counted})"


def steps_report(rows: list[dict], opens: list[dict], meta: dict) -> str:
    lines = [
        f"Measured {meta['date']} with `{meta['command']}` on {meta['machine']}. In Chromium, on each page with the "
        f"shared step control: set the chart's own step slider, dispatch `input`, await two animation frames, "
        f"confirm the drawn marks changed (a move that changes nothing does not count), `performance.now()` "
        f"differences; {meta['moves']} moves back and forth, each after the fragment rerun of the one before. "
        f"Side by side: the desktop ({DESKTOP.viewport['width']} px) and a mid-range phone "
        f"({PHONE.viewport['width']} × {PHONE.viewport['height']}, touch, Chromium's CPU throttled "
        f"{PHONE.cpu_slowdown:g}× through CDP `Emulation.setCPUThrottlingRate`). Next to it, the same page's edit → "
        f"redraw on the desktop (a full rerun) in the same session. ⚠ marks a median over the {STEP_BUDGET_MS} ms "
        f"budget.",
        "",
        "| page | step control | desktop: step → redrawn picture, median / p95 ms (moves) | phone (4× CPU): "
        "step median / p95 ms (moves) | desktop edit → redraw median ms (edit) |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | `?{r['key']}=` | {_steps_cell(r.get('steps', []), r.get('misses', 0))}"
            f" | {_steps_cell(r.get('phone_steps', []), r.get('phone_misses', 0))}"
            f" | {fmt(med(r.get('edit', [])))} ({r.get('edit_how', '—')}) |"
        )
    if opens:
        lines += [
            "",
            f"Open a page until its picture is drawn: a fresh browser context (a student opening a shared link: its "
            f"own session, nothing cached) navigates to the page; the clock stops when the first chart in the "
            f"picture column has drawn an SVG or canvas taller than 100 px. Median of {OPEN_REPEATS} opens per page "
            f"and device, the server already warm. The baseline page (a bare Streamlit page with one chart) is "
            f"what Streamlit itself costs on the same devices. ⚠ marks a phone median over the "
            f"{OPEN_BUDGET_S:g} s budget.",
            "",
            "| page | desktop: open → picture, median s | phone (4× CPU): open → picture, median s |",
            "|---|---|---|",
        ]
        for r in opens:
            phone = med(r["phone"])
            lines.append(
                f"| {r['name']} | {fmt(med(r['desktop']), '', 2)} | {fmt(phone, '', 2)}{flag(phone, OPEN_BUDGET_S)} |"
            )
    return "\n".join(lines)


def pss_mb(server: psutil.Process) -> tuple[float, float]:
    """(total PSS of the server and its children, the server process's own PSS), in MB."""
    total = own = 0.0
    for proc in [server, *server.children(recursive=True)]:
        try:
            pss = proc.memory_full_info().pss / 2**20
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        total += pss
        own = pss if proc.pid == server.pid else own
    return total, own


def own(browser: dict) -> str:
    """What the one-session figure was before the idle training pool stopped, and the server process's own share
    (the rest is the pool's resource tracker; the forkserver and its workers while the pool runs)."""
    parts = []
    if browser.get("rss1_pool") is not None:
        parts.append(f"{browser['rss1_pool']:.0f} MB while the training pool ran")
    if browser.get("rss1_own") is not None and browser.get("rss1_own") != browser.get("rss1"):
        parts.append(f"server process alone {browser['rss1_own']:.0f} MB")
    return f" ({'; '.join(parts)})" if parts else ""


def pool_up(server: subprocess.Popen) -> bool:
    """Whether the server's training pool (its forkserver) is running."""
    try:
        children = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return False
    for child in children:
        try:
            if "multiprocessing.forkserver" in " ".join(child.cmdline()):
                return True
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return False


def rss_mb(proc: subprocess.Popen) -> float:
    """The server's memory with its children (the training pool's forkserver and workers), as PSS: a forked
    worker shares torch's pages with its forkserver, and summing RSS counted them once per process (801 MB on
    2026-12-01 for what is about half that); PSS splits each shared page between the processes that map it."""
    return pss_mb(psutil.Process(proc.pid))[0]


def bench_browser(script: Path, urls: list[tuple[str, str]], edits: int, sessions: int, rows: dict[str, Row]) -> dict:
    """Cold start, edit -> redraw per page, memory (PSS) with one session and with `sessions` at once (peak)."""
    from playwright.sync_api import sync_playwright

    out: dict = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        t0 = time.perf_counter()
        # The pool stops after BENCH_POOL_IDLE s without a job instead of 120 (the default), so the idle server is
        # reached within the run; the figure after the stop does not depend on how long that took.
        proc = start(port, script, env=os.environ | {POOL_IDLE_ENV: str(BENCH_POOL_IDLE)})
        try:
            wait_healthy(proc, port)
            out["health"] = time.perf_counter() - t0
            ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
            page = ctx.new_page()
            page.set_default_timeout(120_000)
            open_settled(page, f"{base}/{urls[0][1]}")
            out["cold"] = time.perf_counter() - t0
            # 1) One session: every page, a few edits each.
            for name, path in urls:
                open_settled(page, f"{base}/{path}")
                rows[name].edit, rows[name].edit_how = measure_edits(page, edits)
            if pool_up(proc):  # the warm trainings' pool, as the pages left it: measured, then left to stop
                out["rss1_pool"] = rss_mb(proc)
                deadline = time.monotonic() + BENCH_POOL_IDLE + 120
                while pool_up(proc) and time.monotonic() < deadline:
                    time.sleep(1)
            out["rss1"], out["rss1_own"] = pss_mb(psutil.Process(proc.pid))
            ctx.close()
            # 2) `sessions` sessions at once, each on its own page; PSS sampled while they load and edit.
            peak = [0.0]
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    peak[0] = max(peak[0], rss_mb(proc))
                    time.sleep(0.1)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            ctxs = [browser.new_context(locale="en-US") for _ in range(sessions)]
            pages = [c.new_page() for c in ctxs]
            for i, p in enumerate(pages):
                p.set_default_timeout(180_000)
                p.goto(f"{base}/{urls[i % len(urls)][1]}", wait_until="commit")
            for p in pages:
                settle(p, 180_000)
            for i, p in enumerate(pages):  # everyone moves to the next page at once
                p.goto(f"{base}/{urls[(i + 1) % len(urls)][1]}", wait_until="commit")
            for p in pages:
                settle(p, 180_000)
            stop.set()
            sampler.join()
            out["rss10"] = max(peak[0], rss_mb(proc))
            for c in ctxs:
                c.close()
        finally:
            stop_server(proc)
            browser.close()
    return out


# --- training, machine, report --------------------------------------------------------------------------


def training() -> str:
    script = ROOT / "scripts" / "measure_training.py"
    if not script.exists():
        return "not yet"
    try:
        run = subprocess.run(
            [sys.executable, str(script), "--runs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
    except subprocess.TimeoutExpired:
        return "measure_training.py did not finish within 300 s"
    summary = [line for line in run.stdout.splitlines() if line.startswith("SUMMARY")]
    return summary[-1].removeprefix("SUMMARY:").strip() if summary else f"no summary (exit {run.returncode})"


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} × {model}, Python {platform.python_version()}, torch {torch.__version__}, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )


def run_meta(script: str, argv: list[str] | None) -> dict[str, str]:
    """What every benchmark block opens with: the date, the machine, and the command (argv None: `make bench`)."""
    command = "make bench" if argv is None else " ".join([f"scripts/{script}", *argv])
    return {"date": dt.date.today().isoformat(), "machine": machine(), "command": command}


def fmt(x: float | None, unit: str = "", digits: int = 0) -> str:
    return "—" if x is None else f"{x:.{digits}f}{unit}"


def scaled(base: float | None, what: str) -> float | None:
    """The budget for `what` (RATIO_BUDGET) in this run's units: the baseline's figure times its ratio."""
    return None if base is None else base * RATIO_BUDGET[what]


def flag(x: float | None, budget: float | None) -> str:
    return "" if x is None or budget is None or x <= budget else " ⚠"


def ratio(x: float | None, base: float | None) -> str:
    return "—" if x is None or not base else f"{x / base:.1f}×"


def report(rows: list[Row], base: Row, browser: dict, base_browser: dict, train: str, meta: dict) -> str:
    b_rerun = med(base.rerun)
    b_edit = med(base.edit)
    lines = [
        f"Measured {meta['date']} with `{meta['command']}` on {meta['machine']}; {meta['reruns']} reruns per figure, "
        f"{meta['edits']} browser edits per page. Server figures are AppTest script runs (router + page). "
        f"⚠ marks a figure over its budget (rerun ≤ {RATIO_BUDGET['rerun']}×, edit → redraw ≤ "
        f"{RATIO_BUDGET['edit']}×, cold start ≤ {RATIO_BUDGET['cold']}× the baseline's; memory in MB); "
        f"× is the ratio to the bare baseline page "
        f"(`scripts/bench_baseline_app.py`, sha256 {baseline_hash()}…: one torch softmax, one Altair chart) "
        f"measured in the same run.",
        "",
        "| page | first run ms | rerun median / p95 ms | after a change median / p95 ms (widget) | "
        "browser edit → redraw median ms (edit) | rerun × baseline |",
        "|---|---|---|---|---|---|",
    ]
    for r in [*rows, base]:
        rerun = f"{fmt(med(r.rerun))} / {fmt(p95(r.rerun))}"
        change = f"{fmt(med(r.change))} / {fmt(p95(r.change))} ({r.changed})"
        edit_limit = b_edit * RATIO_BUDGET["edit"] if b_edit else None
        edit = f"{fmt(med(r.edit))}{flag(med(r.edit), edit_limit)} ({r.edit_how})"
        note = f" {'; '.join(r.notes)}" if r.notes else ""
        times = ratio(med(r.rerun), b_rerun) if r is not base else "1×"
        over = r is not base and b_rerun and med(r.rerun) and med(r.rerun) > b_rerun * RATIO_BUDGET["rerun"]
        lines.append(
            f"| {r.name}{note} | {fmt(r.first)} | {rerun} | {change} | {edit} | {times}{' ⚠' if over else ''} |"
        )
    all_edits = [x for r in rows for x in r.edit]
    lines += [
        "",
        "| what | budget | app | baseline | × |",
        "|---|---|---|---|---|",
        f"| cold start → first drawn page (server start + Chromium) | ≤ {RATIO_BUDGET['cold']}× the baseline's | "
        f"{fmt(browser.get('cold'), ' s', 1)}{flag(browser.get('cold'), scaled(base_browser.get('cold'), 'cold'))} | "
        f"{fmt(base_browser.get('cold'), ' s', 1)} | {ratio(browser.get('cold'), base_browser.get('cold'))} |",
        f"| edit → redraw, median over all pages | ≤ {RATIO_BUDGET['edit']}× the baseline's | "
        f"{fmt(med(all_edits), ' ms')}{flag(med(all_edits), scaled(b_edit, 'edit'))} | {fmt(b_edit, ' ms')} | "
        f"{ratio(med(all_edits), b_edit)} |",
        "| server memory (PSS), one session (after every page, the idle training pool stopped) | "
        f"≤ {BUDGET['rss1']} MB | {fmt(browser.get('rss1'), ' MB')}"
        f"{flag(browser.get('rss1'), BUDGET['rss1'])}{own(browser)} | {fmt(base_browser.get('rss1'), ' MB')} | "
        f"{ratio(browser.get('rss1'), base_browser.get('rss1'))} |",
        f"| server memory (PSS), {meta['sessions']} sessions at once (peak) | ≤ {BUDGET['rss10']} MB | "
        f"{fmt(browser.get('rss10'), ' MB')}{flag(browser.get('rss10'), BUDGET['rss10'])} | "
        f"{fmt(base_browser.get('rss10'), ' MB')} | {ratio(browser.get('rss10'), base_browser.get('rss10'))} |",
        f"| training lab: reverse task with attention (`scripts/measure_training.py --runs 1`) | ≥ 95 % in 15 s | "
        f"{train} | — | — |",
        "",
        f"Total bench time {meta['total']:.0f} s. Figures move with the machine's load; compare ratios across runs.",
    ]
    return "\n".join(lines)


def write_readme(block: str, start: str = START, end: str = END) -> None:
    """Replace what stands between the markers in docs/PERFORMANCE.md (the rest of the file is left as it is)."""
    text = PERFORMANCE.read_text()
    if start not in text or end not in text:
        print(f"docs/PERFORMANCE.md has no {start} markers; not written", file=sys.stderr)
        return
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    PERFORMANCE.write_text(f"{head}{start}\n{block}\n{end}{tail}")


def publish(block: str, start: str, end: str, write: bool) -> None:
    """Print a benchmark's block and (write) put it between its markers in docs/PERFORMANCE.md."""
    print("\n" + block)
    if write:
        write_readme(block, start, end)
        print(f"\ndocs/PERFORMANCE.md: the block between {start} and {end} rewritten.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=20)
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--only", default="", help="comma-separated page namespaces (default: every existing page)")
    parser.add_argument("--no-readme", action="store_true", help="print the block(s); do not write docs/PERFORMANCE.md")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--profile", default="", help="profile one page's reruns with pyinstrument and exit")
    parser.add_argument("--steps-only", action="store_true", help="only the step latency of the stepped pages")
    parser.add_argument("--moves", type=int, default=STEP_MOVES, help="step moves per stepped page")
    parser.add_argument(
        "--no-load", action="store_true", help="skip the load benchmarks (a class training, a class following)"
    )
    args = parser.parse_args()
    torch.set_num_threads(1)  # as the app does once per server process
    if args.profile:
        profile(args.profile, args.reruns)
        return
    t_start = time.perf_counter()
    meta = {
        "date": dt.date.today().isoformat(),
        "machine": machine(),
        "reruns": args.reruns,
        "edits": args.edits,
        "sessions": args.sessions,
        "command": "make bench" + (f" (scripts/bench.py {' '.join(sys.argv[1:])})" if sys.argv[1:] else ""),
    }
    meta["moves"] = args.moves
    only = set(args.only.split(",")) if args.only else None
    if args.steps_only or not args.no_browser:
        stepped = bench_steps(args.edits, args.moves, only)
        opens = bench_open(only)
        steps_block = steps_report(stepped, opens, meta)
        print("\n" + steps_block + "\n", flush=True)
        if not args.no_readme and stepped:
            write_readme(steps_block, STEPS_START, STEPS_END)
        if args.steps_only:
            return
    specs = [s for s in existing_pages() if not args.only or s.ns in args.only.split(",")]
    print(f"bench: {len(specs)} pages on {meta['machine']}", flush=True)
    bench_server(None, 1)  # warm-up: the first AppTest in a process pays streamlit's and altair's imports
    base = bench_server(None, args.reruns)
    rows = []
    for spec in specs:
        rows.append(bench_server(spec, args.reruns))
        r = rows[-1]
        print(
            f"  server {spec.ns}: first {fmt(r.first)} ms, rerun {fmt(med(r.rerun))} ms, "
            f"change {fmt(med(r.change))} ms ({r.changed})",
            flush=True,
        )
    browser, base_browser = {}, {}
    if not args.no_browser:
        by_name = {r.name: r for r in rows}
        # Home is the app's default page, at "/": "/home" opens Streamlit's "Page not found" dialog, whose inert
        # page made the first edit's fill() time out (make bench failed there on 2026-12-02).
        urls = [(s.ns, f"{'' if s.ns == 'home' else s.url}?lang=en") for s in specs]
        browser = bench_browser(ROOT / "app.py", urls, args.edits, args.sessions, by_name)
        print(f"  browser app: {browser}", flush=True)
        base_browser = bench_browser(BASELINE, [("baseline", "")], args.edits, args.sessions, {"baseline": base})
        print(f"  browser baseline: {base_browser}", flush=True)
    train = training()
    meta["total"] = time.perf_counter() - t_start
    block = report(rows, base, browser, base_browser, train, meta)
    print("\n" + block)
    if not args.no_readme:
        write_readme(block)
        print(f"\ndocs/PERFORMANCE.md: the block between {START} and {END} rewritten.")
    if not args.no_load:
        __import__("scripts.bench_load", fromlist=["main"]).main(readme=not args.no_readme, browser=not args.no_browser)
        __import__("scripts.bench_class", fromlist=["main"]).main(
            readme=not args.no_readme, browser=not args.no_browser
        )
        __import__("scripts.bench_replicas", fromlist=["main"]).main(
            readme=not args.no_readme, browser=not args.no_browser
        )


if __name__ == "__main__":
    main()
