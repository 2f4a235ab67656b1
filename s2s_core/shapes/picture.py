"""The tensor-shapes page's main picture: each tensor a block whose sides are its axes, in the order data flows.

input x → nn.RNN / nn.LSTM / nn.GRU → outputs, h_n (and c_n). A block's face is a grid of its first two axes
(one cell per index, so `batch_first` visibly swaps the input's and the outputs' sides and leaves h_n alone);
its third axis is the depth written above the corner of the shadow behind it. PAD positions (beyond a
sentence's length) are shaded grey and labelled once per run; the cells of `outputs`' last time step and of
`h_n[-1]` are outlined as the two slices the page's question compares. Whether they are equal is the
question's answer: the caller passes `verdict` only once the question is answered. With PAD in the batch,
packed.data is drawn under the blocks: its ΣS rows left to right in storage order, grouped by time step with
that step's batch_sizes above the group, so the PAD cells visibly are not stored. No streamlit.

The x scale is in slots (one cell = one slot) and fits the container's width, so a slot is ~16 px on a 390 px
phone and ~26 px at 1280 px while text keeps its pixel size. Text is therefore placed where its pixel size
cannot reach a neighbour at either width (tests/core/test_shapes.py checks it at the phone's width), and
labels that need a cell's width (PAD) choose flat / turned / hidden in the browser from the live `width`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.catalog import translate, words
from s2s_core.chartkit import FIT_X, TITLE_WIDTH, lines, records
from s2s_core.shapes.charts import ROLE_COLORS
from s2s_core.shapes.compute import ShapesConfig, ShapesResult
from s2s_core.shapes.origin import last_step_reading
from s2s_core.shapes.panel import HEAD_LINE, PANEL_WORDS, Panel, fixed_px, panel_frames, panel_layers

PAD, SLICE = "#8A8A8A", "#B8588F"  # PAD grey as on every page; the compared slices in the highlight (attention) purple
DRAWN = ("x", "outputs", "h_n", "c_n")  # the tensors the picture draws (ids is the input's token table)
# Horizontal layout: gaps and margins are sized in px for the phone (the picture is PHONE_PX wide on a 390 px
# screen) and turned into slots per picture, so a wide batch shrinks the cells, not the room between blocks.
PHONE_PX = 358
MAX_SLOT_PX = 16.0  # a small picture keeps gaps as if a slot were this wide on the phone (wider on a desktop)
GAP_PX = 30  # between outputs, h_n and c_n: the next block's turned side label beside the previous shadow
FLOW_PX = 28  # x → module: the arrow only (the module has no side label)
INTO_PX = 44  # module → outputs: the arrow, then outputs' side label
MODULE_PX = 28  # the module's box (its name is written turned)
LEFT_PX, RIGHT_PX = 24, 10  # margins: x's side label on the left, the last shadow on the right
SIDE_PX = 22  # room a turned side label takes left of its block (12 px bold text, its bar, air)
# Vertical layout, in rows (ROW_PX each): the depth labels' row, the top labels' row, then the faces.
ROW_PX = 28
DEPTH_Y, TOP_Y = -1.55, -0.8
ABOVE = 2.0  # rows above the faces: the depth labels' 11 px text reaches up to about -1.8
NAME_DY, CAPTION_DY, CAPTION_ROWS = 0.7, 1.45, 0.6  # under the tallest block: the names, then the shapes in
# three staggered rows (a block's caption is wider than the block: its neighbours' are a row up or down)
PANEL_DY = 3.35  # the panel's heading under the tallest block, clear of the third caption row
LINE_ROWS = 0.62  # a 12 px line of the legend and the reason under the panel
STEP_GAP = 0.6  # slots between two time steps' groups in the packed strip
PACKED_ROWS = 4.2  # the packed strip's height: heading, batch_sizes, cells, steps
CELL = 0.92  # a cell's share of its slot (the rest is the gap between cells)
# A face row (and a panel row) is one row tall, but COMPACT of one from COMPACT_FROM rows up (two layers × two
# directions: h_n has 4 rows, and its panel 4 lines), so the picture's top and the page's question stay on a
# 1280 × 900 screen. Text keeps its place in whole rows (but see TALL_ROW_PX).
COMPACT, COMPACT_FROM = 0.78, 4
# A tall picture (the same COMPACT_FROM rows: two layers x two directions) also draws its rows at TALL_ROW_PX instead
# of ROW_PX: with the lesson bar, the title and the download buttons above it, the question under it (its options
# and its "show me" button) was still below a 1280 x 900 screen. The lines of text that stand one under another
# (the staggered captions, the panel's heading, the reason) keep their px, so their boxes never overlap; a compact
# face row is then 16.4 px, enough for the 12 px direction arrows (a turned "PAD", 18.7 px, reaches a little into
# the gap between two cells).
TALL_ROW_PX = 21
BOTTOM_PAD_PX = 4
TURNED_MIN_PX = 12  # a cell narrower than this cannot hold even turned 11 px text: the PAD label is left out
CHAR_PX = 6.5  # one Latin capital at 11 px, a little over Chromium's ("PAD" measured 18.7 px): for "does it fit"


@dataclass(frozen=True)
class ShapePicture:
    cells: pd.DataFrame  # tensor, i, j, x, y, pad, slice: one per (axis 0, axis 1) index
    blocks: pd.DataFrame  # tensor, x, x2, y, y2, name, shape, depth, top, side, top_role, side_role
    module: pd.DataFrame  # x, x2, y, y2, text
    arrows: pd.DataFrame  # x, x2, y, room: room = px kept free before x2 (the next block's side label)
    pads: pd.DataFrame  # tensor, x, y, run, along: one per run of PAD cells ("row" or "col"), labelled once
    width: float  # slots across, from the first block's left edge to the last one's right edge
    rows: int  # the tallest block's rows
    pitch: float  # a face row's height, in rows (1, or COMPACT for a tall picture)
    row_px: float  # a row's height in px (ROW_PX, or TALL_ROW_PX for a tall picture)
    caption_rows: float  # rows between two caption rows (CAPTION_ROWS at ROW_PX: the same px at any row_px)
    gap: float  # slots between outputs, h_n and c_n
    margins: tuple[float, float]  # slots left of the first block and right of the last one
    packed: pd.DataFrame  # packed_row, step, batch_size, sentence, x, y: packed.data's rows (empty without PAD)
    steps: pd.DataFrame  # step, batch_size, x, y, ty: one per time step of the packed strip (y from its heading)
    panel: Panel  # the sentence traced through every row of h_n: where outputs[:, -1] and h_n[-1] come from

    @property
    def face(self) -> float:
        """rows: the bottom of the tallest face (the names and captions go under it)."""
        return self.rows * self.pitch

    @property
    def span(self) -> float:
        """Slots across the whole view: a slot is `width / span` px in the browser."""
        return self.width + sum(self.margins)


def picture_frames(r: ShapesResult) -> ShapePicture:
    c = r.config
    shapes = {s.name: s for s in r.shapes if s.name in DRAWN}
    cells, blocks, arrows, pads = [], [], [], []
    left = 0.0
    rows = max(s.shape[0] for s in shapes.values())
    pitch = COMPACT if rows >= COMPACT_FROM else 1.0
    time_axis = {"x": 1 if c.batch_first else 0, "outputs": 1 if c.batch_first else 0}
    module = pd.DataFrame()
    # 1) the slot's width on a phone, once the fixed px are taken off: every gap is its px in those slots
    fixed = GAP_PX * (len(shapes) - 2) + FLOW_PX + MODULE_PX + INTO_PX + LEFT_PX + RIGHT_PX
    slot_px = min((PHONE_PX - fixed) / sum(s.shape[1] for s in shapes.values()), MAX_SLOT_PX)
    slot_px = min(slot_px, (PHONE_PX - fixed_px(c.K)) / (c.S + 0.25))  # the panel's S cells and its labels
    gap, flow, into, width_module = (round(px / slot_px, 3) for px in (GAP_PX, FLOW_PX, INTO_PX, MODULE_PX))
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
                way = ("→", "←")[i % 2] if c.bidirectional and name in ("h_n", "c_n") else ""  # a row's direction
                y = (i + 0.5) * pitch
                cells.append(dict(tensor=name, i=i, j=j, x=left + j + 0.5, y=y, pad=pad, slice=slice_, way=way))
        if name in time_axis:
            pads += _pad_runs(name, left, c.lengths, c.S, "row" if time_axis[name] == 1 else "col", pitch)
        blocks.append(
            dict(
                tensor=name,
                x=left,
                x2=round(left + n1, 6),
                y=0,
                y2=n0 * pitch,
                name=name,
                shape="(" + ", ".join(f"{a}={n}" for a, n in zip(s.axes, s.shape, strict=True)) + ")",
                depth=f"{s.axes[2]}={s.shape[2]}",
                top=f"{s.axes[1]}={n1}",
                side=f"{s.axes[0]}={n0}",
                top_role=s.roles[1],
                side_role=s.roles[0],
            )
        )
        left = round(left + n1 + gap, 6)  # no float drift in the blocks' widths
        if name == "x":  # 2) the module sits between the input and what it returns
            start = round(left - gap + flow, 6)
            end = round(start + width_module, 6)
            module = pd.DataFrame([dict(x=start, x2=end, y=0, y2=rows * pitch, text=f"nn.{c.cell}")])
            # out of x past its shadow into the module; out of the module up to outputs' side label
            # (at the middle of x's face, which outputs' face shares: h_n may be taller than both)
            arrows.append(dict(x=left - gap + 0.45, x2=start - 0.15, y=n0 * pitch / 2, room=0))
            left = round(end + into, 6)
            arrows.append(dict(x=end + 0.15, x2=left - 0.25, y=n0 * pitch / 2, room=SIDE_PX))
    packed, steps = _packed_strip(r) if c.padded else (pd.DataFrame(), pd.DataFrame())
    margins = (round(LEFT_PX / slot_px, 3), round(RIGHT_PX / slot_px, 3))
    # 3) a tall picture's rows are fewer px: the text rows (the captions, the panel's heading) keep their px
    row_px = TALL_ROW_PX if rows >= COMPACT_FROM else ROW_PX
    captions = CAPTION_ROWS * ROW_PX / row_px
    panel_dy = PANEL_DY + 2 * (captions - CAPTION_ROWS)  # under the third caption row, as far as at ROW_PX
    head_line = HEAD_LINE * ROW_PX / row_px
    panel = panel_frames(last_step_reading(r), -margins[0], rows * pitch + panel_dy, slot_px, pitch, head_line)
    width = max(left - gap, float(packed["x"].max()) + 0.5 if not packed.empty else 0.0, panel.right - margins[1])
    return ShapePicture(
        cells=pd.DataFrame(cells),
        blocks=pd.DataFrame(blocks),
        module=module,
        arrows=pd.DataFrame(arrows),
        pads=pd.DataFrame(pads, columns=["tensor", "x", "y", "run", "along"]),
        width=width,
        rows=rows,
        pitch=pitch,
        row_px=row_px,
        caption_rows=captions,
        gap=gap,
        margins=margins,
        packed=packed,
        steps=steps,
        panel=panel,
    )


def _pad_runs(name: str, left: float, lengths: tuple[int, ...], S: int, along: str, pitch: float) -> list[dict]:
    """One label per sentence's PAD positions (they are contiguous: from its length to S). Two "PAD" words in
    two neighbouring cells ran together on a phone; one word over the run reads, and says the same."""
    runs = []
    for b, n in enumerate(lengths):
        if n >= S:
            continue
        mid = (n + S) / 2  # the run's centre along the time axis
        x, y = (left + mid, (b + 0.5) * pitch) if along == "row" else (left + b + 0.5, mid * pitch)
        runs.append(dict(tensor=name, x=x, y=y, run=S - n, along=along))
    return runs


def _packed_strip(r: ShapesResult) -> tuple[pd.DataFrame, pd.DataFrame]:
    """packed.data's rows in the order PyTorch stores them: step by step, and within a step the sentences
    still running, longest first (sorted_indices). batch_sizes (from the real PackedSequence) says how many.
    y is in rows from the strip's heading (the picture places the strip under what is above it)."""
    cells, steps = [], []
    row, left = 0, 0.0
    for t, n_running in enumerate(r.batch_sizes):
        for b in r.sorted_indices[:n_running]:
            cells.append(
                dict(packed_row=row, step=t + 1, batch_size=n_running, sentence=f"#{b + 1}", x=left + 0.5, y=1.9)
            )
            row, left = row + 1, left + 1
        mid = left - n_running / 2
        steps.append(dict(step=t + 1, batch_size=n_running, x=mid, y=0.9, ty=2.9, t=f"t{t + 1}"))
        left = round(left + STEP_GAP, 6)
    return pd.DataFrame(cells), pd.DataFrame(steps)


