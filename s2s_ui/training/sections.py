"""What the Training lab shows under its picture: the quiz, metrics and curves, the map's details, the what-if
override, the bottleneck measured against a twin model without (or with) attention, the check and the notes. A tab
that needs a trained model says so until there is one."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from s2s_core.fields import Field, Parsed
from s2s_core.fmt import num, pct
from s2s_core.training import DecodeResult, SourceInput, parse_override, twin_config
from s2s_core.training.compute import quiz_answer
from s2s_core.training.frames import step_label, steps_frame
from s2s_core.training.notes import (
    bottleneck_reading,
    cut_short,
    loss_pad_key,
    map_notice,
    map_reading,
    quiz_keys,
    survival_reading,
)
from s2s_core.training.tasks import NAMES_TASK
from s2s_jobs import jobs
from s2s_jobs.jobs import DONE, JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.state import Page
from s2s_ui.training.live import QUIZ, trained_model
from s2s_ui.training.picture import shown
from s2s_ui.training.specs import (
    bottleneck_spec,
    chart_labels,
    decoded,
    draw,
    map_labels,
    map_spec,
    survival,
    survival_spec,
    trained_point,
    training_specs,
    what_if_decoded,
)
from s2s_ui.widgets import check_badge, notice_list, predict_then_reveal, revealed, show_error


def with_model(done: JobSnapshot | None, show: Callable[[JobSnapshot], object], ns: str = "training") -> None:
    """A tab about the trained model: drawn from the finished job, or a note that there is none yet."""
    if done is None:
        st.info(t(f"{ns}.needs_model"), icon=":material/model_training:")
        return
    show(done)


def show_accuracy(done: JobSnapshot) -> None:
    """The metrics and the teacher-forced vs free-running curves: the quiz's answer, so drawn once it is out."""
    result = done.result
    config, run, final = result.config, result.run, result.final
    ratio = num(config.tf_ratio) if config.tf_schedule == "constant" else f"{num(config.tf_ratio)} → 0"
    if cut_short(run):  # every figure below is of the shorter run the clock allowed
        st.warning(t("training.cut_note", steps=run.steps_done, total=config.steps), icon=":material/timer:")
    draw(st, training_specs(done.job_id, chart_labels(), result)["loss"])
    st.caption(t("training.loss_chart_note", ratio=ratio))
    if not revealed(QUIZ):
        st.metric(t("training.metric_loss"), num(run.losses[-1][1]), help=t("training.metric_loss_help"))
        st.info(t("training.accuracy_hidden"), icon=":material/visibility_off:")
        return
    cols = st.columns(4)
    values = (num(run.losses[-1][1]), pct(final.tf_token_acc), pct(final.free_token_acc), pct(final.free_exact))
    for col, name, value in zip(cols, ("loss", "tf_acc", "free_acc", "exact"), values, strict=False):
        col.metric(t(f"training.metric_{name}"), value, help=t(f"training.metric_{name}_help"))
    draw(st, training_specs(done.job_id, chart_labels(), result)["accuracy"])
    st.caption(t("training.chart.key_accuracy"))
    gap = quiz_keys(quiz_answer(final))["gap"]  # which condition scored higher, as the run measured it
    st.markdown(t(gap, tf=pct(final.tf_token_acc), free=pct(final.free_token_acc), exact=pct(final.free_exact)))


def show_check(done: JobSnapshot) -> None:
    """The loss written by hand over the real target tokens == nn.CrossEntropyLoss(ignore_index=PAD)."""
    check = done.result.loss_check
    check_badge(t("training.loss_check_what", n_real=check.n_real), check.max_abs_diff)
    st.caption(
        t(
            loss_pad_key(check),
            n_pad=check.n_total - check.n_real,
            n_total=check.n_total,
            loss=num(check.torch_ignore),
            with_pad=num(check.with_pad),
        )
    )


def show_quiz(done: JobSnapshot) -> None:
    """Teacher-forced or free-running: which scores higher on held-out sources? Graded by the run (the core)."""
    final = done.result.final
    answer = quiz_answer(final)
    predict_then_reveal(
        QUIZ,
        t("training.quiz_question"),
        [t(f"training.quiz_{o}") for o in ("tf", "free", "equal")],
        t(f"training.quiz_{answer}"),
        t(quiz_keys(answer)["explain"], tf=pct(final.tf_token_acc), free=pct(final.free_token_acc)),
    )


