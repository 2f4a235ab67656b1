"""The shapes picture's lower panel: one sentence traced step by step through every row of h_n.

One line of cells per row of h_n (layer by layer, forward then backward), one cell per position of the sentence
the picture follows (the shortest: its PAD shows). A line through each row's cells runs the way that direction
reads, its head at the end where the final state is, which is labelled with the row of h_n that keeps it: on
the right for a forward row, on the left for a backward one (it read right to left and ends at position 0).
The top layer's column at the last position is outlined as `outputs[:, -1]` and, with two directions, named
[fwd H | bwd H]; the cell `h_n[-1]` comes from is outlined too. Both outlines are the same cell exactly when
one direction and no PAD position make them equal (s2s_core/shapes/origin.py reads that from the tensors).

x is in the blocks' slots (one cell = one slot); text widths are px turned into slots at the phone's slot.
No streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.chartkit import lines, records, text_width
from s2s_core.shapes.origin import LastStepReading

NAME_PX = 94  # the row names' column ("4층 역방향 ←" at 12 px bold is about 86 px)
HN_PX = 56  # an h_n label's column ("h_n[-1]" at 12 px bold monospace is about 52 px)
LABEL_CHAR_PX = 6.8  # a Latin character of the 12 px outputs label (a Hangul syllable counts as two)
HEAD_LINE = 0.62  # a 12 px heading line, in rows of 28 px (its text box is ~16 px tall)
HEADING_WIDTH = 50  # a heading line's width in Latin characters (12 px bold: a phone's 358 px)
REAL, PAD_FILL, SLICE = "#9ECAE1", "#8A8A8A", "#B8588F"


def fixed_px(K: int) -> float:
    """px the panel needs besides its cells on a phone: the names, an h_n label on each side it has one."""
    return NAME_PX + HN_PX * K + 8


@dataclass(frozen=True)
class Panel:
    reading: LastStepReading
    left: float  # slots: the chart's left edge, where the names start
    c0: float  # slots: the first cell's left edge
    top: float  # rows: the heading's first line
    slot_px: float  # a slot on the phone
    pitch: float  # a line's height, in rows (the blocks' face rows: 1, or compact in a tall picture)
    head_line: float  # a heading line's height, in rows (HEAD_LINE, more rows where a row is fewer px)
    cells: pd.DataFrame  # row, pos, x, y, kind ("real" | "pad": ran on PAD | "skipped": packed, not run), zero
    rows: pd.DataFrame  # row, layer, backward, y, fx, fx2, head, final_x, label_x, align, compared, top
    outline: pd.DataFrame  # x, x2, y, y2: the top layer's column at the last position (outputs[:, -1])
    positions: pd.DataFrame  # pos, x, y

    @property
    def first_row_y(self) -> float:
        return self.top + 2 * self.head_line + 1.0

    @property
    def last_row_y(self) -> float:
        return self.first_row_y + (len(self.reading.rows) - 1) * self.pitch

    @property
    def end(self) -> float:
        """rows: below the outputs label."""
        return self.label_y + 0.45

    @property
    def right(self) -> float:
        """slots: the right end of the fwd rows' h_n labels."""
        return self.c0 + self.reading.S + 0.25 + HN_PX / self.slot_px

    @property
    def label_y(self) -> float:
        """rows: the outputs label, a row under the last line (half a line and half a row: closer in a compact,
        tall picture)."""
        return self.last_row_y + 0.5 * self.pitch + 0.5


