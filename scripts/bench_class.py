"""Class benchmark of the hosted demo: a teacher walks a class of followers through ten steps of the course while
another visitor edits the attention page.

Usage: .venv/bin/python scripts/bench_class.py [--students 30] [--own 0] [--moves 10] [--edits 8] [--no-readme]
Also run by `make bench` (scripts/bench.py calls main()). Writes docs/PERFORMANCE.md's bench-class block.

One real server (`streamlit run server.py`, its default SQLite database in the data folder) and three Chromium
instances: the reader's (the other visitor, and the teacher in a context of its own); the class's stand-in, where
most students sit on phone-sized pages at nice 19 with its autogroups (scripts/bench_load.renice_class: on a real
deployment each student's browser is on their own device, and only their polling reaches the server); and `--own`
students in a browser at normal priority, each page a device of its own. After seating, the walk waits until every
student's page has finished its first draw (their renderers idle), so the class sits as a class does.

A follow time is measured several ways, per student and move, from the teacher's step:
- answered: the follow route's held request returned to the student's browser (CDP Network.responseReceived);
- asked: the page sent its rerun request (a websocket frame);
- delivered: the student's page received the run that carries the step (the first websocket frame with
  `lesson_step=n`, read from Chromium's network events over CDP, in the machine's monotonic clock, against the
  teacher's own page's frame): the poll, the page's reaction, the server's runs and the network;
- owed: answered + (delivered - asked), what the server and the network owe every student: delivered without
  the page's own reaction to the answer, which on a phone is its own CPU and in the stand-in a renderer at nice 19
  among thirty on two cores (in the stand-in, the browser's own network service is at nice 19 too, so its
  timestamps can be late as well: owed is an upper bound there);
- drawn on a device of its own: the `--own` pages painted the finished run at that step (DRAW_RECORDER).
- drawn in the stand-in: its link showed the step (tests/browser/classroom.py STEP_RECORDER) in a renderer that
  shares two cores with 30 others at the lowest priority: what 30 phones' drawing costs on one machine.
And on the wire (scripts/wire.py: a packet capture of the server's port, in the kernel's clock, with the app's
websocket messages read as Streamlit's protobufs), where the stand-in's starvation cannot reach the timestamps:
- answered: the follow route let the class's held polls go (the cluster of answers the move woke);
- delivered: the server sent the student's first message carrying the step; done: the run that shows it finished
  leaving the server (its script_finished message);
- run: the student's rerun request came in -> done; owed = answered + run: the server's and the network's part.
Budgets: owed (in the stand-in's clock and on the wire), and delivered and drawn on a device of its own, p95 ≤ 2 s
each; the reader's edit -> redraw while the class follows ≤ 1.5× the same edit just before, with the class not
yet there. Also reported: the server's and
the stand-in browser's CPU while the class sat at a step and during the walk.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from s2s_core.lessons import load_lessons  # noqa: E402
from scripts.bench import measure_edits, open_settled, publish, run_meta  # noqa: E402
from scripts.bench_load import CLASS_MARK, lowered, pct, renice_class, wait_pool_idle  # noqa: E402
from scripts.serve import free_port, start, stop, wait_healthy  # noqa: E402
from scripts.wire import Wire  # noqa: E402
from tests.browser.classroom import FOLLOW_CEILING_S, STEP_RECORDER, arrived_at, start_class, wait_step  # noqa: E402
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE  # noqa: E402

START, END = "<!-- bench-class:start -->", "<!-- bench-class:end -->"
LESSON = "course"  # the whole course: ten moves cross pages (the n-gram page, the RNN's, BPTT's, the LSTM's)
FOLLOW_BUDGET_S = 2.0  # GUIDE §5 / issue 27: a follower is at the teacher's step within 2 s
EDIT_BUDGET = 1.5  # the other visitor's edit while the class follows, × its idle time
TEACHER = "--s2s-bench-teacher"  # a harmless flag that names the teacher's Chromium among the class's


# Installed in the --own students' pages: when a script run has finished (stApp's script state back to notRunning)
# and the page holds no skeleton, the page's lesson step and the time two frames later, once painted, are recorded
# in sessionStorage, once per run (a toast that goes away later is not a draw). The last record at a step is when
# its last run was drawn.
DRAW_RECORDER = """(() => {
  const key = '__s2s_drawn';
  let armed = false;
  const check = records => {
    // any change of the script state (a batch may hold running and notRunning both) means a run happened
    if (records.some(r => r.type === 'attributes')) armed = true;
    const app = document.querySelector('[data-testid="stApp"]');
    if (!armed || !app || app.getAttribute('data-test-script-state') !== 'notRunning') return;
    if (document.querySelector('[data-testid="stSkeleton"]')) return;
    armed = false;
    const step = new URLSearchParams(location.search).get('lesson_step');
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const drawn = JSON.parse(sessionStorage.getItem(key) || '{}');
      drawn[step] = Date.now();
      sessionStorage.setItem(key, JSON.stringify(drawn));
    }));
  };
  new MutationObserver(check).observe(document, {
    attributes: true, attributeFilter: ['data-test-script-state'], childList: true, subtree: true,
  });
})();"""


def drawn_at(page, n: int) -> float | None:
    """When (Date.now(), ms) the page last painted a finished run at lesson step n (DRAW_RECORDER)."""
    return page.evaluate("n => JSON.parse(sessionStorage.getItem('__s2s_drawn') || '{}')[String(n)] ?? null", n)


class Frames:
    """One page's network, seen from its browser over CDP: when the first websocket frame that carries
    `lesson_step=n` arrived, for each n, in seconds of CLOCK_MONOTONIC (Chromium's TimeTicks; the same clock in
    every browser on the machine, and time.monotonic()'s). Also the page's main-thread busy time, for settling."""

    STEP = re.compile(rb"lesson_step=(\d+)")

    def __init__(self, page) -> None:
        self.first: dict[int, float] = {}
        self.sent: list[float] = []  # when the page sent a websocket frame (a rerun request: the poll saw a change)
        self.answered: list[float] = []  # when an answer of the follow route (/_class/<code>) reached the browser
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.webSocketFrameReceived", self._received)
        self.cdp.on("Network.webSocketFrameSent", lambda event: self.sent.append(event["timestamp"]))
        self.cdp.send("Network.enable")
        self.cdp.send("Performance.enable")

    def _received(self, event: dict) -> None:
        frame = event["response"]
        raw = base64.b64decode(frame["payloadData"]) if frame["opcode"] == 2 else frame["payloadData"].encode()
        for found in self.STEP.finditer(raw):
            self.first.setdefault(int(found.group(1)), event["timestamp"])

    def _response(self, event: dict) -> None:
        if "/_class/" in event["response"]["url"]:
            self.answered.append(event["timestamp"])

    def busy_s(self) -> float:
        """Seconds the page's main thread has spent on tasks so far (CDP Performance TaskDuration)."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def wait_quiet(frames: list[Frames], ceiling_s: float = 300, window_s: float = 2.0, quiet: float = 0.05) -> float:
    """Wait until every page's main thread is busy less than `quiet` of a window (each page has finished its
    draw and only polls), at most ceiling_s. Seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < ceiling_s:
        before = [f.busy_s() for f in frames]
        time.sleep(window_s)
        if max(f.busy_s() - b for f, b in zip(frames, before, strict=True)) < quiet * window_s:
            break
    return time.monotonic() - started


def seat_class(browser, base: str, code: str, n: int, scripts: tuple[str, ...] = (STEP_RECORDER,)) -> list:
    """N students open the student link on phone-sized pages (every other one in Korean) and take a seat; each
    context runs `scripts` in every document it opens."""
    pages = []
    for i in range(n):
        lang = ("en", "ko")[i % 2]
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="ko-KR" if lang == "ko" else "en-US"
        )
        for script in scripts:
            context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(300_000)
        page.goto(f"{base}/?class={code}&lang={lang}", wait_until="commit")
        pages.append(page)
    for page in pages:
        page.wait_for_function("() => location.search.includes('seat=')", timeout=300_000)
        wait_step(page, 1, timeout_s=300)
    return pages


def teacher_socket(wire: Wire, timeout_s: float = 30) -> int:
    """The client port of the teacher's websocket: the one the server sent lesson step 1 (the reader's page is on
    no lesson)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = [port for port, conn in wire.websockets().items() if 1 in conn.steps]
        if found:
            return found[0]
        time.sleep(0.1)
    raise RuntimeError("the teacher's websocket was not seen on the wire (is the capture running as root?)")


