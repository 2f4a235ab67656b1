"""The Bahdanau-vs-Luong page's two pictures, each one layered view in (position, row) coordinates. No streamlit.

1) `focus_picture`, the page's main picture: one score function at a time, top to bottom as it computes: the
   keys k_j (what s is compared with) as a row of vectors, the scores as bars around a zero line with their
   signed values printed (negative ones hang below it), the softmax written out (exp(score_j − max) per
   position and their sum), the weights as filled bars on 0 … 1, and the values h_j (what is summed) as a row
   of vectors with the context at the end; a local window drawn over the rows with its centre p, and local-p's
   Gaussian drawn over the weights. The shared step control (s2s_ui.steps) picks a source position j: it is
   drawn at full opacity, the others faded.
2) `compare_picture` ("compare all"): every score function on the same s and h₁ … h_S, one row each: the signed
   scores around a zero line (scaled to the row's largest |score|: the functions' scales differ by orders),
   "↓ softmax", the weights as filled bars on 0 … 1, the row's largest weight in bold; the previous input's
   weights as dashes.

Positions are 1-based on the x axis (s1 … sS); rows grow downwards (the y scale is reversed).
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, lines, records
from s2s_core.fmt import NUM_D3, SIGNED_TWO_D3, TWO_D3
from s2s_core.scoring.attend import Read
from s2s_core.scoring.compute import ScoringResult
from s2s_core.scoring.frames import softmax_steps

SOURCE, DECODER, CONTEXT = "#2C7FB8", "#D55E00", "#B8588F"  # the app's role colours, the same on every page
THEME = "currentColor"  # text on the page follows the light or dark theme (text in a cell too: cells are outlines)
VALUE_SCALE = alt.Scale(scheme="redblue", reverse=True, domainMid=0)  # one diverging scale, centred at 0
FONT = 12
HALF = 0.32  # half a bar's width, in positions
# One function's row in the compare picture: name (0-0.55), signed scores around a zero line (labels 0.6-1.15 and
# 1.95-2.5, bars 1.15-1.95), "↓ softmax" (2.8), weights (labels from 2.8, bars 3.35-4.55).
ROW = 4.7
SCORE_ZERO, SCORE_HALF = 1.55, 0.4
WEIGHT_BASE, WEIGHT_TALL = 4.55, 1.2
SOFTMAX_Y = 2.8
ROW_PX = 22  # one unit of y (an 11 px label is half a unit)
# A number printed on a bar: not announced on its own (aria: the bar's own label carries the number), so a layer
# that the phone's width filters to nothing leaves no unnamed group (axe svg-img-alt).
SCORE_BAR = dict(fill=CONTEXT, fillOpacity=0.15, stroke=CONTEXT, strokeWidth=1.5)  # faint fill: weights are solid
LABEL_MARK = dict(color=THEME, baseline="bottom", dy=-2, fontSize=11, aria=False)
MIN_LABEL_PX = 44  # a position narrower than this leaves its weight's number to the tooltip
SCORE_LABEL_PX = 36  # the one-function picture's numbers, a score's too ("−1.05" is about 30 px at 11 px): S = 12
# fits 1280 px
TITLE_CHARS, SUBTITLE_CHARS = 44, 58  # what fits a 390 px phone's column at the title's and subtitle's size
# The plain words each picture takes (catalog keys under "scoring.chart."); the title, subtitle, description and row
# names carry live numbers or the function's name, so the page fills those in (s2s_ui/scoring/specs.py).
COMPARE_WORDS = ("before", "unavailable", "position", "score", "weight", "softmax_short")
FOCUS_WORDS = ("key", "value_row", "context", "position", "score", "weight", "gauss", "value", "component", "p", "exp")


def picture_title(labels: Mapping[str, str]) -> alt.TitleParams:
    return alt.TitleParams(
        lines(labels["title"], TITLE_CHARS), subtitle=lines(labels["subtitle"], SUBTITLE_CHARS), anchor="start"
    )


def compare_frame(result: ScoringResult, names: Mapping[str, str], before: ScoringResult | None = None) -> pd.DataFrame:
    """One row per (function, position): score, its bar scaled to the row's max |score|, weight, peak, before."""
    rows = []
    for i, f in enumerate(result.functions):
        top = i * ROW
        if f.read is None:
            continue
        scores = f.read.scores[0].tolist()  # (S,)
        weights = f.read.weights[0].tolist()  # (S,)
        biggest = max(abs(x) for x in scores) or 1.0
        peak = max(range(len(weights)), key=lambda j: weights[j])
        old = before.get(f.name).read if before is not None else None
        old_w = old.weights[0].tolist() if old is not None and old.weights.shape[1] == len(weights) else None
        for j, (score, weight) in enumerate(zip(scores, weights, strict=True)):
            rows.append(
                {
                    "function": names[f.name],
                    "position": f"s{j + 1}",
                    "x": j + 1,
                    "score": score,
                    "weight": weight,
                    "peak": j == peak,
                    "s_y": top + SCORE_ZERO,
                    "s_y2": top + SCORE_ZERO - SCORE_HALF * score / biggest,
                    "w_y": top + WEIGHT_BASE,
                    "w_y2": top + WEIGHT_BASE - WEIGHT_TALL * weight,
                    "b_y": None if old_w is None else top + WEIGHT_BASE - WEIGHT_TALL * old_w[j],
                    "before": None if old_w is None else old_w[j],
                }
            )
    return pd.DataFrame(rows)


