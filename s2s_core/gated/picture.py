"""The cell diagram both gated pages draw as their main picture: one layered Vega-Lite view from the live run.

A cell (LSTM or GRU) is described once as a `Layout`: vector columns (`Block`: one square per component,
colour and number = the chosen step's value), operator nodes (⊙, +, =) and wires between them, on three rows:
the carried state along the top (c for an LSTM, h for a GRU), the gates in the middle, h_(t-1) and x_t
feeding the gates along the bottom. Every row of data carries the 1-based `step`, so the shared step
control (s2s_ui.steps.step_param) filters the picture to one step in the browser. Under the diagram, a
strip of the carried states at every step (steps across, components down), the chosen step outlined; the
previous input's values (before an edit) as faint dots in the strip's cells. A gate forced at the chosen
step is drawn dashed (its column's outline and its wire), with a legend that names both lines.

x runs 0…100 across the container's width; y is in pixels from the top (fixed height, `Layout.height`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import torch

from s2s_core.chartkit import FIT_X, GATE_SCALE, VALUE_SCALE, colour_ends, records
from s2s_core.fmt import CELL_D3, NUM_D3
from s2s_core.gated.forcing import Force, forced_mask

CELL_C = "#0F8B8D"  # the cell state c's role colour, the same on every page (s2s_core/seq2seq/picture.py: CELL)
WIRE = "#666666"  # neutral: charts.finish turns it into the theme's text colour
COL_W = 10.0  # a vector column's width in x units (a tenth of the picture)
TOP = 22  # px above the first row (its labels)
GAP = 32  # px between rows (the next row's labels)
LEGEND_BAND = 20  # px under the strip: the line legend at its left end, the before dots' key at its right
FONT = 12
# The colour words of both pages' legend sentences (ui.colour.* keys), read off the two scales the squares use
# (gates 0…1 on chartkit.GATE_SCALE, every other value −1…1 on chartkit.VALUE_SCALE): {gate_low}, {gate_high},
# {value_low} and {value_high} in the picture's description, the heatmaps' caption and the notices.
LEGEND = {
    f"{kind}_{end}": f"ui.colour.{colour}"
    for kind, scale in (("gate", GATE_SCALE), ("value", VALUE_SCALE))
    for end, colour in zip(("low", "high"), colour_ends(scale), strict=True)
}
STRIP_X0 = 8.0  # the strip's cells start here; its row names sit left of it
# Text that stands on the page, not on a square: the theme's text colour (charts.finish leaves text in a
# layer with rects alone, taking it for a cell label).
PAGE_TEXT = "currentColor"
STEP_PARAM = "step_sel"  # the shared step control's selection name (s2s_ui/steps.py reads it)
# The words `cell_chart` reads ("<ns>.picture.*"); "title_forced" replaces "title" while a gate is overridden.
WORDS = ("title", "title_forced", "description", "value", "component", "vector", "step", "path", "natural", "forced")
WORDS += ("before", "state", "word")


@dataclass(frozen=True)
class Block:
    """One vector drawn as a column of H squares: `name` keys its values, `label` is written above it."""

    name: str
    label: str
    x: float  # centre, 0…100
    row: int  # 0 top (carried state), 1 gates, 2 bottom (h_(t-1), h_t)
    gate: bool = False  # a 0-1 gate (green scale) rather than a value (diverging scale)
    force: str | None = None  # the overridable gate this column shows (dashed when forced)
    state: bool = False  # the carried state's own column (outlined in its role colour)
    align: str | None = None  # its name's alignment ("left": clear of a wire leaving the column's top centre)


@dataclass(frozen=True)
class Node:
    """An operator between columns: ⊙, +, = or 1−."""

    symbol: str
    x: float
    row: int
    at: str = "mid"  # "mid" of the row, or "below" it (between two rows)


@dataclass(frozen=True)
class Wire:
    """A line from (x, row, at) to (x2, row2, at2); at ∈ top / mid / bottom / below."""

    x: float
    row: int
    at: str
    x2: float
    row2: int
    at2: str
    carried: bool = False  # the carried state's line (thick, role colour)
    force: str | None = None  # dashed when this gate is forced at the step


@dataclass(frozen=True)
class Layout:
    """The picture of one cell: columns, nodes, wires, the states in the strip, the formulas written under it."""

    blocks: tuple[Block, ...]
    nodes: tuple[Node, ...]
    wires: tuple[Wire, ...]
    strip: tuple[str, ...]  # the carried states shown per step in the strip ("c", "h") or ("h",)
    formulas: tuple[str, ...]  # symbolic formulas written under the diagram (the numbers are in the columns)
    token_x: float = 34.0  # where the step's word (x_t) sits on the bottom row
    carried_colour: str = CELL_C  # the carried state's line: teal for an LSTM's c (its role colour)


# ---- what both cells' layouts share ---------------------------------------------------------------------------
# Both write their carried state on the top row the same way: new = keep⊙old + (let in)⊙candidate, each term a
# column of its own. Column centres in x units (COL_W wide):
X_OLD, X_KEPT, X_IN, X_NEW = 6, 33, 53, 91  # top row: the old state, the part kept, the part let in, the new state
X_KEEP, X_LET, X_CAND = 20, 46, 61  # middle row: the keeping gate (under its ⊙), the letting-in gate, the candidate
X_RIGHT = 77  # middle row, right: the gate that acts after (LSTM o) or inside (GRU r) the candidate
X_PLUS, X_EQUALS, X_MIX = 43, 72, 53.5  # the top row's + and =; the middle row's ⊙ of let-in gate and candidate
HALF = COL_W / 2  # a wire starts or ends at a column's side

# The top row's operators and the middle row's ⊙ (each cell adds its own: the LSTM's o⊙tanh(c), the GRU's 1−).
CARRIED_NODES = (Node("⊙", X_KEEP, 0), Node("+", X_PLUS, 0), Node("=", X_EQUALS, 0), Node("⊙", X_MIX, 1))


def carried_line() -> tuple[Wire, ...]:
    """The carried state's line along the top: old → ⊙ (kept) → + (let in) → = new, only scaled and added to."""
    return (
        Wire(X_OLD + HALF, 0, "mid", X_KEPT - HALF, 0, "mid", carried=True),
        Wire(X_KEPT + HALF, 0, "mid", X_IN - HALF, 0, "mid", carried=True),
        Wire(X_IN + HALF, 0, "mid", X_NEW - HALF, 0, "mid", carried=True),
    )


