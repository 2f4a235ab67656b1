"""The default models do not depend on the server's load (issue 24 §3): the Training lab's default trained while
busy loops load every core gives the same figures (steps done, losses, held-out scores, exact match by length, the
loss check, the attention maps, every weight) as the run's own default model, and both reach their last step.

The reference is the default this test run already has (s2s_jobs.jobs.default_result: trained by whichever server
or test needed it first, under whatever load the suite made then, or loaded from the run's store). The loaded run
is a server's own: a fresh process runner (worker process, one torch thread, a guest's priority) with no model
store, so it trains again instead of loading. The busy loops run at the test's own priority, one more than the
machine has cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace

import psutil
import pytest
import torch

from s2s_core.training import TrainConfig
from s2s_jobs import jobs
from s2s_jobs.process import ProcessRunner
from s2s_jobs.snapshot import DONE
from s2s_jobs.trainer import DEFAULT

pytestmark = pytest.mark.timeout(900)
LOOPS = (os.cpu_count() or 2) + 1  # every core busy, and one loop more


def figures(result) -> tuple:
    """Everything the Training lab shows about its trained model but the timings."""
    run = result.run
    return (
        run.steps_done,
        run.stopped_by,
        run.losses,
        tuple(replace(e, seconds=0.0) for e in run.evals),
        run.by_length,
        result.loss_check,
        result.trace.maps,  # the default source's output and attention weights at every checkpoint
        tuple((k, v.tolist()) for k, v in run.model.state_dict().items()),
    )


def train_on_a_fresh_server(config: TrainConfig):
    """A server start with an empty store: the default trained in a worker, to its end."""
    runner = ProcessRunner(max_running=1, pool_idle=0.0, store=None)
    job = runner.default(config, DEFAULT)
    assert job.wait(600), "the default model did not finish"
    snap = runner.snapshot(job)
    assert snap.state == DONE, snap
    return snap.result


def test_the_default_models_figures_are_the_same_on_a_loaded_machine():
    config = TrainConfig()  # the Training lab's default, as the server warms it
    quiet = jobs.default_result(config, timeout=600)  # the run's default model (its own load, its own backend)
    assert quiet is not None, "the default model did not finish"
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(LOOPS)]
    try:
        busy = [psutil.Process(p.pid) for p in loops]
        t0 = time.monotonic()
        loaded = train_on_a_fresh_server(config)
        wall = time.monotonic() - t0
        burnt = [p.cpu_times().user for p in busy]
        alive = all(p.poll() is None for p in loops)
    finally:
        for p in loops:
            p.kill()
            p.wait(10)
    print(f"reference {quiet.run.seconds:.1f} s, loaded {loaded.run.seconds:.1f} s; loops' CPU {burnt} in {wall:.1f} s")
    # The machine was loaded while the default trained: every loop ran throughout and computed (its share of a
    # machine that other work may load too).
    assert alive and min(burnt) > 1.0, (burnt, wall)
    assert (quiet.run.steps_done, quiet.run.stopped_by) == (config.steps, "steps")
    assert figures(loaded) == figures(quiet)
    assert quiet.config == loaded.config == config
    sa, sb = quiet.run.model.state_dict(), loaded.run.model.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
