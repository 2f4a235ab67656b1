"""Capacity benchmark past one machine: one replica against two behind nginx, side by side, on this machine.

Usage: .venv/bin/python scripts/bench_replicas.py [--trainings 20] [--steps 160] [--edits 8] [--no-readme]
Also run by `make bench` (scripts/bench.py calls main()). Writes docs/PERFORMANCE.md's bench-replicas block.

For R = 1, then R = 2: the topology of `make run-replicas` (scripts/replicas.py: R `streamlit run server.py`
replicas, nginx in front with its affinity cookie, one fresh SQLite database in a data folder of the run's own that
every replica shares, the default pool size, no warm-up), and two Chromium instances through nginx: the reader, a
visitor on the attention page whose edit -> redraw is timed as bench.py times it, and the class, `--trainings`
sessions on the Training lab (at nice 19, as bench_load.py's class: their browsers would be the visitors' own
machines) that press Train at once on distinct settings, spread evenly over the replicas by their affinity cookies.
Per R, from the shared model store (the replicas' own record of each training's end and training time): trainings
finished per minute (from the first press to the last model stored), when the last press reached its replica, and
the queue wait from the replica receiving the press to the training's start, p50 / p95; from the pages: how many
visitors saw their model; and the reader's edit while trainings run as a ratio to the same edits just before.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from scripts.bench import measure_edits, open_settled, publish, run_meta  # noqa: E402
from scripts.bench_load import CLASS_MARK, WATCH, lowered, outcome, pct, renice_class, wait_pool_idle, workers  # noqa: E402
from scripts.replicas import nginx_missing_reason, topology  # noqa: E402
from scripts.serve import free_port  # noqa: E402
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.replicas import COOKIE, replica_of  # noqa: E402

START, END = "<!-- bench-replicas:start -->", "<!-- bench-replicas:end -->"


def cookies_for(top, n: int) -> list[str]:
    """n affinity cookies, session i's sending it to replica i mod R (nginx's hash decides; found by asking it)."""
    by_replica: dict[str, list[str]] = {f"127.0.0.1:{p}": [] for p in top.replica_ports}
    for j in range(10_000):
        value = f"bench-{j}"
        by_replica[replica_of(top, value)].append(value)
        if all(len(v) >= n for v in by_replica.values()):
            break
    lists = list(by_replica.values())
    return [lists[i % len(lists)][i // len(lists)] for i in range(n)]


def store_rows(env: dict[str, str]) -> list[dict]:
    """The shared model store's rows (s2s_db.tables.trainings): each training's state, seed, the time it ended and
    how long it trained, as the replicas wrote them. The server's own record: a page of the class (a browser at
    nice 19 on a machine whose cores train) can render a short run's progress late or not at all."""
    import sqlalchemy as sa

    from s2s_db.settings import database_url
    from s2s_db.tables import trainings

    eng = sa.create_engine(database_url(env))
    try:
        with eng.connect() as conn:
            rows = conn.execute(
                sa.select(
                    trainings.c.state,
                    trainings.c.config,
                    trainings.c.created_at,
                    trainings.c.updated_at,
                    trainings.c.seconds,
                )
            ).all()
    except sa.exc.OperationalError:  # no table yet: no replica has claimed a training
        return []
    finally:
        eng.dispose()
    return [  # config: repr(config_items(config)) (s2s_jobs.store), plain literals
        {
            "state": r.state,
            "seed": dict(ast.literal_eval(r.config)).get("seed"),
            "queued": r.created_at,  # the replica's claim, made as it received the press (s2s_jobs.runner.submit)
            "end": r.updated_at,
            "train": r.seconds,
        }
        for r in rows
    ]