def keep_wire(gate: str) -> Wire:
    """The keeping gate's output up into the top row's ⊙ (dashed when that gate is forced)."""
    return Wire(X_KEEP, 1, "top", X_KEEP, 0, "mid", force=gate)


def let_in_wires(gate: str) -> tuple[Wire, ...]:
    """The letting-in gate and the candidate into their ⊙, and the product up into the top row's let-in column."""
    return (
        Wire(X_LET + HALF, 1, "mid", X_MIX, 1, "mid", force=gate),
        Wire(X_CAND - HALF, 1, "mid", X_MIX, 1, "mid"),
        Wire(X_MIX, 1, "mid", X_IN, 0, "bottom"),
    )


def feed_wires(start: float, into: Sequence[float]) -> tuple[Wire, ...]:
    """h_(t-1) (with the step's word x_t) along the bottom row from `start` to the right gate, up into each column."""
    return (
        Wire(start, 2, "mid", X_RIGHT, 2, "mid"),
        *(Wire(x, 2, "mid", x, 1, "bottom") for x in into),
    )


@dataclass(frozen=True)
class Geometry:
    """Pixel sizes that depend on H and S (the chart's height follows them)."""

    H: int
    S: int
    bottom: bool = True  # the bottom row holds columns (LSTM: h_(t-1), h_t); without, it is one line (GRU)

    @property
    def cell(self) -> int:
        return 16 if self.H <= 4 else 14  # at least 11 px text fits either

    @property
    def block(self) -> int:
        return self.H * self.cell

    def row_top(self, row: int) -> float:
        return TOP + row * (self.block + GAP)

    def y(self, row: int, at: str) -> float:
        top = self.row_top(row)
        if row == 2 and not self.bottom:
            return top + 14  # the feeding line alone: no column to centre on
        return {
            "top": top,
            "mid": top + self.block / 2,
            "bottom": top + self.block,
            "below": top + self.block + GAP / 2,
        }[at]

    @property
    def formulas_y(self) -> float:
        return self.row_top(2) + (self.block if self.bottom else 14) + 26

    @property
    def strip_top(self) -> float:
        return self.formulas_y + 2 * 18 + 18

    @property
    def strip_cell(self) -> int:
        return 13

    def height(self, n_strip_states: int) -> int:
        # + a band for the line legend (left) and the before dots' key (right)
        return int(self.strip_top + n_strip_states * self.H * self.strip_cell + LEGEND_BAND + 4)


