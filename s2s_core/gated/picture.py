"""The cell diagram both gated pages draw as their main picture: one layered Vega-Lite view from the live run.

A cell (LSTM or GRU) is described once as a `Layout`: vector columns (`Block`: one square per component,
colour and number = the chosen step's value), operator nodes (⊙, +, =) and wires between them, on three rows:
the carried state along the top (c for an LSTM, h for a GRU), the gates in the middle, h_(t-1) and x_t
feeding the gates along the bottom; an arrowhead where each wire's flow arrives. The frames are tidy (one row
per step and thing); the chart lays every step's values side by side in one row per thing and the shared step
control (s2s_ui.steps.step_param) picks the step's by its signal, in the browser (`cell_chart`). Under the
diagram, a strip of the carried states at every step (steps across, components down), the chosen step outlined;
the previous input's values (before an edit) as faint dots in the strip's cells. A gate forced at the chosen
step is drawn dashed (its column's outline and its wire), with a legend that names both lines (only then).

x runs 0…100 across the container's width; y is in pixels from the top (fixed height, `Layout.height`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import torch

from s2s_core.catalog import translate, words
from s2s_core.chartkit import FIT_X, GATE_SCALE, MIN_CELL_PX, VALUE_SCALE, colour_ends, records
from s2s_core.fmt import NUM_D3
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
    head: bool = True  # an arrowhead where the flow arrives (not on a line that only feeds branches or turns)


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
        Wire(start, 2, "mid", X_RIGHT, 2, "mid", head=False),  # the line the gates' inputs branch off
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

    def height(self, n_strip_states: int, band: bool = True) -> int:
        # + a band for the line legend (left) and the before dots' key (right), when either is drawn
        return int(self.strip_top + n_strip_states * self.H * self.strip_cell + (LEGEND_BAND if band else 0) + 4)


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


NODE_R = 10.5  # px: the radius of an operator's circle (mark size 340)


def heads_frame(layout: Layout, geo: Geometry) -> pd.DataFrame:
    """One arrowhead per wire that carries the flow into a column or an operator: where the wire arrives, its tip
    against the column's side or the operator's circle, pointing the way the wire runs (the same at every step).

    x stays in x units and y in px (the picture's scales); `dx`/`dy` move the head back from the wire's end in
    px, so its tip touches what the flow enters at any width.
    """
    at_node = {(n.x, n.row, n.at) for n in layout.nodes}
    rows = []
    for wire in layout.wires:
        if not wire.head:
            continue
        size = 110 if wire.carried else 55
        r = size**0.5 / 2 + 1  # the triangle's half length, and a pixel of air
        back = r + (NODE_R if (wire.x2, wire.row2, wire.at2) in at_node else 0)
        y, y2 = geo.y(wire.row, wire.at), geo.y(wire.row2, wire.at2)
        if abs(wire.x2 - wire.x) > 1:  # runs across
            shape, dx, dy = ("triangle-right", -back, 0.0) if wire.x2 > wire.x else ("triangle-left", back, 0.0)
        else:  # runs up or down (y grows downwards)
            shape, dx, dy = ("triangle-down", 0.0, -back) if y2 > y else ("triangle-up", 0.0, back)
        rows.append(
            {
                "x": wire.x2,
                "y": y2,
                "dx": dx,
                "dy": dy,
                "shape": shape,
                "size": size,
                "colour": layout.carried_colour if wire.carried else WIRE,
            }
        )
    return pd.DataFrame(rows)


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
    heads: pd.DataFrame
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
        heads=heads_frame(layout, geo),
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


# ---- the chart: one layered view, stepped in the browser --------------------------------------------------------
# Moving the slider must redraw within the phone budget (≤ 50 ms at 4× CPU throttling, docs/PERFORMANCE.md).
# Streamlit's Vega interprets every expression (no compiled code), and a filter on the step re-makes every mark it
# lets through, so nothing here filters on the step: each thing that changes with the step is drawn once, its
# per-step values side by side in its row ("v1", "v2", ... for the value at steps 1, 2, ...), and one member
# lookup by the slider's own signal picks the step's value (`_at`). The marks stay and only their attributes
# change. Labels, ink and accessible labels are written here in Python, not formatted in the browser; what does
# not change with the step has no step in its data at all.
STEP_FIELD = "step"  # the field the shared step selection projects (s2s_core/chartkit.py STEP_FIELD)


def step_signal(step_param: alt.Parameter) -> str:
    """The slider's signal: Vega-Lite names a bound point selection's input `<selection>_<field>`."""
    return f"{step_param.name}_{STEP_FIELD}"


def _d3(x: float, digits: int) -> str:
    """d3-format's '.<digits>~f' (fmt.NUM_D3, fmt.CELL_D3) in Python: trailing zeros dropped, a true minus, no −0."""
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "\u2212")


