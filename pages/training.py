"""Page: Training lab — train a tiny GRU seq2seq live; teacher forcing vs free-running, attention map, bottleneck."""

from __future__ import annotations

import time

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.training import (
    DecodeResult,
    SourceInput,
    TrainConfig,
    TrainResult,
    decode,
    parse_config,
    parse_override,
    parse_source,
    train,
    twin_config,
    what_if,
)
from s2s_core.training.charts import accuracy_chart, attention_heatmap, bottleneck_chart, loss_chart
from s2s_core.training.code import script
from s2s_core.training.compute import (
    MAX_LEN, MAX_LR, MAX_SECONDS, MAX_STEPS, MAX_TRAIN_BATCH, MAX_TRAIN_EMBED, MAX_TRAIN_HIDDEN, MIN_LR,
)
from s2s_core.training.config import ATTENTIONS, SCHEDULES, TASKS
from s2s_core.training.frames import (
    METRICS,
    attention_frame,
    bottleneck_frame,
    eval_frame,
    join_tokens,
    loss_frame,
    step_label,
    steps_frame,
)
from s2s_core.training.slot import TrainedSlot
from s2s_core.training.tasks import NUM_MAX_DIGITS, NUM_TASKS
from s2s_ui.i18n import t
from s2s_ui.linked import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    matrix_input,
    md_escape,
    notice_list,
    page_header,
    predict_then_reveal,
    show_error,
)

DEFAULT = TrainConfig()
NUM_DEFAULT_LENS = (1, 4)  # the number tasks read 1- to 4-digit numbers unless told otherwise
DEFAULT_SOURCE = {"digits": "52813907", "number": "3017"}
CHART_KEYS = ("step", "loss", "tf_ratio", "loss_title", "accuracy", "metric", "accuracy_title", "position", "weight",
              "map_title", "length", "exact", "model", "n", "bottleneck_title")
REDRAW_EVERY = 0.3  # seconds between live redraws while training (each redraw costs the trainer time)


# --- caches -----------------------------------------------------------------------------------------

@st.cache_resource(max_entries=24, show_spinner=False)
def model_slot(config: TrainConfig) -> TrainedSlot:
    """One shared, read-only place per configuration; the first session that trains fills it."""
    return TrainedSlot()


@st.cache_data(max_entries=64, show_spinner=False)
def training_specs(config: TrainConfig, steps_done: int, labels: dict[str, str], _result: TrainResult) -> dict:
    run = _result.run
    names = {m: labels[f"m_{m}"] for m in METRICS}
    return {
        "loss": loss_chart(loss_frame(run.losses), labels).to_dict(validate=False),
        "accuracy": accuracy_chart(eval_frame(run.evals, names), labels).to_dict(validate=False),
    }


@st.cache_data(max_entries=256, show_spinner=False)
def decoded(config: TrainConfig, steps_done: int, source: SourceInput, override: tuple | None,
            _result: TrainResult) -> DecodeResult:
    return decode(_result, source, override)


@st.cache_data(max_entries=256, show_spinner=False)
def what_if_decoded(config: TrainConfig, steps_done: int, source: SourceInput, override: tuple,
                    _result: TrainResult) -> DecodeResult:
    return what_if(_result, source, decoded(config, steps_done, source, None, _result), override)


@st.cache_data(max_entries=256, show_spinner=False)
def map_spec(config: TrainConfig, steps_done: int, source: SourceInput, override: tuple | None,
             labels: dict[str, str], _result: TrainResult) -> dict:
    return attention_heatmap(attention_frame(decoded(config, steps_done, source, override, _result)),
                             labels).to_dict(validate=False)


@st.cache_data(max_entries=256, show_spinner=False)
def bottleneck_spec(config: TrainConfig, steps_done: tuple[int, int], names: tuple[str, str], labels: dict[str, str],
                    _runs: tuple) -> dict:
    frame = bottleneck_frame({names[0]: _runs[0], names[1]: _runs[1]})
    return bottleneck_chart(frame, labels).to_dict(validate=False)