def _ink(value: float, gate: bool) -> str:
    """Digits white on the dark ends of the colour scale, black elsewhere (chosen against the cell's fill)."""
    return "white" if (value > 0.7 if gate else abs(value) > 0.7) else "black"


def cells_frame(
    layout: Layout, values: Mapping[str, torch.Tensor], forced: Mapping[str, Sequence[bool]], geo: Geometry
) -> pd.DataFrame:
    """One row per (step, column, component): the square's corners, value and whether its gate is forced.

    values: block name -> (S, H) tensor of that vector at every step; forced: gate -> (S,) overridden or not.
    """
    rows = []
    for block in layout.blocks:
        v = values[block.name]  # (S, H)
        for t in range(geo.S):
            is_forced = bool(block.force and forced.get(block.force, [False] * geo.S)[t])
            for k in range(geo.H):
                y = geo.row_top(block.row) + k * geo.cell
                value = float(v[t, k])
                rows.append(
                    {
                        "step": t + 1,
                        "block": block.label,
                        "k": k + 1,
                        "x": block.x - COL_W / 2,
                        "x2": block.x + COL_W / 2,
                        "y": y,
                        "y2": y + geo.cell,
                        "xc": block.x,
                        "yc": y + geo.cell / 2,
                        "value": value,
                        "gate": block.gate,
                        "forced": is_forced,
                        "ink": _ink(value, block.gate),
                    }
                )
    return pd.DataFrame(rows)


def columns_frame(
    layout: Layout, forced: Mapping[str, Sequence[bool]], geo: Geometry, paths: Mapping[str, str]
) -> pd.DataFrame:
    """One row per (step, column): the column's outline, its label above it, and its line (natural / forced)."""
    rows = []
    for block in layout.blocks:
        align = block.align or ("left" if block.x < COL_W else "right" if block.x > 100 - COL_W else "center")
        label_x = block.x - COL_W / 2 if align == "left" else block.x + COL_W / 2 if align == "right" else block.x
        for t in range(geo.S):
            is_forced = bool(block.force and forced.get(block.force, [False] * geo.S)[t])
            rows.append(
                {
                    "step": t + 1,
                    "block": block.label,
                    "x": block.x - COL_W / 2,
                    "x2": block.x + COL_W / 2,
                    "y": geo.row_top(block.row),
                    "y2": geo.row_top(block.row) + geo.block,
                    "label_x": label_x,
                    "label_y": geo.row_top(block.row) - 8,
                    "align": align,
                    "path": paths["forced" if is_forced else "natural"],
                    "edge": layout.carried_colour if block.state else WIRE,
                    "edge_w": 2.5 if block.state or is_forced else 1,
                }
            )
    return pd.DataFrame(rows)


def wires_frame(
    layout: Layout, forced: Mapping[str, Sequence[bool]], geo: Geometry, paths: Mapping[str, str]
) -> pd.DataFrame:
    """One row per (step, wire): its ends in (x units, px), colour, width and line (natural / forced)."""
    rows = []
    for wire in layout.wires:
        for t in range(geo.S):
            is_forced = bool(wire.force and forced.get(wire.force, [False] * geo.S)[t])
            rows.append(
                {
                    "step": t + 1,
                    "x": wire.x,
                    "y": geo.y(wire.row, wire.at),
                    "x2": wire.x2,
                    "y2": geo.y(wire.row2, wire.at2),
                    "path": paths["forced" if is_forced else "natural"],
                    "stroke": layout.carried_colour if wire.carried else WIRE,
                    "width": 4 if wire.carried else 1.5,
                }
            )
    return pd.DataFrame(rows)


def nodes_frame(layout: Layout, geo: Geometry) -> pd.DataFrame:
    return pd.DataFrame([{"symbol": n.symbol, "x": n.x, "y": geo.y(n.row, n.at)} for n in layout.nodes])


