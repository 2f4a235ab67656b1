"""Page: tensor shapes — what nn.RNN / nn.LSTM / nn.GRU return, axis by axis, from a real forward pass."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import sci
from s2s_core.shapes import ShapesConfig, ShapesResult, parse_config, run_shapes
from s2s_core.shapes.bridge import BridgeConfig, BridgeResult, BridgeStep, bridge_view, parse_bridge
from s2s_core.shapes.charts import packed_chart, padding_diff_chart, padding_error_chart
from s2s_core.shapes.checks import EqualityCheck, equality_checks
from s2s_core.shapes.code import script
from s2s_core.shapes.failures import KINDS, FailureDemo, failure_demo
from s2s_core.shapes.frames import (
    packed_frame,
    padding_error_frame,
    padding_states_frame,
    shape_text,
)
from s2s_core.shapes.model import CELLS
from s2s_core.shapes.padding import PaddingResult, padding_notice, padding_view
from s2s_core.shapes.picture import picture_frames, shape_picture
from s2s_core.shapes.quiz import ShapeQuestion, grade, make_question, question_code
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
    show_error,
)

KEYS = (
    "shapes_cell",
    "shapes_batch_first",
    "shapes_bidirectional",
    "shapes_packed",
    "shapes_B",
    "shapes_S",
    "shapes_E",
    "shapes_H",
    "shapes_num_layers",
    "shapes_proj_size",
    "shapes_seed",
    "shapes_lengths",
)
DEFAULT = ShapesConfig()
QUIZ = "shapes_predict"
LENGTHS_FIELD = "shapes.field.lengths"
CASES = [
    TryCase("shapes.try.padded", "shapes.try.padded_note", {"shapes_lengths": "3, 1"}),
    TryCase("shapes.try.packed", "shapes.try.packed_note", {"shapes_lengths": "3, 1", "shapes_packed": "true"}),
    TryCase("shapes.try.time_first", "shapes.try.time_first_note", {"shapes_batch_first": "false"}),
    TryCase(
        "shapes.try.stacked",
        "shapes.try.stacked_note",
        {"shapes_num_layers": "2", "shapes_bidirectional": "true"},
    ),
]


# --- cached computations (keyed by frozen configs, never by tensors) ---------------------------------


@cached_result(max_entries=128)
def compute(config: ShapesConfig) -> ShapesResult:
    return run_shapes(config)


@cached_result(max_entries=128)
def views(config: ShapesConfig) -> tuple[PaddingResult, tuple[EqualityCheck, ...], str]:
    result = compute(config)
    return padding_view(result), equality_checks(result), script(result)


@cached_spec(max_entries=128)
def chart_specs(config: ShapesConfig, language: str) -> Any:
    """Every chart of the page as a Vega-Lite dict, built once per (config, language)."""
    result, (padding, _, _) = compute(config), views(config)

    def labels(prefix: str, names: tuple[str, ...]) -> dict[str, str]:
        return {n: translate(language, f"shapes.{prefix}.{n}") for n in names}

    pad_labels = labels(
        "padding.chart",
        (
            "title",
            "sentence",
            "error",
            "length",
            "method",
            "method_through_pad",
            "method_gathered",
            "method_packed",
            "unit",
            "difference",
            "through_pad",
            "true_last",
            "diff_title",
        ),
    )
    packed_labels = labels("packed.chart", ("title", "step", "sentence", "token", "row", "pad", "real"))
    return {
        "errors": padding_error_chart(padding_error_frame(padding), pad_labels),
        "diff": padding_diff_chart(padding_states_frame(padding), pad_labels | {"title": pad_labels["diff_title"]}),
        "packed": packed_chart(packed_frame(result), packed_labels),
    }


PICTURE_KEYS = (
    "title",
    "description",
    "pad",
    "slice",
    "tensor",
    "index",
    "packed_row",
    "step",
    "batch_size",
    "sentence",
)


@cached_spec(max_entries=128)
def picture_spec(config: ShapesConfig, language: str, answered: bool) -> Any:
    """The blocks picture; once the question is answered, whether the two outlined slices are equal."""
    result, (_, checks, _) = compute(config), views(config)
    labels = {k: translate(language, f"shapes.picture.{k}") for k in PICTURE_KEYS}
    last = next(ch for ch in checks if ch.key == "last_step")
    labels["slice"] = translate(language, "shapes.picture.slice", lhs=last.lhs, rhs=last.rhs)
    labels["packed"] = translate(language, "shapes.picture.packed", rows=sum(config.lengths), E=config.E)
    verdict = translate(language, f"shapes.picture.{'equal' if last.equal else 'not_equal'}") if answered else None
    return shape_picture(picture_frames(result), labels, verdict)


@cached_result(max_entries=128)
def bridge(config: ShapesConfig, decoder: BridgeConfig) -> BridgeResult:
    return bridge_view(compute(config), decoder)


@cached_result(max_entries=128)
def failure(config: ShapesConfig, kind: str) -> FailureDemo | None:
    return failure_demo(config, kind)


@cached_result(max_entries=256)
def question(number: int, salt: int) -> ShapeQuestion:
    return make_question(number, salt)


# --- inputs -----------------------------------------------------------------------------------------


def failure_labels() -> dict[str, str]:
    return {k: t(f"shapes.fail.option.{k}") for k in KINDS}


def read_inputs() -> tuple[ShapesConfig | None, InputError | None]:
    """Widgets -> (validated config, the lengths field's error).

    A bad length only stops what needs the lengths (padding, packing, the checks, the code): the layer
    itself still runs with every sentence at its full length S, and the error is returned.
    """
    cell = linked(
        st.segmented_control,
        t("shapes.field.cell"),
        list(CELLS),
        key="shapes_cell",
        default=DEFAULT.cell,
        required=True,
        help=t("shapes.help.cell"),
    )
    flags = {}
    for name in ("batch_first", "bidirectional", "packed"):
        flags[name] = linked(
            st.toggle,
            t(f"shapes.field.{name}"),
            key=f"shapes_{name}",
            default=getattr(DEFAULT, name),
            help=t(f"shapes.help.{name}"),
        )
    sizes = {}
    for row in (("B", "S"), ("E", "H")):
        for col, name in zip(st.columns(2), row, strict=True):
            top = {"B": caps.MAX_BATCH, "S": caps.MAX_SEQ_LEN, "E": caps.MAX_EMBED, "H": caps.MAX_HIDDEN}[name]
            sizes[name] = linked(
                col.number_input,
                t(f"shapes.field.{name}"),
                key=f"shapes_{name}",
                default=getattr(DEFAULT, name),
                min_value=1,
                max_value=top,
            )
    lengths = linked(
        st.text_input,
        t("shapes.field.lengths"),
        key="shapes_lengths",
        default="",
        placeholder="3, 1",
        max_chars=caps.MAX_TEXT_CHARS,
        help=t("shapes.help.lengths") + " " + t("shapes.lengths_note"),
    )
    with st.expander(t("shapes.more_settings"), icon=":material/tune:"):
        layers = linked(
            st.number_input,
            t("shapes.field.num_layers"),
            key="shapes_num_layers",
            default=DEFAULT.num_layers,
            min_value=1,
            max_value=caps.MAX_LAYERS,
        )
        proj = linked(
            st.number_input,
            t("shapes.field.proj_size"),
            key="shapes_proj_size",
            default=DEFAULT.proj_size,
            min_value=0,
            max_value=caps.MAX_HIDDEN,
            help=t("shapes.help.proj_size"),
            disabled=cell != "LSTM",
        )
        seed = linked(
            st.number_input,
            t("shapes.field.seed"),
            key="shapes_seed",
            default=DEFAULT.seed,
            min_value=0,
            max_value=caps.MAX_SEED,
            help=t("shapes.help.seed"),
        )
        if cell != "LSTM" and proj:
            st.caption(t("shapes.proj_disabled", cell=cell))
    settings = dict(cell=cell, num_layers=layers, proj_size=proj, seed=seed, **flags, **sizes)
    try:
        return parse_config(lengths=lengths, **settings), None
    except InputError as err:
        if err.field != LENGTHS_FIELD:
            show_error(err)
            return None, None
        lengths_error = err
    show_error(lengths_error)
    try:
        return parse_config(lengths="", **settings), lengths_error
    except InputError as err:
        show_error(err)
        return None, lengths_error


# --- sections -----------------------------------------------------------------------------------


def show_picture(config: ShapesConfig, lengths_error: InputError | None) -> None:
    """The main picture: every tensor as a row of axis blocks. Packed shapes depend on the lengths."""
    if lengths_error is not None and config.packed:
        st.caption(t("shapes.needs_lengths"))
        return
    draw(st, picture_spec(config, lang(), revealed(QUIZ)))


def show_shapes(config: ShapesConfig, result: ShapesResult) -> None:
    st.caption(t("shapes.defaults_note"))
    st.markdown(t("shapes.legend"))
    head = [t(f"shapes.shapes.col_{c}") for c in ("tensor", "axes", "shape", "what")]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|---|"]
    for s in result.shapes:
        what = t(f"shapes.shapes.what_{s.name.replace('.', '_')}")
        rows.append(f"| `{s.name}` | `({', '.join(s.axes)})` | `{shape_text(s.shape)}` | {what} |")
    st.markdown("\n".join(rows))
    st.info(
        t("shapes.shapes.batch_first_true" if config.batch_first else "shapes.shapes.batch_first_false"),
        icon=":material/swap_horiz:",
    )


def after_quiz() -> bool:
    """The checks and the padding comparison state the question's answer: they wait for it."""
    if revealed(QUIZ):
        return True
    st.info(t("shapes.after_quiz"), icon=":material/quiz:")
    return False


def show_predict(checks: tuple[EqualityCheck, ...]) -> None:
    """Predict, then reveal: does the last step's output equal h_n[-1] under the current settings?"""
    last = next(ch for ch in checks if ch.key == "last_step")
    yes, no = t("shapes.predict.yes"), t("shapes.predict.no")
    predict_then_reveal(
        QUIZ,
        t("shapes.predict.question", lhs=last.lhs),
        [yes, no],
        yes if last.equal else no,
        verdict_text(last),
    )


def verdict_text(ch: EqualityCheck) -> str:
    """ "`lhs` vs `rhs` — equal, max |difference| = …" plus the note that explains this case."""
    if ch.max_abs_diff is None:
        detail = t("shapes.check.shape_mismatch", lhs=shape_text(ch.lhs_shape), rhs=shape_text(ch.rhs_shape))
    else:
        detail = t("shapes.check.diff", diff=sci(ch.max_abs_diff))
    badge = f":green-badge[{t('shapes.check.equal')}]" if ch.equal else f":orange-badge[{t('shapes.check.differ')}]"
    return (
        f"`{ch.lhs}` {shape_text(ch.lhs_shape)} · `{ch.rhs}` {shape_text(ch.rhs_shape)} — {badge} {detail}\n\n"
        f"{t(f'shapes.check.{ch.key}.{ch.note}')}"
    )


def show_checks(checks: tuple[EqualityCheck, ...]) -> None:
    st.subheader(t("shapes.check.heading"))
    st.caption(t("shapes.check.intro"))
    if not after_quiz():
        return
    for ch in checks:
        with st.container(border=True):
            st.markdown(f"**{t(f'shapes.check.{ch.key}.title')}**")
            st.markdown(verdict_text(ch))
            if ch.key == "true_last":
                st.caption(t("shapes.check.alone"))


def show_padding(config: ShapesConfig, padding: PaddingResult, specs: dict[str, dict]) -> None:
    st.subheader(t("shapes.padding.heading"))
    st.caption(t("shapes.padding.intro"))
    if not config.padded:
        st.info(t("shapes.padding.no_padding"), icon=":material/info:")
        return
    if not after_quiz():
        return
    left, right = st.columns(2)
    with left:
        draw(st, specs["errors"])
    with right:
        draw(st, specs["diff"])
    st.markdown(t("shapes.padding.fixes"))
    if not padding.gather_exact:
        st.warning(t("shapes.padding.gather_not_enough", diff=sci(padding.gather_max_diff)), icon=":material/warning:")
    else:
        check_badge(t("shapes.padding.gather_what"), padding.gather_max_diff)
    check_badge(t("shapes.padding.packed_what"), padding.packed_max_diff)
    backward = max(padding.backward_pad_err)
    if config.bidirectional and backward > 1e-5:
        st.caption(t("shapes.padding.backward_note", diff=sci(backward)))


def show_packed(config: ShapesConfig, result: ShapesResult, specs: dict[str, dict]) -> None:
    st.subheader(t("shapes.packed.heading"))
    st.markdown(t("shapes.packed.intro"))
    st.markdown(
        "\n".join(
            [
                "- "
                + t(
                    "shapes.packed.data",
                    shape=f"`{shape_text(tuple(result.packed_data.shape))}`",
                    total=sum(config.lengths),
                ),
                "- " + t("shapes.packed.batch_sizes", value=f"`{list(result.batch_sizes)}`"),
                "- " + t("shapes.packed.sorted_indices", value=f"`{list(result.sorted_indices)}`"),
                "- " + t("shapes.packed.unsorted_indices", value=f"`{list(result.unsorted_indices)}`"),
            ]
        )
    )
    draw(st, specs["packed"])
    st.caption(t("shapes.packed.enforce_sorted"))
    if not config.packed:
        st.caption(t("shapes.packed.not_run"))


def _bridge_code(steps: tuple[BridgeStep, ...]) -> str:
    """The bridge as code; above each line, a comment with its real shape and what it does (phone-friendly)."""
    return "\n".join(f"# {shape_text(s.shape)}  {t(f'shapes.bridge.step.{s.key}')}\n{s.code}" for s in steps)


def show_bridge(config: ShapesConfig) -> None:
    st.subheader(t("shapes.bridge.heading"))
    st.caption(t("shapes.bridge.intro"))
    left, right = st.columns(2)
    layers = linked(
        left.number_input,
        t("shapes.field.dec_layers"),
        key="shapes_dec_layers",
        default=1,
        min_value=1,
        max_value=caps.MAX_LAYERS,
    )
    hidden = linked(
        right.number_input,
        t("shapes.field.dec_hidden"),
        key="shapes_dec_hidden",
        default=8,
        min_value=1,
        max_value=caps.MAX_HIDDEN,
    )
    try:
        decoder = parse_bridge(layers, hidden)
    except InputError as err:
        show_error(err)
        return
    b = bridge(config, decoder)
    if b.naive_error is None:
        st.success(t("shapes.bridge.naive_ok"), icon=":material/check_circle:")
    else:
        st.markdown(t("shapes.bridge.naive_error"))
        st.code(f"{b.naive_error_type}: {b.naive_error}", language="text", wrap_lines=True)
    st.markdown(f"**{t('shapes.bridge.h_heading')}**")
    st.code(_bridge_code(b.steps), language="python", wrap_lines=True)
    if b.cell_steps:
        st.markdown(f"**{t('shapes.bridge.c_heading')}**")
        st.code(_bridge_code(b.cell_steps), language="python", wrap_lines=True)
    st.success(
        t(
            "shapes.bridge.decoder_ok",
            out=f"`{shape_text(tuple(b.decoder_output.shape))}`",
            h=f"`{shape_text(tuple(b.decoder_h_n.shape))}`",
        ),
        icon=":material/check_circle:",
    )
    if b.needs_linear:
        st.caption(t("shapes.bridge.linear_note"))


def show_failure(config: ShapesConfig) -> None:
    st.subheader(t("shapes.fail.heading"))
    st.caption(t("shapes.fail.intro"))
    # The link holds the raw kind ("wrong_e"), not its translated label: it opens in either language.
    kind = linked(
        st.selectbox, t("shapes.field.failure"), KINDS, key="shapes_failure", default="none", labels=failure_labels()
    )
    try:
        demo = failure(config, kind)
    except InputError as err:
        show_error(err)
        return
    if demo is None:
        return
    st.markdown(f"**{t('shapes.fail.code')}**")
    st.code(demo.code, language="python", wrap_lines=True)
    if demo.raised:
        st.markdown(t("shapes.fail.says", type=demo.error_type))
        st.code(demo.message, language="text", wrap_lines=True)
    st.info(t(f"shapes.fail.{demo.kind}.{demo.note}", n=config.B), icon=":material/lightbulb:")
    if demo.states:
        st.markdown(t("shapes.fail.wrong_h0.expected"))
        st.code("\n".join(f"{name}: {shape_text(shape)}" for name, shape in demo.states), language="text")
    if demo.silent:
        st.markdown(t("shapes.fail.silent") if not demo.raised else t("shapes.fail.input_2d.without_h0"))
        st.code("\n".join(f"{name}: {shape_text(shape)}" for name, shape in demo.silent), language="text")


def _next_question() -> None:
    st.session_state["shapes_quiz_n"] += 1


def _grade_answer(n: int, q: ShapeQuestion) -> None:
    """Form callback: grade once and keep the verdict in session state (it survives any later rerun)."""
    state = st.session_state
    try:
        g = grade(q, state.get(f"shapes_quiz_answer_{n}"))
    except InputError as err:
        state["shapes_quiz_result"] = (n, err)
        return
    state["shapes_quiz_first"].setdefault(n, g.correct)  # only the first try counts towards the score
    state["shapes_quiz_result"] = (n, g)


def show_quiz() -> None:
    """Predict the shape: a random layer per question, graded by a real forward pass, scored per session."""
    state = st.session_state
    state.setdefault("shapes_quiz_salt", secrets.randbelow(1_000_000))
    state.setdefault("shapes_quiz_n", 1)
    state.setdefault("shapes_quiz_first", {})  # question number -> was the first answer right?
    n = state["shapes_quiz_n"]
    q = question(n, state["shapes_quiz_salt"])
    st.subheader(t("shapes.quiz.heading"))
    st.caption(t("shapes.quiz.intro"))
    with st.container(border=True):
        st.markdown(t("shapes.quiz.setup", B=q.config.B, S=q.config.S, E=q.config.E))
        st.code(question_code(q), language="python", wrap_lines=True)
        st.markdown(t("shapes.quiz.question_x") if q.tensor == "x" else t("shapes.quiz.question", tensor=q.tensor))
        with st.form(f"shapes_quiz_form_{n}", border=False):
            st.text_input(
                t("shapes.field.quiz_answer"),
                key=f"shapes_quiz_answer_{n}",
                placeholder=t("shapes.quiz.placeholder"),
                max_chars=60,
            )
            st.form_submit_button(t("shapes.quiz.submit"), on_click=_grade_answer, args=(n, q))
        shown_n, verdict = state.get("shapes_quiz_result", (None, None))
        if shown_n == n and isinstance(verdict, InputError):
            show_error(verdict)
        elif shown_n == n:
            if verdict.correct:
                st.success(t("shapes.quiz.right", expected=shape_text(verdict.expected)), icon=":material/target:")
            else:
                st.warning(
                    t("shapes.quiz.wrong", given=shape_text(verdict.given), expected=shape_text(verdict.expected)),
                    icon=":material/search:",
                )
            st.markdown(t(f"shapes.quiz.hint.{verdict.hint}"))
        first = state["shapes_quiz_first"]
        st.markdown(t("shapes.quiz.score", right=sum(first.values()), asked=len(first)))
        st.button(t("shapes.quiz.next"), key="shapes_quiz_next", on_click=_next_question)


# --- the page -----------------------------------------------------------------------------------


def needs_lengths(lengths_error: InputError | None, section: Callable[[], object]) -> Callable[[], object]:
    """A tab that needs valid lengths: with a bad lengths field it names the field (the tab's guard shows it)."""

    def draw_section() -> object:
        if lengths_error is not None:
            raise lengths_error
        return section()

    return draw_section


def show_notice(config: ShapesConfig, padding: PaddingResult) -> None:
    n4 = padding_notice(config.padded, padding)
    # The padding line says which state is right: part of the question's answer.
    points = ("n1", "n2", "n3", n4, "n5") if revealed(QUIZ) else ("n1", "n2", "n3", "n5")
    notice_list([f"shapes.notice.{n}" for n in points], diff=sci(padding.gather_max_diff))


controls, picture = explainer("shapes")
with controls:
    config, lengths_error = read_inputs()
    try_this(CASES, KEYS)
    reset_button(list(KEYS))
if config is not None:
    result = compute(config)
    padding, checks, code = views(config)
    with picture:
        show_picture(config, lengths_error)
        if lengths_error is None:
            show_predict(checks)
    specs = chart_specs(config, lang())
    details(
        [
            ("ui.tab_tables", lambda: show_shapes(config, result)),
            ("ui.tab_check", needs_lengths(lengths_error, lambda: show_checks(checks))),
            ("shapes.tab_padding", needs_lengths(lengths_error, lambda: show_padding(config, padding, specs))),
            ("shapes.tab_packed", needs_lengths(lengths_error, lambda: show_packed(config, result, specs))),
            ("shapes.tab_bridge", lambda: show_bridge(config)),
            ("shapes.tab_failure", lambda: show_failure(config)),
            ("shapes.tab_quiz", show_quiz),
            ("ui.tab_notice", needs_lengths(lengths_error, lambda: show_notice(config, padding))),
            ("ui.tab_code", needs_lengths(lengths_error, lambda: code_expander(code, file_name=t("shapes.file_name")))),
        ],
        key="shapes_tabs",
    )
else:
    with st.container():
        show_quiz()  # the shape quiz draws its own random layers: it needs none of the inputs above
