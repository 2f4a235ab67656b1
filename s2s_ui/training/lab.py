"""The Training lab's picture column: the source box, then the untrained model's map with the Train button, the
live progress of the job that trains it, or the trained model's map (with "watch it train" and a retry)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num
from s2s_core.training import SourceInput, TrainConfig, TrainResult
from s2s_core.training.notes import cut_short, untrained_keys, untrained_reading
from s2s_jobs import jobs
from s2s_jobs.jobs import JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.state import Page
from s2s_ui.training.live import replay, start, trained_model
from s2s_ui.training.picture import show_point
from s2s_ui.training.settings import read_source
from s2s_ui.training.specs import trained_point, untrained


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
        t("training.press_train", steps=config.steps, seconds=f"{config.max_seconds:g}"),
        before=lambda: show_untrained(config, source),
    )
    if done is not None:
        show_trained(done, source)
    return Lab(done, source)


def show_untrained(config: TrainConfig, source: Parsed[SourceInput]) -> None:
    """Before any training: the learner's source through the seeded, untrained model (the picture training
    will change: near-uniform weights, a wrong output)."""
    if source.ok:
        point = untrained(config, source.need())
        reading = untrained_reading(point)  # the title and the note say what this untrained map shows
        keys = untrained_keys(reading)
        show_point(point, config, t(keys["title"]))
        weights = t(keys["weights"], largest=num(reading.largest), uniform=num(reading.uniform))
        st.caption(t("training.untrained_note", output=t(keys["output"]), weights=weights))


def show_trained(done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """The main picture once trained: the trained model's map of the learner's source, its output beside it; what
    was trained, "watch it train" (the recorded run replayed), and a retry after a timeout."""
    result = done.result
    run = result.run
    if source.ok:
        title = (
            t("training.trained_map_title_cut", steps=run.steps_done, total=result.config.steps)
            if cut_short(run)
            else t("training.trained_map_title")
        )
        show_point(trained_point(done.job_id, source.need(), result), result.config, title)
    st.caption(
        t(
            "training.trained_line",
            steps=run.steps_done,
            seconds=f"{run.seconds:.1f}",
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
            t(f"{ns}.stopped_time", seconds=f"{config.max_seconds:g}", steps=run.steps_done, total=config.steps),
            icon=":material/timer:",
        )
        # A run cut by the clock is the one result that depends on the machine's load: allow another try.
        jobs.wake()  # a Train button: a pool stopped for being idle starts now, not on the click
        if st.button(t("training.train_again"), key=f"{ns}_again", icon=":material/replay:"):
            start(config, again=True)
            st.rerun()