def strip_frame(
    layout: Layout,
    states: Mapping[str, torch.Tensor],
    geo: Geometry,
    before: Mapping[str, torch.Tensor] | None = None,
) -> pd.DataFrame:
    """The carried states at every step, one row per (state, step, component): c1…cH above h1…hH.

    before: the same states of the previous input (an edit ago); its value is kept where that cell existed.
    """
    width = (100 - STRIP_X0) / geo.S
    rows = []
    for r, (name, k) in enumerate((name, k) for name in layout.strip for k in range(geo.H)):
        value = states[name]  # (S, H)
        old = before.get(name) if before else None  # (S', H') or None
        for t in range(geo.S):
            y = geo.strip_top + r * geo.strip_cell
            was = float(old[t, k]) if old is not None and t < old.shape[0] and k < old.shape[1] else None
            rows.append(
                {
                    "step": t + 1,
                    "row": f"{name}{k + 1}",
                    "x": STRIP_X0 + t * width,
                    "x2": STRIP_X0 + (t + 1) * width,
                    "xc": STRIP_X0 + (t + 0.5) * width,
                    "y": y,
                    "y2": y + geo.strip_cell,
                    "yc": y + geo.strip_cell / 2,
                    "value": float(value[t, k]),
                    "before": was,
                    "ink": _ink(float(value[t, k]), False),
                }
            )
    return pd.DataFrame(rows)


def words_frame(labels: Sequence[str], layout: Layout, geo: Geometry) -> pd.DataFrame:
    """The step's word (x_t) on the bottom row, and every step's label above the strip's columns."""
    width = (100 - STRIP_X0) / geo.S
    return pd.DataFrame(
        [
            {
                "step": t + 1,
                "word": label,
                "x": layout.token_x,
                "y": geo.y(2, "mid"),
                "head_x": STRIP_X0 + (t + 0.5) * width,
                "head_y": geo.strip_top - 8,
            }
            for t, label in enumerate(labels)
        ]
    )


@dataclass(frozen=True)
class CellPicture:
    """Everything the chart draws (tidy frames), built by each cell's own `picture_data`."""

    layout: Layout
    geo: Geometry
    cells: pd.DataFrame
    columns: pd.DataFrame
    wires: pd.DataFrame
    nodes: pd.DataFrame
    strip: pd.DataFrame
    words: pd.DataFrame


def cell_picture(
    layout: Layout,
    values: Mapping[str, torch.Tensor],
    forced: Mapping[str, Sequence[bool]],
    labels: Sequence[str],
    paths: Mapping[str, str],
    before: Mapping[str, torch.Tensor] | None = None,
) -> CellPicture:
    """values: every block's (S, H) tensor and the strip's states; paths: the words for natural / forced."""
    S, H = values[layout.strip[0]].shape
    geo = Geometry(H=H, S=S, bottom=any(b.row == 2 for b in layout.blocks))
    return CellPicture(
        layout=layout,
        geo=geo,
        cells=cells_frame(layout, values, forced, geo),
        columns=columns_frame(layout, forced, geo, paths),
        wires=wires_frame(layout, forced, geo, paths),
        nodes=nodes_frame(layout, geo),
        strip=strip_frame(layout, values, geo, before),
        words=words_frame(labels, layout, geo),
    )


def shown_run(result: Any) -> Any:
    """The run a picture shows: the forced one once a gate is overridden (the experiment, where the eye is)."""
    return result.forced if result.forced is not None else result.run


def run_picture(
    layout: Layout,
    values: Callable[[Any], Mapping[str, torch.Tensor]],
    result: Any,
    forces: Sequence[Force],
    forceable: Sequence[str],
    paths: Mapping[str, str],
    before: Any | None = None,
) -> CellPicture:
    """A cell's picture from its result (LstmResult or GruResult): the shown run at every step, forced gates
    marked, the previous input's states. values(run): the cell's own columns, each (S, H), and its strip's states."""
    run = shown_run(result)
    S = run.h.shape[0]
    forced = {g: forced_mask(g, S, forces) for g in forceable}
    old = values(shown_run(before)) if before is not None else None
    return cell_picture(layout, values(run), forced, result.labels, paths, old)