@st.cache_data(max_entries=256, show_spinner=False)
def code_for(config: TrainConfig, source: SourceInput | None) -> str:
    return script(config, source)  # reads and stitches the core's source files: worth keeping


def chart_labels() -> dict[str, str]:
    labels = {k: t(f"training.chart.{k}") for k in CHART_KEYS}
    labels |= {f"m_{m}": t(f"training.chart.m_{m}") for m in METRICS}
    return labels | {"step_out": t("training.chart.out_step")}


def map_labels() -> dict[str, str]:
    labels = chart_labels()
    return labels | {"step": labels["step_out"]}


def draw(where, spec: dict) -> None:
    where.vega_lite_chart(spec=spec, width="stretch")


# --- settings ---------------------------------------------------------------------------------------

def read_settings() -> TrainConfig | None:
    """Widgets -> validated config (the core re-checks every cap: a URL can carry any value)."""
    st.subheader(t("training.settings"))
    left, middle, right = st.columns(3)
    with left:
        task = linked(st.selectbox, t("training.task_label"), TASKS, key="training_task", default=DEFAULT.task,
                      labels={k: t(f"training.task_{k}") for k in TASKS}, help=t("training.task_help"))
        attention = linked(st.selectbox, t("training.attention_label"), ATTENTIONS, key="training_attention",
                           default=DEFAULT.attention, labels={k: t(f"training.attention_{k}") for k in ATTENTIONS},
                           help=t("training.attention_help"))
    with middle:
        tf_ratio = st.slider(t("training.tf_ratio_label"), 0.0, 1.0, DEFAULT.tf_ratio, 0.05, key="training_tf",
                             help=t("training.tf_ratio_help"), bind="query-params")
        schedule = linked(st.radio, t("training.schedule_label"), SCHEDULES, key="training_schedule",
                          default=DEFAULT.tf_schedule, labels={k: t(f"training.schedule_{k}") for k in SCHEDULES},
                          horizontal=True)
    with right:
        steps = st.number_input(t("training.steps_label"), 1, MAX_STEPS, DEFAULT.steps, 50, key="training_steps",
                                bind="query-params")
        seed = st.number_input(t("training.seed_label"), 0, 2**31 - 1, DEFAULT.seed, 1, key="training_seed",
                               bind="query-params")
    with st.expander(t("training.advanced"), icon=":material/tune:"):
        a, b, c = st.columns(3)
        hidden = a.number_input(t("training.hidden_label"), 2, MAX_TRAIN_HIDDEN, DEFAULT.hidden, 8, key="training_hidden",
                                bind="query-params")
        embed = a.number_input(t("training.embed_label"), 2, MAX_TRAIN_EMBED, DEFAULT.embed, 8, key="training_embed",
                               bind="query-params")
        batch = b.number_input(t("training.batch_label"), 1, MAX_TRAIN_BATCH, DEFAULT.batch, 16, key="training_batch",
                               bind="query-params")
        lr = b.number_input(t("training.lr_label"), MIN_LR, MAX_LR, DEFAULT.lr, 0.001, format="%.4f",
                            key="training_lr", bind="query-params")
        # Number tasks read at most 6 digits, so their lengths are separate widgets with their own defaults.
        if task in NUM_TASKS:
            lo_key, hi_key, lo_def, hi_def, longest = "training_num_min", "training_num_max", *NUM_DEFAULT_LENS, NUM_MAX_DIGITS
        else:
            lo_key, hi_key, lo_def, hi_def, longest = "training_min_len", "training_max_len", DEFAULT.min_len, DEFAULT.max_len, MAX_LEN
        min_len = c.number_input(t("training.min_len_label"), 1, longest, lo_def, 1, key=lo_key, bind="query-params")
        max_len = c.number_input(t("training.max_len_label"), 1, longest, hi_def, 1, key=hi_key, bind="query-params")
        max_seconds = a.number_input(t("training.max_seconds_label"), 1, int(MAX_SECONDS), int(DEFAULT.max_seconds), 5,
                                     key="training_max_seconds", bind="query-params")
    try:
        return parse_config(task=task, attention=attention, embed=embed, hidden=hidden, steps=steps, batch=batch, lr=lr,
                            tf_ratio=tf_ratio, tf_schedule=schedule, min_len=min_len, max_len=max_len, seed=seed,
                            max_seconds=max_seconds)
    except InputError as err:
        show_error(err)
        return None