def tree_cpu(root: psutil.Process) -> float:
    """User + system CPU seconds of a process and all its children (a browser's renderers, a server's workers),
    the ones that have ended too: a reaped child's time is in its parent's children_user / children_system, so a
    worker that exits between two readings does not make the difference negative."""
    total = 0.0
    try:
        family = [root, *root.children(recursive=True)]
    except psutil.Error:  # a child exited while the tree was listed (seen once): list it again
        family = [root, *root.children(recursive=True)]
    for proc in family:
        try:
            times = proc.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def class_browser_process() -> psutil.Process:
    """The stand-in's browser process (the teacher's is lowered with it but is not a student's device)."""
    return next(
        p
        for p in psutil.process_iter(["cmdline"])
        if CLASS_MARK in (cmd := p.info["cmdline"] or []) and TEACHER not in cmd
    )


def follow_times(moved_s: float | None, stand_in: list, own: list, frames: list[Frames], n: int) -> dict:
    """Seconds from the teacher's step n to each student's, three ways (the module's docstring), and how many
    students were not there within FOLLOW_CEILING_S. `frames` holds the stand-in's pages' and then the own ones'."""
    # moved_s: the teacher's run carrying step n left the server (the wire, monotonic); the pages' records of when
    # their link showed the step are in Date.now() milliseconds
    moved_ms = (moved_s + time.time() - time.monotonic()) * 1000 if moved_s is not None else None
    students = [*stand_in, *own]
    deadline = time.monotonic() + FOLLOW_CEILING_S
    shown: dict[int, float] = {}
    drawn: dict[int, float] = {}
    while time.monotonic() < deadline:
        for i, page in enumerate(students):
            if i not in shown and (t := arrived_at(page, n)) is not None:
                shown[i] = t
        for i, page in enumerate(own):
            if i not in drawn and i + len(stand_in) in shown and (t := drawn_at(page, n)) is not None:
                drawn[i] = t
        if len(shown) == len(students) and len(drawn) == len(own):
            break
        time.sleep(0.5)
    drawn = {i: t for i, page in enumerate(own) if (t := drawn_at(page, n)) is not None}  # the last finished run
    delivered = [f.first[n] - moved_s for f in frames if n in f.first] if moved_s is not None else []
    asked = [  # the teacher's step -> the page's rerun request (the poll that saw the change)
        next(t for t in f.sent if t >= moved_s) - moved_s
        for f in frames
        if moved_s is not None and any(t >= moved_s for t in f.sent)
    ]
    answered: dict[int, float] = {}  # the teacher's step -> the follow route's answer that made the page ask
    owed: list[float] = []
    for i, f in enumerate(frames):
        asked_at = next((t for t in f.sent if moved_s is not None and t >= moved_s), None)
        told = [t for t in f.answered if asked_at is not None and t <= asked_at]
        if asked_at is None or not told:
            continue
        # (it can come before the teacher's own page heard of its step: the class moves early in the teacher's run)
        answered[i] = told[-1] - moved_s
        # What the server and the network owe the student: the route's answer, then the page's rerun request to
        # the step's run reaching the page; between the two, the page's own script reacts (on a phone, its own
        # CPU; in the stand-in, a renderer at nice 19 among thirty on two cores).
        if n in f.first:
            owed.append(answered[i] + f.first[n] - asked_at)
    own_frames = frames[len(stand_in) :]
    own_delivered = [f.first[n] - moved_s for f in own_frames if n in f.first] if moved_s is not None else []
    return {
        "own_delivered": own_delivered,
        "missed_own_delivered": len(own) - len(own_delivered),
        "asked": asked,
        "answered": list(answered.values()),
        "owed": owed,
        "missed_answered": len(students) - len(answered),
        "missed_owed": len(students) - len(owed),
        "delivered": delivered,
        "own": [(t - moved_ms) / 1000 for t in drawn.values()] if moved_ms is not None else [],
        "stand_in": [(t - moved_ms) / 1000 for i, t in shown.items() if i < len(stand_in)]
        if moved_ms is not None
        else [],
        "missed_asked": len(students) - len(asked),
        "missed_delivered": len(students) - len(delivered),
        "missed_own": len(own) - len(drawn),
        "missed_stand_in": len(stand_in) - sum(1 for i in shown if i < len(stand_in)),
    }