def pad_label_rule(span: float, text: str) -> tuple[str, str]:
    """Vega expressions (flat, shown) for a PAD run's label at the live chart width: flat when the run is wide
    enough for the word, else turned a quarter (a cell is ROW_PX tall), left out when a cell is too narrow even
    for turned text (the grey stays, and the picture's description says grey is PAD)."""
    slot = f"(width / {span})"
    need = len(text) * CHAR_PX
    # the grey a run covers: its cells and the gaps between them (a turned label has one cell's width)
    flat = f"(datum.along == 'row' ? datum.run - 1 + {CELL} : {CELL}) * {slot} >= {need}"
    return flat, f"({flat}) || {slot} * {CELL} >= {TURNED_MIN_PX}"


# shapes.picture.*: shape_picture's words; FILLED ones name live values, so the caller formats them (slice: the
# two slices compared, {lhs} and {rhs}; packed: the strip's heading, {rows} and {E}; the panel's words).
TITLE_OFFSET = 8  # px between the title and the picture
WORDS = ("title", "description", "pad", "tensor", "index", "packed_row", "step", "batch_size", "sentence")
PANEL = tuple(f"panel.{k}" for k in PANEL_WORDS)  # shapes.picture.panel.*, filled by the caller but {layer}
FILLED = ("slice", "packed", *PANEL)
WHY_WIDTH = 52  # a reason line's width in Latin characters (12 px: a phone's 358 px)
CAPTION_CHAR_PX = 6.6  # a character of an 11 px shape caption, a little over Chromium's


