"""The Bahdanau-vs-Luong page's two pictures, each one layered view in (position, row) coordinates. No streamlit.

1) `compare_picture`: every score function on the same s and h₁ … h_S, one row each: the scores as outlined
   bars around a zero line (scaled to the row's largest |score|: the functions' scales differ by orders), the
   weights as filled bars on 0 … 1, the row's largest weight in bold; the previous input's weights as dashes.
2) `focus_picture`: one function in focus: the keys k_j (what s is compared with) as a row of vectors on top,
   the scores and weights between, the values h_j (what is summed) as a row of vectors below, with the
   context at the end; a local window drawn over the source row with its centre p, and local-p's Gaussian
   drawn over the weights. The shared step control (s2s_ui.steps) picks a source position j: it is drawn at
   full opacity, the others faded.

Positions are 1-based on the x axis (s1 … sS); rows grow downwards (the y scale is reversed).
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, lines, records
from s2s_core.fmt import NUM_D3
from s2s_core.scoring.attend import Read
from s2s_core.scoring.compute import ScoringResult

SOURCE, DECODER, CONTEXT = "#2C7FB8", "#D55E00", "#B8588F"  # the app's role colours, the same on every page
THEME = "currentColor"  # text on the page follows the light or dark theme (text in a cell too: cells are outlines)
VALUE_SCALE = alt.Scale(scheme="redblue", reverse=True, domainMid=0)  # one diverging scale, centred at 0
FONT = 12
HALF = 0.32  # half a bar's width, in positions
ROW = 3.3  # one function's row: name (0-0.45), scores around a zero line (0.55-1.35), weights (1.45-3.05)
SCORE_ZERO, SCORE_HALF = 0.95, 0.4
WEIGHT_BASE, WEIGHT_TALL = 3.05, 1.5
ROW_PX = 26  # one unit of y
MIN_LABEL_PX = 44  # a position narrower than this leaves its weight's number to the tooltip
TITLE_CHARS, SUBTITLE_CHARS = 44, 58  # what fits a 390 px phone's column at the title's and subtitle's size
# The plain words each picture takes (catalog keys under "scoring.chart."); the title, subtitle, description and row
# names carry live numbers or the function's name, so the page fills those in (s2s_ui/scoring/specs.py).
COMPARE_WORDS = ("before", "unavailable", "position", "score", "weight")
FOCUS_WORDS = ("key", "value_row", "context", "position", "score", "weight", "gauss", "value", "component", "p")


def _title(labels: Mapping[str, str]) -> alt.TitleParams:
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


class _Axis:
    """A positional channel and its scale (an Altair channel's `.scale` is a setter, not the scale)."""

    def __init__(self, channel: alt.X | alt.Y, scale: alt.Scale) -> None:
        self.channel, self.scale = channel, scale


def _x(S: int, extra: int = 0, title: str = "") -> _Axis:
    values = list(range(1, S + 1))
    scale = alt.Scale(domain=[0.5, S + 0.5 + extra], nice=False, zero=False)
    axis = alt.Axis(values=values, labelExpr="'s' + datum.value", grid=False, ticks=False, domain=False)
    return _Axis(alt.X("x:Q", title=title, scale=scale, axis=axis), scale)


def _y(height_units: float) -> _Axis:
    scale = alt.Scale(domain=[height_units, -0.1], nice=False, zero=False)
    return _Axis(alt.Y("y:Q", axis=None, scale=scale), scale)


def compare_picture(result: ScoringResult, names: Mapping[str, str], labels: Mapping[str, str], before=None):
    """Picture 1 (see the module docstring). labels: title, subtitle, description, position, score, weight,
    before, unavailable."""
    frame = compare_frame(result, names, before)
    units = len(result.functions) * ROW
    x, y = _x(result.S, title=labels["position"]), _y(units)
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
        bar_x = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
        shifted = base.transform_calculate(x0=f"datum.x - {HALF}", x1=f"datum.x + {HALF}")
        layers += [
            shifted.mark_rule(strokeWidth=1, opacity=0.5)
            .encode(
                **{"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"},
                y=alt.Y("s_y:Q", scale=y.scale, axis=None),
                color=alt.value("currentColor"),
            )
            .properties(),
            shifted.mark_rect(fill="transparent", stroke=CONTEXT, strokeWidth=1.5).encode(
                **bar_x, y=alt.Y("s_y:Q", scale=y.scale, axis=None), y2="s_y2:Q", tooltip=tip
            ),
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
                .mark_text(color=THEME, baseline="bottom", dy=-2, fontSize=11, fontWeight="bold" if bold else "normal")
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
    title = _title(labels)
    return alt.layer(
        *layers,
        title=title,
        description=labels["description"],
        width="container",
        autosize=FIT_X,
        height=int(units * ROW_PX),
    )


# ---- picture 2: keys and values around one score function ---------------------------------------------------

KEY_TOP, KEY_BOTTOM = 0.6, 1.4
F_SCORE_ZERO = 2.5
F_WEIGHT_BASE = 4.7
VALUE_TOP, VALUE_BOTTOM = 5.5, 6.3
FOCUS_UNITS = 6.9
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


def focus_frames(read: Read, window: str) -> dict[str, pd.DataFrame]:
    """Picture 2's data: squares (keys, values, context), bars (score, weight, gauss), the window."""
    keys = read.keys[0].tolist()  # (S, n_k)
    values = read.values[0].tolist()  # (S, H_e)
    S = len(values)
    squares = _squares(keys, KEY_TOP, KEY_BOTTOM, "key") + _squares(values, VALUE_TOP, VALUE_BOTTOM, "value")
    squares += _squares([read.context[0].tolist()], VALUE_TOP, VALUE_BOTTOM, "context", first_x=S + 1)
    scores = read.scores[0].tolist()  # (S,)
    biggest = max(abs(x) for x in scores) or 1.0
    gauss = read.gauss[0].tolist() if read.gauss is not None else [None] * S
    bars = [
        {
            "step": j + 1,
            "position": f"s{j + 1}",
            "score": scores[j],
            "weight": float(read.weights[0, j]),
            "inside": bool(read.mask[0, j]),
            "gauss": gauss[j],
            "s_y": F_SCORE_ZERO,
            "s_y2": F_SCORE_ZERO - SCORE_HALF * scores[j] / biggest,
            "w_y": F_WEIGHT_BASE,
            "w_y2": F_WEIGHT_BASE - WEIGHT_TALL * float(read.weights[0, j]),
            "g_y": None if gauss[j] is None else F_WEIGHT_BASE - WEIGHT_TALL * gauss[j],
        }
        for j in range(S)
    ]
    band = []
    if window != "global" and read.center is not None:
        p = float(read.center[0])
        inside = [j + 1 for j in range(S) if bool(read.mask[0, j])]
        lo, hi = (min(inside) - 0.48, max(inside) + 0.48) if inside else (p, p)
        band.append({"x0": lo, "x1": hi, "y": KEY_TOP - 0.1, "y2": VALUE_BOTTOM + 0.1, "p": p})
    return {"squares": pd.DataFrame(squares), "bars": pd.DataFrame(bars), "band": pd.DataFrame(band)}


def focus_picture(read: Read, window: str, labels: Mapping[str, str], step: alt.Parameter) -> alt.LayerChart:
    """Picture 2 (see the module docstring). labels: title, subtitle, description, keys, scores, values,
    key, value_row, context, position, score, weight, gauss, value, component, p."""
    frames = focus_frames(read, window)
    parts = {"key": labels["key"], "value": labels["value_row"], "context": labels["context"]}
    frames["squares"]["name"] = frames["squares"]["part"].map(parts)
    S = len(frames["bars"])
    x, y = _x(S, extra=1, title=labels["position"]), _y(FOCUS_UNITS)
    xs = {"x": alt.X("x0:Q", scale=x.scale), "x2": "x1:Q"}
    chosen = alt.condition(step, alt.value(1.0), alt.value(0.4))
    layers: list[alt.Chart] = []
    # 1) The window first, behind everything: the positions local attention may read, and its centre p.
    if not frames["band"].empty:
        band = alt.Chart(records(frames["band"]))
        layers += [
            band.mark_rect(color=CONTEXT, opacity=0.1, stroke=CONTEXT, strokeDash=[5, 3], strokeWidth=1.5).encode(
                **xs, y=alt.Y("y:Q", scale=y.scale, axis=None), y2="y2:Q", tooltip=[alt.Tooltip("p:Q", title="p")]
            ),
            band.mark_rule(color=CONTEXT, strokeDash=[2, 2], strokeWidth=1.5).encode(
                x=alt.X("p:Q", scale=x.scale), y=alt.Y("y:Q", scale=y.scale, axis=None), y2="y2:Q"
            ),
            band.transform_calculate(text=f"'{labels['p']} = ' + format(datum.p, '.2~f')")
            .mark_text(baseline="top", dy=2, fontSize=11, color=THEME, fontWeight="bold")
            .encode(x=alt.X("p:Q", scale=x.scale), y=alt.Y("y2:Q", scale=y.scale, axis=None), text="text:N"),
        ]
    # 2) Row names.
    names = pd.DataFrame(
        [
            {"text": labels["keys"], "y": KEY_TOP - 0.3},
            {"text": labels["scores"], "y": KEY_BOTTOM + 0.35},
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
    # 4) Between them: the scores around a zero line (outlined), the weights (filled), the Gaussian (dashed).
    bars = alt.Chart(records(frames["bars"])).transform_calculate(
        x0=f"datum.step - {HALF}", x1=f"datum.step + {HALF}", x="datum.step"
    )
    tip = [
        alt.Tooltip("position:N", title=labels["position"]),
        alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
        alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
    ]
    layers += [
        bars.mark_rule(strokeWidth=1, opacity=0.5, color="currentColor").encode(
            **xs, y=alt.Y("s_y:Q", scale=y.scale, axis=None)
        ),
        bars.mark_rect(fill="transparent", stroke=CONTEXT, strokeWidth=1.5).encode(
            **xs,
            y=alt.Y("s_y:Q", scale=y.scale, axis=None),
            y2="s_y2:Q",
            strokeDash=alt.condition("datum.inside", alt.value([1, 0]), alt.value([3, 2])),
            opacity=chosen,
            tooltip=tip,
        ),
        bars.mark_rect(color=CONTEXT).encode(
            **xs, y=alt.Y("w_y:Q", scale=y.scale, axis=None), y2="w_y2:Q", opacity=chosen, tooltip=tip
        ),
        bars.transform_filter(f"width / {S + 1} >= {MIN_LABEL_PX}")
        .transform_calculate(label="datum.inside ? format(datum.weight, '.2f') : '0'")
        .mark_text(color=THEME, baseline="bottom", dy=-2, fontSize=11)
        .encode(x=alt.X("x:Q", scale=x.scale), y=alt.Y("w_y2:Q", scale=y.scale, axis=None), text="label:N"),
    ]
    if frames["bars"]["gauss"].notna().any():
        layers.append(
            bars.mark_line(point=True, strokeDash=[5, 3], color="currentColor", strokeWidth=1.5).encode(
                x=alt.X("x:Q", scale=x.scale),
                y=alt.Y("g_y:Q", scale=y.scale, axis=None),
                tooltip=[alt.Tooltip("gauss:Q", title=labels["gauss"], format=NUM_D3)],
            )
        )
    title = _title(labels)
    return alt.layer(
        *layers,
        title=title,
        description=labels["description"],
        width="container",
        autosize=FIT_X,
        height=int(FOCUS_UNITS * 40),
    )