KINDS = ("answered", "asked", "delivered", "owed", "own_delivered", "own", "stand_in")
WIRE_KINDS = ("wire_answered", "wire_delivered", "wire_done", "wire_run", "wire_owed")
ALL_KINDS = (*KINDS, *WIRE_KINDS)  # in the browser, then on the wire
CLUSTER_S = 0.5  # the follow route wakes a class's held polls together: answers this close are one move's


def densest(times: list[float], width: float) -> list[float]:
    """The most times that fit in one window `width` long (the earliest such window): the answers one move woke,
    not a held poll's ten-second renewal that happened to fall just before it."""
    best: list[float] = []
    for i, first in enumerate(times):
        window = [t for t in times[i:] if t <= first + width]
        if len(window) > len(best):
            best = window
    return best


def wire_times(wire: Wire, teacher_port: int, students: set[int], n: int) -> dict:
    """Seconds from the teacher's step n to each student's, from the server's packets (scripts/wire.py), in the
    kernel's clock whatever the browsers are doing. From `moved` (the first message of the teacher's run that
    carried step n left the server): answered, the follow route let the class's held polls go (the cluster of
    answers the move woke); delivered, the student's first message carrying step n left; done, the run that shows
    it finished leaving (its script_finished); run, from the student's rerun request (its first after the answers)
    to done; owed = answered (the cluster's last) + run: what the server and the network owe the student, with the
    page's own reaction to the answer left out. `students`: the client ports of the students' websockets."""
    conns = wire.websockets()
    moved = conns[teacher_port].steps.get(n) if teacher_port in conns else None
    out: dict = {kind: [] for kind in WIRE_KINDS}
    answers = wire.follow_answers(moved - 1.0, moved + FOLLOW_CEILING_S) if moved is not None else []
    cluster = densest(answers, CLUSTER_S)
    out["wire_answered"] = [t - moved for t in cluster]
    for port in students:
        conn = conns.get(port)
        shown = conn.steps.get(n) if conn and moved is not None else None
        if shown is None:
            continue
        out["wire_delivered"].append(shown - moved)
        done = next((t for t in conn.finished if t >= shown), None)
        if done is None:
            continue
        out["wire_done"].append(done - moved)
        asked = next((t for t in conn.asked if cluster and cluster[0] <= t <= done), None)
        if asked is not None:
            out["wire_run"].append(done - asked)
            out["wire_owed"].append(cluster[-1] - moved + done - asked)
    return out | {f"missed_{kind}": max(0, len(students) - len(out[kind])) for kind in WIRE_KINDS}


