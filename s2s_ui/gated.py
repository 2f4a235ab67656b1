"""What the two gated-cell pages (LSTM, GRU) draw alike: the inputs and the gate override beside the picture,
the cell picture with its step slider, and the tabs that differ only by namespace.

Every widget is one of the page's fields (s2s_core/<ns>/fields.py, built by s2s_core/gated/fields.py) drawn
through the page's registry (s2s_ui/state.Page), so the link, Reset and Try-this know it. The namespace
("lstm" or "gru") prefixes every key and catalog key; the math stays in s2s_core.<ns>.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, vec
from s2s_core.gated.fields import DEFAULT_SENTENCES, DEFAULT_VECTORS, SOURCES, GatedFields, step_or_text
from s2s_core.gated.forcing import parse_forces
from s2s_core.gated.frames import first_difference, gate_range, weight_rows
from s2s_core.gated.inputs import parse_sizes
from s2s_core.gated.picture import STEP_PARAM, shown_run
from s2s_core.own_weights import OwnWeights
from s2s_ui.charts import draw
from s2s_ui.explainer import before_after
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.own_weights import read_own
from s2s_ui.state import Page, TryCase
from s2s_ui.steps import StepEvent
from s2s_ui.widgets import check_badge, md_escape, show_error


@dataclass(frozen=True)
class Sizes:
    """E, H and the seed: usable while the sentence or a table cell is bad (the weights and counts need no more);
    own: the learner's uploaded weights, which decide E and H (None: the seeded module's)."""

    E: int
    H: int
    seed: int
    own: OwnWeights | None = None


@dataclass(frozen=True)
class Cell:
    """What one gated page plugs into the shared pieces.

    model: the cell's s2s_core.<ns>.compute, whose parse_config, GATES, SIGMOIDS, FREEZE and FREEZE_FROM are read here
    (the freeze button's preset: each of FREEZE's gates forced to its value from step FREEZE_FROM on); frames:
    its s2s_core.<ns>.frames, whose equations, step_table, reading and STATES (what the cell carries) are read.
    Both cells' modules hold these names (tests/core/test_gru.py checks it).
    compute(config): the page's cached run (a result with `labels`, `run` and `forced`); weights(E, H, seed): its
    cached module weights; figure(kind, config, step, where): draws one of its figures.
    """

    page: Page
    fields: GatedFields
    model: ModuleType
    frames: ModuleType
    compute: Callable[[Any], Any]
    weights: Callable[[int, int, int], Any]
    figure: Callable[..., None]

    @property
    def ns(self) -> str:
        return self.page.ns


# --- the controls column ---------------------------------------------------------------------------------


def read_inputs(cell: Cell) -> tuple[Parsed[Any], Sizes]:
    """Sentence or vector table, then E, H and the seed in a folded expander -> the core's config, or its error.

    Drawn in the narrow controls column: short labels, the long explanations in help= tooltips. A bad value is
    not shown here but by each section that needs the sequence (the picture first).
    """
    ns, page, f = cell.ns, cell.page, cell.fields
    source = page.input(
        f.source,
        st.segmented_control,
        label=t(f"{ns}.source_label"),
        labels={s: t(f"{ns}.source_{s}") for s in SOURCES},
        required=True,
        help=t(f"{ns}.source_help"),
    )
    box = st.container()  # the sentence or the table, above the folded sizes and the learner's own weights
    sizes_box = st.expander(t(f"{ns}.sizes"), icon=":material/tune:")
    own = read_own(ns, ns)
    with sizes_box:
        if own is None:
            E = page.input(f.E, st.number_input)
            H = page.input(f.H, st.number_input)
        else:  # the file decides the sizes: the fields are not drawn (their link values wait for the file's removal)
            E, H = own.E, own.H
            st.caption(t("own.sizes_from_file", E=E, H=H))
        seed = page.input(f.seed, st.number_input, help=t(f"{ns}.seed_help"))
    sizes = Sizes(*parse_sizes(f, E, H, seed), own=own)  # in range: a number field returns a value within its caps
    sentence, rows = None, None
    with box:
        if source == "table":
            rows = page.table(
                f.x,
                DEFAULT_VECTORS,
                lambda r: r,  # the core checks the cells with the rest of the input (parse_config)
                label=t(f"{ns}.vectors_label"),
                n_cols=sizes.E,
                col_names=[f"x{i + 1}" for i in range(sizes.E)],
            )
        else:
            sentence = page.input(f.sentence, st.text_input, help=t(f"{ns}.sentence_help"))
    return Parsed.of(lambda: cell.model.parse_config(source, sentence, rows, E, H, seed, own=own)), sizes


def read_override(cell: Cell, config: Any) -> Any | None:
    """The gate override (folded in the controls column): per forceable gate the steps to force and the value,
    then the one-click freeze -> the config with those overrides.

    None when nothing is forced or a value is bad (named here): the picture then shows the natural run.
    """
    ns, labels = cell.ns, cell.compute(config).labels
    steps = list(range(1, len(labels) + 1))
    with st.expander(t(f"{ns}.force_heading"), icon=":material/tune:"):
        raw: dict[str, tuple[list[int], int]] = {}
        # Stacked, each at the column's full width: the steps as chips that wrap (every word readable, none cut
        # off as in a multiselect's box), the value 0 | 1 under them (beside the chips, a narrow column cut it).
        for override in cell.fields.overrides:
            picked = cell.page.input(
                override.steps,
                st.pills,
                label=t(f"{ns}.force_steps", gate=override.gate),
                options=steps,
                labels={s: md_escape(labels[s - 1]) for s in steps},  # the learner's words: chips are markdown
                decode=step_or_text,  # a link's "2,3,9,x" keeps 2 and 3 and names the rest
                selection_mode="multi",
            )
            value = cell.page.input(override.to, st.segmented_control, label=t(f"{ns}.force_value"), required=True)
            raw[override.gate] = (picked, value)
        st.button(
            t(f"{ns}.freeze"),
            key=f"{ns}_freeze",
            on_click=freeze,
            args=(cell, len(steps)),
            disabled=len(steps) < 2,
            width="stretch",
        )
        forces = Parsed.of(lambda: parse_forces(cell.fields, raw, len(steps)))
        if forces.error is not None:
            show_error(forces.error)
    return replace(config, forces=forces.value) if forces.value else None


def freeze(cell: Cell, S: int) -> None:
    """The freeze button's callback (it runs before the widgets are drawn): the preset's gates forced to their
    values from its first step to S, the other gates' overrides cleared; written through the page's registry
    (session and link), so the widgets draw the new values."""
    preset = cell.model.FREEZE
    later = list(range(cell.model.FREEZE_FROM, S + 1))
    for override in cell.fields.overrides:
        cell.page.remember(override.steps, later if override.gate in preset else [])
        if override.gate in preset:
            cell.page.remember(override.to, int(preset[override.gate]))


def example_cases(cell: Cell) -> list[TryCase]:
    """The two 'try this' cases both gated pages offer: the note's Korean sentence, and typed vectors."""
    ns, f = cell.ns, cell.fields
    return [
        TryCase(f"{ns}.try.ko", f"{ns}.try.ko_note", {f.sentence.key: DEFAULT_SENTENCES["ko"]}),
        TryCase(f"{ns}.try.table", f"{ns}.try.table_note", {f.source.key: "table"}),
    ]