def by_step(frame: pd.DataFrame, fields: Sequence[str]) -> list[dict]:
    """The long frame (one row per step and thing) as one row per thing: every column of `fields` once per step,
    as f"{field}{step}"; the other columns (the same at every step) once."""
    keep = [c for c in frame.columns if c != STEP_FIELD and c not in fields]
    out: dict[tuple, dict] = {}
    for row in frame.to_dict("records"):
        wide = out.setdefault(tuple(row[c] for c in keep), {c: row[c] for c in keep})
        for name in fields:
            wide[f"{name}{row[STEP_FIELD]}"] = row[name]
    return list(out.values())


def _rows(rows: list[dict]) -> alt.InlineData:
    return alt.InlineData(values=rows)


def cell_chart(pic: CellPicture, words: Mapping[str, str], step_param: alt.Parameter) -> alt.LayerChart:
    """words: the learner's words, keyed by WORDS (the page puts "title_forced" in "title" while forcing)."""
    geo, step = pic.geo, step_signal(step_param)
    forced_any = bool((pic.wires["path"] == words["forced"]).any() or (pic.columns["path"] == words["forced"]).any())
    has_before = bool(pic.strip["before"].notna().any())
    height = geo.height(len(pic.layout.strip), band=forced_any or has_before)
    x_scale = alt.Scale(domain=[0, 100], nice=False, zero=False)
    y_scale = alt.Scale(domain=[0, height], reverse=True, nice=False, zero=False)

    def at(x_field: str, y_field: str) -> dict:
        """x and y channels on the picture's fixed scales (no axes: positions are the diagram's own)."""
        return {
            "x": alt.X(f"{x_field}:Q", scale=x_scale, axis=None),
            "y": alt.Y(f"{y_field}:Q", scale=y_scale, axis=None),
        }

    def now(field: str) -> str:
        """The step's value of a per-step field (see `by_step`): one lookup, the only expression a move runs."""
        return f"datum['{field}' + {step}]"

    x, y = at("x", "y")["x"], at("x", "y")["y"]
    box = {"x": x, "y": y, "x2": "x2:Q", "y2": "y2:Q"}
    # Natural and forced lines differ by their dash; the legend stands only while a gate is forced (dashed lines).
    dash = alt.StrokeDash(
        "path:N",
        title=words["path"],
        scale=alt.Scale(domain=[words["natural"], words["forced"]], range=[[1, 0], [6, 4]]),
        # In the band under the strip, at its left end (the before dots' key takes the right end): a legend
        # under the chart would push the step slider and Play below the first screen at 1280×900.
        legend=alt.Legend(
            orient="none",
            legendX=0,
            legendY=height - LEGEND_BAND,
            direction="horizontal",
            titleOrient="left",
            symbolStrokeWidth=2,
            symbolType="stroke",
            symbolSize=300,
        ),
    )

    def stepped_lines(frame: pd.DataFrame, fields: Sequence[str]) -> alt.Chart:
        """Wires or outlines: their dash (and width) per step while forcing, else drawn once as they are."""
        if not forced_any:
            return alt.Chart(records(frame[frame[STEP_FIELD] == 1].drop(columns=[STEP_FIELD, "path"])))
        chart = alt.Chart(_rows(by_step(frame, fields)))
        return chart.transform_calculate(**{name: now(name) for name in fields})

    # 1) Wires (the carried state's line thick, in its colour), dashed where the gate they carry is forced; an
    # arrowhead where each arrives, so the flow reads left to right and bottom to top without the formulas.
    wires = stepped_lines(pic.wires, ("path",)).mark_rule(strokeCap="round")
    wires = wires.encode(
        **box,
        stroke=alt.Stroke("stroke:N", scale=None),
        strokeWidth=alt.StrokeWidth("width:Q", scale=None),
        **({"strokeDash": dash} if forced_any else {}),
    )
    heads = (
        alt.Chart(records(pic.heads), name="flow_heads")
        .mark_point(filled=True, opacity=1, strokeWidth=0)
        .encode(
            x=x,
            y=y,
            xOffset=alt.XOffset("dx:Q", scale=None),
            yOffset=alt.YOffset("dy:Q", scale=None),
            shape=alt.Shape("shape:N", scale=None),
            size=alt.Size("size:Q", scale=None),
            fill=alt.Fill("colour:N", scale=None),
        )
    )
    # 2) The squares: gates on the green 0-1 scale, values on the diverging one; the number printed inside.
    cells = pic.cells.assign(
        l=[_d3(v, 4) for v in pic.cells["value"]],
        s=[_d3(v, 2) for v in pic.cells["value"]],
        a=[
            f"{words['vector']}: {b}; {words['component']}: {k}; {words['value']}: {_d3(v, 4)}"
            for b, k, v in zip(pic.cells["block"], pic.cells["k"], pic.cells["value"], strict=True)
        ],
    ).drop(columns=["forced"])
    squares = []
    for is_gate, scale in ((True, GATE_SCALE), (False, VALUE_SCALE)):
        part = cells[cells["gate"] == is_gate].drop(columns=["gate", "l", "s", "ink", "xc", "yc"])
        squares.append(
            alt.Chart(_rows(by_step(part, ("value", "a"))))
            .transform_calculate(value=now("value"), aria=now("a"))
            .mark_rect(stroke="#ffffff", strokeWidth=0.5)
            .encode(
                **box,
                color=alt.Color("value:Q", scale=scale, legend=None),
                # "vector: f; component: 1; value: 0.5082", written above: a tooltip that formats in the browser
                # would run at every move for every square
                tooltip=alt.Tooltip("aria:N"),
                description=alt.Description("aria:N"),
            )
        )
    # 4 decimals where a column is wide enough (48 px), 2 on a phone: chosen by the live width, no rerun.
    fits = f"width * {COL_W / 100} >= {MIN_CELL_PX}"
    numbers = (
        alt.Chart(_rows(by_step(cells[["step", "xc", "yc", "l", "s", "ink"]], ("l", "s", "ink"))))
        .transform_calculate(label=f"datum[({fits} ? 'l' : 's') + {step}]", ink=now("ink"))
        .mark_text(fontSize=11)
        .encode(**at("xc", "yc"), text="label:N", fill=alt.Fill("ink:N", scale=None))
    )
    # 3) Column outlines (dashed when forced) and their names above them (the same at every step).
    outlines = (
        stepped_lines(pic.columns.drop(columns=["label_x", "label_y", "align", "block"]), ("path", "edge_w"))
        .mark_rect(filled=False)
        .encode(
            **box,
            stroke=alt.Stroke("edge:N", scale=None),
            strokeWidth=alt.StrokeWidth("edge_w:Q", scale=None),
            **({"strokeDash": dash} if forced_any else {}),
        )
    )
    first = pic.columns[pic.columns[STEP_FIELD] == 1]
    # Vega-Lite has no align channel: one text layer per alignment (the edge columns' names stay inside).
    names = [
        alt.Chart(records(first.loc[first["align"] == align, ["block", "label_x", "label_y"]]))
        .mark_text(fontSize=FONT, fontWeight="bold", baseline="bottom", align=align, color=PAGE_TEXT)
        .encode(**at("label_x", "label_y"), text="block:N")
        for align in ("left", "center", "right")
        if (first["align"] == align).any()
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
    said = pic.words.assign(w=[f"{words['word']} {w}" for w in pic.words["word"]])
    token = (
        alt.Chart(_rows(by_step(said[["step", "x", "y", "w"]], ("w",))))
        .transform_calculate(text=now("w"))
        .mark_text(fontSize=FONT, baseline="bottom", dy=-6, color=PAGE_TEXT)
        .encode(x=x, y=y, text="text:N")
    )
    formulas = (
        alt.Chart(
            _rows([{"x": 0.5, "y": geo.formulas_y + 18 * i, "text": f} for i, f in enumerate(pic.layout.formulas)])
        )
        .mark_text(fontSize=FONT + 1, align="left", color=PAGE_TEXT)
        .encode(x=x, y=y, text="text:N")
    )
    # 6) The strip: the carried states at every step (drawn once), the chosen step outlined (one mark that moves),
    # its word in full and the others' faded.
    strip = pic.strip
    strip_cells = (
        alt.Chart(records(strip.drop(columns=["xc", "yc", "ink"])))
        .mark_rect(stroke="#ffffff", strokeWidth=0.5)
        .encode(
            **box,
            color=alt.Color("value:Q", scale=VALUE_SCALE, legend=None),
            tooltip=[
                alt.Tooltip("row:N", title=words["state"]),
                alt.Tooltip("step:O", title=words["step"]),
                alt.Tooltip("value:Q", title=words["value"], format=NUM_D3),
                *([alt.Tooltip("before:Q", title=words["before"], format=NUM_D3)] if has_before else []),
            ],
        )
        .add_params(step_param)
    )
    width = (100 - STRIP_X0) / geo.S
    strip_now = (
        alt.Chart(_rows([{"y": float(strip["y"].min()), "y2": float(strip["y2"].max())}]))
        .transform_calculate(x=f"{STRIP_X0} + ({step} - 1) * {width}", x2=f"{STRIP_X0} + {step} * {width}")
        .mark_rect(filled=False, stroke="currentColor", strokeWidth=2.5)  # the theme's text colour: light and dark
        .encode(**box)
    )
    row_names = (
        alt.Chart(records(strip.loc[strip[STEP_FIELD] == 1, ["row", "x", "yc"]]))
        .mark_text(fontSize=11, align="right", dx=-4, color=PAGE_TEXT)
        .encode(**at("x", "yc"), text="row:N")
    )
    word_heads = (
        alt.Chart(records(pic.words[["step", "word", "head_x", "head_y"]]))
        .mark_text(fontSize=11, baseline="bottom", limit=120, color=PAGE_TEXT)
        .encode(
            **at("head_x", "head_y"),
            text="word:N",
            opacity=alt.condition(f"datum.{STEP_FIELD} == {step}", alt.value(1.0), alt.value(0.6)),
        )
    )
    layers = [wires, heads, *squares, outlines, numbers, *names, node_marks, node_text, token, formulas]
    layers += [strip_cells, strip_now, row_names, word_heads]
    if has_before:  # the previous input's dots and their key, once, under the strip's right end
        was = strip.loc[strip["before"].notna(), ["x2", "yc", "before"]]
        layers.append(
            alt.Chart(records(was))
            .mark_point(shape="circle", filled=True, size=55, opacity=1, stroke=PAGE_TEXT, strokeWidth=1)
            .encode(
                **at("x2", "yc"), color=alt.Color("before:Q", scale=VALUE_SCALE, legend=None), xOffset=alt.value(-6)
            )
        )
        key = {"x": float(strip["x2"].max()), "y": float(strip["y2"].max()), "text": f"● {words['before']}"}
        layers.append(
            alt.Chart(_rows([key]))
            .mark_text(fontSize=11, align="right", baseline="top", dy=4, color=PAGE_TEXT)
            .encode(**at("x", "y"), text="text:N")
        )
    # Top-level settings as arguments, not chained: each chained call copies the layered chart and validates.
    return alt.layer(
        *layers,
        resolve=alt.Resolve(scale=alt.ScaleResolveMap(color="independent")),
        width="container",
        height=height,
        autosize=FIT_X,
        title=alt.Title(words["title"], fontSize=FONT + 3, anchor="start"),
        description=words["description"],
    )


# --- the picture's words (the same on a page and in a notebook: s2s_core/show) ---------------------------


def legend_words(language: str) -> dict[str, str]:
    """The colour words of the two scales' ends ({gate_low}, {gate_high}, {value_low}, {value_high}), read off
    the scales the charts draw with (LEGEND), for every sentence that names a colour."""
    return {name: translate(language, key) for name, key in LEGEND.items()}


def picture_words(ns: str, language: str, forced: bool) -> dict[str, str]:
    """The picture's words in `language` (a cache argument, so not the session's), its title while forcing; the
    description names the colours of the scales it describes."""
    found = words(language, f"{ns}.picture", WORDS)
    found["description"] = translate(language, f"{ns}.picture.description", **legend_words(language))
    return {**found, "title": found["title_forced"]} if forced else found
