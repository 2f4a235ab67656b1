"""Training jobs off the request path: the worker-process backend (same model as in-process, progress over a pipe,
cancel, a killed worker, the hard time cap), the queue's place and estimate, a visitor who leaves, warm defaults,
and choosing the backend. The in-process backend's own behaviour is in test_training.py."""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from s2s_core.training import TrainConfig, train
from s2s_core.training.loop import Progress, TrainingCancelled
from s2s_jobs import jobs, settings, trainer
from s2s_jobs.pool import pool_running
from s2s_jobs.process import ProcessRunner
from s2s_jobs.runner import Runner
from s2s_jobs.snapshot import CANCELLED, CRASHED_KEY, DONE, FAILED, FAILED_KEY, OVER_CAP_KEY, QUEUED, RUNNING
from s2s_jobs.trainer import Trainer
from tests.waiting import pace, wait_until

TINY = TrainConfig(embed=8, hidden=16, steps=12, batch=16, max_len=6, lr=0.01)


# --- stand-in trainers: module-level, so a worker process can import them by name ------------------------


def slow_train(config, on_progress, stop):
    """0.05 s per step, progress every step; its result is a little text."""
    for step in range(1, config.steps + 1):
        if stop is not None and stop():
            raise TrainingCancelled(step)
        pace(0.05)
        on_progress(Progress(step, config.steps, 1.0 / step, 1.0, step * 0.05, None))
    return f"trained seed {config.seed}"


def crashing_train(config, on_progress, stop):
    on_progress(Progress(1, config.steps, 1.0, 1.0, 0.01, None))
    raise RuntimeError("a bug in a trainer")


def runaway_train(config, on_progress, stop):
    """Computes forever, ignoring every cap: only the hard cap (CPU seconds) can stop it."""
    on_progress(Progress(1, config.steps, 1.0, 1.0, 0.01, None))
    while True:
        sum(range(10_000))


def hung_train(config, on_progress, stop):
    """Hangs without computing (a deadlock): only the wall-clock backstop can stop it."""
    on_progress(Progress(1, config.steps, 1.0, 1.0, 0.01, None))
    while True:
        pace(0.05)


def text_pack(result: str) -> bytes:
    return result.encode()


def text_unpack(data: bytes) -> str:
    return data.decode()


SLOW = Trainer("slow", slow_train, text_pack, text_unpack)
CRASHING = Trainer("crashing", crashing_train, text_pack, text_unpack)
RUNAWAY = Trainer("runaway", runaway_train, text_pack, text_unpack)
HUNG = Trainer("hung", hung_train, text_pack, text_unpack)


@pytest.fixture(scope="module")
def pool():
    """One process runner for the module (its forkserver starts once), two slots."""
    runner = ProcessRunner(max_running=2, grace=0.3, pool_idle=0.0)  # its pool never stops (the idle test's does)
    runner.start_pool()
    yield runner
    for job in [*runner._running, *runner._queue]:
        runner.cancel(job)
    runner.wait_idle(30)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie until its parent (the forkserver) reaps it: dead for our purposes
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1].startswith("Z")
    except OSError:
        return True


# --- the process backend ----------------------------------------------------------------------------------


def test_a_worker_process_trains_the_same_model_as_in_process(pool):
    """Deterministic across backends: equal state_dicts, losses and held-out scores for the same settings."""
    config = replace(TINY, steps=20, attention="bahdanau", tf_ratio=0.5, seed=101)
    job = pool.submit(config)
    assert job.wait(120)
    snap = pool.snapshot(job)
    assert snap.state == DONE and snap.error is None, snap
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # the worker's thread count (the server's too)
    try:
        local = Runner(max_running=1)
        here = local.submit(config)
        assert here.wait(120)
    finally:
        torch.set_num_threads(before)
    a, b = snap.result, local.snapshot(here).result
    assert a.run.losses == b.run.losses == snap.losses
    assert [replace(e, seconds=0) for e in a.run.evals] == [replace(e, seconds=0) for e in b.run.evals]
    sa, sb = a.run.model.state_dict(), b.run.model.state_dict()
    assert sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)
    assert a == a and b.loss_check == a.loss_check