def row_names(result: ScoringResult, names: Mapping[str, str], unavailable: str) -> pd.DataFrame:
    """Each function's name at the top of its row (with why it cannot score, when it cannot)."""
    rows = []
    for i, f in enumerate(result.functions):
        text = names[f.name] if f.read is not None else f"{names[f.name]}: {unavailable}"
        rows.append({"text": text, "y": i * ROW + 0.3, "x": 0.55})
    return pd.DataFrame(rows)


class Axis:
    """A positional channel and its scale (an Altair channel's `.scale` is a setter, not the scale)."""

    def __init__(self, channel: alt.X | alt.Y, scale: alt.Scale) -> None:
        self.channel, self.scale = channel, scale


def position_axis(S: int, extra: int = 0, title: str = "") -> Axis:
    values = list(range(1, S + 1))
    scale = alt.Scale(domain=[0.5, S + 0.5 + extra], nice=False, zero=False)
    axis = alt.Axis(values=values, labelExpr="'s' + datum.value", grid=False, ticks=False, domain=False)
    return Axis(alt.X("x:Q", title=title, scale=scale, axis=axis), scale)


def row_axis(height_units: float) -> Axis:
    scale = alt.Scale(domain=[height_units, -0.1], nice=False, zero=False)
    return Axis(alt.Y("y:Q", axis=None, scale=scale), scale)


def score_labels(bars: alt.Chart, x: Axis, y: Axis, n_cols: int) -> list[alt.Chart]:
    """Each score's signed value at its bar's end: above a bar that rises from the zero line, below one that hangs
    under it (a narrow position leaves it to the tooltip). bars: rows with x, score and the bar's end s_y2."""
    return [
        bars.transform_filter(f"width / {n_cols} >= {SCORE_LABEL_PX} && datum.score {'>=' if rising else '<'} 0")
        # a score that rounds to zero is "0", as two() writes it (d3 would print "+0" or "−0")
        .transform_calculate(label=f"abs(datum.score) < 0.005 ? '0' : format(datum.score, '{SIGNED_TWO_D3}')")
        .mark_text(color=THEME, baseline="bottom" if rising else "top", dy=-2 if rising else 2, fontSize=11, aria=False)
        .encode(x=alt.X("x:Q", scale=x.scale), y=alt.Y("s_y2:Q", scale=y.scale, axis=None), text="label:N")
        for rising in (True, False)
    ]