def _cell_label(width_units: float) -> str:
    """A square's number: num()'s 4 decimals where the square is wide enough, 2 where it is not (a phone)."""
    return f"format(datum.value, width * {width_units / 100} >= 48 ? '{NUM_D3}' : '{CELL_D3}')"


def cell_chart(pic: CellPicture, words: Mapping[str, str], step_param: alt.Parameter) -> alt.LayerChart:
    """words: the learner's words, keyed by WORDS (the page puts "title_forced" in "title" while forcing)."""
    geo = pic.geo
    x_scale = alt.Scale(domain=[0, 100], nice=False, zero=False)
    y_scale = alt.Scale(domain=[0, geo.height(len(pic.layout.strip))], reverse=True, nice=False, zero=False)

    def at(x_field: str, y_field: str) -> dict:
        """x and y channels on the picture's fixed scales (no axes: positions are the diagram's own)."""
        return {
            "x": alt.X(f"{x_field}:Q", scale=x_scale, axis=None),
            "y": alt.Y(f"{y_field}:Q", scale=y_scale, axis=None),
        }

    x, y = at("x", "y")["x"], at("x", "y")["y"]
    path_domain = [words["natural"], words["forced"]]
    dash = alt.StrokeDash(
        "path:N",
        title=words["path"],
        scale=alt.Scale(domain=path_domain, range=[[1, 0], [6, 4]]),
        # In the band under the strip, at its left end (the before dots' key takes the right end): a legend
        # under the chart would push the step slider and Play below the first screen at 1280×900.
        legend=alt.Legend(
            orient="none",
            legendX=0,
            legendY=geo.height(len(pic.layout.strip)) - LEGEND_BAND,
            direction="horizontal",
            titleOrient="left",
            symbolStrokeWidth=2,
            symbolType="stroke",
            symbolSize=300,
        ),
    )

    # 1) Wires (the carried state's line thick, in its colour), dashed where the gate they carry is forced.
    wires = (
        alt.Chart(records(pic.wires))
        .mark_rule(strokeCap="round")
        .encode(
            x=x,
            y=y,
            x2="x2:Q",
            y2="y2:Q",
            stroke=alt.Stroke("stroke:N", scale=None),
            strokeWidth=alt.StrokeWidth("width:Q", scale=None),
            strokeDash=dash,
        )
        .transform_filter(step_param)
    )
    # 2) The squares: gates on the green 0-1 scale, values on the diverging one; the number printed inside.
    tooltip = [
        alt.Tooltip("block:N", title=words["vector"]),
        alt.Tooltip("k:O", title=words["component"]),
        alt.Tooltip("value:Q", title=words["value"], format=NUM_D3),
    ]
    base = alt.Chart(records(pic.cells)).transform_filter(step_param)
    squares = []
    for is_gate, scale in ((True, GATE_SCALE), (False, VALUE_SCALE)):
        squares.append(
            base.transform_filter(f"datum.gate == {str(is_gate).lower()}")
            .mark_rect(stroke="#ffffff", strokeWidth=0.5)
            .encode(
                x=x,
                y=y,
                x2="x2:Q",
                y2="y2:Q",
                color=alt.Color("value:Q", scale=scale, legend=None),
                tooltip=tooltip,
            )
        )
    numbers = (
        base.transform_calculate(label=_cell_label(COL_W))
        .mark_text(fontSize=11)
        .encode(**at("xc", "yc"), text="label:N", fill=alt.Fill("ink:N", scale=None))
    )
    # 3) Column outlines (dashed when forced) and their names above them.
    columns = alt.Chart(records(pic.columns)).transform_filter(step_param)
    outlines = columns.mark_rect(filled=False).encode(
        x=x,
        y=y,
        x2="x2:Q",
        y2="y2:Q",
        stroke=alt.Stroke("edge:N", scale=None),
        strokeWidth=alt.StrokeWidth("edge_w:Q", scale=None),
        strokeDash=dash,
    )
    # Vega-Lite has no align channel: one text layer per alignment (the edge columns' names stay inside).
    names = [
        columns.transform_filter(f"datum.align == '{align}'")
        .mark_text(fontSize=FONT, fontWeight="bold", baseline="bottom", align=align, color=PAGE_TEXT)
        .encode(**at("label_x", "label_y"), text="block:N")
        for align in ("left", "center", "right")
    ]
    # 4) Operator nodes.
    node_data = alt.Chart(records(pic.nodes))
    node_marks = node_data.mark_circle(size=340, color="#ffffff", stroke=WIRE, strokeWidth=1.5, opacity=1).encode(
        x=x, y=y
    )
    node_text = node_data.mark_text(fontSize=FONT + 2, fontWeight="bold", color="#000000").encode(
        x=x, y=y, text="symbol:N"
    )
    # 5) The step's word on the bottom row, the formulas under the diagram.
    word_data = alt.Chart(records(pic.words))
    token = (
        word_data.transform_filter(step_param)
        .transform_calculate(text=f"'{words['word']} ' + datum.word")
        .mark_text(fontSize=FONT, baseline="bottom", dy=-6, color=PAGE_TEXT)
        .encode(x=x, y=y, text="text:N")
    )
    formulas = (
        alt.Chart(
            alt.InlineData(
                values=[
                    {"x": 0.5, "y": geo.formulas_y + 18 * i, "text": line} for i, line in enumerate(pic.layout.formulas)
                ]
            )
        )
        .mark_text(fontSize=FONT + 1, align="left", color=PAGE_TEXT)
        .encode(x=x, y=y, text="text:N")
    )
    # 6) The strip: the carried states at every step, the chosen step outlined, the others faded.
    strip = alt.Chart(records(pic.strip))
    strip_cells = (
        strip.mark_rect(stroke="#ffffff", strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            x2="x2:Q",
            y2="y2:Q",
            color=alt.Color("value:Q", scale=VALUE_SCALE, legend=None),
            opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.7)),
            tooltip=[
                alt.Tooltip("row:N", title=words["state"]),
                alt.Tooltip("step:O", title=words["step"]),
                alt.Tooltip("value:Q", title=words["value"], format=NUM_D3),
                alt.Tooltip("before:Q", title=words["before"], format=NUM_D3),
            ],
        )
        .add_params(step_param)
    )
    strip_now = (
        strip.transform_filter(step_param)
        .transform_aggregate(x="min(x)", x2="max(x2)", y="min(y)", y2="max(y2)")
        .mark_rect(filled=False, stroke="currentColor", strokeWidth=2.5)  # the theme's text colour: light and dark
        .encode(x=x, y=y, x2="x2:Q", y2="y2:Q")
    )
    strip_before = (
        strip.transform_filter("isValid(datum.before)")
        .mark_point(shape="circle", filled=True, size=55, opacity=1, stroke=PAGE_TEXT, strokeWidth=1)
        .encode(
            **at("x2", "yc"),
            color=alt.Color("before:Q", scale=VALUE_SCALE, legend=None),
            xOffset=alt.value(-6),
        )
    )
    # Their key, once, under the strip's right end (only when there was an edit to compare with).
    before_key = (
        strip.transform_filter("isValid(datum.before)")
        .transform_aggregate(x="max(x2)", y="max(y2)")
        .transform_calculate(text=f"'● ' + {json.dumps(words['before'], ensure_ascii=False)}")
        .mark_text(fontSize=11, align="right", baseline="top", dy=4, color=PAGE_TEXT)
        .encode(**at("x", "y"), text="text:N")
    )
    row_names = (
        strip.transform_filter("datum.step == 1")
        .mark_text(fontSize=11, align="right", dx=-4, color=PAGE_TEXT)
        .encode(**at("x", "yc"), text="row:N")
    )
    heads = word_data.mark_text(fontSize=11, baseline="bottom", limit=120, color=PAGE_TEXT).encode(
        **at("head_x", "head_y"),
        text="word:N",
        opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.6)),
    )
    layers = [wires, *squares, outlines, numbers, *names, node_marks, node_text, token, formulas]
    layers += [strip_cells, strip_now, strip_before, before_key, row_names, heads]
    # Top-level settings as arguments, not chained: each chained call copies the layered chart and validates.
    return alt.layer(
        *layers,
        resolve=alt.Resolve(scale=alt.ScaleResolveMap(color="independent")),
        width="container",
        height=geo.height(len(pic.layout.strip)),
        autosize=FIT_X,
        title=alt.Title(words["title"], fontSize=FONT + 3, anchor="start"),
        description=words["description"],
    )
