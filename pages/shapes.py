"""Page: tensor shapes — what nn.RNN / nn.LSTM / nn.GRU return, axis by axis, from a real forward pass.

Read the fields (s2s_core/shapes/fields.py) -> two checked values: the settings with every sentence at its full
length, and those with the lengths field -> the picture and the question beside the controls, the rest in tabs
(s2s_ui/shapes/). A bad lengths field stops only what needs the lengths; the layer itself still runs.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.shapes import ShapesConfig, fields, parse_settings, with_lengths
from s2s_core.shapes.checks import PREDICT_OPTIONS, last_step, predict_answer
from s2s_ui.charts import draw
from s2s_ui.explainer import explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.shapes.bridge import show_bridge
from s2s_ui.shapes.drill import show_drill
from s2s_ui.shapes.failure import show_failure
from s2s_ui.shapes.sections import (
    QUIZ,
    show_checks,
    show_notice,
    show_packed,
    show_padding,
    show_shapes,
    verdict_text,
)
from s2s_ui.shapes.specs import checks, code, picture_spec
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import code_expander, predict_then_reveal, revealed

PAGE = Page("shapes", fields.FIELDS)
PADDED = {fields.LENGTHS.key: "3, 1"}
CASES = [
    TryCase("shapes.try.padded", "shapes.try.padded_note", PADDED),
    TryCase("shapes.try.packed", "shapes.try.packed_note", {**PADDED, fields.PACKED.key: "true"}),
    TryCase("shapes.try.time_first", "shapes.try.time_first_note", {fields.BATCH_FIRST.key: "false"}),
    TryCase(
        "shapes.try.stacked",
        "shapes.try.stacked_note",
        {fields.NUM_LAYERS.key: "2", fields.BIDIRECTIONAL.key: "true"},
    ),
]


def read_inputs() -> tuple[Parsed[ShapesConfig], Parsed[ShapesConfig]]:
    """The controls column -> (the settings, every sentence at its full length; the same with the lengths).

    Each input is read and checked once; a bad value is named by the sections that need it.
    """
    cell = PAGE.input(fields.CELL, st.segmented_control, required=True, help=t("shapes.help.cell"))
    flags = {name: PAGE.input(f, st.toggle, help=t(f"shapes.help.{name}")) for name, f in fields.FLAGS.items()}
    sizes = {}
    for row in (("B", "S"), ("E", "H")):
        for col, name in zip(st.columns(2), row, strict=True):
            sizes[name] = PAGE.input(fields.SIZES[name], col.number_input, step=1)
    help_lengths = t("shapes.help.lengths") + " " + t("shapes.lengths_note")
    lengths = PAGE.input(fields.LENGTHS, st.text_input, placeholder="3, 1", help=help_lengths)
    with st.expander(t("shapes.more_settings"), icon=":material/tune:"):
        layers = PAGE.input(fields.NUM_LAYERS, st.number_input, step=1)
        proj = PAGE.input(
            fields.PROJ_SIZE, st.number_input, step=1, help=t("shapes.help.proj_size"), disabled=cell != "LSTM"
        )
        seed = PAGE.input(fields.SEED, st.number_input, step=1, help=t("shapes.help.seed"))
        if cell != "LSTM" and proj:
            st.caption(t("shapes.proj_disabled", cell=cell))
    PAGE.buttons(CASES)
    settings = Parsed.of(
        lambda: parse_settings(cell=cell, num_layers=layers, proj_size=proj, seed=seed, **flags, **sizes)
    )
    return settings, Parsed.of(lambda: with_lengths(settings.need(), lengths))


def show_picture(config: ShapesConfig) -> None:
    """The main picture: every tensor as a row of axis blocks, and the shortest sentence traced through h_n."""
    draw(st, picture_spec(config, lang(), revealed(QUIZ)))


def show_predict(config: ShapesConfig) -> None:
    """Predict, then reveal: does the last step's output equal h_n[-1] under the current settings?"""
    live = checks(config)
    last, options = last_step(live), {o: t(f"shapes.predict.{o}") for o in PREDICT_OPTIONS}
    question = t("shapes.predict.question", lhs=last.lhs)
    predict_then_reveal(QUIZ, question, list(options.values()), options[predict_answer(live)], verdict_text(last))


controls, picture = explainer("shapes")
with controls:
    settings, config = read_inputs()
# What needs no lengths (the table, the bridge, the failures) runs with every sentence at full length when
# the lengths field is bad; what does need them names that field.
any_lengths = config if config.ok else settings
with picture:
    # The picture traces the sentences' lengths (PAD, the packed run): a bad setting or lengths field keeps the
    # last good picture, faded, under the message; the question waits for a good input.
    live = kept_picture(PAGE, config.need, show_picture)
    if live is not None:
        show_predict(live)
PAGE.tabs(
    [
        ("ui.tab_tables", lambda: show_shapes(any_lengths.need())),
        ("ui.tab_check", lambda: show_checks(config.need())),
        ("shapes.tab_padding", lambda: show_padding(config.need())),
        ("shapes.tab_packed", lambda: show_packed(config.need())),
        ("shapes.tab_bridge", lambda: show_bridge(PAGE, any_lengths.need())),
        ("shapes.tab_failure", lambda: show_failure(PAGE, any_lengths.need())),
        ("shapes.tab_quiz", lambda: show_drill(PAGE)),  # its own layers: it needs none of the inputs above
        ("ui.tab_notice", lambda: show_notice(config.need())),
        ("ui.tab_code", lambda: code_expander(code(config.need()), file_name=t("shapes.file_name"))),
    ]
)
