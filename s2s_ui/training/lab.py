"""The Training lab's picture column: the source box, then the untrained model's map with the Train button, the
live progress of the job that trains it (its latest checkpoint's map beside the curves), or the trained model's map
(with "watch it train" and a retry). A bad source keeps the last good source's map, faded (s2s_ui/kept.py)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num
from s2s_core.training import SourceInput, TrainConfig, TrainResult
from s2s_core.training.notes import checkpoint_keys, cut_short, untrained_keys, untrained_reading
from s2s_core.training.trace import MapPoint
from s2s_jobs import jobs
from s2s_jobs.jobs import JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.kept import kept_picture
from s2s_ui.state import Page
from s2s_ui.training.live import queue_full_text, replay, seconds, start, trained_model
from s2s_ui.training.picture import show_point, shown
from s2s_ui.training.settings import read_source
from s2s_ui.training.specs import trained_point, untrained
from s2s_ui.widgets import show_error


@dataclass(frozen=True)
class Lab:
    """What the picture column found: the finished job for the settings (None until trained) and the typed source."""

    done: JobSnapshot | None
    source: Parsed[SourceInput]


def show_lab(page: Page, config: TrainConfig) -> Lab:
    """The source box at the top, then the picture for the state of the settings' job (s2s_ui/training/live.py)."""
    source = read_source(page, config)
    done = trained_model(
        config,
        "training_train",
        t("training.train"),
        t("training.press_train", steps=config.steps, seconds=num(config.max_seconds)),
        before=lambda: kept_picture(page, source.need, lambda s: show_untrained(config, s)),
        moment=lambda point, step, total: show_checkpoint(config, source, point, step, total),
    )
    if done is not None:
        show_trained(page, done, source)
    elif not source.ok and jobs_live(config):  # training: the map is the run's own; the typed source waits
        show_error(source.error)
    return Lab(done, source)


def jobs_live(config: TrainConfig) -> bool:
    """A job for config is queued or training now (its picture is the progress, not the typed source's map)."""
    job = jobs.find(config)
    snap = jobs.snapshot(job) if job is not None else None
    return snap is not None and not snap.ended


def show_checkpoint(config: TrainConfig, source: Parsed[SourceInput], point: MapPoint, step: int, total: int) -> None:
    """While the run trains (or replays): its latest checkpoint's map, titled by its step, with its output; a note
    when it decodes the run's checkpoint source rather than the one typed above it."""
    keys = checkpoint_keys(point, source.value if source.ok else None)
    show_point(point, config, t(keys["title"], step=step, total=total), side=False)
    if keys["note"] is not None:
        st.caption(t(keys["note"], source=shown(config.task, point.source)))


def show_untrained(config: TrainConfig, source: SourceInput) -> None:
    """Before any training: the learner's source through the seeded, untrained model (the picture training
    will change: near-uniform weights, a wrong output)."""
    point = untrained(config, source)
    reading = untrained_reading(point)  # the title and the note say what this untrained map shows
    keys = untrained_keys(reading)
    show_point(point, config, t(keys["title"]))
    weights = t(keys["weights"], largest=num(reading.largest), uniform=num(reading.uniform))
    st.caption(t("training.untrained_note", output=t(keys["output"]), weights=weights))


def show_trained(page: Page, done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """The main picture once trained: the trained model's map of the learner's source, its output beside it (a bad
    source keeps the last good one's map, faded); what was trained, "watch it train" (the recorded run replayed),
    and a retry after a timeout."""
    result = done.result
    run = result.run
    title = (
        t("training.trained_map_title_cut", steps=run.steps_done, total=result.config.steps)
        if cut_short(run)
        else t("training.trained_map_title")
    )
    kept_picture(page, source.need, lambda s: show_point(trained_point(done.job_id, s, result), result.config, title))
    st.caption(
        t(
            "training.trained_line",
            steps=run.steps_done,
            seconds=seconds(run.seconds),
            params=f"{run.n_params:,}",
            n=run.n_heldout,
        )
    )
    replay_and_retry(result)


def replay_and_retry(result: TrainResult, ns: str = "training") -> None:
    """Under a trained picture: "watch it train" (the recorded run replayed), and a retry after a run cut by the
    clock. ns names the buttons' keys (<ns>_replay, <ns>_again): the Translation lab draws them too."""
    config, run = result.config, result.run
    if result.trace is not None and st.button(
        t("training.replay_button"), key=f"{ns}_replay", icon=":material/replay:", help=t("training.replay_help")
    ):
        replay(config)
        st.rerun()
    if cut_short(run):
        st.warning(
            t(f"{ns}.stopped_time", seconds=num(config.max_seconds), steps=run.steps_done, total=config.steps),
            icon=":material/timer:",
        )
        # A run cut by the clock is the one result that depends on the machine's load: allow another try.
        jobs.wake()  # a Train button: a pool stopped for being idle starts now, not on the click
        if st.button(t("training.train_again"), key=f"{ns}_again", icon=":material/replay:"):
            try:
                start(config, again=True)
            except jobs.QueueFull as full:  # the result above stays; the visitor is told the wait
                st.warning(queue_full_text(full), icon=":material/hourglass_disabled:")
                return
            st.rerun()