def show_map(done: JobSnapshot, source: SourceInput, ns: str = "training") -> DecodeResult:
    """The picture's map in detail: how to read it, the check against the formula, the steps, free vs forced.
    ns: the catalog namespace of the task-worded notes (digits here, words in the Translation lab)."""
    result = done.result
    config = result.config
    out = decoded(done.job_id, source, None, result)
    if not config.min_len <= len(source.tokens) <= config.max_len:
        st.info(t(f"{ns}.longer_note", n=len(source.tokens), lo=config.min_len, hi=config.max_len))
    if out.weights is not None:
        st.info(t(f"{ns}.caution"), icon=":material/warning:")
        st.caption(t("training.map_notice"))
        if source.n_pad:
            st.caption(t("training.pad_note", n=source.n_pad))
        check_badge(t("training.attn_check_what"), out.max_abs_diff)
    st.markdown(f"**{t('training.steps_heading')}**")
    st.caption(t("training.steps_caption"))
    columns = {k: t(f"training.col_{k}") for k in ("step", "free_in", "free_out", "tf_in", "tf_out", "nll")}
    st.dataframe(steps_frame(out, columns), hide_index=True, width="stretch")
    return out


def show_what_if(
    page: Page, done: JobSnapshot, source: SourceInput, base: DecodeResult, step_field: Field, weights_field: Field
) -> None:
    """Override one step's attention weights and decode again from there. The page's own fields hold the step and
    the weights (<ns>_wi_step, <ns>_wi); its namespace words the texts (the Translation lab reuses this)."""
    ns = page.ns
    st.subheader(t(f"{ns}.whatif_heading"))
    st.caption(t(f"{ns}.whatif_intro"))
    config = done.result.config
    options = list(range(1, len(base.output) + 1))
    labels = {k: step_label(k - 1, base.output[k - 1]) for k in options}
    # A kept or linked step past this output's end is dropped (a shorter output has no such step any more).
    step = page.input(
        step_field, st.selectbox, label=t(f"{ns}.whatif_step_label"), options=options, labels=labels, hi=len(options)
    )
    S = len(base.src_tokens)
    rows = page.table(
        weights_field,
        [["1", *["0"] * (S - 1)]],
        lambda r: r,
        label=t(f"{ns}.whatif_weights_label"),
        dynamic_rows=False,
        n_cols=S,
        col_names=[f"s{s + 1}" for s in range(S)],
    )
    if rows is None:
        return
    typed = Parsed.of(lambda: parse_override(base, step, rows[0]))
    if typed.error is not None:
        show_error(typed.error)
        return
    override = typed.need()
    new = what_if_decoded(done.job_id, source, override, done.result)
    st.markdown(
        t(
            "training.whatif_output",
            step=labels[step],
            output=shown(config.task, new.output),
            before=shown(config.task, base.output),
        )
    )
    if new.first_changed is None:
        st.info(t(f"{ns}.whatif_same"))
    elif new.first_changed == override[0]:
        st.info(t(f"{ns}.whatif_changed_here", step=f"t{new.first_changed + 1}"))
    else:
        st.info(t(f"{ns}.whatif_changed", step=f"t{new.first_changed + 1}"))
    labels_map = map_labels() | {"map_title": t(f"{ns}.whatif_map")}
    draw(st, map_spec(done.job_id, source, override, labels_map, done.result))


def show_bottleneck(done: JobSnapshot, ns: str = "training") -> None:
    """Exact match by source length, with and without attention, same task, budget and seed. ns: the page's
    namespace (its twin button's key and its task-worded heading, intro and summary line)."""
    st.subheader(t(f"{ns}.bottleneck_heading"))
    st.caption(t(f"{ns}.bottleneck_intro"))
    config = done.result.config
    twin = twin_config(config)
    twin_name = t(
        f"training.twin_name_{'none' if twin.attention == 'none' else 'with'}",
        name=t(f"training.attention_{twin.attention}"),
    )
    other = trained_model(
        twin, f"{ns}_twin", t("training.twin_button", name=twin_name), t("training.twin_pending", name=twin_name)
    )
    if other is None:
        return
    with_att, without = (done, other) if config.attention != "none" else (other, done)
    with_name = t("training.model_with", name=t(f"training.attention_{with_att.result.config.attention}"))
    unit = "_tokens" if config.task == NAMES_TASK else ""  # the names task's lengths count tokens, not digits
    labels = chart_labels() | {"length": t(f"{ns}.chart.length{unit}")}  # digits here, Korean words there
    without_name = t("training.model_without")
    draw(
        st,
        bottleneck_spec(
            (with_att.job_id, without.job_id),
            (with_name, without_name),
            labels,
            (with_att.result.run, without.result.run),
        ),
    )
    st.caption(t("training.chart.key_bottleneck", a=with_name, b=without_name))
    for snap, name in ((with_att, with_name), (without, without_name)):
        if cut_short(snap.result.run):  # the two models did not train the same number of steps
            run = snap.result.run
            st.warning(
                t("training.bottleneck_cut", name=name, steps=run.steps_done, total=snap.result.config.steps),
                icon=":material/timer:",
            )
    longest = with_att.result.run.by_length[-1]
    st.markdown(
        t(
            f"{ns}.bottleneck_line{unit}",
            length=longest[0],
            with_name=with_name,
            with_acc=pct(longest[1]),
            without_name=without_name,
            without_acc=pct(without.result.run.by_length[-1][1]),
        )
    )
    if config.task == NAMES_TASK:
        show_survival((with_att, without), (with_name, without_name), labels)


