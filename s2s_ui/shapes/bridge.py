"""The shapes page's bridge tab: the encoder's h_n (and c_n) reshaped into the decoder's initial state, line by
line with each line's real shape; the decoder's layers and hidden size are the tab's own fields."""

from __future__ import annotations

import streamlit as st

from s2s_core.fmt import num
from s2s_core.shapes import ShapesConfig, fields
from s2s_core.shapes.bridge import BridgeStep, parse_bridge
from s2s_core.shapes.frames import shape_text
from s2s_ui.i18n import t
from s2s_ui.shapes.specs import bridge
from s2s_ui.state import Page


def _bridge_code(steps: tuple[BridgeStep, ...]) -> str:
    """The bridge as code; above each line, a comment with its real shape and what it does (phone-friendly)."""
    return "\n".join(f"# {shape_text(s.shape)}  {t(f'shapes.bridge.step.{s.key}')}\n{s.code}" for s in steps)


def show_bridge(page: Page, config: ShapesConfig) -> None:
    st.subheader(t("shapes.bridge.heading"))
    st.caption(t("shapes.bridge.intro"))
    left, right = st.columns(2)
    layers = page.input(fields.DEC_LAYERS, left.number_input, step=1)
    hidden = page.input(fields.DEC_HIDDEN, right.number_input, step=1)
    decoder = parse_bridge(layers, hidden)
    b = bridge(config, decoder)
    if b.naive_error is None:
        st.success(t("shapes.bridge.naive_ok"), icon=":material/check_circle:")
    else:
        st.markdown(t("shapes.bridge.naive_error"))
        st.code(f"{b.naive_error_type}: {b.naive_error}", language="text", wrap_lines=True)
    st.markdown(f"**{t('shapes.bridge.h_heading')}**")
    st.code(_bridge_code(b.steps), language="python", wrap_lines=True)
    if b.cell_steps:
        st.markdown(f"**{t('shapes.bridge.c_heading')}**")
        st.code(_bridge_code(b.cell_steps), language="python", wrap_lines=True)
    out, h = f"`{shape_text(tuple(b.decoder_output.shape))}`", f"`{shape_text(tuple(b.decoder_h_n.shape))}`"
    st.success(t("shapes.bridge.decoder_ok", out=out, h=h), icon=":material/check_circle:")
    if b.linear_note is not None:
        st.caption(t(b.linear_note, h_max=num(b.h_max), hidden=decoder.hidden))