def compare_picture(result: ScoringResult, names: Mapping[str, str], labels: Mapping[str, str], before=None):
    """Picture 2 (see the module docstring). labels: title, subtitle, description, position, score, weight,
    before, unavailable, softmax_short."""
    frame = compare_frame(result, names, before)
    units = len(result.functions) * ROW
    x, y = position_axis(result.S, title=labels["position"]), row_axis(units)
    tip = [
        alt.Tooltip("function:N", title=" "),
        alt.Tooltip("position:N", title=labels["position"]),
        alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
        alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
    ]
    layers: list[alt.Chart] = [
        alt.Chart(records(row_names(result, names, labels["unavailable"])))
        .mark_text(color=THEME, align="left", baseline="middle", fontSize=FONT, fontWeight="bold")
        .encode(x=x.channel, y=y.channel, text="text:N")
    ]
    if not frame.empty:
        base = alt.Chart(records(frame))
        steps = frame.drop_duplicates("function").assign(text=labels["softmax_short"], x=0.55)
        steps["y"] = steps["s_y"] - SCORE_ZERO + SOFTMAX_Y
        layers.append(  # between each row's scores and its weights: where the weights come from
            alt.Chart(records(steps[["text", "x", "y"]]))
            .mark_text(color=THEME, align="left", baseline="middle", fontSize=11, fontStyle="italic")
            .encode(x=x.channel, y=y.channel, text="text:N")
        )
        bar_x = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
        shifted = base.transform_calculate(x0=f"datum.x - {HALF}", x1=f"datum.x + {HALF}")
        layers += [
            shifted.mark_rule(strokeWidth=1, opacity=0.8)
            .encode(
                **{"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"},
                y=alt.Y("s_y:Q", scale=y.scale, axis=None),
                color=alt.value("currentColor"),
            )
            .properties(),
            shifted.mark_rect(**SCORE_BAR).encode(
                **bar_x, y=alt.Y("s_y:Q", scale=y.scale, axis=None), y2="s_y2:Q", tooltip=tip
            ),
            *score_labels(base, x, y, result.S),
            shifted.mark_rect(color=CONTEXT).encode(
                **bar_x,
                y=alt.Y("w_y:Q", scale=y.scale, axis=None),
                y2="w_y2:Q",
                opacity=alt.condition("datum.peak", alt.value(1.0), alt.value(0.55)),
                tooltip=tip,
            ),
            *(
                base.transform_filter(f"width / {result.S} >= {MIN_LABEL_PX} && {'' if bold else '!'}datum.peak")
                .transform_calculate(label="format(datum.weight, '.2f')")
                .mark_text(**LABEL_MARK, fontWeight="bold" if bold else "normal")
                .encode(x=x.channel, y=alt.Y("w_y2:Q", scale=y.scale, axis=None), text="label:N")
                for bold in (True, False)
            ),
        ]
        if frame["b_y"].notna().any():
            layers.append(
                shifted.transform_filter("isValid(datum.b_y)")
                .mark_rule(strokeDash=[4, 3], strokeWidth=2, color="currentColor", opacity=0.6)
                .encode(
                    **{"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"},
                    y=alt.Y("b_y:Q", scale=y.scale, axis=None),
                    tooltip=[alt.Tooltip("before:Q", title=labels["before"], format=NUM_D3)],
                )
            )
    title = picture_title(labels)
    return alt.layer(
        *layers,
        title=title,
        description=labels["description"],
        width="container",
        autosize=FIT_X,
        height=int(units * ROW_PX),
    )


# ---- picture 1: keys and values around one score function ---------------------------------------------------

# Top to bottom, in units of FOCUS_PX: keys (name 0.3, squares 0.6-1.4), scores (name 1.75, bars 2.3-3.4 around
# a zero line with their labels outside), softmax (name 3.95, exp per position 4.35), weights (labels from 4.5,
# bars 4.8-6.3), values (name 6.65, squares 6.95-7.75; context and p labels below).
KEY_TOP, KEY_BOTTOM = 0.6, 1.4
F_SCORE_ZERO, F_SCORE_HALF = 2.85, 0.55
F_SOFTMAX, F_EXP = 3.95, 4.35
F_WEIGHT_BASE = 6.3
VALUE_TOP, VALUE_BOTTOM = 6.95, 7.75
FOCUS_UNITS = 8.4
FOCUS_PX = 36
SQUARES = 0.84  # share of a position's width a vector's squares fill


def _squares(vectors: list[list[float]], top: float, bottom: float, part: str, first_x: int = 1) -> list[dict]:
    rows = []
    for j, v in enumerate(vectors):
        n = len(v)
        w = SQUARES / n
        for k, value in enumerate(v):
            left = first_x + j - SQUARES / 2 + k * w
            rows.append(
                {
                    "part": part,
                    "step": first_x + j,
                    "x0": left + 0.01,
                    "x1": left + w - 0.01,
                    "y": top,
                    "y2": bottom,
                    "value": value,
                    "component": k + 1,
                }
            )
    return rows


