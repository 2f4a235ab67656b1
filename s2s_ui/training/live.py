"""A shared trained model on the page: the Train button, the queue, live progress, and the finished job.

Training runs in a job (s2s_core/training/jobs.py), never in the page's own run: the page submits the job, and a
fragment polls its snapshot every POLL_SECONDS to draw the progress bar and the curves so far. When the job has
ended, the whole page reruns once and draws the result (or says why there is none).
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fmt import num
from s2s_core.training import TrainConfig
from s2s_core.training import jobs
from s2s_core.training.jobs import CANCELLED, DONE, FAILED, QUEUED, JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.training.specs import chart_labels, curve_specs, draw

# How often a watching page redraws the progress. Each redraw is work for the server's Python, which the
# training thread shares (one GIL): measured here under load, the default run took 5.4-7.7 s polled every 0.5 s
# and 3.9-4.7 s polled every 1 s (the old in-page trainer: 5.4-10.1 s). Worker processes (issue 13) end this.
POLL_SECONDS = 1.0
STOP_WAIT_SECONDS = 5.0  # at most this long for a stopped job to end (one training step, normally)
MINE = "_training_my_jobs"  # session key: ids of the jobs this session started (the others are "busy")


def trained_model(config: TrainConfig, key: str, label: str, pending: str) -> JobSnapshot | None:
    """The finished job for config (its snapshot holds the result); until then the Train button, or the
    live progress of the job that is training it (this visitor's or another's)."""
    job = jobs.find(config)
    snap = jobs.snapshot(job) if job is not None else None
    if snap is not None and snap.state == DONE:
        return snap
    if snap is None or snap.ended:
        if snap is not None and snap.state == FAILED:
            st.error(t(snap.error or jobs.FAILED_KEY), icon=":material/error:")
        elif snap is not None and snap.state == CANCELLED:
            st.info(t("training.cancelled", step=snap.step, total=snap.total), icon=":material/stop_circle:")
        holder = st.empty()
        with holder.container():
            st.info(pending, icon=":material/model_training:")
            clicked = st.button(label, key=key, type="primary", help=t("training.train_help"),
                                icon=":material/play_arrow:")
        if not clicked:
            return None
        holder.empty()  # the prompt and the button give way to the progress bar
        start(config)
    watch(config, key)
    return None


def start(config: TrainConfig, *, again: bool = False) -> None:
    """Submit (or join) the job for config and remember that this session asked for it."""
    job = jobs.submit(config, again=again)
    st.session_state.setdefault(MINE, set()).add(job.id)


@st.fragment(run_every=POLL_SECONDS)
def watch(config: TrainConfig, key: str) -> None:
    """Progress of the live job for config, redrawn on a timer; the whole page reruns once it has ended."""
    job = jobs.find(config)
    snap = jobs.snapshot(job) if job is not None else None
    if snap is None or snap.ended:
        st.rerun(scope="app")
    mine = snap.job_id in st.session_state.get(MINE, set())
    if not mine:
        st.info(t("training.busy"), icon=":material/hourglass_top:")
    if snap.state == QUEUED:
        st.progress(0.0, text=t("training.queued", ahead=snap.ahead + 1))
    else:
        loss = num(snap.losses[-1][1]) if snap.losses else "–"
        st.progress(snap.step / max(1, snap.total), text=t("training.progress", step=snap.step, total=snap.total,
                                                           loss=loss, seconds=f"{snap.seconds:.1f}"))
    if snap.losses:
        specs = curve_specs(snap.losses, snap.evals, chart_labels())
        left, right = st.columns(2)
        draw(left, specs["loss"])
        if "accuracy" in specs:
            draw(right, specs["accuracy"])
    if mine and st.button(t("training.cancel"), key=f"{key}_cancel", icon=":material/stop:"):
        jobs.cancel(job)
        job.wait(STOP_WAIT_SECONDS)  # the loop stops before its next step: then the page can say so
        st.rerun(scope="app")
