"""The encoder–decoder page's main picture: both chains with the one hand-off vector as their narrow waist.

Time runs left to right in slots: the encoder's positions, the bridge (when there is one), the waist (h0, and
c0 for an LSTM: what the decoder receives), then the decoder's steps. Every state is a column of small squares
(one per component, top layer only, colour = value on the shared diverging scale), with its token under it and,
for the decoder, the chosen word above it. A model with attention also reads every encoder state at every step:
arcs under the chains join the chosen step to each source word, as thick and opaque as its weight. A state longer
than MAX_ROWS components (the trained model's 64) shows its first MAX_ROWS; the tabs show all. The step control
(s2s_ui.steps.step_param) walks the decoder in the browser: the chosen step is drawn at full opacity and framed,
the other decoder steps faded. No streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, VALUE_SCALE, records, title_lines
from s2s_core.fmt import CELL_D3, NUM_D3
from s2s_core.seq2seq.frames import component_labels
from s2s_core.seq2seq.run import Seq2SeqResult

ENCODER, DECODER, CELL, PAD = "#2C7FB8", "#D55E00", "#0F8B8D", "#8A8A8A"  # the colours every page gives these parts
ATTENTION = "#B8588F"
# Every word on the picture is text on the page's background (or on the outline's faint tint): the theme's text
# colour, since no one colour keeps 4.5:1 on both #ffffff and #171614 (the role colours are 3.5-4.7:1). The roles'
# colours stay on the shapes (outline, arrows, frame); a chain's name stands under its own outline.
TEXT = "currentColor"
MAX_ROWS = 12  # components drawn per state: a readable column (a bidirectional 2·6 fits; the trained model has 64)
ARC_DEPTH = 2.4  # how far under the chains an attention arc dips, in component rows
FONT = 12
HALF = 0.3  # half a state column's width, in slots (the rest of a slot is the arrow between states)
ROW_PX = 22  # one component's height
# A square's number at 11 px: "−0.06" needs about 32 px; from 20 px the leading zero goes ("−.06", as a phone's
# seven columns of 30 px squares print it); narrower squares leave the number to the tooltip.
FULL_NUMBER_PX, SHORT_NUMBER_PX = 32, 20
STRONG = 0.7  # |value| from which the diverging scale's fill is dark enough for white digits (>= 4.5:1)
FADED_TEXT = 0.75  # a faded step's words and digits: the theme's text colour at this opacity keeps >= 4.5:1
WAIST_SHIFT, WAIST_HALF = 0.22, 0.2  # an LSTM's h0 and c0 side by side in the waist's slot
WAIST_NAME_Y = -2.75  # the waist's name, in component rows: above the outline's top (-2.2) and the step's frame


@dataclass(frozen=True)
class PictureFrames:
    """Everything the picture draws, in slot (x) and component (y) coordinates."""

    cells: pd.DataFrame  # part, x, x1, x2, y, value, name, where, step
    tokens: pd.DataFrame  # part, x, y, text, step, role ("in" under a state, "out" above a decoder state)
    arrows: pd.DataFrame  # part, x, x2, y, step: a flow of state from one slot to the next
    band: pd.DataFrame  # part, x, y, y2: the chains' outline, pinched to the hand-off at the waist
    bridge: pd.DataFrame  # x, y, y2, text: the Linear bridge's block (empty without one)
    before: pd.DataFrame  # x, y, text, step: the previous input's output words (empty without an edit)
    rows: int  # components drawn (the taller of the encoder's K·H_e and the decoder's H_d, at most MAX_ROWS)
    slots: int  # columns of the picture
    components: int = 0  # components of the tallest state (more than rows: only the first rows are drawn)
    arcs: pd.DataFrame | None = None  # x, y, order, link, step, weight: attention from each step to each word

    @property
    def cut(self) -> bool:
        """Only the first `rows` of each state's components are drawn."""
        return self.components > self.rows


def _slots(result: Seq2SeqResult) -> tuple[int, int, int]:
    """(first bridge slot or -1, the waist's slot, number of slots)."""
    S = len(result.encoder.tokens)
    bridged = result.handoff is not None and result.handoff.bridged
    waist = S + int(bridged)
    T = 0 if result.decoding is None else len(result.decoding.steps)
    return (S if bridged else -1), waist, waist + 1 + T


