"""Measure the Training lab's performance bar: reverse task with attention, default settings, 1 torch thread.

Usage: .venv/bin/python scripts/measure_training.py [--runs 3] [--attention luong_general] [--steps N] [--seed S]
Run i trains with seed i (seeds 0, 1, 2 for --runs 3), so the figure covers more than one lucky start;
--seed S repeats one seed instead. Prints one line per run and a summary line docs/PERFORMANCE.md can quote. Other
work on the machine slows the runs down, so it reports every run, the median, and the load average it saw.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch

from s2s_core.training import TrainConfig, train

TARGET = 0.95
BUDGET_SECONDS = 15.0


def one_run(config: TrainConfig) -> dict:
    """Train once; when did held-out exact match first reach the target, and where did it end?"""
    cpu = time.process_time()
    result = train(config)
    cpu = time.process_time() - cpu
    run = result.run
    reached = next((e for e in run.evals if e.free_exact >= TARGET), None)
    return {
        "seconds": run.seconds,
        "steps": run.steps_done,
        "exact": result.final.free_exact,
        "stopped_by": run.stopped_by,
        "reached_at": reached.seconds if reached else None,
        "reached_step": reached.step if reached else None,
        "n": run.n_heldout,
        "cpu": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    for name in ("attention", "task"):
        parser.add_argument(f"--{name}", default=None)
    for name in ("steps", "hidden", "embed", "batch", "max_len", "seed"):
        parser.add_argument(f"--{name}", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--max_seconds", type=float, default=None)
    args = parser.parse_args()
    torch.set_num_threads(1)  # as in the app (app.py sets one thread per server process)
    config = TrainConfig()
    overrides = {k: v for k, v in vars(args).items() if k not in ("runs", "seed") and v is not None}
    config = replace(config, **overrides)
    print(f"config: {config} (seed set per run)")
    rows = []
    seeds = [args.seed] * args.runs if args.seed is not None else list(range(args.runs))
    for i, seed in enumerate(seeds):
        load = os.getloadavg()[0]
        row = one_run(replace(config, seed=seed))
        rows.append(row)
        reached = f"{row['reached_at']:.1f} s (step {row['reached_step']})" if row["reached_at"] else "never"
        print(
            f"run {i + 1} (seed {seed}): {row['exact']:.1%} exact match on {row['n']} held-out sources "
            f"after {row['seconds']:.1f} s, {row['steps']} steps (stopped by {row['stopped_by']}; "
            f"CPU {row['cpu']:.1f} s); >= {TARGET:.0%} first at {reached}; "
            f"load avg {load:.1f} on {os.cpu_count()} cores",
            flush=True,
        )
    secs = statistics.median(r["seconds"] for r in rows)
    cpu = statistics.median(r["cpu"] for r in rows)
    exact = statistics.median(r["exact"] for r in rows)
    ok = sum(r["exact"] >= TARGET and r["seconds"] <= BUDGET_SECONDS for r in rows)
    # CPU time is what one run costs on an idle core; wall time is what a learner waits on this machine now.
    print(
        f"SUMMARY: {config.task} with {config.attention} attention, default settings: median {exact:.1%} exact match "
        f"on held-out sources after a median {secs:.1f} s of training ({cpu:.1f} s of CPU; {ok}/{len(rows)} runs "
        f"reached >= {TARGET:.0%} within {BUDGET_SECONDS:.0f} s; seeds {', '.join(map(str, seeds))}; "
        f"1 torch thread, {os.cpu_count()} cores, "
        f"load avg {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