# --- training with live feedback ---------------------------------------------------------------------

def train_live(slot: TrainedSlot, config: TrainConfig) -> TrainResult:
    """Train once into the shared slot, with live feedback."""
    return train_live_into(lambda on_progress: slot.get_or_train(lambda: train(config, on_progress)), config)


def train_live_into(run_training, config: TrainConfig) -> TrainResult:
    """Train with a progress bar and live loss / accuracy charts (the trainer reports through a callback)."""
    labels = chart_labels()
    names = {m: labels[f"m_{m}"] for m in METRICS}
    bar = st.progress(0.0, text=t("training.progress", step=0, total=config.steps, loss="–", seconds="0.0"))
    left, right = st.columns(2)
    loss_box, acc_box = left.empty(), right.empty()
    losses, evals = [], []
    last = [0.0]

    def on_progress(p) -> None:
        losses.append((p.step, p.loss, p.tf_ratio))
        if p.evaluation is not None:
            evals.append(p.evaluation)
        now = time.monotonic()
        if now - last[0] < REDRAW_EVERY and p.step < p.total:
            return
        last[0] = now
        bar.progress(p.step / p.total, text=t("training.progress", step=p.step, total=p.total,
                                              loss=f"{p.loss:.3f}", seconds=f"{p.seconds:.1f}"))
        draw(loss_box, loss_chart(loss_frame(losses), labels).to_dict(validate=False))
        if evals:
            draw(acc_box, accuracy_chart(eval_frame(evals, names), labels).to_dict(validate=False))

    result = run_training(on_progress)
    bar.empty()
    loss_box.empty()
    acc_box.empty()
    return result


def trained_model(config: TrainConfig, button_key: str, button_label: str, pending: str) -> TrainResult | None:
    """The cached model for config, or a button that trains it live; None until there is one."""
    slot = model_slot(config)
    if slot.result is not None:
        return slot.result
    if slot.busy:
        st.info(t("training.busy"), icon=":material/hourglass_top:")
        with st.spinner():
            return slot.get_or_train(lambda: train(config))
    holder = st.empty()
    with holder.container():
        st.info(pending, icon=":material/model_training:")
        clicked = st.button(button_label, key=button_key, type="primary", help=t("training.train_help"),
                            icon=":material/play_arrow:")
    if not clicked:
        return None
    holder.empty()  # the prompt and the button give way to the progress bar
    return train_live(slot, config)


# --- sections -----------------------------------------------------------------------------------------

def pct(x: float) -> str:
    return f"{x:.1%}"


def shown(task: str, tokens: tuple[str, ...]) -> str:
    """Tokens as the learner reads them, escaped for markdown; an immediate <eos> is named, not blank."""
    text = join_tokens(task, tokens)
    return md_escape(text) if text else t("training.empty_output")