def panel_frames(
    reading: LastStepReading, left: float, top: float, slot_px: float, pitch: float, head_line: float = HEAD_LINE
) -> Panel:
    R, S = reading, reading.S
    c0 = round(left + (NAME_PX + (HN_PX if R.K == 2 else 0)) / slot_px, 4)
    y0 = top + 2 * head_line + 1.0
    cells, rows = [], []
    for k, row in enumerate(R.rows):
        y = y0 + k * pitch
        top_layer = R.is_top(row)
        for pos in range(S):
            kind = "real" if pos < R.length else ("pad" if pos <= row.last else "skipped")
            cells.append(dict(row=k, pos=pos, x=c0 + pos + 0.5, y=y, kind=kind, zero=kind == "skipped" and top_layer))
        start, end = (row.last, row.first) if row.backward else (row.first, row.last)
        rows.append(
            dict(
                row=k,
                layer=row.layer,
                backward=row.backward,
                y=y,
                fx=c0 + start + 0.5,
                fx2=c0 + end + 0.5,
                head="triangle-left" if row.backward else "triangle-right",
                final_x=c0 + row.final + 0.5,
                label_x=c0 - 0.25 if row.backward else c0 + S + 0.25,
                align="right" if row.backward else "left",
                compared=k == len(R.rows) - 1,
                top=top_layer,
                # a forward row that stopped early (packed): a dotted leader from its final cell to its label
                lead_x=c0 + row.final + 0.5,
                lead_x2=c0 + S + 0.2,
                leads=not row.backward and row.final < S - 1,
            )
        )
    top_rows = [r for r in rows if r["top"]]
    outline = pd.DataFrame(
        [
            dict(
                x=c0 + S - 1 + 0.02,
                x2=c0 + S - 0.02,
                y=top_rows[0]["y"] - 0.47 * pitch,
                y2=top_rows[-1]["y"] + 0.47 * pitch,
            )
        ]
    )
    positions = pd.DataFrame([dict(pos=pos, x=c0 + pos + 0.5, y=y0 - 0.8) for pos in range(S)])
    return Panel(
        R, left, c0, top, slot_px, pitch, head_line, pd.DataFrame(cells), pd.DataFrame(rows), outline, positions
    )


# shapes.picture.panel.*: the panel's words ({b}, {n}, {cell}: the heading; {layer}: a row; {lhs}, {h}, {n}:
# the outputs label)
PANEL_WORDS = ("heading", "fwd", "bwd", "outputs", "outputs_bi", "zero", "position", "final", "direction", "compared")