def test_progress_arrives_over_the_pipe_while_the_server_waits(pool):
    job = pool.submit(replace(TINY, steps=40, seed=102), trainer=SLOW)
    seen = []
    while not job.wait(0.05):
        snap = pool.snapshot(job)
        seen.append((snap.state, snap.step, snap.ends_in))
        if snap.state == RUNNING and snap.step > 0 and not job.wait(0):  # the worker has started
            assert job.pid not in (None, os.getpid())
    final = pool.snapshot(job)
    assert final.state == DONE and final.result == "trained seed 102"
    steps = [s for _, s, _ in seen]
    assert steps == sorted(steps) and len(set(steps)) >= 4  # it moved while we watched
    assert [loss for _, loss, _ in final.losses] == [1.0 / s for s in range(1, 41)]
    running = [e for state, s, e in seen if state == RUNNING and s > 5]
    assert running and all(0 <= e <= 5 for e in running)  # an estimate of what is left, in seconds
    assert job.pid is None


def test_checkpoint_maps_arrive_over_the_pipe_while_it_trains(pool):
    """The worker sends each checkpoint map with its progress: a watcher's snapshot holds the latest one before
    the job ends (the page draws it instead of an untrained map), and the last one is the trace's."""
    config = replace(TINY, steps=400, attention="bahdanau", seed=104)
    job = pool.submit(config)
    wait_until(lambda: pool.snapshot(job).checkpoint is not None or job.wait(0), timeout=120)
    live = pool.snapshot(job)
    assert live.state == RUNNING and live.checkpoint.step <= live.step  # a map of the run as it is, mid-run
    assert live.checkpoint.source == tuple("52813907") and live.checkpoint.weights is not None
    assert job.wait(120)
    final = pool.snapshot(job)
    assert final.checkpoint == final.result.trace.maps[-1]


def test_cancel_terminates_the_worker(pool):
    job = pool.submit(replace(TINY, steps=2000, seed=103), trainer=SLOW)
    wait_until(lambda: pool.snapshot(job).step >= 2)
    pid = job.pid
    t0 = time.monotonic()
    pool.cancel(job)
    assert job.wait(10) and time.monotonic() - t0 < 5
    assert pool.snapshot(job).state == CANCELLED
    wait_until(lambda: _gone(pid), 10)


def test_a_killed_worker_fails_clearly_and_the_pool_recovers(pool):
    config = replace(TINY, steps=2000, seed=104)
    job = pool.submit(config, trainer=SLOW)
    wait_until(lambda: pool.snapshot(job).step >= 2)
    os.kill(job.pid, signal.SIGKILL)  # out of memory, a stray signal: the process is gone mid-run
    assert job.wait(10)
    snap = pool.snapshot(job)
    assert snap.state == FAILED and snap.error == CRASHED_KEY and snap.result is None
    nxt = pool.submit(replace(TINY, steps=5, seed=105), trainer=SLOW)  # the next job runs as usual
    assert nxt.wait(30) and pool.snapshot(nxt).state == DONE
    retry = pool.submit(replace(config, steps=3), trainer=SLOW)
    assert retry.wait(30) and pool.snapshot(retry).state == DONE


def test_a_trainer_that_raises_fails_with_the_message(pool):
    job = pool.submit(replace(TINY, seed=106), trainer=CRASHING)
    assert job.wait(30)
    snap = pool.snapshot(job)
    assert snap.state == FAILED and snap.error == FAILED_KEY and snap.step == 1


