"""Play: a small inline-JS button (st.components.v2) that moves a chart's own step slider on a timer.

It does in the browser what a learner's hand does: set the slider's value and dispatch `input`, so the
picture redraws in the browser and the step control's fragment follows (s2s_ui/steps.py). No network
fetch, no server round trip per tick of its own. A real <button> (focusable; Enter and Space press it),
with aria-pressed and its label in the learner's language; it stops at the last step, and a Play pressed
at the last step starts again from the first.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_ui.i18n import t

TICK_MS = 900  # long enough to read the step's numbers, short enough to watch a whole sentence

_CSS = """
button {
  font: inherit; font-size: 0.875rem; cursor: pointer;
  padding: 0.25rem 0.75rem; border-radius: 0.5rem;
  border: 1px solid var(--st-border-color, rgba(128, 128, 128, 0.5));
  background: var(--st-secondary-background-color, transparent);
  color: var(--st-text-color, inherit);
}
button:focus-visible { outline: 2px solid var(--st-primary-color, #B8588F); outline-offset: 2px; }
"""

# The chart's slider is found by its element's key class (Streamlit puts `st-key-<key>` on it).
_JS = """
export default function (component) {
  const { data, parentElement } = component;
  parentElement.replaceChildren();
  const button = document.createElement("button");
  button.type = "button";
  button.className = "s2s-play";
  button.setAttribute("aria-pressed", "false");
  parentElement.appendChild(button);
  let timer = null;
  const slider = () => document.querySelector(data.target);
  const show = (playing) => {
    button.textContent = playing ? "❚❚ " + data.pause : "▶ " + data.play;
    button.setAttribute("aria-pressed", playing ? "true" : "false");
  };
  const stop = () => { if (timer !== null) { clearInterval(timer); timer = null; } show(false); };
  const move = (input, value) => {
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const tick = () => {
    const input = slider();
    if (!input) { stop(); return; }
    const next = Number(input.value) + 1;
    if (next > Number(input.max)) { stop(); return; }
    move(input, next);
    if (next >= Number(input.max)) stop();
  };
  button.addEventListener("click", () => {
    if (timer !== null) { stop(); return; }
    const input = slider();
    if (!input) return;
    if (Number(input.value) >= Number(input.max)) move(input, Number(input.min));
    show(true);
    timer = setInterval(tick, data.tick_ms);
  });
  show(false);
  return () => { if (timer !== null) clearInterval(timer); };
}
"""

_play = st.components.v2.component("s2s_play", css=_CSS, js=_JS)


def slider_selector(chart_key: str) -> str:
    """The CSS selector of the step slider inside the chart drawn with Streamlit key `chart_key`."""
    return f".st-key-{chart_key} .vega-bindings input[type=range]"


def play_button(chart_key: str, *, tick_ms: int = TICK_MS) -> Any:
    """Draw Play/Pause for the step slider of the chart drawn with key `chart_key`."""
    data = {
        "target": slider_selector(chart_key),
        "play": t("steps.play"),
        "pause": t("steps.pause"),
        "tick_ms": int(tick_ms),
    }
    return _play(key=f"{chart_key}_play", data=data, width="content")