def run(n_students: int, n_own: int, moves: int, edits: int) -> dict:
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    if os.geteuid() != 0:  # the follow times are read from a packet capture of the server's port (scripts/wire.py)
        raise SystemExit("bench_class: the capture of the server's packets needs root (AF_PACKET); run it as root")
    proc = start(port, env=os.environ | {"S2S_TRAIN_BACKEND": "process"})
    out: dict = {"students": n_students, "own": n_own, "moves": moves}
    try:
        wait_healthy(proc, port)
        server = psutil.Process(proc.pid)
        with sync_playwright() as pw, Wire(port) as wire:
            reader_browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            class_browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, CLASS_MARK])
            own_browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            reader = reader_browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
            reader.set_default_timeout(300_000)
            open_settled(reader, f"{base}/?lang=en")  # the first run starts the pool and the warm-up
            open_settled(reader, f"{base}/attention?lang=en")
            wait_pool_idle(server)
            out["load"] = os.getloadavg()[0]
            idle = measure_edits(reader, edits)[0]
            # the teacher's own device (a projector's laptop): lowered with the class, so its drawing of each step
            # does not share the reader's cores; its move is timed on the wire, not by its page
            teacher_browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, CLASS_MARK, TEACHER])
            teacher_context = teacher_browser.new_context(viewport=DESKTOP, locale="en-US")
            teacher_context.add_init_script(STEP_RECORDER)
            teacher = teacher_context.new_page()
            teacher.set_default_timeout(300_000)
            code = start_class(teacher, base, LESSON)
            teacher_port = teacher_socket(wire)
            before = set(wire.websockets())  # the reader's and the teacher's
            t_seat = time.monotonic()
            stand_in = seat_class(class_browser, base, code, n_students - n_own)
            own = seat_class(own_browser, base, code, n_own, (STEP_RECORDER, DRAW_RECORDER))
            out["seat_s"] = time.monotonic() - t_seat
            out["lowered"] = renice_class()
            frames = [Frames(page) for page in [*stand_in, *own]]
            students = set(wire.websockets()) - before
            out["settle_s"] = wait_quiet(frames)
            devices = class_browser_process()
            # CPU (cores) of the server and of the students' stand-in browser while the class sits at a step,
            # polling once a second each (no move), and then during the walk: on this machine the two share the
            # cores, on a real deployment each student's browser has its own device.
            server0, devices0, t0 = tree_cpu(server), tree_cpu(devices), time.monotonic()
            time.sleep(10)
            sat = time.monotonic() - t0
            out["sit_server"], out["sit_devices"] = (
                (tree_cpu(server) - server0) / sat,
                (tree_cpu(devices) - devices0) / sat,
            )
            server0, devices0, t0 = tree_cpu(server), tree_cpu(devices), time.monotonic()
            waits: dict[str, list[float]] = {kind: [] for kind in ALL_KINDS}
            misses = dict.fromkeys(ALL_KINDS, 0)
            busy: list[float] = []
            for n in range(2, moves + 2):
                teacher.locator(".st-key-lesson_next button").click()
                wait_step(teacher, n)
                busy += measure_edits(reader, 2)[0]  # one step up, one down: while the class follows
                moved = wire.websockets()[teacher_port].steps.get(n)
                step = follow_times(moved, stand_in, own, frames, n)
                step |= wire_times(wire, teacher_port, students, n)
                for kind in ALL_KINDS:
                    waits[kind] += step[kind]
                    misses[kind] += step[f"missed_{kind}"]
                print(
                    f"  step {n}: "
                    + ", ".join(
                        f"{kind} p50 {pct(step[kind], 0.5) or 0:.2f} s max {max(step[kind], default=0):.2f} s "
                        f"missed {step[f'missed_{kind}']}"
                        for kind in ALL_KINDS
                    ),
                    flush=True,
                )
            walked = time.monotonic() - t0
            out["walk_server"] = (tree_cpu(server) - server0) / walked
            out["walk_devices"] = (tree_cpu(devices) - devices0) / walked
            teacher.get_by_role("button", name="End the class").click()
            teacher.locator(".st-key-class_end button").click()
            own_browser.close()
            class_browser.close()
            teacher_browser.close()
            reader_browser.close()
    finally:
        stop(proc)
    steps = load_lessons()[LESSON].steps[: moves + 1]
    out |= {
        "pages": list(dict.fromkeys(s.page for s in steps)),
        "follow": {
            kind: {
                "p50": pct(waits[kind], 0.5),
                "p95": pct(waits[kind], 0.95),
                "max": max(waits[kind], default=None),
                "n": len(waits[kind]),
                "missed": misses[kind],
            }
            for kind in ALL_KINDS
        },
        "idle": statistics.median(idle) if idle else None,
        "busy": statistics.median(busy) if busy else None,
        "n_busy": len(busy),
    }
    return out


