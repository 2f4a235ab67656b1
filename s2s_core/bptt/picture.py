"""The backprop page's main picture: the unrolled chain with the gradient flowing back, one layered Vega-Lite view.

Time runs left to right, h_1 … h_T; the loss sits at h_T and its gradient flows right to left. At each step the
band's thickness and colour are ‖∂L/∂h_t‖ of the chosen cell on a log scale (so ρ's effect shows as the band
thinning or thickening over the sentence), with its number at a few milestone steps (plain numbers where they fit:
0.0027, not 2.7e-03). A truncation is drawn as a
cut in the chain (the steps left of it get exactly 0). Under the chain, clipping as what it is: after backprop,
clip_grad_norm_ rescales the parameter gradients (their norm before and after, as two bars), and ∂L/∂h_t above is
not touched. The previous input's band (before an edit) is a faint dashed outline.

x is in steps (1 … T); y is in pixels from the top (fixed height).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.bptt.compute import BpttConfig, BpttResult, ClipResult
from s2s_core.chartkit import FIT_X, colour_ends, records
from s2s_core.fmt import short

STATE = "#2C7FB8"  # the house source blue, as for an encoder's states (the chain's steps)
CUT = "#D55E00"  # the cut stands out in the one warm role colour (always also labelled)
GREY = "#8A8A8A"
TEXT = "currentColor"  # the theme's text colour: charts.finish leaves text beside shapes as it is given
# log10 ‖∂L/∂h_t‖ shown. The loss's own gradient is √H ≈ 2.8 (L = sum(h_T)); the default RNN (ρ = 0.9, T = 30)
# brings 8e-5 back to h_1, and a range of 1e-10 … 1e2 drew that 4.5-decade fall over a third of the scale (the
# band barely thinned: issue 25). From 1e-5 the default's fall spans most of the scale, thick and yellow at the
# loss to thin and dark at h_1; anything below 1e-5 is "vanished" on screen (its number is still written).
LOG_LO, LOG_HI = -5.0, 2.0
NORM_SCALE = alt.Scale(type="log", domain=[10**LOG_LO, 10**LOG_HI], clamp=True, scheme="viridis")
LEGEND_TICKS = [10.0**e for e in range(int(LOG_LO) + 1, int(LOG_HI) + 1, 2)]  # 0.0001, 0.01, 1, 100
# A log axis's or legend's labels as plain numbers where they fit (0.001, 100), with an exponent only beyond
# (1e-7, 1e+6): a learner reads 0.001 at a glance, 1e-3 needs decoding.
PLAIN_LABEL = (
    "abs(datum.value) >= 1e-4 && abs(datum.value) < 1e5 ? format(datum.value, '~g') : format(datum.value, '.0e')"
)
# The description's colour words (ui.colour.* keys) for a small and a large gradient, read off the band's scale.
LEGEND = dict(zip(("low", "high"), (f"ui.colour.{c}" for c in colour_ends(NORM_SCALE)), strict=True))
CHAIN_Y = 78  # px: the chain's centre line
MAX_BAND = 40  # px: the band's thickness at 10^LOG_HI
CLIP_Y = 190  # px: the clipping row
HEIGHT = 262
FONT = 12


def thickness(norm: float) -> float:
    """Band thickness in px for a gradient norm: linear in log10, 2 px at 10^LOG_LO and below (still visible), 0
    when cut."""
    if norm <= 0:
        return 0.0
    share = (min(max(math.log10(norm), LOG_LO), LOG_HI) - LOG_LO) / (LOG_HI - LOG_LO)
    return 2.0 + share * (MAX_BAND - 2.0)


def milestones(T: int) -> list[int]:
    """The steps whose number is written: T, then every n-th step back, at most 6 (they must fit on a phone)."""
    every = max(5, math.ceil((T - 1) / 5 / 5) * 5)
    steps = sorted({1, T, *range(T, 0, -every)})
    return [s for s in steps if s == 1 or s - 1 >= every / 2]  # no number crowding step 1's


@dataclass(frozen=True)
class Picture:
    T: int
    band: pd.DataFrame  # one row per step: its norm, thickness, and the previous input's thickness
    marks: pd.DataFrame  # milestone steps: step label and the norm's number
    cuts: pd.DataFrame  # one row per cut: where it is
    clip: pd.DataFrame  # two rows: the parameter gradients' norm before and after clipping


def picture_data(
    config: BpttConfig, result: BpttResult, clipped: ClipResult, before: BpttResult | None = None
) -> Picture:
    grad = result.by_cell(config.cell)
    T = config.T
    old = before.by_cell(config.cell).norms if before is not None else None
    rows = []
    for t in range(1, T + 1):
        k = T - t  # steps back from the loss
        norm = float(grad.norms[k])
        was = None
        if old is not None and k < len(old):
            was = thickness(float(old[k]))
        rows.append(
            {"step": t, "k": k, "norm": norm, "half": thickness(norm) / 2, "was": was, "cut": norm == 0.0}
            | {"label": short(norm)}
        )
    band = pd.DataFrame(rows)
    marks = band[band["step"].isin(milestones(T))][["step", "label", "norm"]].assign(
        name=lambda f: "h" + f["step"].astype(str)
    )
    cuts = pd.DataFrame([{"x": T - k + 0.5, "k": k} for k in result.cuts], columns=["x", "k"])
    peak = max(clipped.total_before, clipped.total_after) or 1.0
    clip = pd.DataFrame(
        [
            {"which": "before", "norm": clipped.total_before, "share": clipped.total_before / peak, "row": 0},
            {"which": "after", "norm": clipped.total_after, "share": clipped.total_after / peak, "row": 1},
        ]
    ).assign(label=lambda f: f["norm"].map(short))
    return Picture(T=T, band=band, marks=marks, cuts=cuts, clip=clip)


# "bptt.picture.*": gradient_picture's words; its title, subtitle and clip_title carry values, added by the page,
# and its description LEGEND's colour words ({low}, {high}).
WORDS = ("step", "norm", "loss", "flow", "cut", "before", "after", "untouched", "description")


def gradient_picture(pic: Picture, words: Mapping[str, str]) -> alt.LayerChart:
    """words: title, subtitle, description, step, norm, loss, flow, cut, clip_title, before, after, untouched, was."""
    T = pic.T
    xs = alt.Scale(domain=[0.5, T + 0.5], nice=False, zero=False)
    ys = alt.Scale(domain=[0, HEIGHT], reverse=True, nice=False, zero=False)

    def at(x_field: str, y_field: str) -> dict:
        return {"x": alt.X(f"{x_field}:Q", scale=xs, axis=None), "y": alt.Y(f"{y_field}:Q", scale=ys, axis=None)}

    band = alt.Chart(records(pic.band)).transform_calculate(
        x1="datum.step - 0.5", x2="datum.step + 0.5", y1=f"{CHAIN_Y} - datum.half", y2=f"{CHAIN_Y} + datum.half"
    )
    # 1) The chain's line (where the band has width 0, a cut gradient, the line is all that is left).
    line = (
        alt.Chart(alt.InlineData(values=[{"x": 0.5, "x2": T + 0.5, "y": CHAIN_Y}]))
        .mark_rule(color=GREY, strokeWidth=1)
        .encode(**at("x", "y"), x2="x2:Q")
    )
    # 2) The band: thickness and colour = ‖∂L/∂h_t‖ on a log scale; the number on hover.
    strip = band.mark_rect(stroke=None).encode(
        **at("x1", "y1"),
        x2="x2:Q",
        y2="y2:Q",
        color=alt.Color(
            "norm:Q",
            scale=NORM_SCALE,
            title=words["norm"],
            legend=alt.Legend(
                orient="top", values=LEGEND_TICKS, labelExpr=PLAIN_LABEL, gradientLength=200, direction="horizontal"
            ),
        ),
        tooltip=[
            alt.Tooltip("step:O", title=words["step"]),
            alt.Tooltip("label:N", title=words["norm"]),
        ],
    )
    # 3) The previous input's band, a dashed outline (before an edit).
    was = (
        band.transform_filter("isValid(datum.was)")
        .transform_calculate(w1=f"{CHAIN_Y} - datum.was / 2", w2=f"{CHAIN_Y} + datum.was / 2")
        .mark_rect(filled=False, stroke=GREY, strokeDash=[3, 2], strokeWidth=1, opacity=0.9)
        .encode(**at("x1", "w1"), x2="x2:Q", y2="w2:Q")
    )
    # 4) The loss at h_T and the direction of the flow, above the chain.
    top = alt.Chart(alt.InlineData(values=[{"x": T + 0.5, "y": 22, "text": words["loss"]}]))
    loss = top.mark_text(fontSize=FONT, fontWeight="bold", align="right", color=TEXT).encode(
        **at("x", "y"), text="text:N"
    )
    flow = (
        alt.Chart(alt.InlineData(values=[{"x": 0.5, "y": 22, "text": words["flow"]}]))
        .mark_text(fontSize=FONT, align="left", color=TEXT)
        .encode(**at("x", "y"), text="text:N")
    )
    # 5) Milestones: the step's name and its norm under the chain.
    marks = alt.Chart(records(pic.marks))
    tick = (
        marks.transform_calculate(y1=f"{CHAIN_Y + MAX_BAND / 2 + 2}", y2=f"{CHAIN_Y + MAX_BAND / 2 + 8}")
        .mark_rule(color=GREY)
        .encode(**at("step", "y1"), y2="y2:Q")
    )
    names = (
        marks.transform_calculate(y=f"{CHAIN_Y + MAX_BAND / 2 + 22}")
        .mark_text(fontSize=FONT, fontWeight="bold", color=TEXT)
        .encode(**at("step", "y"), text="name:N")
    )
    numbers = (
        marks.transform_calculate(y=f"{CHAIN_Y + MAX_BAND / 2 + 38}")
        .mark_text(fontSize=11, color=TEXT)
        .encode(**at("step", "y"), text="label:N")
    )
    # 6) Truncation: the cut in the chain (the state is detached there; everything left of it gets 0).
    cuts = alt.Chart(records(pic.cuts))
    cut_rule = (
        cuts.transform_calculate(y1="34", y2=f"{CHAIN_Y + MAX_BAND / 2 + 4}")
        .mark_rule(color=CUT, strokeWidth=2.5, strokeDash=[5, 3])
        .encode(**at("x", "y1"), y2="y2:Q")
    )
    cut_text = (
        cuts.transform_calculate(y="40")
        .mark_text(fontSize=FONT, color=TEXT, fontWeight="bold", align="right", dx=-3)  # text: 4.5:1 on both
        .encode(**at("x", "y"), text=alt.value(words["cut"]))
    )
    # 7) Clipping: after backprop, the parameter gradients' norm before and after (bars from the left edge).
    said = {"before": words["before"], "after": words["after"]}
    clip_rows = pic.clip.assign(
        text=[f"{said[w]} {label}" for w, label in zip(pic.clip["which"], pic.clip["label"], strict=True)]
    )
    clip = alt.Chart(records(clip_rows)).transform_calculate(
        x1="0.5",
        x2=f"0.5 + datum.share * {T * 0.62}",
        y1=f"{CLIP_Y + 8} + datum.row * 22",
        y2=f"{CLIP_Y + 24} + datum.row * 22",
        ym=f"{CLIP_Y + 16} + datum.row * 22",
        xt=f"0.5 + datum.share * {T * 0.62}",
    )
    clip_bars = clip.mark_rect(color=GREY, opacity=0.8).encode(
        **at("x1", "y1"),
        x2="x2:Q",
        y2="y2:Q",
        tooltip=[alt.Tooltip("text:N", title=words["clip_title"])],
    )
    clip_text = clip.mark_text(fontSize=FONT, align="left", dx=5, color=TEXT).encode(**at("xt", "ym"), text="text:N")
    clip_head = (
        alt.Chart(
            alt.InlineData(
                values=[
                    {"x": 0.5, "y": CLIP_Y - 6, "text": words["clip_title"], "bold": True},
                    {"x": 0.5, "y": CLIP_Y + 62, "text": words["untouched"], "bold": False},
                ]
            )
        )
        .mark_text(fontSize=FONT, align="left", limit=alt.ExprRef("width"), color=TEXT)
        .encode(**at("x", "y"), text="text:N")
    )
    # The previous input's outline (only after an edit) and the cuts (only with truncation) are left out when they
    # would draw nothing: an empty mark group with a role and no name fails axe's svg-img-alt.
    layers = [line, strip, *([was] if pic.band["was"].notna().any() else []), loss, flow, tick, names, numbers]
    layers += [cut_rule, cut_text] if not pic.cuts.empty else []
    layers += [clip_bars, clip_text, clip_head]
    return alt.layer(
        *layers,
        width="container",
        height=HEIGHT,
        autosize=FIT_X,
        title=alt.Title(
            words["title"], subtitle=words["subtitle"], fontSize=FONT + 3, subtitleFontSize=FONT, anchor="start"
        ),
        description=words["description"],
    )
