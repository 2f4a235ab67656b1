"""The tensor-shapes page's main picture: each tensor a block whose sides are its axes, in the order data flows.

input x → nn.RNN / nn.LSTM / nn.GRU → outputs, h_n (and c_n). A block's face is a grid of its first two axes
(one cell per index, so `batch_first` visibly swaps the input's and the outputs' sides and leaves h_n alone);
its third axis is the depth written on the block's back edge. PAD positions (beyond a sentence's length) are
shaded grey and labelled; the cells of `outputs`' last time step and of `h_n[-1]` are outlined as the two
slices the page's question compares. Whether they are equal is the question's answer: the caller passes
`verdict` only once the question is answered. With PAD in the batch, packed.data is drawn under the blocks:
its ΣS rows left to right in storage order, grouped by time step with that step's batch_sizes above the group,
so the PAD cells visibly are not stored. No streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records
from s2s_core.shapes.charts import ROLE_COLORS
from s2s_core.shapes.compute import ShapesResult

PAD, SLICE = "#8A8A8A", "#B8588F"  # GUIDE.md: PAD grey; the compared slices in the highlight (attention) purple
DRAWN = ("x", "outputs", "h_n", "c_n")  # the tensors the picture draws (ids is the input's token table)
GAP = 2.0  # slots between two blocks (room for the arrow and the depth's label)
MODULE = 2.4  # the module's box width, in slots
ROW_PX = 26
STEP_GAP = 0.6  # slots between two time steps' groups in the packed strip
PACKED_ROWS = 4.2  # the packed strip's height under the blocks: heading, batch_sizes, cells, steps


@dataclass(frozen=True)
class ShapePicture:
    cells: pd.DataFrame  # tensor, i, j, x, y, pad, slice: one per (axis 0, axis 1) index
    blocks: pd.DataFrame  # tensor, x, x2, y, y2, name, shape, depth, top, side, top_role, side_role
    module: pd.DataFrame  # x, x2, y, y2, text
    arrows: pd.DataFrame  # x, x2, y
    width: float  # slots across
    rows: int  # the tallest block's rows
    packed: pd.DataFrame  # packed_row, step, batch_size, sentence, x, y: packed.data's rows (empty without PAD)
    steps: pd.DataFrame  # step, batch_size, x, y, ty: one per time step of the packed strip


def picture_frames(r: ShapesResult) -> ShapePicture:
    c = r.config
    shapes = {s.name: s for s in r.shapes if s.name in DRAWN}
    cells, blocks, arrows = [], [], []
    left = 0.0
    rows = max(s.shape[0] for s in shapes.values())
    time_axis = {"x": 1 if c.batch_first else 0, "outputs": 1 if c.batch_first else 0}
    module = pd.DataFrame()
    for name in DRAWN:
        if name not in shapes:
            continue
        s = shapes[name]
        n0, n1 = s.shape[0], s.shape[1]
        for i in range(n0):
            for j in range(n1):
                pad = slice_ = False
                if name in time_axis:
                    t_idx, b_idx = (j, i) if time_axis[name] == 1 else (i, j)
                    pad = t_idx >= c.lengths[b_idx]
                    slice_ = name == "outputs" and t_idx == c.S - 1
                if name == "h_n":
                    slice_ = i == n0 - 1
                cells.append(dict(tensor=name, i=i, j=j, x=left + j + 0.5, y=i + 0.5, pad=pad, slice=slice_))
        blocks.append(
            dict(
                tensor=name,
                x=left,
                x2=round(left + n1, 6),
                y=0,
                y2=n0,
                name=name,
                shape="(" + ", ".join(f"{a}={n}" for a, n in zip(s.axes, s.shape, strict=True)) + ")",
                depth=f"{s.axes[2]}={s.shape[2]}",
                top=f"{s.axes[1]}={n1}",
                side=f"{s.axes[0]}={n0}",
                top_role=s.roles[1],
                side_role=s.roles[0],
            )
        )
        left = round(left + n1 + GAP, 6)  # no float drift in the blocks' widths
        if name == "x":  # the module sits between the input and what it returns
            module = pd.DataFrame([dict(x=left, x2=left + MODULE, y=0, y2=rows, text=f"nn.{c.cell}")])
            arrows.append(dict(x=left - GAP + 0.25, x2=left - 0.15, y=rows / 2))
            arrows.append(dict(x=left + MODULE + 0.15, x2=left + MODULE + GAP - 0.25, y=rows / 2))
            left = round(left + MODULE + GAP, 6)
    packed, steps = _packed_strip(r, rows) if c.padded else (pd.DataFrame(), pd.DataFrame())
    width = max(left - GAP, float(packed["x"].max()) + 0.5 if not packed.empty else 0.0)
    return ShapePicture(
        cells=pd.DataFrame(cells),
        blocks=pd.DataFrame(blocks),
        module=module,
        arrows=pd.DataFrame(arrows),
        width=width,
        rows=rows,
        packed=packed,
        steps=steps,
    )


def _packed_strip(r: ShapesResult, rows: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """packed.data's rows in the order PyTorch stores them: step by step, and within a step the sentences
    still running, longest first (sorted_indices). batch_sizes (from the real PackedSequence) says how many."""
    cells, steps = [], []
    row, left = 0, 0.0
    for t, n_running in enumerate(r.batch_sizes):
        for b in r.sorted_indices[:n_running]:
            cells.append(
                dict(packed_row=row, step=t + 1, batch_size=n_running, sentence=f"#{b + 1}", x=left + 0.5, y=rows + 5)
            )
            row, left = row + 1, left + 1
        mid = left - n_running / 2
        steps.append(dict(step=t + 1, batch_size=n_running, x=mid, y=rows + 4, ty=rows + 6, t=f"t{t + 1}"))
        left = round(left + STEP_GAP, 6)
    return pd.DataFrame(cells), pd.DataFrame(steps)


def shape_picture(p: ShapePicture, labels: Mapping[str, str], verdict: str | None = None) -> alt.LayerChart:
    """labels: title, description, pad, slice, tensor, index; with a packed strip also packed (its heading,
    with {rows} and {E} filled in by the caller), packed_row, step, batch_size, sentence.

    verdict: the equal / not-equal line under the slices (None until the page's question is answered).
    """
    xs = alt.Scale(domain=[-1.2, p.width + 1.2], nice=False, zero=False)
    below = PACKED_ROWS if not p.packed.empty else 0.0
    ys = alt.Scale(domain=[-2.2, p.rows + 2.6 + below], reverse=True, nice=False, zero=False)
    x, y = alt.X("x:Q", axis=None, scale=xs), alt.Y("y:Q", axis=None, scale=ys)
    blocks = alt.Chart(records(p.blocks))
    # 1) each block's depth: a shadow behind its face, offset up and right, with the third axis written on it
    depth = blocks.transform_calculate(dx="datum.x + 0.35", dx2="datum.x2 + 0.35", dy="datum.y - 0.35")
    shadow = depth.mark_rect(fill=PAD, opacity=0.25, stroke=PAD).encode(
        x=alt.X("dx:Q", axis=None, scale=xs), x2="dx2:Q", y=alt.Y("dy:Q", axis=None, scale=ys), y2="y2:Q"
    )
    depth_text = depth.mark_text(fontSize=11, align="left", dx=4, color="currentColor").encode(
        x=alt.X("dx2:Q", axis=None, scale=xs), y=alt.Y("dy:Q", axis=None, scale=ys), text="depth:N"
    )
    # 2) the face: one cell per (axis 0, axis 1) index; PAD grey, the compared slices outlined
    cells = alt.Chart(records(p.cells)).transform_calculate(
        x1="datum.x - 0.46", x2="datum.x + 0.46", y1="datum.y - 0.46", y2="datum.y + 0.46"
    )
    face = cells.mark_rect(cornerRadius=2).encode(
        x=alt.X("x1:Q", axis=None, scale=xs),
        x2="x2:Q",
        y=alt.Y("y1:Q", axis=None, scale=ys),
        y2="y2:Q",
        color=alt.condition("datum.pad", alt.value(PAD), alt.value("#9ECAE1")),
        stroke=alt.condition("datum.slice", alt.value(SLICE), alt.value("#FFFFFF")),
        strokeWidth=alt.condition("datum.slice", alt.value(3), alt.value(1)),
        tooltip=[
            alt.Tooltip("tensor:N", title=labels["tensor"]),
            alt.Tooltip("i:Q", title=labels["index"] + " 0"),
            alt.Tooltip("j:Q", title=labels["index"] + " 1"),
        ],
    )
    pad_text = (
        cells.transform_filter("datum.pad")
        .mark_text(fontSize=11, color="black")
        .encode(x=x, y=y, text=alt.value(labels["pad"]))
    )
    # 3) the sides: axis 1 along the top, axis 0 down the left, in the colour of what the axis means
    role = alt.Scale(domain=list(ROLE_COLORS), range=list(ROLE_COLORS.values()))
    top = blocks.transform_calculate(mx="(datum.x + datum.x2) / 2", ty="-0.8").mark_text(fontSize=12, fontWeight="bold")
    top = top.encode(
        x=alt.X("mx:Q", axis=None, scale=xs),
        y=alt.Y("ty:Q", axis=None, scale=ys),
        text="top:N",
        color=alt.Color("top_role:N", scale=role, legend=None),
    )
    side = blocks.transform_calculate(sx="datum.x - 0.25", my="(datum.y + datum.y2) / 2")
    side = side.mark_text(fontSize=12, fontWeight="bold", angle=270, baseline="bottom").encode(
        x=alt.X("sx:Q", axis=None, scale=xs),
        y=alt.Y("my:Q", axis=None, scale=ys),
        text="side:N",
        color=alt.Color("side_role:N", scale=role, legend=None),
    )
    name = blocks.transform_calculate(mx="(datum.x + datum.x2) / 2", ny="datum.y2 + 0.7")
    name = name.mark_text(fontSize=13, fontWeight="bold", font="monospace", color="currentColor").encode(
        x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("ny:Q", axis=None, scale=ys), text="name:N"
    )
    shape = blocks.transform_calculate(mx="(datum.x + datum.x2) / 2", sy="datum.y2 + 1.5")
    # A block's full shape where its slot is wide enough (about 6 px a character at 11 px); the sides say it anyway.
    slots = p.width + 2.4
    shape = shape.transform_filter(f"width / {slots} * (datum.x2 - datum.x + {GAP}) >= length(datum.shape) * 6")
    shape = shape.mark_text(fontSize=11, color="currentColor").encode(
        x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("sy:Q", axis=None, scale=ys), text="shape:N"
    )
    layers = [shadow, face, pad_text, depth_text, top, side, name, shape]
    # 4) the module, and the flow into and out of it
    if not p.module.empty:
        box = alt.Chart(records(p.module))
        layers.append(
            box.mark_rect(fill="#D55E00", opacity=0.15, stroke="#D55E00", cornerRadius=6).encode(
                x=x, x2="x2:Q", y=y, y2="y2:Q"
            )
        )
        layers.append(
            box.transform_calculate(mx="(datum.x + datum.x2) / 2", my="(datum.y + datum.y2) / 2")
            .mark_text(fontSize=12, fontWeight="bold", font="monospace", angle=270, color="currentColor")
            .encode(x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("my:Q", axis=None, scale=ys), text="text:N")
        )
        flow = alt.Chart(records(p.arrows))
        layers.append(flow.mark_rule(strokeWidth=2, color="currentColor").encode(x=x, x2="x2:Q", y=y))
        layers.append(
            flow.mark_point(shape="triangle-right", filled=True, size=70, color="currentColor").encode(
                x=alt.X("x2:Q", axis=None, scale=xs), y=y
            )
        )
    # 5) the compared slices named; their verdict once the question is answered
    words = [dict(x=-1.1, y=p.rows + 2.3, text=labels["slice"] + (f" {verdict}" if verdict else ""))]
    layers.append(
        alt.Chart(records(pd.DataFrame(words)))
        .mark_text(fontSize=12, align="left", color=SLICE, fontWeight="bold")
        .encode(x=x, y=y, text="text:N")
    )
    if not p.packed.empty:
        layers += _packed_layers(p, labels, x, y, xs, ys)
    return alt.layer(*layers).properties(
        title=labels["title"],
        description=labels["description"],
        height=round(ROW_PX * (p.rows + 5 + below)),
        width="container",
        autosize=FIT_X,
    )


def _packed_layers(p: ShapePicture, labels: Mapping[str, str], x: alt.X, y: alt.Y, xs: alt.Scale, ys: alt.Scale):
    """The packed strip: a heading, each step's batch_sizes over its group, the stored rows, the step names."""
    strip = alt.Chart(records(p.packed)).transform_calculate(
        x1="datum.x - 0.46", x2="datum.x + 0.46", y1="datum.y - 0.46", y2="datum.y + 0.46"
    )
    rows = strip.mark_rect(cornerRadius=2, color="#9ECAE1", stroke="#2C7FB8").encode(
        x=alt.X("x1:Q", axis=None, scale=xs),
        x2="x2:Q",
        y=alt.Y("y1:Q", axis=None, scale=ys),
        y2="y2:Q",
        tooltip=[
            alt.Tooltip("packed_row:Q", title=labels["packed_row"]),
            alt.Tooltip("step:Q", title=labels["step"]),
            alt.Tooltip("sentence:N", title=labels["sentence"]),
            alt.Tooltip("batch_size:Q", title=labels["batch_size"]),
        ],
    )
    # The sentence each stored row came from, where a cell is wide enough for "#8" at 11 px (about 13 px).
    slots = p.width + 2.4
    who = strip.transform_filter(f"width / {slots} >= 14").mark_text(fontSize=11, color="black")
    who = who.encode(x=x, y=y, text="sentence:N")
    steps = alt.Chart(records(p.steps))
    sizes = steps.mark_text(fontSize=12, fontWeight="bold", color="currentColor").encode(x=x, y=y, text="batch_size:Q")
    names = steps.mark_text(fontSize=11, color="currentColor").encode(
        x=x, y=alt.Y("ty:Q", axis=None, scale=ys), text="t:N"
    )
    head = pd.DataFrame([dict(x=-1.1, y=p.rows + 3.1, text=labels["packed"])])
    heading = alt.Chart(records(head)).mark_text(fontSize=12, align="left", fontWeight="bold", color="currentColor")
    return [rows, who, sizes, names, heading.encode(x=x, y=y, text="text:N")]
