"""The app's fixed CSS, injected once per run from app.py: only what WCAG 2.1 AA contrast needs.

A constant string, never user text (tests/test_architecture.py allows HTML here and nowhere else). Each rule
says which axe-core finding it answers; its colours are built from the theme's own (`currentColor` is the
theme's text colour where the rule applies), so one rule holds on the light and on the dark theme.
"""

from __future__ import annotations

import streamlit as st

CSS = """
<style>
/* Captions: Streamlit fades them to 60 % opacity, 3.9:1 on white (AA needs 4.5:1 for 14 px text). Their text at
   75 % of the text colour stays quieter than body text and reaches 6.1:1 on white, 5.7:1 on the sidebar's grey
   and 8.9:1 on dark; as a colour, not an opacity, so inline code in a caption keeps its own full colour. */
[data-testid="stCaptionContainer"] {
  opacity: 1 !important;
  color: color-mix(in srgb, currentColor 75%, transparent) !important;
}

/* The selected option of a segmented control is written in the accent colour on a 10 % accent tint: 3.9:1
   on the light theme, 3.1:1 on the dark one. Mixed 60/40 with the theme's text colour it keeps the accent's
   hue and reaches 6.1:1 (light) and 5.7:1 (dark); the selection also shows by its border and tint. */
[data-testid="stButtonGroup"] button[data-selected="true"] {
  color: color-mix(in srgb, #3b6fd6 60%, currentColor) !important;
}
[data-testid="stButtonGroup"] button[data-selected="true"] p { color: inherit !important; }

/* A slider's value above its thumb is in the accent colour: 3.8:1 on the dark background. The same mix. */
[data-testid="stSliderThumbValue"] { color: color-mix(in srgb, #3b6fd6 60%, currentColor) !important; }
</style>
"""


def apply_style() -> None:
    """Put the app's CSS on the page (a <style>-only st.html takes no room in the layout)."""
    st.html(CSS)