def panel_layers(p: Panel, labels: Mapping[str, str], xs: alt.Scale, ys: alt.Scale, slot: str) -> list:
    """The panel's layers. labels: the PANEL_WORDS with their placeholders filled but {layer}; slot: a Vega
    expression for a slot's live width in px."""
    R = p.reading
    x, y = alt.X("x:Q", axis=None, scale=xs), alt.Y("y:Q", axis=None, scale=ys)
    heading = lines(labels["heading"], HEADING_WIDTH)[:2]
    head = pd.DataFrame([dict(x=p.left, y=p.top + p.head_line * i, text=line) for i, line in enumerate(heading)])
    layers = [
        alt.Chart(records(head))
        .mark_text(fontSize=12, fontWeight="bold", align="left", color="currentColor")
        .encode(x=x, y=y, text="text:N")
    ]
    # 1) positions over the cells: every one where two digits fit, else the first and the last
    pos = alt.Chart(records(p.positions)).transform_filter(f"{slot} >= 16 || datum.pos == 0 || datum.pos == {R.S - 1}")
    layers.append(pos.mark_text(fontSize=11, color="currentColor").encode(x=x, y=y, text="pos:N"))
    # 2) the cells: real steps blue, PAD steps that ran grey, steps a packed run skipped only outlined
    cells = alt.Chart(records(p.cells)).transform_calculate(
        x1="datum.x - 0.46", x2="datum.x + 0.46", y1=f"datum.y - {0.4 * p.pitch}", y2=f"datum.y + {0.4 * p.pitch}"
    )
    fill = f"datum.kind == 'real' ? '{REAL}' : datum.kind == 'pad' ? '{PAD_FILL}' : 'transparent'"
    layers.append(
        cells.transform_calculate(fill=fill)
        .mark_rect(cornerRadius=2, stroke=PAD_FILL, strokeWidth=1)
        .encode(
            x=alt.X("x1:Q", axis=None, scale=xs),
            x2="x2:Q",
            y=alt.Y("y1:Q", axis=None, scale=ys),
            y2="y2:Q",
            fill=alt.Fill("fill:N", scale=None),
            strokeDash=alt.condition("datum.kind == 'skipped'", alt.value([3, 2]), alt.value([1, 0])),
            tooltip=[alt.Tooltip("pos:Q", title=labels["position"])],
        )
    )
    if p.cells["zero"].any():  # the top layer's outputs hold 0 where a packed run skipped a PAD position
        zeros = cells.transform_filter("datum.zero").mark_text(fontSize=11, color="currentColor")
        layers.append(zeros.encode(x=x, y=y, text=alt.value(labels["zero"])))
    # 3) each row: its name, the direction it reads (a line with its head at the final state), its h_n row
    names = p.rows.assign(
        text=[
            labels["bwd" if b else "fwd"].format(layer=n)
            for b, n in zip(p.rows["backward"], p.rows["layer"], strict=True)
        ],
        nx=p.left,
        hn=[_hn_label(k, len(R.rows)) for k in p.rows["row"]],
    )
    rows = alt.Chart(records(names))
    layers.append(
        rows.mark_text(fontSize=12, fontWeight="bold", align="left", color="currentColor").encode(
            x=alt.X("nx:Q", axis=None, scale=xs), y=y, text="text:N"
        )
    )
    layers.append(
        # (black: the direction line only crosses cells that ran, light blue or PAD grey, on either theme)
        rows.mark_rule(strokeWidth=2, color="black").encode(x=alt.X("fx:Q", axis=None, scale=xs), x2="fx2:Q", y=y)
    )
    for shape in ("triangle-left", "triangle-right"):
        heads = names[names["head"] == shape]
        if heads.empty:
            continue
        layers.append(
            alt.Chart(records(heads))
            .mark_point(shape=shape, filled=True, size=60, color="black", aria=False)
            .encode(x=alt.X("fx2:Q", axis=None, scale=xs), y=y)
        )
    leads = names[names["leads"]]
    if not leads.empty:
        layers.append(
            alt.Chart(records(leads))
            .mark_rule(strokeWidth=1.5, strokeDash=[2, 3], color="currentColor", aria=False)
            .encode(x=alt.X("lead_x:Q", axis=None, scale=xs), x2="lead_x2:Q", y=y)
        )
    # the final state's cell outlined: purple for h_n[-1] (compared), the text colour for the other rows
    finals = rows.transform_calculate(
        x1="datum.final_x - 0.5", x2="datum.final_x + 0.5", y1=f"datum.y - {0.45 * p.pitch}"
    )
    finals = finals.transform_calculate(y2=f"datum.y + {0.45 * p.pitch}")
    layers.append(
        finals.mark_rect(fill="transparent", cornerRadius=3).encode(
            x=alt.X("x1:Q", axis=None, scale=xs),
            x2="x2:Q",
            y=alt.Y("y1:Q", axis=None, scale=ys),
            y2="y2:Q",
            stroke=alt.condition("datum.compared", alt.value(SLICE), alt.value("currentColor")),
            strokeWidth=alt.condition("datum.compared", alt.value(3), alt.value(1.5)),
            tooltip=[alt.Tooltip("hn:N", title=labels["final"]), alt.Tooltip("text:N", title=labels["direction"])],
        )
    )
    for align in ("left", "right"):
        side = names[names["align"] == align]
        if side.empty:
            continue
        dx = 2 if align == "left" else -2
        layers.append(
            alt.Chart(records(side))
            .mark_text(fontSize=12, fontWeight="bold", font="monospace", align=align, dx=dx, color="currentColor")
            .encode(x=alt.X("label_x:Q", axis=None, scale=xs), y=y, text="hn:N")
        )
    # 4) outputs[:, -1]: the top layer's column at the last position, named under it (right-aligned to it where
    # the label fits between the chart's left edge and the column, else from the left edge)
    said = labels["outputs_bi" if R.K == 2 else "outputs"]
    box = alt.Chart(records(p.outline.assign(text=said)))
    layers.append(
        box.mark_rect(fill="transparent", stroke=SLICE, strokeWidth=3, cornerRadius=3).encode(
            x=x, x2="x2:Q", y=y, y2="y2:Q", tooltip=alt.Tooltip("text:N", title=labels["compared"])
        )
    )
    right = p.c0 + R.S
    fits = (right - p.left) * p.slot_px >= text_width(said) * LABEL_CHAR_PX
    words = pd.DataFrame([dict(x=right if fits else p.left, y=p.label_y, text=said)])
    layers.append(
        alt.Chart(records(words))
        .mark_text(
            fontSize=12, fontWeight="bold", font="monospace", align="right" if fits else "left", color="currentColor"
        )
        .encode(x=x, y=y, text="text:N")
    )
    return layers


def _hn_label(k: int, rows: int) -> str:
    """h_n[k], the last row named as the question names it."""
    return "h_n[-1]" if k == rows - 1 else f"h_n[{k}]"