@pytest.mark.parametrize(
    "trainer, wall_factor, limit",
    [(RUNAWAY, 100.0, "CPU seconds"), (HUNG, 2.0, "wall-clock backstop")],
    ids=["cpu", "wall"],
)
def test_the_hard_cap_stops_a_runaway_or_hung_worker(trainer, wall_factor, limit, caplog):
    """Past its CPU cap (its own time limit + a margin) a worker is killed; a hung one at the wall-clock backstop.

    Read from the job's end, never from its first step: on a loaded machine (a clean-clone .ci/run on 2 cores) the
    hung worker's 7 s backstop fired before step 1 was relayed, and the runaway one, given a fraction of a core, took
    over 30 s of wall time to compute its 3.5 CPU seconds. Each waits as long as its other limit allows, and the log
    says which limit stopped it: the CPU cap can only stop the runaway worker (the hung one computes nothing), and the
    backstop can only stop the hung one within that wait (the runaway one's is 350 s away)."""
    runner = ProcessRunner(max_running=1, cap_margin=0.5, wall_factor=wall_factor, pool_idle=0.0)
    job = runner.submit(replace(TINY, max_seconds=3.0, seed=107), trainer=trainer)
    cap = runner.cap_seconds(job.config, trainer)  # 3.5 CPU seconds
    wait_until(lambda: job.pid is not None or job.wait(0), 60)
    pid = job.pid
    assert job.wait(cap * wall_factor if limit == "CPU seconds" else cap * wall_factor + 60)
    snap = runner.snapshot(job)
    assert snap.state == FAILED and snap.error == OVER_CAP_KEY
    assert any(limit in r.getMessage() and "ran past its" in r.getMessage() for r in caplog.records), caplog.text
    if pid is not None:
        wait_until(lambda: _gone(pid), 10)
    assert runner.submit(replace(TINY, steps=3, seed=108), trainer=SLOW).wait(30)  # and the slot is free again


def test_cancelling_a_queued_job_never_starts_a_process(pool):
    busy = [pool.submit(replace(TINY, steps=2000, seed=s), trainer=SLOW) for s in (111, 112)]
    queued = pool.submit(replace(TINY, steps=2000, seed=113), trainer=SLOW)
    assert pool.snapshot(queued).state == QUEUED
    pool.cancel(queued)
    assert queued.wait(0) and pool.snapshot(queued).state == CANCELLED and queued.pid is None
    for job in busy:
        pool.cancel(job)
    assert pool.wait_idle(30)  # two running workers stop within a step each; 10 s was too short in a loaded .ci/run


# --- the queue: place and estimate ------------------------------------------------------------------------


def test_queued_jobs_know_their_place_and_an_estimate_from_recent_pace():
    runner = Runner(slow_train, max_running=1)
    warm = runner.submit(replace(TINY, steps=10, seed=121))  # measured: about 0.05 s per step
    assert warm.wait(10)
    running = runner.submit(replace(TINY, steps=40, seed=122))
    a = runner.submit(replace(TINY, steps=40, seed=123))
    b = runner.submit(replace(TINY, steps=40, seed=124))
    sa, sb = runner.snapshot(a), runner.snapshot(b)
    assert (sa.state, sa.ahead, sb.ahead) == (QUEUED, 0, 1)
    assert 1.0 <= sa.starts_in <= 4.0  # the running job's 40 steps at ~0.05 s
    assert sb.starts_in == pytest.approx(sa.ends_in, abs=0.1) and sb.starts_in > sa.starts_in + 1.0
    assert sa.slots == 1
    runner.cancel(a)
    assert runner.snapshot(b).ahead == 0 and runner.snapshot(b).starts_in < sb.starts_in
    runner.cancel(b)
    runner.cancel(running)
    assert runner.wait_idle(10)


def test_a_full_queue_refuses_a_new_training_with_the_wait_and_serves_what_is_trained(monkeypatch):
    """Shedding: behind queue_cap waiting trainings the next one is refused (QueueFull: how many wait, the cap, and
    when the queue's head starts), nothing queued; the same settings as a waiting one join it; settings already
    trained, a pinned default and a place freed by a cancel are served."""
    runner = Runner(slow_train, max_running=1, cap=2)
    done = runner.submit(replace(TINY, steps=10, seed=141))
    assert done.wait(10)
    running = runner.submit(replace(TINY, steps=60, seed=142))
    waiting = [runner.submit(replace(TINY, steps=40, seed=s)) for s in (143, 144)]
    with pytest.raises(jobs.QueueFull) as refused:
        runner.submit(replace(TINY, steps=40, seed=145))
    full = refused.value
    assert (full.waiting, full.cap) == (2, 2)
    assert full.wait == pytest.approx(runner.snapshot(waiting[0]).starts_in, abs=0.5) and full.wait > 0.5
    assert replace(TINY, steps=40, seed=145) not in runner._live and len(runner._queue) == 2  # nothing queued
    with pytest.raises(jobs.QueueFull):  # a retrain of trained settings waits like any other run
        runner.submit(replace(TINY, steps=10, seed=141), again=True)
    assert runner.submit(replace(TINY, steps=40, seed=143)) is waiting[0]  # joining a waiting job takes no place
    assert runner.submit(replace(TINY, steps=10, seed=141)) is done  # trained already: served
    pinned = runner.submit(replace(TINY, steps=40, seed=146), pin=True)  # a default model is never refused
    assert runner.snapshot(pinned).state == QUEUED and len(runner._queue) == 3
    runner.cancel(pinned)
    runner.cancel(waiting[1])  # a place frees: the next visitor is queued
    queued = runner.submit(replace(TINY, steps=40, seed=145))
    assert runner.snapshot(queued).ahead == 1
    for job in (running, waiting[0], queued):
        runner.cancel(job)
    assert runner.wait_idle(10)


