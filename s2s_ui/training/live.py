"""A shared trained model on the page: the Train button, the queue, live progress, and the finished job.

Training runs in a job (s2s_jobs/jobs.py), never in the page's own run: on a real server in a worker
process, so the page's Python is never busy training. The page submits the job, and a fragment polls its snapshot
every POLL_SECONDS to draw the progress bar, the curves so far, or the place in the queue with an estimate. When
the job has ended, the whole page reruns once and draws the result (or says why there is none).

A finished run can be watched again ("watch it train"): its trace (s2s_core/training/trace.py) holds when each step
ended and the map at every checkpoint, so the same fragment replays it at its real pace, one frame per poll, with no
new job and nothing that blocks the server; a fresh run only comes with new settings.

Each browser session is a `visitor` (a session-scoped resource): polling a job holds it, and when the session
disconnects (the tab is closed) Streamlit releases the resource, which tells the runner; a job nobody holds any
more is cancelled after a short grace, so a visitor who left frees their place in the queue.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from s2s_core.fmt import num, seconds, seconds_text
from s2s_core.training import TrainConfig
from s2s_core.training.trace import MapPoint, replay_clock, replay_frame
from s2s_jobs import jobs
from s2s_jobs.jobs import CANCELLED, DONE, FAILED, QUEUED, JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.training.specs import chart_labels, curve_specs, draw
from s2s_ui.widgets import revealed

# How often a watching page redraws the progress. Each redraw is a little work for the server's Python; the
# training itself runs in a worker process (s2s_jobs/process.py), so polling no longer slows it down.
POLL_SECONDS = 1.0
STOP_WAIT_SECONDS = 5.0  # at most this long for a stopped job to end (a worker is terminated at once)
MINE = "_training_my_jobs"  # session key: ids of the jobs this session started (the others are "busy")
QUIZ = "training_quiz"  # the page's question (sections.show_quiz): its answer is on the accuracy curves
REPLAY = "_training_replay"  # session key: (config, monotonic start) of the recorded run this session replays
Moment = Callable[[MapPoint, int, int], None]  # draws a checkpoint map: (point, its step, the run's steps)


@dataclass(frozen=True)
class Visitor:
    """One browser session, as the training jobs know it."""

    id: str


def _left(visitor: Visitor) -> None:
    """The session disconnected: the jobs it watched lose a watcher (cancelled after the grace if none is left)."""
    jobs.release(visitor.id)


@st.cache_resource(scope="session", on_release=_left, show_spinner=False)
def visitor() -> Visitor:
    return Visitor(uuid.uuid4().hex)


def trained_model(
    config: TrainConfig,
    key: str,
    label: str,
    pending: str,
    before: Callable[[], None] | None = None,
    moment: Moment | None = None,
    trainer: jobs.Trainer | None = None,
) -> JobSnapshot | None:
    """The finished job for config (its snapshot holds the result); until then the Train button (and `before`:
    the untrained picture), or the live progress of the job that is training it (this visitor's or another's),
    or the replay of its recorded run that this visitor asked for. moment(point, step, total) draws a checkpoint
    map: while the run trains, its latest checkpoint's map stands beside the curves, instead of the untrained
    picture (which stays only while the job waits in the queue, before its first checkpoint arrives). trainer: the
    job's Trainer when it is not the Training lab's (the Translation lab on a learner's own sentences)."""
    job = jobs.find(config)
    snap = jobs.snapshot(job) if job is not None else None
    if snap is not None and snap.state == DONE:
        if not replaying(config):
            return snap
        watch(config, key, moment)
        return None
    if snap is None or snap.ended:
        jobs.wake()  # a Train button is about to show: a pool stopped for being idle starts now, not on the click
        holder = st.empty()
        with holder.container():
            notice = st.empty()  # a refused start says so here, above the button
            if snap is not None and snap.state == FAILED:
                st.error(t(snap.error or jobs.FAILED_KEY), icon=":material/error:")
            elif snap is not None and snap.state == CANCELLED:
                message = (
                    t("training.cancelled", step=snap.step, total=snap.total)
                    if snap.step
                    else t("training.cancelled_before")
                )
                st.info(message, icon=":material/stop_circle:")
            st.info(pending, icon=":material/model_training:")
            clicked = st.button(
                label, key=key, type="primary", help=t("training.train_help"), icon=":material/play_arrow:"
            )
            if before is not None and not clicked:
                before()
        if not clicked:
            return None
        try:
            start(config, trainer=trainer)
        except jobs.QueueFull as full:  # told the wait, the button kept: nothing was queued
            notice.warning(queue_full_text(full), icon=":material/hourglass_disabled:")
            return None
        holder.empty()  # the last run's outcome, the prompt and the button give way to the progress bar
        job = jobs.find(config)
        snap = jobs.snapshot(job) if job is not None else None
    # Queued, or training before its first checkpoint arrived (also a warm-up a first visitor finds running): the
    # untrained picture stays under the progress, so the picture area is never empty; the fragment asks for one
    # full rerun when the first checkpoint map arrives, which then stands in its place.
    waiting = (
        before is not None and not replaying(config) and (moment is None or snap is None or snap.checkpoint is None)
    )
    watch(config, key, moment, waiting and moment is not None)
    if waiting:
        before()
    return None


def start(config: TrainConfig, *, again: bool = False, trainer: jobs.Trainer | None = None) -> None:
    """Submit (or join) the job for config and remember that this session asked for it. Raises jobs.QueueFull
    when the server's queue is full (nothing queued): the caller shows queue_full_text."""
    job = jobs.submit(config, again=again, trainer=trainer)
    jobs.hold(job, visitor().id)
    st.session_state.setdefault(MINE, set()).add(job.id)


def queue_full_text(full: jobs.QueueFull) -> str:
    """The refusal a visitor reads instead of a place in a queue too long to sit out: how many wait, the cap, and
    when a place frees (the queue's head starts then)."""
    return t("training.queue_full", waiting=full.waiting, cap=full.cap, wait=seconds_text(full.wait))


def replay(config: TrainConfig) -> None:
    """Watch the finished run for config again from its start (the fragment below draws it)."""
    st.session_state[REPLAY] = (config, time.monotonic())


def replaying(config: TrainConfig) -> bool:
    return st.session_state.get(REPLAY, (None,))[0] == config


def progress_bar(step: int, total: int, elapsed: float, losses, ends_in: float | None) -> None:
    """The live (or replayed) progress: steps, the latest loss, the training time, what is left."""
    loss = num(losses[-1][1]) if losses else "–"
    text = t("training.progress", step=step, total=total, loss=loss, seconds=seconds(elapsed))
    if ends_in is not None and step < total:
        text += " · " + t("training.time_left", left=seconds_text(ends_in))
    st.progress(step / max(1, total), text=text)


def curves(losses, evals, labels: dict[str, str] | None = None) -> None:
    if losses:
        specs = curve_specs(losses, evals, labels or chart_labels())
        draw(st, specs["loss"])
        # The held-out accuracy curves answer the page's question (teacher-forced vs free-running): not before.
        if "accuracy" in specs and revealed(QUIZ):
            draw(st, specs["accuracy"])


def show_moment(point: MapPoint | None, total: int, losses, evals, moment: Moment | None) -> None:
    """A run as it is (live) or was (a replay's frame): its latest checkpoint map, and beside it (below it on a
    phone) the curves so far, under a short title that fits half the picture's width."""
    labels = chart_labels() | {"loss_title": t("training.replay_loss_title")}
    if point is None or moment is None:
        curves(losses, evals, labels)
        return
    map_col, curve_col = st.columns(2)
    with map_col:
        moment(point, point.step, total)
    with curve_col:
        curves(losses, evals, labels)


def show_replay(config: TrainConfig, snap: JobSnapshot, key: str, moment: Moment | None) -> None:
    """One frame of the recorded run: what the live run showed this many seconds after it started."""
    result = snap.result
    started = st.session_state[REPLAY][1]
    frame = replay_frame(result.run, result.trace, config.steps, replay_clock(result.trace, time.monotonic() - started))
    if frame.ended:
        st.session_state.pop(REPLAY, None)
        st.rerun(scope="app")
    st.info(t("training.replay_note"), icon=":material/replay:")
    left = max(0.0, result.trace.times[-1] - frame.seconds)
    progress_bar(frame.step, frame.total, frame.seconds, frame.losses, left)
    show_moment(frame.map, frame.total, frame.losses, frame.evals, moment)
    if st.button(t("training.replay_stop"), key=f"{key}_replay_stop", icon=":material/stop:"):
        st.session_state.pop(REPLAY, None)
        st.rerun(scope="app")


@st.fragment(run_every=POLL_SECONDS)
def watch(config: TrainConfig, key: str, moment: Moment | None = None, untrained_below: bool = False) -> None:
    """Progress of the live job for config (or the replay of its recorded run), redrawn on a timer: the latest
    checkpoint map beside the curves so far. The whole page reruns once the job has ended, and once when the
    first checkpoint arrives while the untrained picture is drawn below (untrained_below), which it replaces."""
    job = jobs.find(config)
    snap = jobs.snapshot(job) if job is not None else None
    if snap is not None and snap.state == DONE and replaying(config) and snap.result.trace is not None:
        show_replay(config, snap, key, moment)
        return
    if snap is None or snap.ended:
        st.session_state.pop(REPLAY, None)
        st.rerun(scope="app")
    if untrained_below and snap.checkpoint is not None:
        st.rerun(scope="app")
    jobs.hold(job, visitor().id)  # still here: the job keeps its watcher
    mine = snap.job_id in st.session_state.get(MINE, set())
    if snap.remote:  # another replica of the deployment trains it: this server shows its row's progress
        st.info(t("training.remote"), icon=":material/dns:")
    elif snap.warm or not mine:
        st.info(t("training.warming" if snap.warm else "training.busy"), icon=":material/hourglass_top:")
    if snap.state == QUEUED and snap.remote:
        st.progress(0.0, text=t("training.remote_queued"))
    elif snap.state == QUEUED:
        st.progress(0.0, text=t("training.queued", place=snap.ahead + 1, wait=seconds_text(snap.starts_in)))
        st.caption(t("training.queue_note", slots=snap.slots))
    else:
        progress_bar(snap.step, snap.total, snap.seconds, snap.losses, snap.ends_in)
    show_moment(snap.checkpoint, snap.total, snap.losses, snap.evals, moment)
    if snap.warm or snap.remote or not mine:  # the server's default, or another replica's run: nobody stops it here
        return
    queued = snap.state == QUEUED
    if st.button(
        t("training.leave_queue" if queued else "training.cancel"),
        key=f"{key}_cancel",
        icon=":material/close:" if queued else ":material/stop:",
    ):
        jobs.cancel(job)
        job.wait(STOP_WAIT_SECONDS)  # a queued job leaves at once; a running one stops within a step
        st.rerun(scope="app")