def show_survival(snaps: tuple[JobSnapshot, JobSnapshot], names: tuple[str, str], labels: dict[str, str]) -> None:
    """The names task: how often the name and the number come through each model intact, by source length (study
    note §5), and the sentence the measured rates choose."""
    st.subheader(t("training.survival_heading"))
    st.caption(t("training.survival_intro"))
    points = tuple(survival(snap.job_id, snap.result) for snap in snaps)
    draw(st, survival_spec((snaps[0].job_id, snaps[1].job_id), names, labels, points))
    st.caption(t("training.chart.key_survival", a=names[0], b=names[1]))
    reading = survival_reading(*points)
    st.markdown(t(reading.key, lost=t(reading.lost) if reading.lost else "", **reading.numbers()))


def show_map_tab(
    page: Page,
    done: JobSnapshot,
    source: Parsed[SourceInput],
    fields: tuple[Field, Field],
    fix: str = "training.fix_source",
) -> None:
    """The picture's source decoded step by step, then the what-if override (the source feeds both). fields: the
    page's what-if step and weights; fix: the note that points at a bad source's field."""
    if not source.ok:  # the source's own field names what is wrong
        st.info(t(fix), icon=":material/edit:")
        return
    base = show_map(done, source.need(), page.ns)
    if base.weights is not None:
        show_what_if(page, done, source.need(), base, *fields)


def finished_twin(done: JobSnapshot) -> JobSnapshot | None:
    """The comparison model of done's settings, if it has finished (nothing is drawn or started here)."""
    job = jobs.find(twin_config(done.result.config))
    snap = jobs.snapshot(job) if job is not None else None
    return snap if snap is not None and snap.state == DONE else None


def show_notice(done: JobSnapshot | None, source: Parsed[SourceInput]) -> None:
    """What to notice: the general lines, and the lines about this run, each chosen by what the run measured (the
    map of the picture's source, the two bottleneck curves, whether the clock cut the run short)."""
    if done is None:
        notice_list(["training.notice_3", "training.notice_pending"])
        return
    result = done.result
    config, run = result.config, result.run
    lines: list[tuple[str, dict]] = []
    # notice_1 says which decoding mode scores lower: the question's answer, listed once it is out.
    if revealed(QUIZ):
        lines.append(("training.notice_1", {}))
    reading = map_reading(config.task, trained_point(done.job_id, source.need(), result)) if source.ok else None
    if reading is not None:
        lines.append((map_notice(reading), {"n": reading.steps, "k": reading.on_copied}))
    lines.append(("training.notice_3", {}))
    twin = finished_twin(done)
    if twin is None:
        lines.append(("training.notice_4_pending", {}))
    else:
        with_att, without = (done, twin) if config.attention != "none" else (twin, done)
        b = bottleneck_reading(with_att.result.run, without.result.run)
        values = {"lo": b.shortest, "hi": b.longest, "first": pct(b.without_first), "last": pct(b.without_last)}
        lines.append((b.key, values | {"lowest": pct(b.with_lowest), "at": b.with_lowest_at}))
    if cut_short(run):
        lines.append(("training.notice_5_cut", {"steps": run.steps_done, "total": config.steps}))
    else:
        lines.append(("training.notice_5", {}))
    st.markdown(f"#### {t('ui.notice_title')}")
    st.markdown("\n".join(f"- {t(key, **values)}" for key, values in lines))
