"""RNN vs LSTM vs GRU under the same conditions: one button submits the three jobs (same data, seed, sizes, steps
and time limit; only the cell differs), a fragment follows them, and once all three are done their curves, held-out
exact match and parameter counts are drawn side by side."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from s2s_core.catalog import words
from s2s_core.fmt import pct, seconds
from s2s_core.training import TrainConfig
from s2s_core.translation.charts import CELLS_LABELS
from s2s_core.translation.lab import cells_outcome, comparison_configs, cut_cells
from s2s_jobs import jobs
from s2s_jobs.jobs import DONE, JobSnapshot
from s2s_ui.i18n import lang, t
from s2s_ui.training.live import POLL_SECONDS, queue_full_text, start, visitor
from s2s_ui.training.specs import draw
from s2s_ui.translation.specs import cells_specs


def _snapshots(configs: tuple[TrainConfig, ...]) -> list[JobSnapshot | None]:
    found = [jobs.find(c) for c in configs]
    return [jobs.snapshot(job) if job is not None else None for job in found]


def show_cells(config: TrainConfig) -> None:
    """The comparison for the page's settings (the page's own cell is one of the three, usually trained already)."""
    st.subheader(t("translation.cells_heading"))
    st.caption(t("translation.cells_intro"))
    configs = comparison_configs(config)
    snaps = _snapshots(configs)
    if all(s is not None and s.state == DONE for s in snaps):
        show_results(configs, snaps)
        return
    if any(s is not None and not s.ended for s in snaps):
        watch_cells(configs)
        return
    missing = [t(f"translation.cell_{c.cell}") for c, s in zip(configs, snaps, strict=True) if s is None or s.ended]
    st.info(t("translation.cells_pending", cells=", ".join(missing)), icon=":material/model_training:")
    jobs.wake()  # a Train button is about to show: a pool stopped for being idle starts now, not on the click
    if st.button(t("translation.cells_button"), key="translation_cells", type="primary", icon=":material/play_arrow:"):
        try:
            for c, s in zip(configs, snaps, strict=True):
                if s is None or s.state != DONE:
                    start(c, again=s is not None)
        except jobs.QueueFull as full:  # the cells started so far train; the rest wait for a place
            st.warning(queue_full_text(full), icon=":material/hourglass_disabled:")
            return
        st.rerun()


@st.fragment(run_every=POLL_SECONDS)
def watch_cells(configs: tuple[TrainConfig, ...]) -> None:
    """One progress bar per cell, redrawn on a timer; the page reruns once all three have ended."""
    snaps = _snapshots(configs)
    if all(s is None or s.ended for s in snaps):
        st.rerun(scope="app")
    for c, s in zip(configs, snaps, strict=True):
        name = t(f"translation.cell_{c.cell}")
        if s is None or s.ended:
            st.caption(t("translation.cells_ended", cell=name))
            continue
        job = jobs.find(c)
        if job is not None:
            jobs.hold(job, visitor().id)  # still watched: the job keeps its place
        st.progress(
            s.step / max(1, s.total), text=t("translation.cells_progress", cell=name, step=s.step, total=s.total)
        )


def show_results(configs: tuple[TrainConfig, ...], snaps: list[JobSnapshot | None]) -> None:
    """The three runs side by side: a table (parameters, held-out exact match, time), then the curves."""
    names = tuple(t(f"translation.cell_{c.cell}") for c in configs)
    runs = [s.result.run for s in snaps]
    rows = [
        {
            t("translation.col_cell"): name,
            t("translation.col_params"): f"{run.n_params:,}",
            t("translation.col_exact"): pct(s.result.final.free_exact),
            t("translation.col_tokens"): pct(s.result.final.free_token_acc),
            t("translation.col_steps"): run.steps_done,
            t("translation.col_seconds"): seconds(run.seconds),
        }
        for name, run, s in zip(names, runs, snaps, strict=True)
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    cut = ", ".join(t(f"translation.cell_{c}") for c in cut_cells(configs, tuple(runs)))
    st.markdown(t(f"translation.{cells_outcome(tuple(runs))}", steps=runs[0].steps_done, cells=cut))
    labels = words(lang(), "translation.chart", CELLS_LABELS)
    specs = cells_specs(tuple(s.job_id for s in snaps), names, labels, tuple(runs))
    st.caption(t("translation.cells_key", a=names[0], b=names[1], c=names[2]))
    draw(st, specs["exact"])
    draw(st, specs["loss"])
    st.caption(t("translation.cells_note"))