def first_screen(
    cell: Cell,
    frame: tuple[Any, Any],
    show_picture: Callable[[Any], None],
    show_quiz: Callable[[Any], None],
    cases: Sequence[TryCase],
) -> tuple[Parsed[Any], Sizes, Any | None]:
    """Fills the page's frame (the columns of `explainer(ns)`, called by the page itself: see
    tests/test_architecture.py): the controls column (inputs, the gate override, the prepared cases, reset) beside
    the picture of the run with the overrides; the question right under the picture.

    Returns the parsed inputs, the sizes and the config with the overrides (None while nothing is forced).
    """
    controls, picture = frame
    with controls:
        parsed, sizes = read_inputs(cell)
        forced = read_override(cell, parsed.value) if parsed.ok else None
        cell.page.buttons(cases)
    with picture:  # a bad input: its message once, the last good picture faded under it (s2s_ui/kept.py)
        live = kept_picture(cell.page, lambda: forced or parsed.need(), show_picture)
    if live is not None:  # the question only for the live input, never for the faded picture
        show_quiz(parsed.value)
    return parsed, sizes, forced


# --- the cell picture (s2s_core/gated/picture.py) with the shared step control -------------------------------


def show_cell_picture(cell: Cell, config: Any, build: Callable[[Any, Any, str, int], dict]) -> None:
    """The cell picture with its step slider and Play (in the browser), the previous input faint in its strip.

    build(config, before, language, first): the page's cached spec. Under the picture, the plain-words reading
    of the slider's step of the run the picture shows (only that line reruns with a move).
    """
    ns = cell.ns
    result = cell.compute(config)
    run, labels = shown_run(result), result.labels
    before = before_after(f"{ns}_picture", config)
    S = config.seq.S

    def follow(event: StepEvent) -> None:
        step = min(max(event.step, 1), S) - 1
        none = t(f"{ns}.none")
        read = cell.frames.reading(run, step)
        st.caption(t(f"{ns}.picture.reading", step=labels[step], **{k: v or none for k, v in read.items()}))

    cell.page.step(
        cell.fields.step, lambda first: build(config, before, lang(), first), S, param=STEP_PARAM, follow=follow
    )
    lo, hi = gate_range(result.run, cell.model.SIGMOIDS)  # the natural run's gates (a forced one is 0 or 1)
    st.caption(t("own.gates_range" if config.own is not None else f"{ns}.untrained", lo=num(lo), hi=num(hi)))
    if config.own is not None:  # the learner's weights: their check against the module, right under the picture
        check_badge(t(f"{ns}.check_what"), result.max_abs_diff, tol=1e-9)


