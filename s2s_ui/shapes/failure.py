"""The shapes page's failure tab: one wrong call on the page's own layer, with PyTorch's real error (or the
silent surprise when it raises none); which wrong call is the tab's own field."""

from __future__ import annotations

import streamlit as st

from s2s_core.shapes import ShapesConfig, fields
from s2s_core.shapes.frames import shape_text
from s2s_ui.i18n import t
from s2s_ui.shapes.specs import failure
from s2s_ui.state import Page


def _shapes(pairs: tuple[tuple[str, tuple[int, ...]], ...]) -> str:
    return "\n".join(f"{name}: {shape_text(shape)}" for name, shape in pairs)


def show_failure(page: Page, config: ShapesConfig) -> None:
    st.subheader(t("shapes.fail.heading"))
    st.caption(t("shapes.fail.intro"))
    # The link holds the raw kind ("wrong_e"), not its translated label: it opens in either language.
    labels = {k: t(f"shapes.fail.option.{k}") for k in fields.KINDS}
    demo = failure(config, page.input(fields.FAILURE, st.selectbox, labels=labels))
    if demo is None:
        return
    st.markdown(f"**{t('shapes.fail.code')}**")
    st.code(demo.code, language="python", wrap_lines=True)
    if demo.raised:
        st.markdown(t("shapes.fail.says", type=demo.error_type))
        st.code(demo.message, language="text", wrap_lines=True)
    st.info(t(f"shapes.fail.{demo.kind}.{demo.note}", n=config.B, B=config.B), icon=":material/lightbulb:")
    if demo.states:
        st.markdown(t("shapes.fail.wrong_h0.expected"))
        st.code(_shapes(demo.states), language="text")
    if demo.fix_code is not None:  # input_2d: the fix for this batch_first, run on the same layer
        st.markdown(t("shapes.fail.input_2d.fixed"))
        st.code(f"{demo.fix_code}\n\n{_shapes(demo.fixed)}", language="python", wrap_lines=True)
    if demo.silent:
        heading = f"shapes.fail.input_2d.without_h0_{demo.dropped}" if demo.raised else "shapes.fail.silent"
        st.markdown(t(heading, B=config.B))
        st.code(_shapes(demo.silent), language="text")
