"""The app's fixed CSS, injected once per run from app.py: only what WCAG 2.1 AA contrast needs.

A constant string, never user text (tests/test_architecture.py allows HTML here and nowhere else). Each rule
says which axe-core finding it answers; its colours are built from the theme's own (`currentColor` is the
theme's text colour where the rule applies), so one rule holds on the light and on the dark theme.
"""

from __future__ import annotations

import streamlit as st

from s2s_ui.present import presenting

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
/* Phone (below Streamlit's 640 px column breakpoint, where the explainer's two columns stack): the picture's
   column comes first, so the first screen shows the picture (s2s_ui/explainer.py). The DOM keeps controls
   first: a keyboard and a screen reader meet the inputs before the picture they change, as on the desktop. */
@media (max-width: 640px) {
  [data-testid="stColumn"]:has(.st-key-s2s_picture) { order: -1; }
  /* The page's title and the space above it are smaller, so the picture starts in the screen's top half. */
  [data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
  h1 { font-size: 1.625rem !important; padding-top: 0 !important; padding-bottom: 0.5rem !important; }
}

/* A page with a tour has its "Take the tour" button above the title (s2s_ui/lessons/bar.py): it sits in the space
   Streamlit leaves above the title, so the title, the controls and the picture stay where they were (the first
   screen at 1280 x 900 keeps the step slider and Play). */
@media (min-width: 641px) {
  [data-testid="stMainBlockContainer"]:has(.st-key-tour_start) { padding-top: 3.75rem; }
}

/* A picture's own step slider (Vega's bound range input) is 12 px tall by default: under a finger it gets the
   24 px a touch target needs (WCAG 2.5.8), on a touch screen or a phone-wide window. */
@media (pointer: coarse), (max-width: 640px) {
  [data-testid="stVegaLiteChart"] .vega-bindings input[type=range] { min-height: 24px; }
}

/* A bad input keeps the last good picture, faded behind its message (s2s_ui/kept.py). */
[class*="st-key-s2s_kept_"] { opacity: 0.45; filter: saturate(0.4); padding-top: 1.5rem; }
/* (the padding: a chart's toolbar sits above its top edge, over the caption that says the picture is kept) */

/* The class poller (s2s_ui/classroom/poll.py) draws nothing: it takes no room, not even the box's gap. */
[class*="st-key-class-poll-"] { display: none; }

/* Korean titles break between words, never inside one (word-break: keep-all keeps a 어절 whole). */
h1, h2, h3, h4 { word-break: keep-all; overflow-wrap: anywhere; }
</style>
"""

# A page printed is a handout: the picture and the explanation on white paper, nothing to click. Streamlit's own
# print rules already unfold its scrolling containers; these take away what only works on a screen.
PAGE_MARGIN_MM = 12  # every side of the paper (the browser's paper size is kept: A4, or Letter where it is usual)
PAPER_WIDTH_MM = 210  # A4: the main block is as wide as A4's printable width, which also fits Letter's
PRINT_CSS = """
<style>
@media print {
  @page { margin: MARGINmm; }
  /* 1) no navigation, no controls: the sidebar, the header's menu, the controls column, every button and input */
  [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
  [data-testid="stStatusWidget"], [data-testid="stToastContainer"], [data-testid="stSkipToContent"],
  [data-testid="stColumn"]:has(.st-key-s2s_controls),
  [data-testid="stElementToolbar"], .vega-bindings, .vega-embed details,
  [data-testid="stButton"], [data-testid="stDownloadButton"], [data-testid="stLinkButton"],
  [data-testid="stPopover"], [data-testid="stFormSubmitButton"], [data-testid="stBidiComponentIsolated"],
  [data-testid="stNumberInput"], [data-testid="stTextInput"], [data-testid="stTextArea"],
  [data-testid="stSelectbox"], [data-testid="stMultiSelect"], [data-testid="stSlider"],
  [data-testid="stSelectSlider"], [data-testid="stCheckbox"], [data-testid="stToggle"],
  [data-testid="stButtonGroup"], [data-testid="stFileUploader"], [data-testid="stFileUploaderDropzone"],
  [data-testid="stExpander"]:has(details:not([open])), [data-testid="stTooltipIcon"],
  [data-testid="stHeaderActionElements"] { display: none !important; }
  /* A question's choices stay (a question to answer on paper); the hint under them is about clicking. */
  [data-testid="stElementContainer"]:has(> [data-testid="stRadio"]) + [data-testid="stElementContainer"]:has(
    [data-testid="stCaptionContainer"]) { display: none !important; }
  /* An element whose only content was hidden takes no room (Streamlit's gap stays between the rest). */
  [data-testid="stElementContainer"]:has(> [data-testid="stButton"], > [data-testid="stPopover"],
    > [data-testid="stBidiComponentIsolated"], > [data-testid="stDownloadButton"]) { display: none !important; }
  [data-testid="stHorizontalBlock"]:not(:has([data-testid="stMarkdownContainer"], [data-testid="stVegaLiteChart"],
    [data-testid="stDataFrame"], [data-testid="stCode"], [data-testid="stTable"], [data-testid="stMetric"])) {
    display: none !important;
  }
  /* 2) the picture's column takes the page's width; the main block is as wide as A4 paper inside @page's margins,
     also while a browser emulates print on a wide window (charts are drawn at that width, as on paper) */
  [data-testid="stColumn"]:has(.st-key-s2s_picture) { width: 100% !important; flex: 1 1 100% !important; }
  [data-testid="stMainBlockContainer"] { padding: 0 !important; max-width: TEXT_WIDTHmm !important; }
  /* 3) a chart is never cut by a page break, nor a boxed part (a worked step, a question); a chart drawn wider
     than the paper (on a wide screen) is scaled down to it, by its viewBox */
  [data-testid="stElementContainer"]:has([data-testid="stVegaLiteChart"]),
  [data-testid="stLayoutWrapper"] > [data-testid="stVerticalBlock"]:not(:has([data-testid="stVegaLiteChart"])) {
    break-inside: avoid;
  }
  [data-testid="stVegaLiteChart"] svg { max-width: 100%; height: auto; }
  h1, h2, h3, h4 { break-after: avoid; }
  /* 4) the open tab's name is the section's heading; the other tabs' names (not printed, not drawn) go */
  [data-testid="stTab"][aria-selected="false"], .react-aria-SelectionIndicator { display: none !important; }
  [role="tablist"] { border: none !important; box-shadow: none !important; break-after: avoid; }
  [data-testid="stTab"][aria-selected="true"] p { font-size: 1.25rem; font-weight: 600; color: #1f1f1f !important; }
  /* 5) a lesson step prints as a short heading of its narration (the lesson, the step, its sentences), ruled
     off from the page under it; not as a bar of buttons, nor with the note that the learner has looked away */
  .st-key-s2s_lesson {
    border: none !important; border-radius: 0 !important; padding: 0 0 0.5rem !important;
    border-bottom: 1px solid #8a8a8a !important; break-inside: avoid;
  }
  .st-key-s2s_lesson > [data-testid="stElementContainer"]:first-child p { font-size: 1.05rem; }
  .st-key-s2s_lesson [data-testid="stElementContainer"]:has([data-testid="stCaptionContainer"]) {
    display: none !important;
  }
  /* 6) paper is white: the dark theme's background and light text are not printed as they are on screen */
  html, body, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"] {
    background: #ffffff !important; color: #1f1f1f !important;
  }
  /* (an alert keeps its own text colour: it prints on its own background, which either theme chose for it) */
  [data-testid="stMain"] :is(h1, h2, h3, h4, p, li, label, [data-testid="stCaptionContainer"]):not(
    [data-testid="stAlert"] *) { color: #1f1f1f; }
  [data-testid="stVegaLiteChart"] svg { background-color: transparent !important; color: #1f1f1f; }
  /* the dark theme's borders, grid lines and radio dots are drawn for a dark page: on paper they are redrawn */
  [data-testid="stMain"] [data-testid="stVerticalBlock"] { border-color: #c8c8c8 !important; }
  [data-testid="stVegaLiteChart"] .role-axis-grid :is(line, path) { stroke: #e3e3e3 !important; }
  [data-testid="stVegaLiteChart"] :is(.role-axis-domain, .role-axis-tick) :is(line, path) {
    stroke: #8a8a8a !important;
  }
  [data-testid="stRadioOption"] > div > div:first-child {
    background: #ffffff !important; border: 1px solid #6b6b6b !important; box-shadow: none !important;
  }
  [data-testid="stRadioOption"] > div > div:first-child > div { display: none !important; }
}
</style>
""".replace("TEXT_WIDTH", str(PAPER_WIDTH_MM - 2 * PAGE_MARGIN_MM)).replace("MARGIN", str(PAGE_MARGIN_MM))


# Presentation mode (?present=1, s2s_ui/present.py), for a projector at the back of a room: no sidebar, the
# picture first and as wide as the page, the controls under it, chart text at least 18 px, larger text and lesson
# bar. Screen only (a page printed in presentation mode is the same handout), and wider than a phone: a chart laid
# out at 1/ZOOM of a phone's width would be narrower than any it was designed for.
PRESENT_ZOOM = 1.64  # the smallest chart text, 11 px (s2s_ui/charts.py MIN_FONT_PX), is drawn at 18 px and up
PRESENT_CSS = """
<style>
@media screen and (min-width: 641px) {
  html { font-size: 20px !important; }
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"] {
    display: none !important;
  }
  [data-testid="stMainBlockContainer"] {
    max-width: none !important; padding: 4.5rem 2.5rem 4rem !important;  /* the header is 3.75rem tall */
  }
  /* the explainer's two columns stacked, the picture's first and full width, the controls under it */
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-s2s_picture) {
    flex-direction: column !important;
  }
  [data-testid="stColumn"]:has(.st-key-s2s_picture), [data-testid="stColumn"]:has(.st-key-s2s_controls) {
    width: 100% !important; flex: 0 0 auto !important;
  }
  [data-testid="stColumn"]:has(.st-key-s2s_picture) { order: -1; }
  [data-testid="stColumn"]:has(.st-key-s2s_controls) { max-width: 48rem; }
  /* Every chart magnified as a whole (text, marks, its own step slider), so its proportions stay the ones it
     was designed with: the chart's box is 1/ZOOM of the width, which Streamlit measures and Vega lays the chart
     out in, and the zoom brings the drawing back to the full width. */
  [data-testid="stMain"] [data-testid="stVegaLiteChart"] { zoom: ZOOM; width: calc(100% / ZOOM) !important; }
  /* the small inline-JS buttons (Play, Read aloud) draw their own fixed-size text: as large as the others */
  [data-testid="stMain"] [data-testid="stBidiComponentIsolated"] { zoom: 1.5; }
  /* the lesson bar, to be read from the back of the room */
  .st-key-s2s_lesson [data-testid="stMarkdownContainer"] p { font-size: 1.4rem; line-height: 1.45; }
  .st-key-s2s_lesson button { min-height: 3rem; }
  .st-key-s2s_lesson button p { font-size: 1.2rem; }
}
</style>
""".replace("ZOOM", str(PRESENT_ZOOM))


def apply_style() -> None:
    """Put the app's CSS on the page (a <style>-only st.html takes no room in the layout); in presentation mode
    (?present=1, read and kept by s2s_ui/present.py) its rules too."""
    st.html(CSS + PRINT_CSS + (PRESENT_CSS if presenting() else ""))
