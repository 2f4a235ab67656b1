"""The shared step control (docs/ARCHITECTURE.md): a picture whose step slider lives inside the chart.

    step_view("att_step", lambda first: chart_spec(config, first, lang()), n_steps=T,
              follow=lambda ev: show_step_text(ev.step), selections=("pick",))

The chart carries a point selection on the field "step", bound to a range slider (s2s_core/chartkit.step_param), and is
drawn with `on_select="rerun"` inside an `@st.fragment`: moving the slider redraws the picture in the
browser at once (no server round trip), then only the fragment reruns, so the step-dependent text that
`follow` draws beside the picture follows the step. The step lives in the link (?<key>=) like any other
input: read once per session with the link helper, clamped into 1..n_steps (a stale link or a shorter
input), and written back on every move. Play (s2s_ui/play.py) moves the same slider on a timer.

Measured in Chromium (Streamlit 1.67): the chart's event gives `selection[name] == [{"step": 3}]` once
the slider moved, and `{}` before the first move (the spec's initial `value` is not reported), so the
step the picture was drawn at is remembered here. A range binding must be given per field
(`"bind": {"step": binding}`): a bare binding's own `step` option collides with a field named "step" and
Vega-Lite falls back to a plain text box that reports the step as a string.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.chartkit import STEP_FIELD
from s2s_core.validate import check_int
from s2s_ui.download import claim_picture, download_buttons
from s2s_ui.i18n import t
from s2s_ui.link import from_link, to_link


@dataclass(frozen=True)
class StepEvent:
    """What the fragment knows after a move or a click: the step (1-based) and the other selections' points."""

    step: int
    picked: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)

    def first(self, selection: str, name: str) -> Any | None:
        """The `name` field of the first point picked in `selection` (None when nothing is picked)."""
        points = self.picked.get(selection) or ()
        return points[0].get(name) if points and isinstance(points[0], Mapping) else None


def _clamp(step: int, n_steps: int) -> int:
    return min(max(1, int(step)), max(1, n_steps))


def _link_step(raw: str) -> int:
    """A link's step: any whole number is read, then clamped by the caller (a stale link still opens)."""
    return check_int(raw.strip(), "", -caps.MAX_SEED, caps.MAX_SEED)


def current_step(key: str, n_steps: int, *, default: int = 1, label: str = "") -> int:
    """The session's step for this control (first from the link), clamped into 1..n_steps."""
    if key not in st.session_state:
        seeded = from_link(key, label or t("steps.label"), _link_step)
        st.session_state[key] = default if seeded is None else seeded
    step = _clamp(st.session_state[key], n_steps)
    st.session_state[key] = step
    return step


def _selected_step(event: Any, name: str) -> int | None:
    """The step in the chart's event, or None (no move yet, or a payload that is not a whole number)."""
    try:
        points = event.selection.get(name) or []
        value = points[0][STEP_FIELD] if points else None
        return None if value is None else int(float(value))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return None


def new_view(key: str) -> None:
    """Start the picture of step control `key` afresh in the browser (Reset, Try this).

    The browser keeps a keyed chart's selections (its slider's step, a clicked mark) and puts them back when the
    chart is drawn again, even with a new spec, so a forgotten step or pick would come back on screen and, with
    the next move, into the link. A new generation gives the chart a new key: it starts from its spec's values.
    """
    name = f"_view__{key}"  # not a field's key: forgetting the page's fields keeps the count
    st.session_state[name] = st.session_state.get(name, 0) + 1


def step_view(
    key: str,
    build: Callable[[int], dict],
    n_steps: int,
    *,
    param: str = "step_sel",
    default: int = 1,
    follow: Callable[[StepEvent], None] | None = None,
    selections: Sequence[str] = (),
    play: bool = True,
) -> int:
    """Draw the stepped picture and what follows its step; returns the step of this full run.

    key: the link parameter and session key of the step (e.g. "att_step").
    build(first): the finished Vega-Lite spec whose `step_param(param, ...)` starts at step `first`; it is
    called with the step of the last full run, so a fragment rerun draws the very same spec and the view in
    the browser (and its slider) stays where the learner put it.
    follow(event): draws the step-dependent text under the picture; reruns alone with every move or click.
    When this is the page's main picture, its SVG / PNG buttons come last and follow the step too (download.py).
    selections: the picture's other selection parameters whose clicks `follow` reads (click to explain).
    """
    first = current_step(key, n_steps, default=default)
    main = claim_picture()  # the page's main picture (s2s_ui/download.py): asked on the full run, used by every move
    chart_key = f"{key}_chart"  # no "__": a component's key may not hold it (Play's key follows this one)
    # The chart itself is keyed by its generation (new_view); its box keeps `st-key-<key>_chart` for Play and tests.
    view_key = f"{chart_key}_{st.session_state.get(f'_view__{key}', 0)}"

    @st.fragment
    def stepped() -> None:
        spec = build(first)
        with st.container(key=chart_key):
            event = st.vega_lite_chart(
                spec=spec, on_select="rerun", key=view_key, selection_mode=[param, *selections], width="stretch"
            )
        moved = _selected_step(event, param)
        step = _clamp(moved if moved is not None else st.session_state.get(key, first), n_steps)
        st.session_state[key] = step
        to_link(key, None if step == _clamp(default, n_steps) else str(step))  # a one-word input: step 1 is the default
        if play and n_steps > 1:
            from s2s_ui.play import play_button  # play imports this module's chart key rule

            play_button(chart_key)
        picked = {name: list(event.selection.get(name) or []) for name in selections}
        if follow is not None:
            follow(StepEvent(step=step, picked=picked))
        if main is not None:  # the file shows this step and these picks: the spec's selections start there
            download_buttons(main, spec, selections={param: [{STEP_FIELD: step}], **picked})

    stepped()
    return first
