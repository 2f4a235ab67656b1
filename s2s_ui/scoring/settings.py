"""The Bahdanau-vs-Luong page's controls: above the picture, the score function and "compare all"; in the controls
column the states (typed, or read off an encoder), then, folded, the untrained weights and what the tabs below look
at. Every widget is a field of the page (s2s_core/scoring/fields.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_core.fields import Field, Parsed
from s2s_core.fmt import vec
from s2s_core.scoring import fields, parse_config
from s2s_core.scoring.compute import ScoringConfig
from s2s_core.scoring.fields import DEFAULT_ENC, SCORERS
from s2s_core.scoring.frames import states_table
from s2s_ui.i18n import lang, t
from s2s_ui.scoring.specs import encoder_states, function_names
from s2s_ui.state import Page


@dataclass(frozen=True)
class States:
    """The decoder state s as text and the encoder states as table rows, as parse_config reads them."""

    dec: str
    rows: list[list[Any]]


def choice(page: Page, field: Field, label_key: str, prefix: str) -> str:
    """A choice field as a segmented control, each option named by its catalog key `<prefix><option>`."""
    labels = {o: t(f"{prefix}{o}") for o in field.options}
    return page.input(field, st.segmented_control, label=t(label_key), labels=labels, required=True)


def read_states(page: Page, seed: int) -> Parsed[States]:
    """The states, typed or taken from the encoder; a bad sentence is the result's error, a bad table cell is
    named by the table itself (no value, no error)."""
    source = choice(page, fields.FROM, "scoring.from_label", "scoring.from_")
    if source == "encoder":
        sentence = page.input(
            fields.SENTENCE, st.text_input, label=t("scoring.sentence_label"), help=t("scoring.sentence_help")
        )
        read = Parsed.of(lambda: encoder_states(sentence, seed))
        if read.value is None:
            return Parsed(None, read.error)
        s, rows = read.value
        st.caption(t("scoring.from_encoder_note", S=len(rows), H=len(rows[0]), s=vec(list(s))))
        st.dataframe(states_table(rows), hide_index=True, width="stretch")
        return Parsed(States(", ".join(repr(x) for x in s), [list(r) for r in rows]))
    left, right = st.columns([3, 2])
    dec = page.input(fields.DEC, left.text_input, label=t("scoring.dec_label"), help=t("scoring.dec_help"))
    H_e = int(page.input(fields.H_E, right.number_input, step=1, help=t("scoring.he_help")))
    rows = page.table(
        fields.ENC,
        DEFAULT_ENC,
        lambda r: r,
        label=t("scoring.enc_label"),
        n_cols=H_e,
        col_names=[f"h{i + 1}" for i in range(H_e)],
    )
    return Parsed(None if rows is None else States(dec, rows))


def read_model(page: Page) -> dict[str, Any]:
    """The untrained weights: attention size A, seed, scale (secondary: folded in the controls column)."""
    return dict(
        attn_size=page.input(fields.ATTN, st.number_input, label=t("scoring.attn_label"), step=1),
        seed=page.input(fields.SEED, st.number_input, label=t("scoring.seed_label"), step=1),
        scale=page.input(
            fields.SCALE, st.number_input, label=t("scoring.scale_label"), step=0.5, help=t("scoring.scale_help")
        ),
    )


@dataclass(frozen=True)
class View:
    """What the picture shows: one score function (the focus, also the tabs'), and whether every function is
    drawn side by side above it."""

    focus: str
    compare: bool


def read_view(page: Page) -> View:
    """The two controls above the picture (in the picture's column, so a phone shows them with it): the score
    function, and "compare all". One line each on a phone: a select box, not five segments that wrap."""
    names = function_names(lang())
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    focus = page.input(
        fields.FOCUS, left.selectbox, label=t("scoring.focus_label"), labels={n: names[n] for n in SCORERS}
    )
    compare = page.input(fields.COMPARE, right.toggle, label=t("scoring.compare_label"))
    return View(focus, bool(compare))


def read_views(page: Page) -> dict[str, Any]:
    """What the tabs below look at: the window, the step's wiring (folded)."""
    window = choice(page, fields.WINDOW, "scoring.window_label", "scoring.window_")
    c1, c2 = st.columns(2)
    step = page.input(
        fields.STEP,
        c1.number_input,
        label=t("scoring.step_label"),
        step=1,
        help=t("scoring.step_help"),
        disabled=window != "local_m",
    )
    half_width = page.input(
        fields.HALF_WIDTH, c2.number_input, label=t("scoring.half_width_label"), step=1, disabled=window == "global"
    )
    query_from = choice(page, fields.QUERY, "scoring.query_label", "scoring.query_")
    context_into = choice(page, fields.INTO, "scoring.into_label", "scoring.into_")
    return dict(
        window=window,
        step=step,
        half_width=half_width,
        query_from=query_from,
        context_into=context_into,
    )


def read_inputs(page: Page, focus: str) -> Parsed[ScoringConfig]:
    """Widgets -> the validated config, or the error that names the bad field (shown where the picture would be).
    focus: the score function, read above the picture (read_view)."""
    main = st.container()  # the states first on screen, though the encoder needs the seed read below
    # Secondary settings, folded: the untrained weights, then what the tabs below look at.
    with st.expander(t("scoring.more_settings"), icon=":material/tune:"):
        model = read_model(page)
        st.divider()
        views = read_views(page)
    with main:
        states = read_states(page, int(model["seed"]))
    if states.value is None:
        return Parsed(None, states.error)
    return Parsed.of(lambda: parse_config(states.value.dec, states.value.rows, focus=focus, **model, **views))