def shape_picture(
    p: ShapePicture, labels: Mapping[str, str], verdict: str | None = None, why: str | None = None
) -> alt.LayerChart:
    """labels: title, description, pad, slice, tensor, index, the panel.* words; with a packed strip also packed
    (its heading, with {rows} and {E} filled in by the caller), packed_row, step, batch_size, sentence.

    verdict: the equal / not-equal word after the slices' legend, and why: the sentence that says why for these
    inputs (both None until the page's question is answered).
    """
    xs = alt.Scale(domain=[-p.margins[0], p.width + p.margins[1]], nice=False, zero=False)
    legend_y = p.panel.end + 0.35
    reasons = lines(why, WHY_WIDTH) if why else []
    line = LINE_ROWS * ROW_PX / p.row_px  # a 12 px line keeps its px in a tall picture's smaller rows
    last_line = legend_y + line * len(reasons)
    bottom = last_line + 0.3  # under the last 12 px line: its half and a little air
    strip_y = last_line + 0.8 * ROW_PX / p.row_px  # the packed strip's heading, as many px under it as at ROW_PX
    if not p.packed.empty:
        bottom = strip_y + PACKED_ROWS - 0.7
    ys = alt.Scale(domain=[-ABOVE, bottom], reverse=True, nice=False, zero=False)
    x, y = alt.X("x:Q", axis=None, scale=xs), alt.Y("y:Q", axis=None, scale=ys)
    slot = f"(width / {p.span})"  # px per slot in the browser
    blocks = alt.Chart(records(p.blocks))
    # 1) each block's depth: a shadow behind its face, offset up and right, the third axis written above its
    # corner (right-aligned, so it never reaches into the gap towards the next block nor past the right edge)
    depth = blocks.transform_calculate(dx="datum.x + 0.35", dx2="datum.x2 + 0.35", dy="datum.y - 0.35", ly=str(DEPTH_Y))
    shadow = depth.mark_rect(fill=PAD, opacity=0.25, stroke=PAD).encode(
        x=alt.X("dx:Q", axis=None, scale=xs), x2="dx2:Q", y=alt.Y("dy:Q", axis=None, scale=ys), y2="y2:Q"
    )
    depth_text = depth.mark_text(fontSize=11, align="right", color="currentColor").encode(
        x=alt.X("dx2:Q", axis=None, scale=xs), y=alt.Y("ly:Q", axis=None, scale=ys), text="depth:N"
    )
    tick = depth.transform_calculate(ty=f"{DEPTH_Y} + 0.25").mark_rule(color=PAD, strokeWidth=1)
    tick = tick.encode(x=alt.X("dx2:Q", axis=None, scale=xs), y=alt.Y("dy:Q", axis=None, scale=ys), y2="ty:Q")
    # 2) the face: one cell per (axis 0, axis 1) index; PAD grey, the compared slices outlined
    half = CELL * p.pitch / 2
    cells = alt.Chart(records(p.cells)).transform_calculate(
        x1=f"datum.x - {CELL / 2}", x2=f"datum.x + {CELL / 2}", y1=f"datum.y - {half}", y2=f"datum.y + {half}"
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
    layers = [shadow, tick, face]
    # h_n's (and c_n's) rows go layer by layer, forward then backward: each cell says its row's direction
    if p.cells["way"].any():
        way = cells.transform_filter(f"datum.way != '' && {slot} * {CELL} >= {TURNED_MIN_PX}")
        layers.append(way.mark_text(fontSize=12, fontWeight="bold", color="black").encode(x=x, y=y, text="way:N"))
    # 3) "PAD" once per run of PAD cells: flat where it fits, turned in a narrow cell (a cell is 24 px tall)
    if not p.pads.empty:
        flat, shown = pad_label_rule(p.span, labels["pad"])
        pad_text = (
            alt.Chart(records(p.pads))
            .transform_filter(shown)
            .transform_calculate(turn=f"({flat}) ? 0 : 270")
            .mark_text(fontSize=11, color="black")
            .encode(x=x, y=y, text=alt.value(labels["pad"]), angle=alt.Angle("turn:Q", scale=None))
        )
        layers.append(pad_text)
    # 4) the sides: axis 1 along the top, axis 0 down the left; a bar in the colour of what the axis means
    # (graphics keep 3:1 on both themes), the name in the theme's text colour (no hue keeps 4.5:1 on both)
    role = alt.Scale(domain=list(ROLE_COLORS), range=list(ROLE_COLORS.values()))
    bars = blocks.transform_calculate(by="-0.15", bx="datum.x - 0.12")
    top_bar = bars.mark_rule(strokeWidth=3).encode(
        x=x, x2="x2:Q", y=alt.Y("by:Q", axis=None, scale=ys), color=alt.Color("top_role:N", scale=role, legend=None)
    )
    side_bar = bars.mark_rule(strokeWidth=3).encode(
        x=alt.X("bx:Q", axis=None, scale=xs), y=y, y2="y2:Q", color=alt.Color("side_role:N", scale=role, legend=None)
    )
    top = blocks.transform_calculate(mx="(datum.x + datum.x2) / 2", ty=str(TOP_Y))
    top = top.mark_text(fontSize=12, fontWeight="bold", color="currentColor").encode(
        x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("ty:Q", axis=None, scale=ys), text="top:N"
    )
    side = blocks.transform_calculate(sx="datum.x - 0.3", my="(datum.y + datum.y2) / 2")
    side = side.mark_text(fontSize=12, fontWeight="bold", angle=270, baseline="bottom", color="currentColor").encode(
        x=alt.X("sx:Q", axis=None, scale=xs), y=alt.Y("my:Q", axis=None, scale=ys), text="side:N"
    )
    name = blocks.transform_calculate(mx="(datum.x + datum.x2) / 2", ny=f"{p.face + NAME_DY}")
    name = name.mark_text(fontSize=13, fontWeight="bold", font="monospace", color="currentColor").encode(
        x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("ny:Q", axis=None, scale=ys), text="name:N"
    )
    layers += [depth_text, top_bar, side_bar, top, side, name, *_caption_layers(p, x, y, xs)]
    # 5) the module, and the flow into and out of it
    if not p.module.empty:
        layers += _module_layers(p, x, y, xs, ys)
    # 6) the panel: the followed sentence through every row of h_n (where the two compared slices come from)
    layers += panel_layers(p.panel, {k: labels[f"panel.{k}"] for k in PANEL_WORDS}, xs, ys, slot)
    # 7) the compared slices named next to an outlined square like theirs; their verdict and why once answered
    words = pd.DataFrame([dict(x=-p.margins[0], y=legend_y, text=labels["slice"] + (f" {verdict}" if verdict else ""))])
    said = alt.Chart(records(words))
    layers.append(
        said.mark_point(shape="square", size=110, filled=False, strokeWidth=2.5, color=SLICE, xOffset=7).encode(
            x=x, y=y
        )
    )
    layers.append(
        said.mark_text(fontSize=12, align="left", dx=17, color="currentColor", fontWeight="bold").encode(
            x=x, y=y, text="text:N"
        )
    )
    if reasons:
        said = pd.DataFrame([dict(x=-p.margins[0], y=legend_y + line * (i + 1), text=t) for i, t in enumerate(reasons)])
        layers.append(
            alt.Chart(records(said))
            .mark_text(fontSize=12, align="left", color="currentColor")
            .encode(x=x, y=y, text="text:N")
        )
    if not p.packed.empty:
        layers += _packed_layers(p, labels, strip_y, x, y, xs, ys)
    return alt.layer(
        *layers,
        # Vega cuts a long title short on a phone; 8 px above the picture, not the theme's 26 (a first screen's room)
        title=alt.TitleParams(lines(labels["title"], TITLE_WIDTH), offset=TITLE_OFFSET),
        description=labels["description"],
        height=round(p.row_px * (bottom + ABOVE)),
        width="container",
        autosize=FIT_X,
        # Streamlit adds 20 px under a chart that sets no bottom padding: the download buttons follow anyway, and
        # the question under them needs that room on a 1280 x 900 first screen
        padding={"bottom": BOTTOM_PAD_PX},
    )


def _caption_layers(p: ShapePicture, x: alt.X, y: alt.Y, xs: alt.Scale) -> list:
    """Each block's full shape under its name, in three staggered rows; centred under the block where it fits
    inside the chart on a phone, else from the edge it would cross. A caption is left out (the sides say it
    anyway) while the live slot is below the slot at which it stays clear of its row's other captions."""
    d0, phone = -p.margins[0], PHONE_PX / p.span
    caps = []
    for k, b in enumerate(p.blocks.to_dict("records")):
        w, cx = len(b["shape"]) * CAPTION_CHAR_PX, (b["x"] + b["x2"]) / 2
        at = (cx - d0) * phone
        if at - w / 2 < 0:
            anchor, align, lo = d0, "left", 0.0
        elif at + w / 2 > PHONE_PX:
            anchor, align, lo = p.width + p.margins[1], "right", -w
        else:
            anchor, align, lo = cx, "center", -w / 2
        caps.append(
            dict(
                x=anchor,
                y=p.face + CAPTION_DY + p.caption_rows * (k % 3),
                row=k % 3,
                align=align,
                lo=lo,
                hi=lo + w,
                text=b["shape"],
            )
        )
    for cap in caps:  # the slot (px) at which cap clears the next caption of its row, and stays inside the chart
        need = [0.0]
        for other in caps:
            if other["row"] == cap["row"] and other["x"] > cap["x"]:
                need.append((cap["hi"] - other["lo"] + 4) / (other["x"] - cap["x"]))
        if cap["align"] == "center":
            need += [-cap["lo"] / (cap["x"] - d0), cap["hi"] / (p.span - (cap["x"] - d0))]
        cap["need"] = round(max(need), 3)
    # one row, each centred under its block, where the live slot lets every caption clear its neighbours
    flat = [0.0]
    for k, cap in enumerate(caps):
        w, cx = cap["hi"] - cap["lo"], (p.blocks["x"].iloc[k] + p.blocks["x2"].iloc[k]) / 2
        cap["cx"] = cx
        flat += [w / 2 / (cx - d0), w / 2 / (p.span - (cx - d0))]
        if k:
            before = caps[k - 1]
            flat.append(((before["hi"] - before["lo"]) / 2 + w / 2 + 4) / (cx - before["cx"]))
    one_row = round(max(flat), 3)
    frame = pd.DataFrame(caps)
    row = alt.Chart(records(frame.assign(y=p.face + CAPTION_DY))).transform_filter(f"width / {p.span} >= {one_row}")
    out = [
        row.mark_text(fontSize=11, color="currentColor").encode(
            x=alt.X("cx:Q", axis=None, scale=xs), y=y, text="text:N"
        )
    ]
    for align in ("left", "center", "right"):
        part = frame[frame["align"] == align]
        if part.empty:
            continue
        chart = alt.Chart(records(part)).transform_filter(
            f"width / {p.span} < {one_row} && width / {p.span} >= datum.need"
        )
        out.append(chart.mark_text(fontSize=11, align=align, color="currentColor").encode(x=x, y=y, text="text:N"))
    return out


def _module_layers(p: ShapePicture, x: alt.X, y: alt.Y, xs: alt.Scale, ys: alt.Scale) -> list:
    """The module's box with its name, and the arrows into and out of it (an arrow ends `room` px early, so
    the head stops before the next block's side label at any width)."""
    box = alt.Chart(records(p.module))
    frame = box.mark_rect(fill="#D55E00", opacity=0.15, stroke="#D55E00", cornerRadius=6).encode(
        x=x, x2="x2:Q", y=y, y2="y2:Q"
    )
    text = (
        box.transform_calculate(mx="(datum.x + datum.x2) / 2", my="(datum.y + datum.y2) / 2")
        .mark_text(fontSize=12, fontWeight="bold", font="monospace", angle=270, color="currentColor")
        .encode(x=alt.X("mx:Q", axis=None, scale=xs), y=alt.Y("my:Q", axis=None, scale=ys), text="text:N")
    )
    flow = alt.Chart(records(p.arrows)).transform_calculate(
        end=f"max(datum.x + 0.3, datum.x2 - datum.room / (width / {p.span}))"
    )
    line = flow.mark_rule(strokeWidth=2, color="currentColor").encode(x=x, x2="end:Q", y=y)
    head = flow.mark_point(shape="triangle-right", filled=True, size=70, color="currentColor", xOffset=-3)
    return [frame, text, line, head.encode(x=alt.X("end:Q", axis=None, scale=xs), y=y)]


def _packed_layers(
    p: ShapePicture, labels: Mapping[str, str], top: float, x: alt.X, y: alt.Y, xs: alt.Scale, ys: alt.Scale
):
    """The packed strip under `top` (rows): a heading, each step's batch_sizes over its group, the stored rows,
    the step names."""
    packed, steps = p.packed.assign(y=p.packed["y"] + top), p.steps.assign(y=p.steps["y"] + top, ty=p.steps["ty"] + top)
    strip = alt.Chart(records(packed)).transform_calculate(
        x1=f"datum.x - {CELL / 2}", x2=f"datum.x + {CELL / 2}", y1=f"datum.y - {CELL / 2}", y2=f"datum.y + {CELL / 2}"
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
    who = strip.transform_filter(f"width / {p.span} >= 14").mark_text(fontSize=11, color="black")
    who = who.encode(x=x, y=y, text="sentence:N")
    steps = alt.Chart(records(steps))
    sizes = steps.mark_text(fontSize=12, fontWeight="bold", color="currentColor").encode(x=x, y=y, text="batch_size:Q")
    names = steps.mark_text(fontSize=11, color="currentColor").encode(
        x=x, y=alt.Y("ty:Q", axis=None, scale=ys), text="t:N"
    )
    head = pd.DataFrame([dict(x=-p.margins[0], y=top, text=labels["packed"])])
    heading = alt.Chart(records(head)).mark_text(fontSize=12, align="left", fontWeight="bold", color="currentColor")
    return [rows, who, sizes, names, heading.encode(x=x, y=y, text="text:N")]


def shapes_chart(frames: ShapePicture, config: ShapesConfig, language: str, answered: bool) -> alt.LayerChart:
    """The blocks picture in `language` (the page's and the notebook's: s2s_core/show), with the panel that
    traces where the two compared slices come from; once `answered`, whether they are equal and why."""
    reading = frames.panel.reading
    labels = words(language, "shapes.picture", WORDS)
    labels["slice"] = translate(language, "shapes.picture.slice", lhs=reading.lhs, rhs="h_n[-1]")
    labels["packed"] = translate(language, "shapes.picture.packed", rows=sum(config.lengths), E=config.E)
    h = "P" if config.proj_size else "H"
    fill = dict(b=reading.sentence + 1, n=reading.length, cell=config.cell, lhs=reading.lhs, h=h, size=reading.Hout)
    for key in PANEL_WORDS:  # the rows' {layer} stays for the picture to fill row by row
        labels[f"panel.{key}"] = translate(language, f"shapes.picture.panel.{key}", **fill, layer="{layer}")
    if not answered:
        return shape_picture(frames, labels)
    verdict = translate(language, f"shapes.picture.{'equal' if reading.equal else 'not_equal'}")
    why = translate(language, f"shapes.picture.why.{reading.note}", lhs=reading.lhs)
    return shape_picture(frames, labels, verdict, why)
