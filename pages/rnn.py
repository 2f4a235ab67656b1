"""Page: RNN unrolling — step through h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) on the learner's sentence."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.rnn import RnnConfig, fields, parse_config, seeded_weights
from s2s_core.rnn.code import script
from s2s_core.rnn.compute import check_size, parse_weight_table
from s2s_core.rnn.fields import DEFAULT_E, DEFAULT_H, DEFAULT_SENTENCES, MAX_S, TABLES
from s2s_core.rnn.frames import weights_table
from s2s_core.rnn.picture import STEP_PARAM
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.own_weights import read_own
from s2s_ui.rnn.sections import Sizes, follow_step, show_notices, show_quiz, show_weights
from s2s_ui.rnn.specs import chart_spec, compute
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import check_badge, code_expander, guarded

PAGE = Page("rnn", fields.FIELDS)
REPEAT_SENTENCE = {"ko": "나는 책을 읽고 나는 잔다", "en": "the dog saw the cat"}  # a word that comes back


def _shape(H: int, E: int) -> str:
    """The member of a weight-table family: one table per shape, seeded from that shape's weights."""
    return f"{H}x{E}"


def _weight_tables(sizes: Sizes) -> dict[str, list[list[float]] | None]:
    """The three editable tables, one under another (the controls column is narrow); a table with a bad cell
    shows its message and counts as 'not typed', so only that table falls back to the seeded values."""
    E, H = sizes.E, sizes.H
    seeded = seeded_weights(E, H, sizes.seed)
    defaults = {"W_x": seeded.W_x, "W_h": seeded.W_h, "b": seeded.b}
    cols = {"W_x": [f"x{j + 1}" for j in range(E)], "W_h": [f"h{j + 1}" for j in range(H)], "b": ["b"]}
    out: dict[str, list[list[float]] | None] = {}
    for name, field in TABLES.items():
        out[name] = PAGE.table(
            field,
            weights_table(defaults[name], name),
            lambda rows, name=name: parse_weight_table(name, rows, H, E),
            member=_shape(H, E),
            label=t(f"rnn.{name}_label"),
            col_names=cols[name],
            dynamic_rows=False,
        )
        if out[name] is None:
            st.caption(t("rnn.table_fallback", field=t(field.label)))
    st.caption(t("rnn.bias_note"))
    return out


def cases() -> list[TryCase]:
    """Prepared states: the other language's example, a word that comes back, and a network with no memory.

    A case starts from the default sizes (every other input is forgotten first), so its W_h table is H×H for them.
    """
    code = lang()
    other = "ko" if code == "en" else "en"
    key = fields.SENTENCE.key
    zeros = ";".join(",".join("0" for _ in range(DEFAULT_H)) for _ in range(DEFAULT_H))
    no_memory = {key: REPEAT_SENTENCE[code], fields.EDIT.key: "true"}
    no_memory[fields.W_H.member(_shape(DEFAULT_H, DEFAULT_E))] = zeros
    return [
        TryCase(f"rnn.try.{other}", f"rnn.try.{other}_note", {key: DEFAULT_SENTENCES[other]}),
        TryCase("rnn.try.repeat", "rnn.try.repeat_note", {key: REPEAT_SENTENCE[code]}),
        TryCase("rnn.try.no_memory", "rnn.try.no_memory_note", no_memory),
    ]


def read_inputs() -> tuple[Parsed[RnnConfig], Sizes]:
    """The controls column: the sentence, then sizes, seed and hand-typed weights folded in an expander.

    A bad sentence is not shown here but by each section that needs it (the picture first).
    """
    sentence = PAGE.input(fields.SENTENCE, st.text_input, help=t("rnn.sentence_help", limit=MAX_S))
    sizes_box = st.expander(t("rnn.sizes"), icon=":material/tune:")
    own = read_own("rnn", "rnn")  # a learner's nn.RNN: it decides E, H and the weights (the tables do not apply)
    with sizes_box:
        if own is None:
            c1, c2 = st.columns(2)
            E = PAGE.input(fields.E, c1.number_input, step=1, help=t("rnn.E_help"))
            H = PAGE.input(fields.H, c2.number_input, step=1, help=t("rnn.H_help"))
        else:
            E, H = own.E, own.H
            st.caption(t("own.sizes_from_file", E=E, H=H))
        seed = PAGE.input(fields.SEED, st.number_input, step=1, help=t("rnn.seed_help"))
        sizes = Sizes(check_size("E", E), check_size("H", H), check_size("seed", seed), own)  # in range here
        edit = PAGE.input(fields.EDIT, st.toggle, help=t("rnn.edit_help")) if own is None else False
        tables = _weight_tables(sizes) if edit else dict.fromkeys(TABLES)
    shape = _shape(sizes.H, sizes.E)
    for field in TABLES.values():  # tables of other shapes (or with editing off) are not in effect: not in the link
        PAGE.keep_members(field, {field.member(shape)} if edit else set())
    PAGE.buttons(cases())
    parsed = Parsed.of(
        lambda: parse_config(sentence, E, H, sizes.seed, tables["W_x"], tables["W_h"], tables["b"], own=own)
    )
    return parsed, sizes


def show_picture(config: RnnConfig) -> None:
    """The chain with its step slider and Play; before/after keeps the previous input's states as dots."""
    before = before_after("rnn_picture", config)
    S = len(compute(config).tokens)
    PAGE.step(
        fields.STEP,
        lambda first: chart_spec(config, before, lang(), first),
        S,
        param=STEP_PARAM,
        follow=lambda event: follow_step(config, event),
    )
    if config.own is not None:  # the learner's weights: their check against nn.RNN, right under the picture
        check_badge(t("rnn.check_what"), compute(config).max_abs_diff, tol=1e-9)


controls, picture = explainer("rnn")
with controls:
    parsed, sizes = read_inputs()
with picture:
    # A bad sentence keeps the last good picture, faded, under its message (s2s_ui/kept.py); the question waits.
    live = kept_picture(PAGE, parsed.need, show_picture)
    if live is not None:
        guarded(lambda: show_quiz(live))
PAGE.tabs(
    [
        ("ui.tab_tables", lambda: show_weights(parsed, sizes)),
        ("ui.tab_check", lambda: check_badge(t("rnn.check_what"), compute(parsed.need()).max_abs_diff, tol=1e-9)),
        ("ui.tab_code", lambda: code_expander(script(parsed.need()), file_name="rnn_unroll.py")),
        ("ui.tab_notice", lambda: show_notices(parsed.need())),
    ]
)
