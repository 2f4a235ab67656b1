"""The Training lab's picture: one attention map (untrained, a replay's checkpoint, or trained) with its output
beside it."""

from __future__ import annotations

import streamlit as st

from s2s_core.training import TrainConfig
from s2s_core.training.frames import join_tokens
from s2s_core.training.tasks import target_tokens
from s2s_core.training.trace import MapPoint
from s2s_ui.i18n import t
from s2s_ui.training.specs import draw, map_labels, point_spec
from s2s_ui.widgets import md_escape

MAP_WIDTH, SIDE_WIDTH = 4, 1  # the map is the picture; the output is a narrow column beside it


def shown(task: str, tokens: tuple[str, ...]) -> str:
    """Tokens as the learner reads them, escaped for markdown; an immediate <eos> is named, not blank."""
    text = join_tokens(task, tokens)
    return md_escape(text) if text else t("training.empty_output")


def show_point(point: MapPoint, config: TrainConfig, title: str, *, side: bool = True) -> None:
    """The map large, its output and the right answer beside it (below it on a phone, or when side=False)."""
    expected = tuple(target_tokens(config.task, list(point.source)))
    if side:
        left, right = st.columns([MAP_WIDTH, SIDE_WIDTH], vertical_alignment="center")
    else:
        left = right = st.container()
    with left:
        if point.weights is None:
            st.info(t("training.no_attention_map"), icon=":material/info:")
        else:
            draw(st, point_spec(point, map_labels() | {"map_title": title}))
    with right:
        st.markdown(t("training.picture_output", output=shown(config.task, point.output)))
        st.markdown(t("training.picture_expected", expected=shown(config.task, expected)))
        # No icons: the side column is narrow at 1280 px, and an icon would wrap a two-word verdict.
        if point.exact:
            st.success(t("training.exact_yes"))
        else:
            st.warning(t("training.picture_wrong"))