def test_the_queue_cap_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(settings.QUEUE_CAP_ENV, raising=False)
    assert settings.queue_cap() == settings.QUEUE_CAP == Runner(slow_train).queue_cap
    for raw, cap in (("3", 3), ("0", 1), ("100000", 1000), ("lots", settings.QUEUE_CAP), ("", settings.QUEUE_CAP)):
        monkeypatch.setenv(settings.QUEUE_CAP_ENV, raw)
        assert settings.queue_cap() == cap and Runner(slow_train).queue_cap == cap


# --- a visitor who leaves ---------------------------------------------------------------------------------


def test_a_job_nobody_watches_any_more_is_cancelled_after_the_grace(monkeypatch):
    runner = Runner(slow_train, max_running=1, grace=0.3)
    running = runner.submit(replace(TINY, steps=2000, seed=131))
    queued = runner.submit(replace(TINY, steps=2000, seed=132))
    shared = runner.submit(replace(TINY, steps=2000, seed=133))
    runner.hold(running, "ann")
    runner.hold(queued, "ann")
    runner.hold(shared, "ann")
    runner.hold(shared, "bob")  # the same settings from another visitor: one job, two watchers
    assert runner.snapshot(shared).watchers == 2
    runner.release("ann")  # Ann closed her tab
    assert running.wait(5) and queued.wait(5)
    assert runner.snapshot(running).state == CANCELLED and runner.snapshot(queued).state == CANCELLED
    assert runner.snapshot(shared).state in (QUEUED, RUNNING)  # Bob still watches
    timers = []  # from here the test says when the grace has passed
    monkeypatch.setattr(runner, "_after", lambda seconds, fn, *args: timers.append((seconds, fn, args)))
    runner.release("bob")
    runner.hold(shared, "bob")  # ...and comes back within the grace (a reload)
    assert [seconds for seconds, _, _ in timers] == [runner.grace]
    for _, fn, args in timers:
        fn(*args)  # the grace has passed: the reaper finds Bob holding the job again
    assert runner.snapshot(shared).state in (QUEUED, RUNNING)
    runner.cancel(shared)
    assert runner.wait_idle(10)


# --- warm defaults, the backend switch ----------------------------------------------------------------------


def test_warm_defaults_are_trained_pinned_and_kept(monkeypatch):
    runner = Runner(slow_train, max_running=1, cache_size=1, grace=0.1)
    warm_config = replace(TINY, steps=5, seed=141)
    monkeypatch.setattr(jobs, "_RUNNER", runner)
    monkeypatch.setattr(jobs, "WARM", ((SLOW, warm_config),))
    monkeypatch.setenv(settings.WARM_ENV, "0")
    assert jobs.warm_defaults() == []
    monkeypatch.setenv(settings.WARM_ENV, "1")
    (job,) = jobs.warm_defaults()
    runner.hold(job, "visitor")
    runner.release("visitor")  # a visitor watched the warm job and left: it trains on regardless
    assert job.wait(10) and runner.snapshot(job).state == DONE
    for seed in (142, 143, 144):  # a busy class: more finished settings than the cache keeps
        assert runner.submit(replace(TINY, steps=2, seed=seed)).wait(10)
    assert runner.find(warm_config) is job  # the default model is never evicted
    assert runner.find(replace(TINY, steps=2, seed=142)) is None