def phase(top, reader, class_browser, n: int, steps: int, edits: int, tag: int) -> dict:
    """n sessions press Train at once; the reader edits until the store holds every training's end."""
    servers = [psutil.Process(p.pid) for p in top.replicas]
    load = os.getloadavg()[0]
    idle = measure_edits(reader, edits)[0]
    contexts = []
    for cookie in cookies_for(top, n):
        context = class_browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": top.url}])
        contexts.append(context)
    pages = [c.new_page() for c in contexts]
    seeds = [tag + i for i in range(n)]
    for page, seed in zip(pages, seeds, strict=True):
        page.set_default_timeout(300_000)
        open_settled(page, f"{top.url}/training?lang=en&training_steps={steps}&training_seed={seed}")
        page.evaluate(WATCH)
    # The presses are made at the class browser's own priority (a phase before left it at nice 19): at nice 19
    # on cores the first trainings fill, the last presses reached the servers ~25 s late, a wait no visitor on a
    # device of their own has. Lowered right after, for the rest of the phase.
    renice_class(0)
    pressed = {}
    for page, seed in zip(pages, seeds, strict=True):
        pressed[seed] = time.time()
        page.get_by_role("button", name="Train", exact=True).click(no_wait_after=True)
    lowered_counts = renice_class()
    # The store says when every training has ended; the pages are asked only once, at the end (asking a starved
    # page blocks until its renderer runs, and the reader's edits would stop meanwhile).
    busy, deadline, next_look, ended = [], time.monotonic() + 120 + n * steps * 0.1, 0.0, []
    while time.monotonic() < deadline:
        if time.monotonic() >= next_look:
            ended = [r for r in store_rows(top.env) if r["seed"] in pressed and r["state"] in ("done", "failed")]
            if len(ended) >= n:
                break
            next_look = time.monotonic() + 1
        active = any(workers(s) for s in servers)
        times = measure_edits(reader, 2)[0]  # one step up, one down: the reader's inputs stay where they were
        if active and any(workers(s) for s in servers) and times:
            busy += times
    states = [p.evaluate("() => window.__t") for p in pages]  # the visitors' pages: did each show its model?
    for c in contexts:
        c.close()
    for s in servers:
        wait_pool_idle(s)
    finished = [r for r in ended if r["state"] == "done"]
    first = min(pressed.values())  # this process's clock; the store's times are the replicas' time.time()
    span = max(r["end"] for r in finished) - first if finished else None
    # Queue wait: from the replica receiving the press to the training's start (its end less its training time).
    waits = [r["end"] - r["train"] - r["queued"] for r in finished]
    spread = max(r["queued"] for r in ended) - first if ended else None
    return {
        "replicas": len(servers),
        **outcome(idle, busy, states),
        "wait50": pct(waits, 0.5),
        "wait95": pct(waits, 0.95),
        "stored": len(finished),
        "spread": spread,
        "n": n,
        "span": span,
        "per_min": len(finished) / span * 60 if span else None,
        "load": load,
        "lowered": lowered_counts,
    }


def run(counts: list[int], trainings: int, steps: int, edits: int) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict = {"phases": []}
    with sync_playwright() as pw:
        for i, r in enumerate(counts):
            with tempfile.TemporaryDirectory(prefix="s2s-bench-replicas-") as data:
                env = os.environ | {"S2S_TRAIN_BACKEND": "process", "S2S_TRAIN_WARM": "0", "S2S_DATA_DIR": data}
                for name in ("S2S_TRAIN_WORKERS", "S2S_DATABASE_URL"):  # the defaults, as a host would start them
                    env.pop(name, None)
                ports = [free_port() for _ in range(r + 1)]
                with topology(r, ports[0], env, replica_ports=ports[1:]) as top:
                    reader_browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                    class_browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, CLASS_MARK])
                    try:
                        reader = reader_browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                        reader.set_default_timeout(300_000)
                        open_settled(reader, f"{top.url}/?lang=en")
                        open_settled(reader, f"{top.url}/attention?lang=en")
                        result = phase(top, reader, class_browser, trainings, steps, edits, tag=7000 + 100 * i)
                    finally:
                        class_browser.close()
                        reader_browser.close()
            out["phases"].append(result)
            print(f"  replicas R={r}: {result}", flush=True)
    return out