def bar_frame(read: Read, score_zero: float, weight_base: float, align_base: float | None = None) -> pd.DataFrame:
    """One row per position of a read, placed in a picture's rows: its score as a bar around the zero line
    `score_zero` (scaled to the largest |score|), exp(score − max), its weight as a bar rising from `weight_base`
    (local-p's Gaussian on the same scale), and, with `align_base`, the softmax's own weight before the Gaussian."""
    scores = read.scores[0].tolist()  # (S,)
    S = len(scores)
    biggest = max(abs(x) for x in scores) or 1.0
    gauss = read.gauss[0].tolist() if read.gauss is not None else [None] * S
    exps, _ = softmax_steps(read)  # (S,) exp(score − max) inside the window, 0 outside
    rows = []
    for j in range(S):
        weight = float(read.weights[0, j])
        row = {
            "step": j + 1,
            "position": f"s{j + 1}",
            "score": scores[j],
            "weight": weight,
            "inside": bool(read.mask[0, j]),
            "gauss": gauss[j],
            "exp": exps[j],
            "s_y": score_zero,
            "s_y2": score_zero - F_SCORE_HALF * scores[j] / biggest,
            "w_y": weight_base,
            "w_y2": weight_base - WEIGHT_TALL * weight,
            "g_y": None if gauss[j] is None else weight_base - WEIGHT_TALL * gauss[j],
        }
        if align_base is not None:
            align = float(read.align[0, j])
            row |= {"align": align, "a_y": align_base, "a_y2": align_base - WEIGHT_TALL * align}
        rows.append(row)
    return pd.DataFrame(rows)


def band_frame(read: Read, top: float, bottom: float) -> pd.DataFrame:
    """A local window as one rectangle from row `top` to `bottom` over the positions it keeps, with its centre p;
    empty for global attention (every position may be read: a global read has no centre)."""
    if read.center is None:
        return pd.DataFrame([])
    p = float(read.center[0])
    inside = [j + 1 for j in range(read.mask.shape[1]) if bool(read.mask[0, j])]
    lo, hi = (min(inside) - 0.48, max(inside) + 0.48) if inside else (p, p)
    return pd.DataFrame([{"x0": lo, "x1": hi, "y": top, "y2": bottom, "p": p}])


def focus_frames(read: Read) -> dict[str, pd.DataFrame]:
    """Picture 1's data: squares (keys, values, context), bars (score, weight, gauss), the window."""
    keys = read.keys[0].tolist()  # (S, n_k)
    values = read.values[0].tolist()  # (S, H_e)
    S = len(values)
    squares = _squares(keys, KEY_TOP, KEY_BOTTOM, "key") + _squares(values, VALUE_TOP, VALUE_BOTTOM, "value")
    squares += _squares([read.context[0].tolist()], VALUE_TOP, VALUE_BOTTOM, "context", first_x=S + 1)
    return {
        "squares": pd.DataFrame(squares),
        "bars": bar_frame(read, F_SCORE_ZERO, F_WEIGHT_BASE),
        "band": band_frame(read, KEY_TOP - 0.1, VALUE_BOTTOM + 0.1),
    }


def window_band(band: pd.DataFrame, x: Axis, y: Axis, p_word: str) -> list[alt.Chart]:
    """The positions a local window may read (a dashed rectangle over the rows), its centre p as a dashed rule and
    "p = …" under it; nothing for global attention. Drawn first, behind everything."""
    if band.empty:
        return []
    chart = alt.Chart(records(band))
    xs = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
    return [
        chart.mark_rect(color=CONTEXT, opacity=0.1, stroke=CONTEXT, strokeDash=[5, 3], strokeWidth=1.5).encode(
            **xs, y=alt.Y("y:Q", scale=y.scale, axis=None), y2="y2:Q", tooltip=[alt.Tooltip("p:Q", title="p")]
        ),
        chart.mark_rule(color=CONTEXT, strokeDash=[2, 2], strokeWidth=1.5).encode(
            x=alt.X("p:Q", scale=x.scale), y=alt.Y("y:Q", scale=y.scale, axis=None), y2="y2:Q"
        ),
        chart.transform_calculate(text=f"'{p_word} = ' + format(datum.p, '.2~f')")
        .mark_text(baseline="top", dy=2, fontSize=11, color=THEME, fontWeight="bold")
        .encode(x=alt.X("p:Q", scale=x.scale), y=alt.Y("y2:Q", scale=y.scale, axis=None), text="text:N"),
    ]