def show_training(result: TrainResult) -> None:
    """Metrics, the loss curve, teacher-forced vs free-running accuracy, and the loss-by-hand check."""
    config, run, final = result.config, result.run, result.final
    st.subheader(t("training.training_heading"))
    st.caption(t("training.trained_line", steps=run.steps_done, seconds=f"{run.seconds:.1f}",
                 params=f"{run.n_params:,}", n=run.n_heldout))
    if run.stopped_by == "time":
        st.warning(t("training.stopped_time", seconds=f"{config.max_seconds:g}", steps=run.steps_done,
                     total=config.steps), icon=":material/timer:")
        # A run cut by the clock is the one result that depends on the machine's load: allow another try.
        if st.button(t("training.train_again"), key="training_again", icon=":material/replay:"):
            slot = model_slot(config)
            holder = st.empty()
            with holder.container():
                train_live_into(lambda cb: slot.retrain(lambda: train(config, cb)), config)
            holder.empty()
            st.rerun()
    cols = st.columns(4)
    values = (f"{run.losses[-1][1]:.4f}", pct(final.tf_token_acc), pct(final.free_token_acc), pct(final.free_exact))
    for col, name, value in zip(cols, ("loss", "tf_acc", "free_acc", "exact"), values):
        col.metric(t(f"training.metric_{name}"), value, help=t(f"training.metric_{name}_help"))
    specs = training_specs(config, run.steps_done, chart_labels(), result)
    left, right = st.columns(2)
    draw(left, specs["loss"])
    draw(right, specs["accuracy"])
    ratio = f"{config.tf_ratio:g}" if config.tf_schedule == "constant" else f"{config.tf_ratio:g} → 0"
    st.caption(t("training.loss_chart_note", ratio=ratio) + " " + t("training.chart.key_accuracy"))
    st.markdown(t("training.gap_text", tf=pct(final.tf_token_acc), free=pct(final.free_token_acc),
                  exact=pct(final.free_exact)))
    check = result.loss_check
    check_badge(t("training.loss_check_what", n_real=check.n_real), check.max_abs_diff)
    st.caption(t("training.loss_pad_note", n_pad=check.n_total - check.n_real, n_total=check.n_total,
                 loss=f"{check.torch_ignore:.4f}", with_pad=f"{check.with_pad:.4f}"))


def show_quiz(result: TrainResult) -> None:
    final = result.final
    options = [t("training.quiz_tf"), t("training.quiz_free"), t("training.quiz_equal")]
    gap = final.tf_token_acc - final.free_token_acc
    correct = options[2] if abs(gap) < 0.005 else options[0] if gap > 0 else options[1]
    predict_then_reveal("training_quiz", t("training.quiz_question"), options, correct,
                        t("training.quiz_explain", tf=pct(final.tf_token_acc), free=pct(final.free_token_acc)))


def read_source(config: TrainConfig) -> SourceInput | None:
    family = "number" if config.task in NUM_TASKS else "digits"
    label = t("training.number_label") if family == "number" else t("training.source_label")
    text = st.text_input(label, DEFAULT_SOURCE[family], key=f"training_{'number' if family == 'number' else 'source'}",
                         help=t("training.source_help"), max_chars=200, bind="query-params")
    try:
        return parse_source(config.task, text)
    except InputError as err:
        show_error(err)
        return None


def show_map(result: TrainResult, source: SourceInput) -> DecodeResult:
    """The typed source decoded: output vs expected, step table, heatmap with the seed's caution, check."""
    config = result.config
    steps_done = result.run.steps_done
    out = decoded(config, steps_done, source, None, result)
    st.markdown(t("training.output_line", output=shown(config.task, out.output),
                  expected=shown(config.task, out.expected)))
    if out.exact:
        st.success(t("training.exact_yes"), icon=":material/check:")
    else:
        st.warning(t("training.exact_no"), icon=":material/rule:")
    if not config.min_len <= len(source.digits) <= config.max_len:
        st.info(t("training.longer_note", n=len(source.digits), lo=config.min_len, hi=config.max_len))
    if out.weights is None:
        st.info(t("training.no_attention_map"), icon=":material/info:")
    else:
        left, right = st.columns([3, 2])
        draw(left, map_spec(config, steps_done, source, None, map_labels(), result))
        with right:
            st.info(t("training.caution"), icon=":material/warning:")
            st.caption(t("training.map_notice"))
            if source.n_pad:
                st.caption(t("training.pad_note", n=source.n_pad))
            check_badge(t("training.attn_check_what"), out.max_abs_diff)
    st.markdown(f"**{t('training.steps_heading')}**")
    st.caption(t("training.steps_caption"))
    columns = {k: t(f"training.col_{k}") for k in ("step", "free_in", "free_out", "tf_in", "tf_out", "nll")}
    st.dataframe(steps_frame(out, columns), hide_index=True, width="stretch")
    return out