def test_choosing_the_backend(monkeypatch):
    """Explicit configuration only: unset (or unknown) is what a server runs, worker processes, whatever the
    process imported (pytest here); this directory's tests ask for inprocess themselves (tests/core/conftest.py)."""
    assert settings.default_backend() == "inprocess"  # this test's own fixture says so
    monkeypatch.delenv(settings.BACKEND_ENV)
    assert "pytest" in sys.modules and settings.default_backend() == "process"
    monkeypatch.setenv(settings.BACKEND_ENV, "inprocess")
    assert settings.default_backend() == "inprocess"
    monkeypatch.setenv(settings.BACKEND_ENV, "nonsense")
    assert settings.default_backend() == "process"
    monkeypatch.delenv(settings.WARM_ENV, raising=False)
    assert settings.warm_enabled("process") and not settings.warm_enabled("inprocess")
    assert Runner.backend == "inprocess" and ProcessRunner.backend == "process"


def test_the_servers_runner_is_made_with_the_backend_named_when_it_starts(monkeypatch):
    monkeypatch.setattr(jobs, "_RUNNER", None)
    monkeypatch.setenv(settings.BACKEND_ENV, "process")
    monkeypatch.setenv(settings.POOL_IDLE_ENV, "0")
    first = jobs.runner()
    assert isinstance(first, ProcessRunner) and jobs.runner() is first
    monkeypatch.setenv(settings.BACKEND_ENV, "inprocess")
    assert jobs.runner() is first  # read once, when the runner starts
    monkeypatch.setattr(jobs, "_RUNNER", None)
    assert type(jobs.runner()) is Runner


def test_a_bare_train_function_still_works():
    assert train is trainer.LAB.train
    bare = trainer.as_trainer(slow_train)
    assert bare.train is slow_train and bare.pack is trainer.pack
    assert trainer.as_trainer(None) is trainer.LAB and trainer.as_trainer(SLOW) is SLOW


def test_a_worker_never_runs_the_servers_main_script(pool, tmp_path, monkeypatch):
    """Under `streamlit run`, __main__ is the app's script while a page runs; multiprocessing would run it again in
    every worker (the whole app inside a worker). The forkserver's workers skip it."""
    import types

    script = tmp_path / "app_like.py"
    script.write_text('raise SystemExit("a worker ran the server\'s main script")\n')
    fake = types.ModuleType("__main__")
    fake.__file__ = str(script)
    fake.__spec__ = None
    monkeypatch.setitem(sys.modules, "__main__", fake)
    job = pool.submit(replace(TINY, steps=3, seed=151), trainer=SLOW)
    assert job.wait(30)
    assert pool.snapshot(job).state == DONE


def test_training_processes_run_at_a_guests_priority_once():
    """The forkserver lowers itself before importing torch (preload.py), its workers are already there: calling
    be_a_guest again leaves them at NICE, not lower (os.nice adds)."""
    import subprocess

    from s2s_jobs.guest import NICE

    code = "import os; from s2s_jobs.guest import be_a_guest; be_a_guest(); be_a_guest(); print(os.nice(0))"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert int(out.stdout) == max(NICE, os.nice(0))