def report(out: dict, meta: dict) -> str:
    def flag(x: float | None, budget: float) -> str:
        return "" if x is None or x <= budget else " ⚠"

    ratio = out["busy"] / out["idle"] if out["busy"] and out["idle"] else None

    def sec(x: float | None) -> str:
        return "—" if x is None else f"{x:.2f} s"

    def ms(x: float | None) -> str:
        return "—" if x is None else f"{x:.0f} ms"

    def follow(kind: str, budget: float | None) -> str:
        f = out["follow"][kind]
        cut = (lambda x: flag(x, budget)) if budget is not None else (lambda x: "")
        return (
            f"{sec(f['p50'])}{cut(f['p50'])} / {sec(f['p95'])}{cut(f['p95'])} / {sec(f['max'])} ({f['n']}); "
            f"{f['missed']} missed"
        )

    stand_in = out["students"] - out["own"]
    times = f"{ms(out['idle'])} / {ms(out['busy'])} ({out['n_busy']})"
    lines = [
        f"Measured {meta['date']} with `{meta['command']}` on {meta['machine']}; load average {out['load']:.1f} "
        f"once the server was idle. {out['students']} students (phone-sized pages, half of them Korean) follow the "
        f"teacher through {out['moves']} steps of the course ({', '.join(out['pages'])}), on the default SQLite "
        f"database: {stand_in} in the stand-in browser at nice 19 ({lowered(out['lowered'])}), {out['own']} in a "
        f"browser at normal priority, a device each. Seating the class took {out['seat_s']:.0f} s, and its pages "
        f"finished their first draw {out['settle_s']:.0f} s later. CPU in cores, server (with its workers) / the "
        f"stand-in browser: {out['sit_server']:.2f} / {out['sit_devices']:.2f} while the class sat at a step "
        f"polling, {out['walk_server']:.2f} / {out['walk_devices']:.2f} during the walk, of the machine's "
        f"{os.cpu_count()}.",
        "",
        "| follow, from the teacher's step, p50 / p95 / max (n); missed (> 30 s) | |",
        "|---|---|",
        f"| answered: the follow route told the student's page (its held poll returned) | {follow('answered', None)} |",
        f"| asked: the student's page asked for the run | {follow('asked', None)} |",
        f"| delivered: the step's run reached the student's page (all {out['students']}) | "
        f"{follow('delivered', None)} |",
        f"| owed by the server and the network: answered, then asked → delivered (all {out['students']}) | "
        f"{follow('owed', FOLLOW_BUDGET_S)} |",
        *(
            [
                f"| delivered to the devices of their own ({out['own']}) | "
                f"{follow('own_delivered', FOLLOW_BUDGET_S)} |",
                f"| drawn on a device of its own ({out['own']}) | {follow('own', FOLLOW_BUDGET_S)} |",
            ]
            if out["own"]
            else []
        ),
        f"| drawn in the stand-in browser ({stand_in}, sharing {os.cpu_count()} cores at nice 19) | "
        f"{follow('stand_in', None)} |",
        f"| *on the wire* (the server's packets, in the kernel's clock): the follow route let the held polls go | "
        f"{follow('wire_answered', None)} |",
        f"| on the wire: the student's run began carrying the step (all {out['students']}) | "
        f"{follow('wire_delivered', None)} |",
        f"| on the wire: that run finished leaving the server (all {out['students']}) | "
        f"{follow('wire_done', FOLLOW_BUDGET_S)} |",
        f"| on the wire: the student's rerun request in → that run finished | {follow('wire_run', None)} |",
        f"| owed on the wire: the polls let go, then the run (all {out['students']}) | "
        f"{follow('wire_owed', FOLLOW_BUDGET_S)} |",
        "",
        "| reader's edit → redraw, median: idle / while the class follows (n) | × idle |",
        "|---|---|",
        f"| {times} | {'—' if ratio is None else f'{ratio:.2f}×'}{flag(ratio, EDIT_BUDGET)} |",
        "",
        f"Budgets: what the server and network owe every student (in the stand-in's clock and on the wire), and "
        f"delivered and drawn on a device of its own, "
        f"within {FOLLOW_BUDGET_S:g} s (p95); the other "
        f"visitor's edit ≤ {EDIT_BUDGET}× idle. Class benchmark time {meta['total']:.0f} s.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None, *, readme: bool = True, browser: bool = True) -> str | None:
    """Run the class benchmark and (unless --no-readme / readme=False) rewrite docs/PERFORMANCE.md's bench-class
    block. argv None: called by scripts/bench.py (`make bench`); browser=False there skips it (--no-browser)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="followers in the class")
    parser.add_argument(
        "--own",
        type=int,
        default=0,
        help="of them, students in a browser at normal priority (0: all in the stand-in, the budget's setting)",
    )
    parser.add_argument("--moves", type=int, default=10, help="the teacher's Next presses (steps 2 .. moves + 1)")
    parser.add_argument("--edits", type=int, default=8, help="the reader's idle edits before the class comes")
    parser.add_argument("--no-readme", action="store_true", help="print the block; do not write docs/PERFORMANCE.md")
    args = parser.parse_args(argv if argv is not None else [])
    if args.students < 1 or not 0 <= args.own <= args.students:
        parser.error(f"--students must be at least 1, --own between 0 and --students ({args.students}), not {args.own}")
    if not browser:
        return None
    started = time.perf_counter()
    meta: dict = run_meta("bench_class.py", argv)
    print(f"bench_class: {args.students} students ({args.own} own), {args.moves} moves, {meta['machine']}", flush=True)
    out = run(args.students, args.own, args.moves, args.edits)
    meta["total"] = time.perf_counter() - started
    block = report(out, meta)
    publish(block, START, END, readme and not args.no_readme)
    return block


if __name__ == "__main__":
    main(sys.argv[1:])
