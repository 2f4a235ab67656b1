"""Widgets shared by the two gated-cell pages (LSTM, GRU): inputs, the step picker, gate overrides, the wiring.

`ns` is the page's namespace ("lstm" or "gru"): it prefixes every widget key, URL parameter and
catalog key, so both pages keep their own links and texts. The math stays in s2s_core.<ns>.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.gated.forcing import parse_forces
from s2s_core.gated.inputs import (
    DEFAULT_E,
    DEFAULT_H,
    DEFAULT_SEED,
    DEFAULT_SENTENCES,
    DEFAULT_VECTORS,
    MAX_E,
    MAX_H,
    SOURCES,
    default_sentence,
)
from s2s_core.gated.picture import STEP_PARAM, shown_run
from s2s_ui.catalog import translate
from s2s_ui.explainer import TryCase, before_after, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.steps import StepEvent, step_view
from s2s_ui.widgets import guarded, matrix_input, md_escape, reset_button, show_error


@dataclass(frozen=True)
class CellInputs:
    """What the controls column read: the validated config, or the error that stopped it, and the sizes.

    The sizes (E, H, seed) are usable even when the sentence or a table cell is bad, so the sections that need
    only them (weights, parameter counts) still draw; the others call `need()` inside `guarded`/`details`.
    """

    config: Any | None
    error: InputError | None
    E: int
    H: int
    seed: int

    def need(self) -> Any:
        """The validated config, or the input's error raised again (the section's guard names the field)."""
        if self.config is None:
            raise self.error or InputError("errors.empty_table", "")
        return self.config


@dataclass(frozen=True)
class CellPage:
    """What one gated page plugs into the shared wiring (`first_screen`, `show_cell_picture`).

    compute(config): the page's cached run (a result with `labels`, `run` and `forced`); freeze(S): the freeze
    button's callback, which sets the page's override widgets; force_default: each forceable gate's preset value.
    """

    ns: str
    parse_config: Callable[..., Any]
    compute: Callable[[Any], Any]
    forceable: tuple[str, ...]
    force_default: Mapping[str, int]
    freeze: Callable[[int], None]
    cases: tuple[TryCase, ...]


def input_keys(ns: str) -> list[str]:
    return [f"{ns}_{k}" for k in ("source", "sentence", "x", "E", "H", "seed")]


def page_keys(ns: str, forceable: Sequence[str]) -> list[str]:
    """Every linked key of a gated page (its reset list for a 'try this' case): inputs, step, overrides."""
    forces = [f"{ns}_force_{g}{end}" for g in forceable for end in ("", "_to")]
    return [*input_keys(ns), f"{ns}_step", f"{ns}_inspect", *forces]


def read_cell_inputs(ns: str, parse_config: Callable[..., Any]) -> CellInputs:
    """Sentence or vector table, then E, H and the seed in a folded expander -> the core's validated config.

    Drawn in the narrow controls column: short labels, the long explanations in help= tooltips. A bad value
    is not shown here but by each section that needs the sequence (the picture first).
    """
    source = linked(
        st.segmented_control,
        t(f"{ns}.source_label"),
        SOURCES,
        key=f"{ns}_source",
        default="sentence",
        labels={s: t(f"{ns}.source_{s}") for s in SOURCES},
        required=True,
        help=t(f"{ns}.source_help"),
    )
    box = st.container()  # the sentence or the table, above the folded sizes
    with st.expander(t(f"{ns}.sizes"), icon=":material/tune:"):
        E = linked(st.number_input, t(f"{ns}.E_label"), key=f"{ns}_E", default=DEFAULT_E, min_value=1, max_value=MAX_E)
        H = linked(st.number_input, t(f"{ns}.H_label"), key=f"{ns}_H", default=DEFAULT_H, min_value=1, max_value=MAX_H)
        seed = linked(
            st.number_input,
            t(f"{ns}.seed_label"),
            key=f"{ns}_seed",
            default=DEFAULT_SEED,
            min_value=0,
            max_value=caps.MAX_SEED,
            help=t(f"{ns}.seed_help"),
        )
    sentence, rows = None, None
    with box:
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
        else:
            key, default = f"{ns}_sentence", default_sentence(lang())
            kept = st.session_state.get(key)
            if kept in DEFAULT_SENTENCES.values() and kept != default and key not in st.query_params:
                # The other language's untouched example (no link names it): the learner switched language.
                st.session_state[key] = default
            sentence = linked(
                st.text_input,
                t(f"{ns}.sentence_label"),
                key=key,
                default=default,  # each language's own default leaves no parameter in the link
                help=t(f"{ns}.sentence_help"),
                max_chars=caps.MAX_TEXT_CHARS,
            )
    try:
        return CellInputs(parse_config(source, sentence, rows, E, H, seed), None, int(E), int(H), int(seed))
    except InputError as err:
        return CellInputs(None, err, int(E), int(H), int(seed))


def pick_step(ns: str, labels: Sequence[str]) -> int:
    """The step to inspect, 0-based. Step labels are the learner's words: escaped (button labels are markdown)."""
    steps = list(range(1, len(labels) + 1))
    step = linked(
        st.segmented_control,
        t(f"{ns}.step_pick"),
        steps,
        key=f"{ns}_inspect",  # its own key: "<ns>_step" is the picture's step slider (s2s_ui/steps.py)
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
    force_default: Mapping[str, int],
    freeze: Callable[[int], None],
) -> dict[str, tuple[list[int], int]]:
    """Per forceable gate, one row in the narrow controls column: the steps to override and the value (0 or 1);
    then the one-click 'freeze' button."""
    steps = list(range(1, len(labels) + 1))
    raw: dict[str, tuple[list[int], int]] = {}
    for gate in forceable:
        key = f"{ns}_force_{gate}"
        picks, to = st.columns([2.2, 1], vertical_alignment="bottom")
        picked = linked(
            picks.multiselect,
            t(f"{ns}.force_steps", gate=gate),
            steps,
            key=key,
            default=[],
            labels={s: labels[s - 1] for s in steps},
            parse=int,
            placeholder=t(f"{ns}.force_placeholder"),
        )
        value = linked(
            to.segmented_control,
            t(f"{ns}.force_value"),
            [0, 1],
            key=f"{key}_to",
            default=force_default[gate],
            parse=int,
            required=True,
        )
        raw[gate] = (picked, value)
    st.button(
        t(f"{ns}.freeze"),
        key=f"{ns}_freeze",
        on_click=freeze,
        args=(len(steps),),
        disabled=len(steps) < 2,
        width="stretch",
    )
    return raw