def test_a_process_that_exits_while_the_servers_runner_trains_exits_cleanly():
    """The server's runner stops its jobs when the process exits. An in-process training thread (a daemon) used to
    be left inside torch while the interpreter finalised, and the process aborted (exit code 134): a test process
    whose last AppTest had pressed Train died that way after every test had passed."""
    import subprocess

    code = (
        "import os\n"
        "os.environ['S2S_TRAIN_BACKEND'] = 'inprocess'\n"
        "from s2s_core.training import TrainConfig\n"
        "from s2s_jobs import jobs\n"
        "from tests.waiting import wait_until\n"
        "job = jobs.submit(TrainConfig(steps=3000, max_seconds=60.0, seed=191))\n"
        "wait_until(lambda: jobs.snapshot(job).step >= 2, timeout=60)\n"
        "print('exiting while it trains')\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert (out.returncode, out.stdout.strip()) == (0, "exiting while it trains"), out.stderr[-2000:]


def test_the_forkserver_lowers_itself_before_it_imports_torch():
    """The forkserver imports s2s_jobs.preload, and importing a module runs its packages' __init__ first: s2s_jobs's
    imports nothing, so the guest's priority is set before torch loads (under s2s_core.training, whose __init__
    imports torch, the forkserver used to load torch at the server's own priority)."""
    import subprocess

    from s2s_jobs.guest import NICE

    code = (
        "import os, sys\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'torch':\n"
        "            print(os.nice(0)); sys.meta_path.remove(self)\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import s2s_jobs.preload\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.split() == [str(max(NICE, os.nice(0)))]


# --- the pool stops when idle and comes back --------------------------------------------------------------------


def test_an_idle_pool_stops_and_comes_back_for_the_next_job_or_a_wake(monkeypatch):
    """After pool_idle seconds with nothing queued or running, the forkserver (torch loaded, ~260 MB) stops; the
    next job starts it again by itself, and so does wake() (a page that shows a Train button). An idle timer set
    before newer activity does nothing. This test says when the idle time has passed (the _after seam)."""
    from multiprocessing import forkserver

    runner = ProcessRunner(max_running=1, pool_idle=60.0)
    timers: list = []
    monkeypatch.setattr(runner, "_after", lambda seconds, fn, *args: timers.append((seconds, fn, args)))

    def run_one(seed: int) -> None:
        before = len(timers)
        job = runner.submit(replace(TINY, steps=2, seed=seed), trainer=SLOW)
        assert job.wait(120) and runner.snapshot(job).state == DONE
        wait_until(lambda: len(timers) > before, timeout=10)  # its end set an idle timer

    def fire(timer) -> None:
        seconds, fn, args = timer
        assert seconds == 60.0
        fn(*args)

    run_one(171)
    assert pool_running()
    stale = timers[-1]
    run_one(172)  # activity after the first timer was set
    first_pid = forkserver._forkserver._forkserver_pid
    fire(stale)
    assert pool_running() and forkserver._forkserver._forkserver_pid == first_pid  # stale: nothing stopped
    fire(timers[-1])
    assert not pool_running()
    wait_until(lambda: _gone(first_pid), timeout=10)

    run_one(173)  # the next job brings the forkserver back by itself
    assert pool_running() and forkserver._forkserver._forkserver_pid != first_pid
    fire(timers[-1])
    assert not pool_running()

    count = len(timers)
    runner.wake()  # a Train button on a page: the pool starts in the background, before the click
    wait_until(lambda: len(timers) > count, timeout=60)  # started, and set its own idle timer...
    assert pool_running()
    woken = timers[-1]
    runner.wake()  # a second visitor at once: the timer just set stands
    assert timers[-1] is woken
    runner._idle_since -= 3600  # ...but one who comes late in the idle period gets a fresh one
    runner.wake()
    assert timers[-1] is not woken
    fire(woken)  # stale
    assert pool_running()

    other = ProcessRunner(max_running=1, pool_idle=0.0)  # another runner of this process has a worker running
    busy = other.submit(replace(TINY, steps=2000, seed=175), trainer=SLOW)
    wait_until(lambda: other.snapshot(busy).step > 0, timeout=120)
    fire(timers[-1])  # this runner is idle, but the forkserver is shared: it stays
    assert pool_running()
    other.cancel(busy)
    assert busy.wait(30)
    fire(timers[-1])  # the same timer, now that no worker runs: a pool nobody uses stops again
    assert not pool_running()

    never = ProcessRunner(max_running=1, pool_idle=0.0)  # S2S_POOL_IDLE=0: the pool never stops
    monkeypatch.setattr(never, "_after", lambda seconds, fn, *args: timers.append((seconds, fn, args)))
    count = len(timers)
    job = never.submit(replace(TINY, steps=2, seed=174), trainer=SLOW)
    assert job.wait(120) and never.snapshot(job).state == DONE
    assert len(timers) == count and pool_running()


def test_the_pool_idle_time_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(settings.POOL_IDLE_ENV, "5")
    assert ProcessRunner(max_running=1).pool_idle == 5.0
    monkeypatch.setenv(settings.POOL_IDLE_ENV, "nonsense")
    assert ProcessRunner(max_running=1).pool_idle == settings.POOL_IDLE_SECONDS
    monkeypatch.delenv(settings.POOL_IDLE_ENV)
    assert ProcessRunner(max_running=1).pool_idle == settings.POOL_IDLE_SECONDS
    assert Runner(max_running=1).wake() is None  # in-process: nothing to wake
