"""Widgets shared by the two gated-cell pages (LSTM, GRU): inputs, the step picker, gate overrides.

`ns` is the page's namespace ("lstm" or "gru"): it prefixes every widget key, URL parameter and
catalog key, so both pages keep their own links and texts. The math stays in s2s_core.<ns>.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.gated.inputs import (
    DEFAULT_E,
    DEFAULT_H,
    DEFAULT_SEED,
    DEFAULT_SENTENCE,
    DEFAULT_VECTORS,
    MAX_E,
    MAX_H,
    SOURCES,
)
from s2s_ui.i18n import t
from s2s_ui.link import linked
from s2s_ui.widgets import matrix_input, md_escape, reset_button, show_error


def input_keys(ns: str) -> list[str]:
    return [f"{ns}_{k}" for k in ("source", "sentence", "x", "E", "H", "seed")]


def read_cell_inputs(ns: str, parse_config: Callable[..., Any]) -> Any | None:
    """Sentence or vector table, E, H, seed -> the core's validated config; None (with a message) when bad."""
    st.subheader(t(f"{ns}.inputs"))
    source = linked(
        st.segmented_control,
        t(f"{ns}.source_label"),
        SOURCES,
        key=f"{ns}_source",
        default="sentence",
        labels={s: t(f"{ns}.source_{s}") for s in SOURCES},
        required=True,
    )
    c1, c2, c3 = st.columns(3)
    E = linked(
        c1.number_input, t(f"{ns}.E_label"), key=f"{ns}_E", default=DEFAULT_E, min_value=1, max_value=MAX_E, step=1
    )
    H = linked(
        c2.number_input, t(f"{ns}.H_label"), key=f"{ns}_H", default=DEFAULT_H, min_value=1, max_value=MAX_H, step=1
    )
    seed = linked(
        c3.number_input,
        t(f"{ns}.seed_label"),
        key=f"{ns}_seed",
        default=DEFAULT_SEED,
        min_value=0,
        max_value=caps.MAX_SEED,
        step=1,
        help=t(f"{ns}.seed_help"),
    )
    sentence, rows = None, None
    if source == "table":
        width = int(E or 1)
        rows = matrix_input(
            f"{ns}_x",
            DEFAULT_VECTORS,
            f"{ns}.field.vectors",
            label=t(f"{ns}.vectors_label"),
            parse=lambda r: r,
            n_cols=width,
            col_names=[f"x{i + 1}" for i in range(width)],
        )
        if rows is None:
            return None
    else:
        sentence = linked(
            st.text_input,
            t(f"{ns}.sentence_label"),
            key=f"{ns}_sentence",
            default=DEFAULT_SENTENCE,
            help=t(f"{ns}.sentence_help"),
            max_chars=caps.MAX_TEXT_CHARS,
        )
    reset_button(input_keys(ns))
    try:
        return parse_config(source, sentence, rows, E, H, seed)
    except InputError as err:
        show_error(err)
        return None


def pick_step(ns: str, labels: Sequence[str]) -> int:
    """The step to inspect, 0-based. Step labels are the learner's words: escaped (button labels are markdown)."""
    steps = list(range(1, len(labels) + 1))
    step = linked(
        st.segmented_control,
        t(f"{ns}.step_pick"),
        steps,
        key=f"{ns}_step",
        default=min(2, len(steps)),
        labels={s: md_escape(labels[s - 1]) for s in steps},
        parse=int,
        required=True,
    )
    return int(step) - 1


def read_forces(
    ns: str,
    labels: Sequence[str],
    forceable: Sequence[str],
    force_default: dict[str, int],
    freeze: Callable[[int], None],
) -> dict[str, tuple[list[int], int]]:
    """Per forceable gate: the steps to override and the value (0 or 1), plus the one-click 'freeze' button."""
    steps = list(range(1, len(labels) + 1))
    raw: dict[str, tuple[list[int], int]] = {}
    for col, gate in zip(st.columns(len(forceable)), forceable, strict=True):
        key = f"{ns}_force_{gate}"
        with col:
            picked = linked(
                st.multiselect,
                t(f"{ns}.force_steps", gate=gate),
                steps,
                key=key,
                default=[],
                labels={s: labels[s - 1] for s in steps},
                parse=int,
                placeholder=t(f"{ns}.force_placeholder"),
            )
            value = linked(
                st.segmented_control,
                t(f"{ns}.force_value"),
                [0, 1],
                key=f"{key}_to",
                default=force_default[gate],
                parse=int,
                required=True,
            )
        raw[gate] = (picked, value)
    st.button(t(f"{ns}.freeze"), key=f"{ns}_freeze", on_click=freeze, args=(len(steps),), disabled=len(steps) < 2)
    return raw
