"""The Translation lab's picture: the attention map of the typed sentence (untrained or trained), large, with each
English word's true Korean source outlined, and beside it the output, the reference and the alignment score."""

from __future__ import annotations

import streamlit as st

from s2s_core.catalog import words
from s2s_core.fields import Parsed
from s2s_core.fmt import num, pct, seconds
from s2s_core.training import SourceInput, TrainConfig
from s2s_core.training.notes import checkpoint_keys
from s2s_core.training.tasks import KO_EN, reference
from s2s_core.training.trace import MapPoint
from s2s_core.translation.charts import TRUTH_LABELS, truth_cells
from s2s_core.translation.lab import run_line, verb_row
from s2s_jobs.jobs import JobSnapshot
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.state import Page
from s2s_ui.training.lab import jobs_live, replay_and_retry
from s2s_ui.training.live import trained_model
from s2s_ui.training.picture import MAP_WIDTH, SIDE_WIDTH, shown
from s2s_ui.training.specs import draw, map_labels, trained_point, untrained
from s2s_ui.translation.specs import alignment, truth_map_spec
from s2s_ui.widgets import md_escape, show_error


def labels(title: str) -> dict[str, str]:
    return map_labels() | words(lang(), "translation.chart", TRUTH_LABELS) | {"map_title": title}


def show_point(point: MapPoint, title: str, side=None, *, beside: bool = True) -> None:
    """The map large, and beside it (below it on a phone, or when beside=False) the output, the reference and its
    verdict; `side` draws more into that column (the alignment score)."""
    expected = reference(KO_EN, list(point.source))
    if beside:
        left, right = st.columns([MAP_WIDTH, SIDE_WIDTH], vertical_alignment="center")
    else:
        left = right = st.container()
    with left:
        if point.weights is None:
            st.info(t("translation.no_attention_map"), icon=":material/info:")
        else:
            draw(st, truth_map_spec(point, labels(title)))
            if truth_cells(point):
                st.caption(t("translation.truth_key"))
            show_verb_row(point)
    with right:
        st.markdown(t("translation.picture_output", output=shown(KO_EN, point.output)))
        if expected is None:
            st.caption(t("translation.outside_grammar"))
        else:
            st.markdown(t("translation.picture_expected", expected=shown(KO_EN, tuple(expected))))
            # No icons: the side column is narrow at 1280 px, and an icon would wrap a two-word verdict.
            if point.exact:
                st.success(t("translation.exact_yes"))
            else:
                st.warning(t("translation.picture_wrong"))
        if side is not None:
            side()


def show_verb_row(point: MapPoint) -> None:
    """Which row is the main verb on this map, and whether its largest weight is on its Korean word (the core)."""
    verb = verb_row(point)
    if verb is None:
        return
    looked = point.source[verb.looked] if verb.looked is not None else ""
    st.caption(
        t(
            f"translation.{verb.key}",
            row=verb.row + 1,
            word=md_escape(verb.word),
            source=verb.source_word,
            looked=looked,
            output=md_escape(verb.output or "–"),
        )
    )


def show_lab(page: Page, config: TrainConfig, source: Parsed[SourceInput]) -> JobSnapshot | None:
    """The picture for the state of the settings' job (s2s_ui/training/live.py): the untrained map with the Train
    button, the live progress beside the latest checkpoint's map, or the trained map. A sentence the grammar cannot
    read keeps the last good sentence's map, faded, under the message naming the word (s2s_ui/kept.py). Returns the
    finished job (None until there is one)."""
    done = trained_model(
        config,
        "translation_train",
        t("translation.train"),
        t("training.press_train", steps=config.steps, seconds=num(config.max_seconds)),
        before=lambda: kept_picture(page, source.need, lambda s: show_untrained(config, s)),
        moment=lambda point, step, total: show_checkpoint(source, point, step, total),
    )
    if done is not None:
        show_trained(page, done, source)
    elif not source.ok and jobs_live(config):  # training: the map is the run's own; the typed sentence waits
        show_error(source.error)
    return done


def show_checkpoint(source: Parsed[SourceInput], point: MapPoint, step: int, total: int) -> None:
    """While the run trains (or replays): the latest checkpoint's map of the run's sentence, titled by its step."""
    keys = checkpoint_keys(point, source.value if source.ok else None)
    show_point(point, t(keys["title"], step=step, total=total), beside=False)
    if keys["note"] is not None:
        st.caption(t(keys["note"], source=shown(KO_EN, point.source)))


def show_untrained(config: TrainConfig, source: SourceInput) -> None:
    """Before training: the typed sentence through the seeded, untrained model (spread weights, wrong words)."""
    show_point(untrained(config, source), t("translation.untrained_map_title"))
    st.caption(t("translation.untrained_note"))


def show_score(done: JobSnapshot) -> None:
    """The alignment score of the model (held-out sentences), with its caveat right under it."""
    score = alignment(done.job_id, done.result)
    if score is None:
        return
    st.metric(t("translation.metric_alignment"), pct(score.accuracy), help=t("translation.metric_alignment_help"))
    st.caption(t("translation.alignment_caveat", n=score.n_sentences))


def show_trained(page: Page, done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """The trained model's map of the typed sentence, what was trained, "watch it train", and a retry after a
    run cut by the clock (the Training lab's buttons)."""
    result = done.result
    config, run = result.config, result.run
    title = t("translation.trained_map_title")
    kept_picture(
        page,
        source.need,
        lambda s: show_point(trained_point(done.job_id, s, result), title, side=lambda: show_score(done)),
    )
    st.caption(
        t(
            f"translation.{run_line(run)}",
            cell=t(f"translation.cell_{config.cell}"),
            steps=run.steps_done,
            total=config.steps,
            seconds=seconds(run.seconds),
            params=f"{run.n_params:,}",
            n=run.n_heldout,
        )
    )
    replay_and_retry(result, "translation")