def picture_frames(result: Seq2SeqResult, K: int, before: Seq2SeqResult | None = None) -> PictureFrames:
    enc, dec, handoff = result.encoder, result.decoding, result.handoff
    outputs = enc.outputs[0]  # (S, K*H_e): the top layer at every position (both directions side by side)
    names = component_labels(outputs.shape[1] // K, K)
    bridge_x, waist, slots = _slots(result)
    components = max(outputs.shape[1], 0 if handoff is None else handoff.h0.shape[-1])
    rows = min(components, MAX_ROWS)
    cells, tokens, arrows, arcs = [], [], [], []
    mid = (rows - 1) / 2  # arrows run between the columns at half their height

    def column(part: str, x: float, vector, where: str, step: int, labels: list[str], half: float = HALF) -> None:
        cells.extend(
            dict(part=part, x=x, x1=x - half, x2=x + half, y=r, value=float(v), name=labels[r], where=where, step=step)
            for r, v in enumerate(vector.tolist()[:rows])
        )

    # 1) the encoder: each position's state over its source word, arrows from each state to the next
    for s, token in enumerate(enc.tokens):
        column("encoder", s, outputs[s], f"{s + 1} {token}", 0, names)
        tokens.append(dict(part="encoder", x=s, y=rows + 0.7, text=token, step=0, role="in"))
        arrows.append(dict(part="encoder", x=s + HALF, x2=s + 1 - HALF, y=mid, step=0))
    edge = HALF  # how far the waist's states reach either side of its slot
    # 2) the waist: the one state handed over (h0, and c0 for an LSTM), top layer, as the decoder receives it
    if handoff is not None:
        h_names = [f"h{i + 1}" for i in range(handoff.h0.shape[-1])]
        lstm = handoff.c0 is not None
        shift, half = (WAIST_SHIFT, WAIST_HALF) if lstm else (0, HALF)
        edge = shift + half
        if bridge_x < 0 and arrows:
            arrows[-1]["x2"] = waist - edge  # the encoder's last arrow stops at h0
        column("handoff", waist - shift, handoff.h0[-1, 0], "h0", 0, h_names, half)
        tokens.append(dict(part="handoff", x=waist - shift, y=rows + 0.7, text="h0", step=0, role="in"))
        if lstm:
            column("cell", waist + shift, handoff.c0[-1, 0], "c0", 0, [f"c{i + 1}" for i in range(len(h_names))], half)
            tokens.append(dict(part="cell", x=waist + shift, y=rows + 0.7, text="c0", step=0, role="in"))
        if bridge_x >= 0:
            arrows.append(dict(part="handoff", x=bridge_x + HALF, x2=waist - edge, y=mid, step=0))
    # 3) the decoder: step t's state over its input word, the chosen word above; greedy feeds it back
    for t, step in enumerate(dec.steps if dec is not None else ()):
        x = waist + 1 + t
        column("decoder", x, step.h_new, f"t{t + 1}", t + 1, [f"h{i + 1}" for i in range(len(step.h_new))])
        tokens.append(dict(part="decoder", x=x, y=rows + 0.7, text=step.input_token, step=t + 1, role="in"))
        tokens.append(dict(part="decoder", x=x, y=-1.6, text=step.chosen, step=t + 1, role="out"))
        arrows.append(dict(part="decoder", x=x - 1 + (edge if t == 0 else HALF), x2=x - HALF, y=mid, step=t + 1))
        # attention: an arc from the step down and back up to each source word, its weight as width and opacity
        for s, w in enumerate([] if step.weights is None else step.weights.tolist()):
            link = f"{t + 1}:{s}"
            low = rows + 1.2 + ARC_DEPTH * (0.45 + 0.55 * (x - s) / max(slots, 1))  # longer arcs dip deeper
            for order, (ax, ay) in enumerate(((s, rows + 1.2), ((s + x) / 2, low), (x, rows + 1.2))):
                arcs.append(dict(x=ax, y=ay, order=order, link=link, step=t + 1, weight=w))
    if dec is None and arrows:
        arrows.pop()  # the encoder's last arrow leads nowhere: the hand-off failed
    band = _band(len(enc.tokens), waist, slots, rows)
    bridge = pd.DataFrame(
        [dict(x=bridge_x, y=-0.5, y2=rows - 0.5, text="Linear")] if bridge_x >= 0 else [],
        columns=["x", "y", "y2", "text"],
    )
    old = before.decoding if before is not None else None
    before_rows = [
        dict(x=waist + 1 + t, y=-2.7, text=s.chosen, step=t + 1) for t, s in enumerate(old.steps if old else ())
    ]
    return PictureFrames(
        cells=pd.DataFrame(cells),
        tokens=pd.DataFrame(tokens),
        arrows=pd.DataFrame(arrows, columns=["part", "x", "x2", "y", "step"]),
        band=band,
        bridge=bridge,
        before=pd.DataFrame(before_rows, columns=["x", "y", "text", "step"]),
        rows=rows,
        slots=max(slots, len(before_rows) + waist + 1),
        components=components,
        arcs=pd.DataFrame(arcs, columns=["x", "y", "order", "link", "step", "weight"]),
    )


def _band(S: int, waist: int, slots: int, rows: int) -> pd.DataFrame:
    """The outline of both chains: full height over the tokens and states, pinched to the states at the waist."""
    top, bottom = -2.2, rows + 1.3
    pinch_top, pinch_bottom = -0.6, rows - 0.4
    points = [
        ("encoder", -0.5, top, bottom),
        ("encoder", S - 0.5, top, bottom),
        ("encoder", waist - 0.2, pinch_top, pinch_bottom),
        ("decoder", waist + 0.2, pinch_top, pinch_bottom),
        ("decoder", waist + 0.5, top, bottom),
        ("decoder", slots - 0.5, top, bottom),
    ]
    if slots <= waist + 1:
        points = points[:3]  # no decoder: the encoder's outline ends at its final state
    return pd.DataFrame([dict(part=p, x=x, y=y, y2=y2) for p, x, y, y2 in points])


# seq2seq.picture.*: model_picture's words (its title and description are chosen by the model on screen: titles)
WORDS = (
    "encoder",
    "decoder",
    "handoff",
    "bridge",
    "before",
    "component",
    "state",
    "value",
    "word",
    "weight",
)


def titles(frames: PictureFrames) -> tuple[str, str]:
    """The picture's title and description keys (seq2seq.picture.*): with attention arcs the decoder is not fed
    by the waist alone, and the title must not say it is."""
    return (
        ("title_attention", "description_attention")
        if frames.arcs is not None and not frames.arcs.empty
        else (
            "title",
            "description",
        )
    )


STEP_PARAM = "step_sel"  # the picture's step control (s2s_ui.steps.step_param), bound to the page's step field


def model_picture(frames: PictureFrames, labels: Mapping[str, str], step_param: alt.Parameter | None) -> alt.LayerChart:
    """labels: title, description, encoder, decoder, handoff, bridge, before, component, state, value, word, weight.

    step_param: the shared step control on "step" (None when nothing was decoded: no decoder to walk).
    """
    n_slots, rows = max(frames.slots, 1), frames.rows
    xs = alt.Scale(domain=[-0.5, n_slots - 0.5], nice=False, zero=False)
    depth = ARC_DEPTH + 0.6 if frames.arcs is not None and not frames.arcs.empty else 0  # room for the arcs
    ys = alt.Scale(domain=[-3.2, rows + 2.5 + depth], reverse=True, nice=False, zero=False)
    x, y = alt.X("x:Q", axis=None, scale=xs), alt.Y("y:Q", axis=None, scale=ys)
    part_name = {"encoder": labels["encoder"], "handoff": labels["handoff"], "cell": labels["handoff"]}
    part_name["decoder"] = labels["decoder"]
    # The current decoder step at full opacity, the other decoder steps faded; the encoder and the waist stay.
    # A faded step's text is written in the theme's text colour instead (a faded role colour or black digit on a
    # faded square fell below 2:1 on the dark theme), at an opacity that keeps it readable on both.
    if step_param is not None:
        faded = ~(step_param | (alt.datum.step == 0))
        opacity = alt.when(faded).then(alt.value(0.3)).otherwise(alt.value(1))
        text_opacity = alt.when(faded).then(alt.value(FADED_TEXT)).otherwise(alt.value(1))
    else:
        faded = None
        opacity = text_opacity = alt.value(1)
    # 1) the outline: blue over the encoder, vermillion over the decoder, pinched at the hand-off
    band = (
        alt.Chart(records(frames.band))
        .mark_area(opacity=0.12, interpolate="linear")
        .encode(
            x=x,
            y=y,
            y2="y2:Q",
            color=alt.Color(
                "part:N", scale=alt.Scale(domain=["encoder", "decoder"], range=[ENCODER, DECODER]), legend=None
            ),
        )
    )
    # The chains' names under their outlines: the encoder's from the left edge, the decoder's to the right edge.
    names = []
    for part, where, align in (("encoder", -0.45, "left"), ("decoder", n_slots - 0.55, "right")):
        if part == "decoder" and frames.slots <= 1:
            continue
        spot = pd.DataFrame([dict(x=where, y=rows + 2 + depth, text=labels[part])])
        names.append(
            alt.Chart(records(spot))
            .mark_text(fontSize=FONT, fontWeight="bold", align=align, color=TEXT)
            .encode(x=x, y=y, text="text:N")
        )
    # 2) flows of state: arrows from each state to the next, in the role's colour
    arrow_colour = alt.Color(
        "part:N",
        scale=alt.Scale(domain=["encoder", "handoff", "decoder"], range=[ENCODER, PAD, DECODER]),
        legend=None,
    )
    arrows = (
        alt.Chart(records(frames.arrows))
        .mark_rule(strokeWidth=2)
        .encode(x=x, x2="x2:Q", y=y, color=arrow_colour, opacity=opacity)
    )
    heads = (
        alt.Chart(records(frames.arrows))
        .mark_point(shape="triangle-right", filled=True, size=60)
        .encode(x=alt.X("x2:Q", scale=xs, axis=None), y=y, color=arrow_colour, opacity=opacity)
    )
    # 3) the states: one square per component, colour = value, the number where the square is wide enough
    cells_base = alt.Chart(records(frames.cells)).encode(
        x=x,
        y=alt.Y("y0:Q", axis=None, scale=ys),
        x2="x2:Q",
        y2="y1:Q",
    )
    cells_base = cells_base.transform_calculate(y0="datum.y - 0.45", y1="datum.y + 0.45")
    tooltip = [
        alt.Tooltip("where:N", title=labels["state"]),
        alt.Tooltip("name:N", title=labels["component"]),
        alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
    ]
    squares = cells_base.encode(x=alt.X("x1:Q", axis=None, scale=xs)).mark_rect(stroke="currentColor", strokeWidth=0.5)
    squares = squares.encode(
        color=alt.Color("value:Q", scale=VALUE_SCALE, title=labels["value"], legend=alt.Legend(orient="bottom")),
        opacity=opacity,
        tooltip=tooltip,
    )
    if step_param is not None:
        squares = squares.add_params(step_param)
    px = f"width / {n_slots} * (datum.x2 - datum.x1)"  # the square's width on screen, live in the browser
    digits = f"format(datum.value, '{CELL_D3}')"
    # Black digits on the scale's light middle, white on its dark ends; the theme's colour on a faded square.
    strong = f"abs(datum.value) >= {STRONG}"
    if faded is not None:
        ink = alt.when(faded).then(alt.value("currentColor")).when(strong).then(alt.value("white"))
    else:
        ink = alt.when(strong).then(alt.value("white"))
    ink = ink.otherwise(alt.value("black"))
    numbers = (
        alt.Chart(records(frames.cells))
        .transform_filter(f"{px} >= {SHORT_NUMBER_PX}")
        .transform_calculate(
            label=f"{px} >= {FULL_NUMBER_PX} ? {digits} : replace({digits}, regexp('^([−-]?)0[.]'), '$1.')"
        )
        .mark_text(fontSize=11)
        .encode(x=x, y=y, text="label:N", color=ink, opacity=text_opacity)
    )
    # 4) the words: each state's input under it, the decoder's chosen word above it (bold: it is the output)
    words = alt.Chart(records(frames.tokens)).encode(x=x, y=y, opacity=text_opacity)
    inputs = words.transform_filter("datum.role == 'in'").mark_text(
        fontSize=FONT, limit={"expr": f"max(width / {n_slots} - 2, 12)"}, color=TEXT
    )
    inputs = inputs.encode(text="text:N", tooltip=[alt.Tooltip("text:N", title=labels["word"])])
    outputs = (
        words.transform_filter("datum.role == 'out'")
        .mark_text(fontSize=FONT + 1, fontWeight="bold", limit={"expr": f"max(width / {n_slots} - 2, 12)"}, color=TEXT)
        .encode(text="text:N", tooltip=[alt.Tooltip("text:N", title=labels["word"])])
    )
    layers = [band, *names, arrows, heads, squares, numbers, inputs, outputs]
    arcs = frames.arcs
    if arcs is not None and not arcs.empty and step_param is not None:
        # Only the chosen step's arcs: where the decoder looks at that step (the weights of all steps at once
        # would cover the picture).
        layers.append(
            alt.Chart(records(arcs))
            .transform_filter(step_param)
            .mark_line(interpolate="basis", color=ATTENTION)
            .encode(
                x=x,
                y=y,
                order="order:Q",
                detail="link:N",
                strokeWidth=alt.StrokeWidth("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.5, 7]), legend=None),
                opacity=alt.Opacity("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.15, 1]), legend=None),
                tooltip=[alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3)],
            )
        )
    # 5) the chosen step framed; the waist named; the bridge as a block on the hand-off; the previous outputs
    if step_param is not None:
        frame = (
            alt.Chart(records(frames.tokens[frames.tokens["role"] == "out"]))
            .transform_filter(step_param)
            .transform_calculate(x1="datum.x - 0.45", x2="datum.x + 0.45", y1="-2.2", y2=f"{rows + 1.2}")
            .mark_rect(fill=None, stroke=DECODER, strokeWidth=2, cornerRadius=4)
            .encode(
                x=alt.X("x1:Q", axis=None, scale=xs),
                x2="x2:Q",
                y=alt.Y("y1:Q", axis=None, scale=ys),
                y2="y2:Q",
            )
        )
        layers.append(frame)
    waist = frames.cells[frames.cells["part"].isin(["handoff", "cell"])]
    if not waist.empty:
        waist_x = float((waist["x1"].min() + waist["x2"].max()) / 2)
        # Above the outline (its top is at -2.2): in the waist's pinch the name was wider than the gap on a phone
        # ("넘겨주기" crossed the decoder's outline and the step's frame at 390 px).
        waist_name = pd.DataFrame([dict(x=waist_x, y=WAIST_NAME_Y, text=labels["handoff"])])
        layers.append(
            alt.Chart(records(waist_name))
            .mark_text(fontSize=11, fontWeight="bold", color=TEXT)  # a part's name, upright: the ghosts are italic
            .encode(x=x, y=y, text="text:N")
        )
    if not frames.bridge.empty:
        block = alt.Chart(records(frames.bridge)).transform_calculate(x1="datum.x - 0.35", x2="datum.x + 0.35")
        layers.append(
            block.mark_rect(fill=PAD, opacity=0.25, stroke=PAD, cornerRadius=4).encode(
                x=alt.X("x1:Q", axis=None, scale=xs), x2="x2:Q", y=y, y2="y2:Q"
            )
        )
        layers.append(
            block.mark_text(fontSize=11, angle=270, color=TEXT)
            .encode(x=x, y=alt.Y("mid:Q", axis=None, scale=ys), text=alt.value(labels["bridge"]))
            .transform_calculate(mid="(datum.y + datum.y2) / 2")
        )
    if not frames.before.empty:
        ghost = alt.Chart(records(frames.before)).mark_text(
            fontSize=11, fontStyle="italic", color=TEXT, opacity=FADED_TEXT
        )
        layers.append(ghost.encode(x=x, y=y, text="text:N", tooltip=[alt.Tooltip("text:N", title=labels["before"])]))
    return alt.layer(
        *layers,
        title=title_lines(labels["title"]),  # Vega cuts a long title short on a phone
        description=labels["description"],
        height=int(ROW_PX * (rows + 6 + depth)),
        width="container",
        autosize=FIT_X,
    )