def show_what_if(result: TrainResult, source: SourceInput, base: DecodeResult) -> None:
    """Override one step's attention weights and decode again from there."""
    st.subheader(t("training.whatif_heading"))
    st.caption(t("training.whatif_intro"))
    config = result.config
    options = list(range(1, len(base.output) + 1))
    labels = {k: step_label(k - 1, base.output[k - 1]) for k in options}
    # linked() drops a stale step (a shorter output has no such step any more).
    step = linked(st.selectbox, t("training.whatif_step_label"), options, key="training_wi_step", default=1,
                  labels=labels, parse=int)
    S = len(base.src_tokens)
    rows = matrix_input("training_wi", [["1", *["0"] * (S - 1)]], "training.field.override",
                        label=t("training.whatif_weights_label"), parse=lambda r: r, dynamic_rows=False,
                        n_cols=S, col_names=[f"s{s + 1}" for s in range(S)])
    if rows is None:
        return
    try:
        override = parse_override(base, step, rows[0])
    except InputError as err:
        show_error(err)
        return
    steps_done = result.run.steps_done
    new = what_if_decoded(config, steps_done, source, override, result)
    st.markdown(t("training.whatif_output", step=labels[step], output=shown(config.task, new.output),
                  before=shown(config.task, base.output)))
    if new.first_changed is None:
        st.info(t("training.whatif_same"))
    elif new.first_changed == override[0]:
        st.info(t("training.whatif_changed_here", step=f"t{new.first_changed + 1}"))
    else:
        st.info(t("training.whatif_changed", step=f"t{new.first_changed + 1}"))
    labels_map = map_labels() | {"map_title": t("training.whatif_map")}
    draw(st, map_spec(config, steps_done, source, override, labels_map, result))


def show_bottleneck(result: TrainResult) -> None:
    """Exact match by source length, with and without attention, same task, budget and seed."""
    st.subheader(t("training.bottleneck_heading"))
    st.caption(t("training.bottleneck_intro"))
    config = result.config
    twin = twin_config(config)
    twin_name = t(f"training.twin_name_{'none' if twin.attention == 'none' else 'with'}",
                  name=t(f"training.attention_{twin.attention}"))
    other = trained_model(twin, "training_twin", t("training.twin_button", name=twin_name),
                          t("training.twin_pending", name=twin_name))
    if other is None:
        return
    with_att, without = (result, other) if config.attention != "none" else (other, result)
    with_name = t("training.model_with", name=t(f"training.attention_{with_att.config.attention}"))
    without_name = t("training.model_without")
    draw(st, bottleneck_spec(config, (with_att.run.steps_done, without.run.steps_done), (with_name, without_name),
                             chart_labels(), (with_att.run, without.run)))
    st.caption(t("training.chart.key_bottleneck", a=with_name, b=without_name))
    longest = with_att.run.by_length[-1]
    st.markdown(t("training.bottleneck_line", length=longest[0], with_name=with_name, with_acc=pct(longest[1]),
                  without_name=without_name, without_acc=pct(without.run.by_length[-1][1])))


# --- the page -----------------------------------------------------------------------------------------

page_header("training")
config = read_settings()
if config is not None:
    result = trained_model(config, "training_train", t("training.train"),
                           t("training.press_train", steps=config.steps, seconds=f"{config.max_seconds:g}"))
    source = None
    if result is not None:
        show_training(result)
        show_quiz(result)
        st.subheader(t("training.map_heading"))
        source = read_source(config)
        if source is not None:
            base = show_map(result, source)
            if base.weights is not None:
                show_what_if(result, source, base)
        show_bottleneck(result)
notice_list([f"training.notice_{i}" for i in range(1, 6)])
if config is not None:
    code_expander(code_for(config, source), file_name="training_lab.py")
