"""The padding & masks page's picture: the padded batch as a grid with the two masks as overlays. No streamlit.

One layered view in (position, row) coordinates, rows growing downwards. Each sentence is a block: its source
tokens (blue outline) over its target tokens, the ones the loss compares with (vermillion outline); PAD cells
grey and labelled PAD. A radio inside the chart switches the overlay in the browser:
- the loss mask: PAD target cells struck out (`ignore_index`); once the question is answered, each row's count
  of positions that count and the loss's denominator are printed (they are the question's answer);
- the attention mask: PAD source cells marked −∞ (their scores before the softmax).
Under the grid, the chosen sentence's attention weights at decoder step 1 over the source columns: with the
mask (filled) and without it (outlined, the weight that leaks onto PAD). The shared step slider
(s2s_ui.steps) picks the sentence. A source that is all PAD is drawn as a struck-out block with its message.

The page hands the builder its words raw (`WORDS`, catalog keys masks.picture.*); the builder fills in the
numbers (the description's sizes, the denominator) itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, lines, records
from s2s_core.fmt import NUM_D3, num
from s2s_core.masks.compute import MasksConfig, MasksResult, has_pad
from s2s_core.vocab import PAD

SOURCE, TARGET, ATTENTION, PAD_GREY = "#2C7FB8", "#D55E00", "#B8588F", "#8A8A8A"  # the roles' colours on every page
THEME = "currentColor"  # text follows the light or dark theme (the cells are outlines, not fills)
OVERLAY = "masks_overlay"  # the chart's own radio (browser-only view state, like a hover)
HALF = 0.45  # half a cell's width, in positions
OUTLINE_ACTIVE, OUTLINE_OTHER = 2.0, 1.0  # px: a cell's outline on the side the chosen mask acts on, the other
CELL = 0.8  # a token cell's height, in rows
BLOCK = 2.6  # one sentence: its name (0-0.35), source (0.45-1.25), target (1.4-2.2), a gap
WEIGHTS_TALL = 1.6  # the attention strip's height for a weight of 1
ROW_PX, ROW_PX_TWO_LINES = 30, 34  # a row's pixels; taller when a token may need two lines in its cell (27 px)
# A token wider than its cell is split over two lines, so a phone's nine narrow columns still show whole words
# (the tooltip always has the token). How wide a token is at FONT_PX is estimated per character class (widths
# measured in Chromium for the app's Source Sans at 11 px: "merveilleuse" 59 px, estimated 59.7); whether it fits
# is decided in the browser, against the cell's live width.
FONT_PX = 11
HANGUL = "[가-힣ㄱ-ㅎㅏ-ㅣ]"
GLYPH_PX = (("[ijlftr'.,:;!|]", 3.0), ("[mwMW]", 8.5), ("[A-Z]", 6.2), (HANGUL, 10.2))
OTHER_PX = 5.6
PHONE_PLOT_PX = 350  # the picture's width on a 390 px phone
WRAP = 52  # characters per line of a rejected row's message (fits a 390 px phone at 11 px)
# masks.picture.*: the picture's words (sentence and rejected take {row}, counted {n}, description {B} {S} {T},
# denominator {n_real} {loss}); subtitle_before replaces subtitle while the previous batch shows faintly.
WORDS = (
    "title",
    "subtitle",
    "subtitle_before",
    "description",
    "denominator",
    "overlay",
    "loss",
    "attention",
    "sentence",
    "rejected",
    "source",
    "target",
    "strip",
    "counted",
    "position",
    "token",
    "masked",
    "unmasked",
    "before",
)


def _wrap(text: str, width: int = WRAP) -> list[str]:
    return lines(text, width)


def text_px(token: str) -> float:
    """About how many pixels `token` takes at FONT_PX (GLYPH_PX's classes, OTHER_PX for the rest)."""
    px, rest = 0.0, token
    for pattern, width in GLYPH_PX:
        px += len(re.findall(pattern, rest)) * width
        rest = re.sub(pattern, "", rest)
    return px + len(rest) * OTHER_PX


def two_lines(token: str) -> str:
    """`token` split where its two lines are most even, with a hyphen where the split falls inside a word."""
    if len(token) < 2:
        return token
    cut = min(range(1, len(token)), key=lambda k: max(text_px(token[:k]), text_px(token[k:])))
    head, tail = token[:cut], token[cut:]
    hyphen = "-" if head[-1].isalpha() and tail[0].isalpha() and not re.match(HANGUL, tail[0]) else ""
    return head + hyphen + "\n" + tail


def cell_text_px(plot_px: float, columns: int) -> float:
    """The room for text inside one token cell when the picture is `plot_px` wide."""
    return plot_px / max(columns, 1) * 2 * HALF - 3


def row_px(widths: Sequence[float], columns: int) -> int:
    """A row's height: taller when some token will need two lines on a phone."""
    room = cell_text_px(PHONE_PLOT_PX, columns)
    return ROW_PX_TWO_LINES if any(w > room for w in widths) else ROW_PX


def picture_frames(
    result: MasksResult,
    config: MasksConfig,
    rejected: Sequence[tuple[int, str]],
    names: Mapping[str, str],
    revealed: bool = False,
) -> dict[str, pd.DataFrame]:
    """Cells (source and target tokens), row names with counts, the attention strip, rejected blocks.

    rejected: (row, message) of each row left out because its source is all PAD; it is drawn as the batch would
    hold it, S PAD cells. revealed: the question is answered, so each row's count of targets that count may be in
    the data.
    """
    src, tgt = result.src_ids.tolist(), result.dec_out.tolist()  # (B, S), (B, T)
    cells, heads, weights = [], [], []
    for b, row in enumerate(config.rows):
        top = b * BLOCK
        counted = int(result.tgt_mask[b].sum())
        heads.append(
            {
                "x": 0.55,
                "y": top + 0.18,
                "step": b + 1,
                "text": names["sentence"].format(row=row),
                "n": counted if revealed else None,
            }
        )
        for side, ids, itos, y in (
            ("source", src[b], result.src_itos, top + 0.45),
            ("target", tgt[b], result.tgt_itos, top + 1.4),
        ):
            for j, i in enumerate(ids):
                token = itos[i]
                cells.append(
                    {
                        "side": side,
                        "role": names[side],
                        "step": b + 1,
                        "x": j + 1,
                        "y": y,
                        "y2": y + CELL,
                        "token": "PAD" if token == PAD else token,
                        "pad": token == PAD,
                        "px": text_px(token),
                        "split": two_lines(token),
                    }
                )
        masked, unmasked = result.weights_masked[b, 0].tolist(), result.weights_unmasked[b, 0].tolist()  # (S,)
        for j, (w_m, w_u) in enumerate(zip(masked, unmasked, strict=True)):
            weights.append(
                {"step": b + 1, "x": j + 1, "masked": w_m, "unmasked": w_u, "pad": not bool(result.src_mask[b, j])}
            )
    gone = []
    for k, (row, message) in enumerate(rejected):
        top = (len(config.rows) + k) * BLOCK
        gone.append({"x": 0.55, "y": top + 0.18, "text": names["rejected"].format(row=row), "line": 0})
        for j in range(len(src[0])):
            cells.append(
                {
                    "side": "rejected",
                    "role": names["source"],
                    "step": 0,
                    "x": j + 1,
                    "y": top + 0.45,
                    "y2": top + 0.45 + CELL,
                    "token": "PAD",
                    "pad": True,
                    "px": text_px("PAD"),
                    "split": "PAD",
                }
            )
        for n, line in enumerate(_wrap(message)):
            gone.append({"x": 0.55, "y": top + 1.55 + 0.45 * n, "text": line, "line": n + 1})
    return {
        "cells": pd.DataFrame(cells),
        "heads": pd.DataFrame(heads),
        "weights": pd.DataFrame(weights),
        "rejected": pd.DataFrame(gone),
    }


def grid_units(config: MasksConfig, rejected: Sequence[tuple[int, str]]) -> tuple[float, float]:
    """(where the attention strip's baseline sits, the picture's height), in rows."""
    grid = (len(config.rows) + len(rejected)) * BLOCK
    extra = max((len(_wrap(message)) for _, message in rejected), default=0) * 0.45
    base = grid + extra + 0.6 + WEIGHTS_TALL
    return base, base + 1.5


def masks_picture(
    result: MasksResult,
    config: MasksConfig,
    rejected: Sequence[tuple[int, str]],
    words: Mapping[str, str],
    step: alt.Parameter,
    revealed: bool,
    before: tuple[MasksResult, MasksConfig] | None = None,
) -> alt.LayerChart:
    """The picture (module docstring). words: the learner's words for `WORDS`, with their {placeholders};
    rejected: (row, message) of each all-PAD source left out; revealed: the question is answered (the counts
    and the denominator may show); before: the previous batch, drawn faintly behind."""
    B, S, T = len(config.rows), int(result.src_ids.shape[1]), int(result.dec_out.shape[1])
    labels = {
        **words,
        "subtitle": words["subtitle_before" if before is not None else "subtitle"],
        "description": words["description"].format(B=B, S=S, T=T),
        "denominator": words["denominator"].format(n_real=result.n_real, loss=num(result.loss_ignore)),
    }
    frames = picture_frames(result, config, rejected, labels, revealed)
    width = max(S, T)
    base_y, units = grid_units(config, rejected)
    px_row = row_px(frames["cells"]["px"].tolist(), width)
    scale_x = alt.Scale(domain=[0.5, width + 0.5], nice=False, zero=False)
    scale_y = alt.Scale(domain=[units, -0.1], nice=False, zero=False)
    axis = alt.Axis(values=list(range(1, width + 1)), format="d", grid=False, ticks=False, domain=False)
    x = alt.X("x:Q", title=labels["position"], scale=scale_x, axis=axis)
    xs = {"x": alt.X("x0:Q", scale=scale_x), "x2": "x1:Q"}
    y = alt.Y("y:Q", scale=scale_y, axis=None)
    overlay = alt.param(
        name=OVERLAY,
        value="loss",
        bind=alt.binding_radio(
            options=["loss", "attention"], labels=[labels["loss"], labels["attention"]], name=labels["overlay"] + " "
        ),
    )
    on_loss, on_attention = f"{OVERLAY} == 'loss'", f"{OVERLAY} == 'attention'"
    chosen = alt.condition(step, alt.value(1.0), alt.value(0.45))
    cells = alt.Chart(records(frames["cells"])).transform_calculate(x0=f"datum.x - {HALF}", x1=f"datum.x + {HALF}")
    tip = [
        alt.Tooltip("role:N", title=" "),
        alt.Tooltip("x:Q", title=labels["position"]),
        alt.Tooltip("token:N", title=labels["token"]),
    ]
    dim = f"(datum.side == 'source' && {on_loss}) || (datum.side == 'target' && {on_attention})"
    layers = []
    if before is not None:
        # 0) The previous batch's cells, faint and dashed behind the new grid: where the padding grew or shrank.
        old = picture_frames(before[0], before[1], (), labels)["cells"]
        if max(old["y"].max(), 0) < units and max(old["x"].max(), 0) <= width:
            layers.append(
                alt.Chart(records(old[["x", "y", "y2", "token"]]))
                .transform_calculate(x0=f"datum.x - {HALF}", x1=f"datum.x + {HALF}")
                .mark_rect(fill="transparent", stroke="currentColor", strokeDash=[2, 3], opacity=0.35, cornerRadius=4)
                .encode(**xs, y=y, y2="y2:Q", tooltip=[alt.Tooltip("token:N", title=labels["before"])])
            )
    layers += [
        # 1) The token cells: PAD grey, the side's role colour as the outline. The outline is the role's colour at
        # full opacity on every side (>= 3:1 on both themes' backgrounds); the side the chosen mask leaves alone
        # has a thinner outline and a fainter PAD fill instead of a faded outline.
        cells.mark_rect(cornerRadius=4)
        .encode(
            **xs,
            y=y,
            y2="y2:Q",
            fill=alt.condition("datum.pad", alt.value(PAD_GREY), alt.value("transparent")),
            fillOpacity=alt.condition(dim, alt.value(0.18), alt.value(0.35)),
            stroke=alt.Color(
                "side:N",
                scale=alt.Scale(domain=["source", "target", "rejected"], range=[SOURCE, TARGET, PAD_GREY]),
                legend=None,
            ),
            strokeWidth=alt.condition(dim, alt.value(OUTLINE_OTHER), alt.value(OUTLINE_ACTIVE)),
            tooltip=tip,
        )
        .add_params(overlay),
        # A token that does not fit its cell's live width takes its two-line form, centred on the cell.
        cells.transform_calculate(two=f"datum.px > width / {width} * {2 * HALF} - 3")
        .transform_calculate(
            label="datum.two ? datum.split : datum.token",
            cy=f"datum.y + {CELL / 2} - (datum.two ? {(FONT_PX + 1) / 2 / px_row} : 0)",
        )
        .mark_text(
            color=THEME,
            fontSize=FONT_PX,
            lineBreak="\n",
            lineHeight=FONT_PX + 1,
            limit=alt.ExprRef(f"width / {width} - 4"),
        )
        .encode(
            x=x,
            y=alt.Y("cy:Q", scale=scale_y, axis=None),
            text="label:N",
            opacity=alt.condition(dim, alt.value(0.7), alt.value(1.0)),  # text keeps >= 4.5:1 when faded
        ),
        # 2) The loss mask: a PAD target is struck out (ignore_index); the attention mask: a PAD source is −∞.
        cells.transform_filter(f"datum.pad && datum.side == 'target' && {on_loss}")
        .mark_rule(color=TARGET, strokeWidth=2)
        .encode(**xs, y=y, y2="y2:Q"),
        cells.transform_filter(f"datum.pad && datum.side == 'source' && {on_attention}")
        .transform_calculate(cy=f"datum.y + {CELL / 2}", x0=f"datum.x + {HALF * 0.2}")
        .mark_text(text="−∞", fontSize=13, fontWeight="bold", color=THEME, align="left", dy=-9)
        .encode(x=alt.X("x0:Q", scale=scale_x), y=alt.Y("cy:Q", scale=scale_y, axis=None)),
        cells.transform_filter("datum.side == 'rejected'")
        .mark_rule(color=PAD_GREY, strokeWidth=2)
        .encode(**xs, y=y, y2="y2:Q"),
    ]
    # 3) Each sentence's name; with the loss overlay and an answered question, how many of its targets count.
    heads = alt.Chart(records(frames["heads"]))
    show_count = f"{on_loss} && {'true' if revealed else 'false'}"  # the counts are the question's answer
    count_text = f"replace('{_q(labels['counted'] if revealed else '')}', '{{n}}', datum.n)"
    layers.append(
        heads.transform_calculate(label=f"datum.text + ({show_count} ? ' · ' + {count_text} : '')")
        .mark_text(color=THEME, align="left", baseline="middle", fontSize=12, fontWeight="bold")
        .encode(x=x, y=y, text="label:N", opacity=chosen)
        .add_params(step)
    )
    if not frames["rejected"].empty:
        layers.append(
            alt.Chart(records(frames["rejected"]))
            .mark_text(color=THEME, align="left", baseline="middle", fontSize=11)
            .encode(x=x, y=y, text="text:N")
        )
    # 4) The chosen sentence framed, and its attention at decoder step 1 under the grid.
    frame = alt.Chart(records(frames["heads"])).transform_calculate(
        x0="0.5", x1=f"{width + 0.5}", y0="datum.y - 0.42", y1="datum.y + 2.12"
    )
    layers.append(
        frame.transform_filter(step)
        .mark_rect(fill="transparent", stroke="currentColor", strokeDash=[4, 3], strokeWidth=1.5, cornerRadius=6)
        .encode(**xs, y=alt.Y("y0:Q", scale=scale_y, axis=None), y2="y1:Q")
    )
    weights = alt.Chart(records(frames["weights"])).transform_calculate(
        x0=f"datum.x - {HALF * 0.85}",
        x1=f"datum.x + {HALF * 0.85}",
        base=f"{base_y}",
        top_m=f"{base_y} - {WEIGHTS_TALL} * datum.masked",
        top_u=f"{base_y} - {WEIGHTS_TALL} * datum.unmasked",
    )
    wtip = [
        alt.Tooltip("x:Q", title=labels["position"]),
        alt.Tooltip("masked:Q", title=labels["masked"], format=NUM_D3),
        alt.Tooltip("unmasked:Q", title=labels["unmasked"], format=NUM_D3),
    ]
    layers += [
        alt.Chart(records(pd.DataFrame([{"x": 0.55, "y": base_y - WEIGHTS_TALL - 0.35, "text": labels["strip"]}])))
        .mark_text(color=THEME, align="left", baseline="middle", fontSize=12, fontWeight="bold")
        .encode(x=x, y=y, text="text:N"),
        weights.transform_filter(step)
        .mark_rect(color=ATTENTION)
        .encode(**xs, y=alt.Y("base:Q", scale=scale_y, axis=None), y2="top_m:Q", tooltip=wtip),
        weights.transform_filter(step)
        .mark_rect(fill="transparent", stroke="currentColor", strokeDash=[3, 2], strokeWidth=1.5)
        .encode(**xs, y=alt.Y("base:Q", scale=scale_y, axis=None), y2="top_u:Q", tooltip=wtip),
        weights.transform_filter(step)
        .transform_filter(f"width / {width} >= 40")
        .transform_calculate(label="format(datum.masked, '.2f')")
        .mark_text(color=THEME, fontSize=11, baseline="top", dy=3)
        .encode(x=x, y=alt.Y("base:Q", scale=scale_y, axis=None), text="label:N"),
    ]
    if revealed:
        layers.append(
            alt.Chart(records(pd.DataFrame([{"x": 0.55, "y": units - 0.3, "text": labels["denominator"]}])))
            .transform_filter(on_loss)
            .mark_text(align="left", baseline="middle", fontSize=12, color=THEME, fontWeight="bold")
            .encode(x=x, y=y, text="text:N")
        )
    title = alt.TitleParams(_wrap(labels["title"], 44), subtitle=_wrap(labels["subtitle"], 58), anchor="start")
    return alt.layer(
        *layers,
        title=title,
        description=labels["description"],
        width="container",
        height=int(units * px_row),
        autosize=FIT_X,
    )


def _q(text: str) -> str:
    """Text made safe inside a single-quoted Vega expression string."""
    return text.replace("\\", "\\\\").replace("'", "\\'")


def weight_line(result: MasksResult, b: int) -> tuple[str, str] | None:
    """The chosen sentence's weight on PAD at decoder step 1, with and without the mask (for the line under it);
    None when its source has no PAD (both masks leave it as it is)."""
    if not has_pad(result, b):
        return None
    return num(float(result.pad_share_masked[b, 0])), num(float(result.pad_share_unmasked[b, 0]))
