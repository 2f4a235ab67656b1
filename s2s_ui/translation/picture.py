"""The Translation lab's picture: the attention map of the typed sentence (untrained or trained), large, with each
English word's true Korean source outlined, and beside it the output, the reference and the alignment score."""

from __future__ import annotations

import streamlit as st

from s2s_core.fmt import pct
from s2s_core.training import SourceInput, TrainConfig
from s2s_core.training.jobs import JobSnapshot
from s2s_core.training.tasks import KO_EN, reference
from s2s_core.training.trace import MapPoint
from s2s_core.translation.charts import truth_cells
from s2s_ui.i18n import t
from s2s_ui.training.picture import MAP_WIDTH, SIDE_WIDTH, shown
from s2s_ui.training.sections import replay_and_retry
from s2s_ui.training.specs import draw, map_labels, trained_point, untrained
from s2s_ui.translation.specs import alignment, truth_map_spec


def labels(title: str) -> dict[str, str]:
    return map_labels() | {"map_title": title, "truth": t("translation.chart.truth")}


def show_point(point: MapPoint, title: str, side=None) -> None:
    """The map large, and beside it (below it on a phone) the output, the reference and its verdict; `side`
    draws more into that column (the alignment score)."""
    expected = reference(KO_EN, list(point.source))
    left, right = st.columns([MAP_WIDTH, SIDE_WIDTH], vertical_alignment="center")
    with left:
        if point.weights is None:
            st.info(t("translation.no_attention_map"), icon=":material/info:")
        else:
            draw(st, truth_map_spec(point, labels(title)))
            if truth_cells(point):
                st.caption(t("translation.truth_key"))
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


def show_untrained(config: TrainConfig, source: SourceInput | None) -> None:
    """Before training: the typed sentence through the seeded, untrained model (spread weights, wrong words)."""
    if source is not None:
        show_point(untrained(config, source), t("translation.untrained_map_title"))
        st.caption(t("translation.untrained_note"))


def show_score(done: JobSnapshot) -> None:
    """The alignment score of the model (held-out sentences), with its caveat right under it."""
    score = alignment(done.job_id, done.result)
    if score is None:
        return
    st.metric(t("translation.metric_alignment"), pct(score.accuracy), help=t("translation.metric_alignment_help"))
    st.caption(t("translation.alignment_caveat", n=score.n_sentences))


def show_trained(done: JobSnapshot, source: SourceInput | None) -> None:
    """The trained model's map of the typed sentence, what was trained, "watch it train", and a retry after a
    run cut by the clock (the Training lab's buttons)."""
    result = done.result
    config, run = result.config, result.run
    if source is not None:
        point = trained_point(done.job_id, source, result)
        show_point(point, t("translation.trained_map_title"), side=lambda: show_score(done))
    st.caption(
        t(
            "translation.trained_line",
            cell=t(f"translation.cell_{config.cell}"),
            steps=run.steps_done,
            seconds=f"{run.seconds:.1f}",
            params=f"{run.n_params:,}",
            n=run.n_heldout,
        )
    )
    replay_and_retry(result, "translation")