def bar_chart(bars: pd.DataFrame) -> alt.Chart:
    """bar_frame's rows as a chart, each position's bar HALF a position wide on either side of it."""
    return alt.Chart(records(bars)).transform_calculate(
        x0=f"datum.step - {HALF}", x1=f"datum.step + {HALF}", x="datum.step"
    )


def score_bars(
    bars: alt.Chart, inside: pd.Series, x: Axis, y: Axis, n_cols: int, opacity, tip: list
) -> list[alt.Chart]:
    """The signed scores: a zero line, an outlined bar per position (dashed outside the window) and its signed value
    at the bar's end (at full opacity: every number is read). inside: bar_frame's column of that name."""
    xs = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
    return [
        bars.mark_rule(strokeWidth=1, opacity=0.8, color="currentColor").encode(
            **xs, y=alt.Y("s_y:Q", scale=y.scale, axis=None)
        ),
        # Inside and outside the window as two layers (Vega-Lite drops a conditional strokeDash, an array value: the
        # outside bars were drawn solid); a side with no position is left out (an empty layer is an unnamed group).
        *(
            bars.transform_filter(f"{'' if kept else '!'}datum.inside")
            .mark_rect(**SCORE_BAR, **({} if kept else {"strokeDash": [3, 2]}))
            .encode(**xs, y=alt.Y("s_y:Q", scale=y.scale, axis=None), y2="s_y2:Q", opacity=opacity, tooltip=tip)
            for kept in (True, False)
            if (inside == kept).any()
        ),
        *score_labels(bars, x, y, n_cols),
    ]


def number_row(bars: alt.Chart, x: Axis, y: Axis, n_cols: int, label: str, at: float) -> alt.Chart:
    """A row of numbers in italics at height `at`, one per position (label: a Vega expression), where a position is
    wide enough for them: the softmax's exp(score − max), local-p's Gaussian factors."""
    return (
        bars.transform_filter(f"width / {n_cols} >= {SCORE_LABEL_PX}")
        .transform_calculate(label=label, e_y=str(at))
        .mark_text(color=THEME, baseline="middle", fontSize=11, fontStyle="italic", aria=False)
        .encode(x=alt.X("x:Q", scale=x.scale), y=alt.Y("e_y:Q", scale=y.scale, axis=None), text="label:N")
    )


def weight_bars(
    bars: alt.Chart, x: Axis, y: Axis, n_cols: int, opacity, tip: list, field: str = "weight", at: str = "w"
) -> list[alt.Chart]:
    """Weights as filled bars on 0 … 1 (from <at>_y up to <at>_y2) with their value on top; "0" outside the window."""
    xs = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
    return [
        bars.mark_rect(color=CONTEXT).encode(
            **xs, y=alt.Y(f"{at}_y:Q", scale=y.scale, axis=None), y2=f"{at}_y2:Q", opacity=opacity, tooltip=tip
        ),
        bars.transform_filter(f"width / {n_cols} >= {SCORE_LABEL_PX}")
        .transform_calculate(label=f"datum.inside ? format(datum.{field}, '.2f') : '0'")
        .mark_text(color=THEME, baseline="bottom", dy=-2, fontSize=11, aria=False)
        .encode(x=alt.X("x:Q", scale=x.scale), y=alt.Y(f"{at}_y2:Q", scale=y.scale, axis=None), text="label:N"),
    ]


def gauss_line(bars: alt.Chart, x: Axis, y: Axis, word: str) -> alt.Chart:
    """Local-p's Gaussian over the weights it multiplies, on their scale: a dashed line with points."""
    return bars.mark_line(point=True, strokeDash=[5, 3], color="currentColor", strokeWidth=1.5).encode(
        x=alt.X("x:Q", scale=x.scale),
        y=alt.Y("g_y:Q", scale=y.scale, axis=None),
        tooltip=[alt.Tooltip("gauss:Q", title=word, format=NUM_D3)],
    )