def draw_all(specs: Sequence[dict], where: Sequence[Any] | None = None) -> None:
    """Every chart of one figure, one under the other (in `where`'s columns when given)."""
    for spec, place in zip(specs, where or [st.container()] * len(specs), strict=True):
        draw(place, spec)


# --- the tabs both pages show alike ----------------------------------------------------------------------------


def show_step(cell: Cell, config: Any) -> None:
    """One step by hand: the filled-in equations, its bars, its table and the plain-words reading."""
    ns, result = cell.ns, cell.compute(config)
    labels, run = result.labels, result.run
    steps = list(range(1, len(labels) + 1))
    picked = cell.page.input(
        cell.fields.inspect,
        st.segmented_control,
        options=steps,
        labels={s: md_escape(labels[s - 1]) for s in steps},  # the learner's words: button labels are markdown
        required=True,
    )
    step = int(picked) - 1
    st.caption(t(f"{ns}.equations_caption"))
    st.code("\n".join(cell.frames.equations(result, run, step)), language=None, wrap_lines=True)
    cell.figure("step", config, step, where=st.columns(2))
    left, right = st.columns([3, 2])
    with left:
        st.caption(t(f"{ns}.table_caption"))
        st.dataframe(cell.frames.step_table(run, step), hide_index=True, width="stretch")
    with right:
        none = t(f"{ns}.none")
        st.markdown(f"**{t(f'{ns}.reading_title', step=step + 1)}**")
        read = cell.frames.reading(run, step)
        st.markdown("\n".join(f"- {t(f'{ns}.reading_{k}', list=v or none)}" for k, v in read.items()))


def show_override(cell: Cell, config: Any, forced_config: Any | None) -> None:
    """The override experiment's results (its controls sit beside the picture): both runs' states."""
    ns = cell.ns
    st.caption(t(f"{ns}.override_intro"))
    if forced_config is None:
        st.info(t(f"{ns}.override_none"), icon=":material/touch_app:")
        return
    natural = cell.compute(config).run
    forced = cell.compute(forced_config).forced
    cell.figure("override", forced_config)
    runs = {"nat": natural, "for": forced}
    ends = {f"{s}_{tag}": vec(getattr(run, s)[-1]) for s in cell.frames.STATES for tag, run in runs.items()}
    st.markdown(t(f"{ns}.override_result", **ends))
    first = first_difference(natural, forced)
    st.caption(t(f"{ns}.override_same") if first is None else t(f"{ns}.override_first", step=first + 1))
    with st.expander(t(f"{ns}.forced_gates")):
        cell.figure("forced_gates", forced_config)


def show_weights(cell: Cell, sizes: Sizes) -> None:
    """The module's input weights by gate block: needs only E, H and the seed (drawn while the sentence is bad)."""
    ns = cell.ns
    if sizes.own is not None:
        mine = sizes.own.tensors()
        weight_ih, weight_hh = mine["weight_ih_l0"], mine["weight_hh_l0"]  # (kH, E), (kH, H)
    else:
        weight_ih, weight_hh = cell.weights(sizes.E, sizes.H, sizes.seed)
    st.subheader(t(f"{ns}.weights_heading"))
    shapes = {"ih_shape": " × ".join(map(str, weight_ih.shape)), "hh_shape": " × ".join(map(str, weight_hh.shape))}
    st.caption(t(f"{ns}.weights_caption", **shapes))
    st.caption(t(f"{ns}.weights_table_caption"))
    st.dataframe(weight_rows(weight_ih, cell.model.GATES, t(f"{ns}.block")), hide_index=True, width="stretch")
