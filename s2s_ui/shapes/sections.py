"""The shapes page's tabs that read its run: the shapes table, the live checks, padding, packing, the notice.

Each takes the checked config and fetches what it shows from the cache (s2s_ui/shapes/specs.py).
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fmt import sci
from s2s_core.shapes import ShapesConfig
from s2s_core.shapes.checks import EqualityCheck
from s2s_core.shapes.frames import shape_text
from s2s_core.shapes.padding import padding_notice
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.shapes.specs import checks, compute, packed_spec, padding, padding_specs
from s2s_ui.widgets import check_badge, notice_list, revealed

QUIZ = "shapes_predict"  # the question under the picture: the checks, padding and a notice wait for its answer


def show_shapes(config: ShapesConfig) -> None:
    """Every tensor's named axes and real shape, as a table."""
    st.caption(t("shapes.defaults_note"))
    st.markdown(t("shapes.legend"))
    head = [t(f"shapes.shapes.col_{c}") for c in ("tensor", "axes", "shape", "what")]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|---|"]
    for s in compute(config).shapes:
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


def show_checks(config: ShapesConfig) -> None:
    st.subheader(t("shapes.check.heading"))
    st.caption(t("shapes.check.intro"))
    if not after_quiz():
        return
    for ch in checks(config):
        with st.container(border=True):
            st.markdown(f"**{t(f'shapes.check.{ch.key}.title')}**")
            st.markdown(verdict_text(ch))
            if ch.key == "true_last":
                st.caption(t("shapes.check.alone"))


def show_padding(config: ShapesConfig) -> None:
    """The state after PAD steps against the true last state, and the two fixes (gather, pack) checked."""
    st.subheader(t("shapes.padding.heading"))
    st.caption(t("shapes.padding.intro"))
    if not config.padded:
        st.info(t("shapes.padding.no_padding"), icon=":material/info:")
        return
    if not after_quiz():
        return
    view, specs = padding(config), padding_specs(config, lang())
    left, right = st.columns(2)
    draw(left, specs["errors"])
    draw(right, specs["diff"])
    st.markdown(t("shapes.padding.fixes"))
    if not view.gather_exact:
        st.warning(t("shapes.padding.gather_not_enough", diff=sci(view.gather_max_diff)), icon=":material/warning:")
    else:
        check_badge(t("shapes.padding.gather_what"), view.gather_max_diff)
    check_badge(t("shapes.padding.packed_what"), view.packed_max_diff)
    if view.backward_misses:
        st.caption(t("shapes.padding.backward_note", diff=sci(view.backward_max_diff)))


def show_packed(config: ShapesConfig) -> None:
    """What pack_padded_sequence stores: data, batch_sizes and the two index permutations, then the grid."""
    result = compute(config)
    st.subheader(t("shapes.packed.heading"))
    st.markdown(t("shapes.packed.intro"))
    data = t("shapes.packed.data", shape=f"`{shape_text(tuple(result.packed_data.shape))}`", total=sum(config.lengths))
    lines = [
        data,
        t("shapes.packed.batch_sizes", value=f"`{list(result.batch_sizes)}`"),
        t("shapes.packed.sorted_indices", value=f"`{list(result.sorted_indices)}`"),
        t("shapes.packed.unsorted_indices", value=f"`{list(result.unsorted_indices)}`"),
    ]
    st.markdown("\n".join(f"- {line}" for line in lines))
    draw(st, packed_spec(config, lang()))
    st.caption(t("shapes.packed.enforce_sorted"))
    if not config.packed:
        st.caption(t("shapes.packed.not_run"))


def show_notice(config: ShapesConfig) -> None:
    view = padding(config)
    # The padding line says which state is right: part of the question's answer.
    n4 = padding_notice(config.padded, view)
    points = ("n1", "n2", "n3", n4, "n5") if revealed(QUIZ) else ("n1", "n2", "n3", "n5")
    bar = t("shapes.padding.chart.method_through_pad")  # the bar named by its legend entry, not by a colour
    notice_list([f"shapes.notice.{n}" for n in points], diff=sci(view.gather_max_diff), through_pad=bar)