def read_override(
    ns: str,
    config: Any,
    labels: Sequence[str],
    forceable: Sequence[str],
    force_default: Mapping[str, int],
    freeze: Callable[[int], None],
) -> Any | None:
    """The gate override beside the picture (folded in the controls column): widgets -> Forces -> the config.

    None when nothing is forced or a value is bad (named here): the picture then shows the natural run.
    """
    with st.expander(t(f"{ns}.force_heading"), icon=":material/tune:"):
        raw = read_forces(ns, labels, forceable, force_default, freeze)
        try:
            forces = parse_forces(ns, raw, forceable, config.seq.S)
        except InputError as err:
            show_error(err)
            return None
    return replace(config, forces=forces) if forces else None


def example_cases(ns: str) -> list[TryCase]:
    """The two 'try this' cases both gated pages offer: the note's Korean sentence, and typed vectors."""
    return [
        TryCase(f"{ns}.try.ko", f"{ns}.try.ko_note", {f"{ns}_sentence": DEFAULT_SENTENCES["ko"]}),
        TryCase(f"{ns}.try.table", f"{ns}.try.table_note", {f"{ns}_source": "table"}),
    ]


def page_buttons(ns: str, forceable: Sequence[str], cases: Sequence[TryCase]) -> None:
    """Under the controls: the prepared cases and the reset, both over every linked key of the page."""
    keys = page_keys(ns, forceable)
    try_this(cases, keys)
    reset_button(keys)


# ---- the cell picture (s2s_core/gated/picture.py) with the shared step control ----------------------------

PICTURE_WORDS = ("title", "description", "value", "component", "vector", "step", "path", "natural", "forced")
PICTURE_WORDS += ("before", "state", "word")


def picture_words(ns: str, language: str, forced: bool) -> dict[str, str]:
    """The picture's words in `language` (a cache argument, so read with translate, not the session's t)."""
    words = {k: translate(language, f"{ns}.picture.{k}") for k in PICTURE_WORDS}
    if forced:
        words["title"] = translate(language, f"{ns}.picture.title_forced")
    return words


def show_cell_picture(
    page: CellPage,
    config: Any,
    build: Callable[[Any, Any, str, int], dict],
    reading: Callable[[Any, int], Mapping[str, str]],
) -> None:
    """The cell picture with its step slider and Play (in the browser), the previous input faint in its strip.

    build(config, before, language, first): the page's cached spec; reading(run, step): the plain-words reading
    of a 0-based step of the run the picture shows, written under the picture for the slider's step (only that
    line reruns with a move).
    """
    ns = page.ns
    result = page.compute(config)
    run, labels = shown_run(result), result.labels
    before = before_after(f"{ns}_picture", config)
    S = config.seq.S

    def follow(event: StepEvent) -> None:
        step = min(max(event.step, 1), S) - 1
        none = t(f"{ns}.none")
        read = reading(run, step)
        st.caption(t(f"{ns}.picture.reading", step=labels[step], **{k: v or none for k, v in read.items()}))

    step_view(
        f"{ns}_step",
        lambda first: build(config, before, lang(), first),
        S,
        param=STEP_PARAM,
        default=min(2, S),
        follow=follow,
    )
    st.caption(t(f"{ns}.untrained"))


def first_screen(
    page: CellPage,
    controls: Any,
    picture: Any,
    show_picture: Callable[[Any], None],
    show_quiz: Callable[[Any], None],
) -> tuple[CellInputs, Any | None]:
    """Fills the page's frame (the columns of `explainer(ns)`, called by the page itself: see
    tests/test_architecture.py): the controls column (inputs, the gate override, the prepared cases, reset) beside
    the picture of the run with the overrides; the question right under the picture.

    Returns the inputs and the config with the overrides (None while nothing is forced) for the tabs below.
    """
    with controls:
        inputs = read_cell_inputs(page.ns, page.parse_config)
        forced_config = None  # the config with the overrides: the picture, the override tab and the code show it
        if inputs.config is not None:
            labels = page.compute(inputs.config).labels
            forced_config = read_override(
                page.ns, inputs.config, labels, page.forceable, page.force_default, page.freeze
            )
        page_buttons(page.ns, page.forceable, page.cases)
    with picture:
        guarded(lambda: show_picture(forced_config or inputs.need()))
    if inputs.config is not None:  # a bad input is named where the picture would be, not here too
        show_quiz(inputs.config)
    return inputs, forced_config