def focus_picture(read: Read, labels: Mapping[str, str], step: alt.Parameter) -> alt.LayerChart:
    """Picture 1 (see the module docstring). labels: title, subtitle, description, keys, scores, softmax, values,
    key, value_row, context, position, score, weight, gauss, value, component, p, exp."""
    frames = focus_frames(read)
    parts = {"key": labels["key"], "value": labels["value_row"], "context": labels["context"]}
    frames["squares"]["name"] = frames["squares"]["part"].map(parts)
    S = len(frames["bars"])
    x, y = position_axis(S, extra=1, title=labels["position"]), row_axis(FOCUS_UNITS)
    xs = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
    chosen = alt.condition(step, alt.value(1.0), alt.value(0.4))
    layers: list[alt.Chart] = []
    # 1) The window first, behind everything: the positions local attention may read, and its centre p.
    layers += window_band(frames["band"], x, y, labels["p"])
    # 2) Row names.
    names = pd.DataFrame(
        [
            {"text": labels["keys"], "y": KEY_TOP - 0.3},
            {"text": labels["scores"], "y": KEY_BOTTOM + 0.35},
            {"text": labels["softmax"], "y": F_SOFTMAX},
            {"text": labels["values"], "y": VALUE_TOP - 0.3},
        ]
    ).assign(x=0.55)
    layers.append(
        alt.Chart(records(names))
        .mark_text(color=THEME, align="left", baseline="middle", fontSize=FONT, fontWeight="bold")
        .encode(x=x.channel, y=y.channel, text="text:N")
    )
    # 3) The vectors: keys on top, values (and the context) below; the chosen position at full opacity.
    squares = alt.Chart(records(frames["squares"]))
    square_tip = [
        alt.Tooltip("name:N", title=" "),
        alt.Tooltip("step:Q", title=labels["position"]),
        alt.Tooltip("component:Q", title=labels["component"]),
        alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
    ]
    cells = dict(
        y=alt.Y("y:Q", scale=y.scale, axis=None), y2="y2:Q", fill=alt.Color("value:Q", scale=VALUE_SCALE, legend=None)
    )
    layers += [
        squares.transform_filter("datum.part != 'context'")
        .mark_rect(strokeWidth=1.5, stroke=SOURCE)
        .encode(**xs, **cells, opacity=chosen, tooltip=square_tip)
        .add_params(step),
        squares.transform_filter("datum.part == 'context'")
        .mark_rect(strokeWidth=2, stroke=CONTEXT)
        .encode(**xs, **cells, tooltip=square_tip),
    ]
    layers.append(
        alt.Chart(records(pd.DataFrame([{"x": S + 1, "y": VALUE_BOTTOM + 0.05, "text": labels["context"]}])))
        .mark_text(baseline="top", fontSize=11, color=THEME, fontWeight="bold")
        .encode(x=alt.X("x:Q", scale=x.scale), y=alt.Y("y:Q", scale=y.scale, axis=None), text="text:N")
    )
    # 4) Between them, as the read computes: the signed scores around a zero line (outlined), the softmax written
    #    out (exp(score − max) per position; the row's name gives their sum), the weights (filled), the Gaussian.
    bars = bar_chart(frames["bars"])
    tip = [
        alt.Tooltip("position:N", title=labels["position"]),
        alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
        alt.Tooltip("exp:Q", title=labels["exp"], format=NUM_D3),
        alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
    ]
    layers += [
        *score_bars(bars, frames["bars"]["inside"], x, y, S + 1, chosen, tip),
        number_row(bars, x, y, S + 1, f"format(datum.exp, '{TWO_D3}')", F_EXP),
        *weight_bars(bars, x, y, S + 1, chosen, tip),
    ]
    if frames["bars"]["gauss"].notna().any():
        layers.append(gauss_line(bars, x, y, labels["gauss"]))
    title = picture_title(labels)
    return alt.layer(
        *layers,
        title=title,
        description=labels["description"],
        width="container",
        autosize=FIT_X,
        height=int(FOCUS_UNITS * FOCUS_PX),
    )