def report(out: dict, meta: dict) -> str:
    def ms(x: float | None) -> str:
        return "—" if x is None else f"{x:.0f} ms"

    def sec(x: float | None) -> str:
        return "—" if x is None else f"{x:.1f} s"

    phases = out["phases"]
    first = phases[0]["per_min"]
    lines = [
        f"Measured {meta['date']} with `{meta['command']}` on {meta['machine']}; "
        f"{meta['trainings']} distinct trainings of {meta['steps']} steps pressed at once, spread evenly over the "
        "replicas by nginx's affinity cookie; "
        f"{meta['workers']} training worker(s) per replica (`S2S_TRAIN_WORKERS` unset: cores − 1); one SQLite "
        "database shared by the replicas; no warm-up.",
        "",
        "| replicas (R) | trainings per minute | × one replica | finished: in the store / seen on the visitor's "
        "page / failed | last press received after | queue wait on the replica to the training's start p50 / p95 | "
        "all done after | reader's edit → redraw, "
        "median: idle / while training (n) | × idle | "
        "load average |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in phases:
        per_min = "—" if not r["per_min"] else f"{r['per_min']:.1f}"
        scale = "—" if not (r["per_min"] and first) else f"{r['per_min'] / first:.2f}×"
        ratio = "—" if not (r["busy"] and r["idle"]) else f"{r['busy'] / r['idle']:.2f}×"
        lines.append(
            f"| {r['replicas']} | {per_min} | {scale} | {r['stored']} / {r['done']} / {r['failed']} of {r['n']} | "
            f"{sec(r['spread'])} | {sec(r['wait50'])} / {sec(r['wait95'])} | {sec(r['span'])} | "
            f"{ms(r['idle'])} / {ms(r['busy'])} ({r['n_busy']}) | {ratio} | {r['load']:.1f} |"
        )
    lines += [
        "",
        f"Replica benchmark time {meta['total']:.0f} s. The sessions' browser ran at nice 19 "
        f"({lowered(phases[-1]['lowered'])}).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None, *, readme: bool = True, browser: bool = True) -> str | None:
    """Run the replica benchmark and (unless --no-readme / readme=False) rewrite its block in docs/PERFORMANCE.md.
    argv None: called by scripts/bench.py (`make bench`); browser=False there skips it, and so does a machine
    without nginx (named on stderr)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", default="1,2", help="comma-separated replica counts, measured in turn")
    parser.add_argument("--trainings", type=int, default=20, help="distinct trainings pressed at once")
    parser.add_argument("--steps", type=int, default=160, help="training steps of each run (the lab's default)")
    parser.add_argument("--edits", type=int, default=8, help="the reader's idle edits before each phase")
    parser.add_argument("--no-readme", action="store_true", help="print the block; do not write docs/PERFORMANCE.md")
    args = parser.parse_args(argv if argv is not None else [])
    if not browser:
        return None
    if (reason := nginx_missing_reason()) is not None:
        print(f"bench_replicas skipped: {reason}", file=sys.stderr)
        return None
    from s2s_jobs.settings import default_workers

    t0 = time.perf_counter()
    meta = run_meta("bench_replicas.py", argv) | {
        "trainings": args.trainings,
        "steps": args.steps,
        "workers": default_workers(),
    }
    print(f"bench_replicas: R = {args.replicas}, {args.trainings} trainings of {args.steps} steps", flush=True)
    out = run([int(r) for r in args.replicas.split(",")], args.trainings, args.steps, args.edits)
    meta["total"] = time.perf_counter() - t0
    block = report(out, meta)
    publish(block, START, END, readme and not args.no_readme)
    return block


if __name__ == "__main__":
    main(sys.argv[1:])
