"""Altair charts for the next-token page: factors of a sentence, sparsity, the window, the embeddings.
(The continuations are in the main picture, s2s_core/ngram/picture.py.)

`labels` holds every translated chart text (the page's "ngram.chart.*" keys, without the prefix);
the same dict names the models in the frames. No streamlit here.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered
from s2s_core.fmt import NUM_D3, PCT_D3

# Heights are the whole chart (title, legend and axes included): Streamlit fits the spec into them.
# Each chart is a layer whose data sits on the layer, not on the parts: Altair then skips hashing the
# frame for every part, which is most of its cost on a rerun.
ZERO_COLOR = "#D55E00"  # a factor of exactly 0 (the whole product is 0): the picture's warm role colour
MODEL_COLORS = ["#3b6fd6", "#f58518"]  # MLE, add-k
# The factors' axis labels ("3. lunch", at most FACTOR_LABEL_PX long): level while a band has LEVEL_BAND_PX, slanted
# while it has SLANT_BAND_PX (slanted 45° they stand band·sin 45° ≈ 25 px apart), else upright (11 px text in a band
# of at least 12 px: 25 factors on a 390 px phone).
FACTOR_LABEL_PX, LEVEL_BAND_PX, SLANT_BAND_PX = 90, 90, 36
VALUE_LABEL_PX = 20  # px a bar's room needs for its "4/6" or "0.25" above it (11 px bold)

# The "ngram.chart.*" words each builder (and the frame behind it) takes: the page hands them over with
# s2s_core.catalog.words, and tests import these tuples. A word with a value in it is added by the page.
FACTORS_LABELS = ("position", "prob", "model", "ratio", "factors_title", "mle", "addk")  # + factors_long's
SPARSITY_LABELS = ("n", "share", "unseen", "sparsity_title")
WINDOW_LABELS = ("model", "word", "sees", "blind", "target", "window_title", "ffnn", "rnn")  # + "ngram" (with n)
NETWORK_LABELS = ("net_counting", "net_model", "net_desc", "word", "prob", "model")  # the window network's bars
EMBEDDING_LABELS = (  # both embedding charts and their frames; + "emb_role_<role>" (with the learner's word)
    "emb_axis_1",
    "emb_axis_2",
    "emb_role",
    "emb_cosine",
    "emb_points_desc",
    "emb_bars_desc",
    "emb_counting",
    "emb_model",
    "emb_short_previous",
    "emb_short_nearest",
    "emb_short_far",
    "word",
    "prob",
    "model",
)


def _model_color(df: pd.DataFrame, title: str) -> alt.Color:
    models = list(dict.fromkeys(df["model"]))
    return alt.Color(
        "model:N",
        title=title,
        sort=models,
        scale=alt.Scale(domain=models, range=MODEL_COLORS[: len(models)]),
        legend=alt.Legend(orient="top", title=None),
    )


def factor_axis(n: int) -> alt.Axis:
    """The factors' x axis: every position's label shows, at any width. Vega would drop every other label where
    they overlap (on a phone: "1. yesterday", "3. lunch", ...); instead the labels turn with the room each band
    has in the browser (the container's live width): level where a label fits its band, slanted, then upright."""
    per = f"(width / {max(n, 1)})"  # px per factor
    angle = f"{per} >= {LEVEL_BAND_PX} ? 0 : {per} >= {SLANT_BAND_PX} ? -45 : -90"
    return alt.Axis(
        labelAngle=alt.ExprRef(angle),
        labelAlign=alt.ExprRef(f"{per} >= {LEVEL_BAND_PX} ? 'center' : 'right'"),
        labelBaseline=alt.ExprRef(f"{per} >= {LEVEL_BAND_PX} ? 'top' : 'middle'"),
        labelLimit=FACTOR_LABEL_PX,
        labelOverlap=False,
        labelFontSize=11,
    )


def factors_chart(df: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """One bar per factor of the product; a zero factor is marked red (it zeroes the whole product)."""
    n, per_bar = df["i"].nunique(), df["model"].nunique()
    base = alt.Chart().encode(
        # The positions in sentence order (a sort by the field "i" fell back to text order: 1, 10, 11, ..., 2, 20).
        x=alt.X("pos:N", title=labels["position"], sort=ordered(df.sort_values("i")["pos"]), axis=factor_axis(n)),
        xOffset=alt.XOffset("model:N", sort=ordered(df["model"])),
        y=alt.Y("prob:Q", title=labels["prob"], scale=alt.Scale(domain=[0, 1])),
    )
    bars = base.mark_bar().encode(
        color=_model_color(df, labels["model"]),
        tooltip=[
            alt.Tooltip("pos:N", title=labels["position"]),
            alt.Tooltip("model:N", title=labels["model"]),
            alt.Tooltip("label:N", title=labels["ratio"]),
            alt.Tooltip("prob:Q", title=labels["prob"], format=NUM_D3),
        ],
    )
    # Field-driven colours instead of alt.condition: same picture, far less Altair overhead per rerun.
    # A bar's count ratio is written above it while a bar has room for it (a long sentence on a phone: on hover).
    text = (
        base.transform_filter(f"width / {n * per_bar} >= {VALUE_LABEL_PX}")
        # In the theme's text colour: text stands on the page, and neither the warm role colour (3.9:1 on white) nor
        # grey keeps 4.5:1 on both backgrounds. A zero factor is told by its own text ("0/3") and its warm bar.
        .mark_text(dy=-7, fontSize=11, fontWeight="bold", color="currentColor")
        .encode(text=alt.Text("label:N"))
    )
    return (
        alt.layer(bars, text, data=df)
        .resolve_scale(color="independent")
        .properties(height=330, width="container", title=labels["factors_title"])
    )


def sparsity_chart(df: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Share of the held-out sentence's n-grams never seen in the corpus, per n; the current n stands out."""
    base = alt.Chart().encode(
        x=alt.X("n:O", title=labels["n"], sort=[int(n) for n in ordered(df["n"])], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("share:Q", title=labels["share"], scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
    )
    bars = base.mark_bar().encode(
        color=alt.Color("current:N", scale=alt.Scale(domain=[True, False], range=["#3b6fd6", "#9db7ea"]), legend=None),
        tooltip=[
            alt.Tooltip("n:O", title=labels["n"]),
            alt.Tooltip("label:N", title=labels["unseen"]),
            alt.Tooltip("share:Q", title=labels["share"], format=PCT_D3),
        ],
    )
    text = base.mark_text(dy=-7, fontSize=12).encode(text=alt.Text("label:N"))
    return alt.layer(bars, text, data=df).properties(height=260, width="container", title=labels["sparsity_title"])


def window_chart(df: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Models × earlier words: which words each model can read when it predicts the last word."""
    states = list(dict.fromkeys([labels["sees"], labels["blind"], labels["target"]]))
    base = alt.Chart().encode(
        x=alt.X("pos:N", title=None, sort=alt.SortField("i"), axis=alt.Axis(labels=False, ticks=False)),
        y=alt.Y("model:N", title=None, sort=ordered(df["model"]), axis=alt.Axis(labelLimit=160)),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color(
            "seen:N",
            title=None,
            sort=states,
            scale=alt.Scale(domain=states, range=["#3b6fd6", "#d9d9d9", "#f58518"]),
            legend=alt.Legend(orient="top", title=None),
        ),
        tooltip=[
            alt.Tooltip("model:N", title=labels["model"]),
            alt.Tooltip("word:N", title=labels["word"]),
            alt.Tooltip("seen:N", title=" "),
        ],
    )
    text = base.mark_text(fontSize=12).encode(
        text=alt.Text("word:N"),
        color=alt.Color("seen:N", scale=alt.Scale(domain=states, range=["white", "black", "black"]), legend=None),
    )
    return (
        alt.layer(cells, text, data=df)
        .resolve_scale(color="independent")
        .properties(height=alt.Step(34), width="container", title=labels["window_title"])
    )


# Roles of the embedding picture: the learner's word in the target colour, the nearest token seen before the next
# word in the source colour (the house palette), one pointing away and the rest in greys; shapes differ too.
EMB_ROLE_COLORS = {
    "previous": "#D55E00",
    "nearest": "#2C7FB8",
    "far": "#6F6F6F",
    "before": "#7FB2D5",
    "other": "#B0B0B0",
}
EMB_ROLE_SHAPES = {
    "previous": "diamond",
    "nearest": "square",
    "far": "triangle-up",
    "before": "circle",
    "other": "circle",
}
EMB_METHOD_COLORS = ["#3b6fd6", "#B8588F"]  # counting (as the MLE bars above), the embedding model


def embedding_chart(df: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """Every previous token's 2-number vector as a point; arrows from the centre to the learner's word, the
    nearest token seen before the next word, and one pointing away: the angle between arrows is the cosine."""
    roles = [r for r in ("previous", "nearest", "far", "before", "other") if r in set(df["role"])]
    role_labels = [df.loc[df["role"] == r, "role_label"].iloc[0] for r in roles]
    lim = float(max(df["x"].abs().max(), df["y"].abs().max(), 1e-9)) * 1.15
    x = alt.X("x:Q", title=labels["emb_axis_1"], scale=alt.Scale(domain=[-lim, lim]))
    y = alt.Y("y:Q", title=labels["emb_axis_2"], scale=alt.Scale(domain=[-lim, lim]))
    color = alt.Color(
        "role_label:N",
        title=None,
        sort=role_labels,
        scale=alt.Scale(domain=role_labels, range=[EMB_ROLE_COLORS[r] for r in roles]),
        legend=alt.Legend(orient="bottom", columns=2, labelLimit=260),
    )
    shape = alt.Shape(
        "role_label:N",
        sort=role_labels,
        legend=None,
        scale=alt.Scale(domain=role_labels, range=[EMB_ROLE_SHAPES[r] for r in roles]),
    )
    arrows = (
        alt.Chart()
        .transform_filter("datum.order <= 2")
        .transform_calculate(x0="0", y0="0")
        .mark_rule(strokeWidth=2)
        .encode(x="x0:Q", y="y0:Q", x2="x:Q", y2="y:Q", color=color)
    )
    tooltip = [
        alt.Tooltip("token:N", title=labels["word"]),
        alt.Tooltip("role_label:N", title=labels["emb_role"]),
        alt.Tooltip("cosine:Q", title=labels["emb_cosine"], format=NUM_D3),
    ]
    points = (
        alt.Chart()
        .mark_point(filled=True, size=90, opacity=0.9)
        .encode(x=x, y=y, color=color, shape=shape, tooltip=tooltip)
    )
    # Labels: the learner's word above-left and the nearest word below-right (their vectors are often close, which
    # is the point), every other token to the right of its point, fainter.
    label = alt.Chart().encode(x="x:Q", y="y:Q", text="token:N")
    texts = [
        # The two named words' labels in bold, in the theme's text colour (their points carry the role colours: a
        # role colour as text is under 4.5:1 on one of the two backgrounds).
        label.transform_filter("datum.role == 'previous'").mark_text(
            align="right", dx=-8, dy=-10, fontSize=13, fontWeight="bold", color="currentColor"
        ),
        label.transform_filter("datum.role == 'nearest'").mark_text(
            align="left", dx=8, dy=12, fontSize=13, fontWeight="bold", color="currentColor"
        ),
        label.transform_filter("datum.order >= 2").mark_text(align="left", dx=7, dy=-6, fontSize=11, opacity=0.75),
    ]
    # No chart title: the page writes it above the chart, where a phone can wrap it.
    return alt.layer(arrows, points, *texts, data=df).properties(
        height=380, width="container", description=labels["emb_points_desc"]
    )


def embedding_bars_chart(df: pd.DataFrame, uniform: float, labels: dict[str, str]) -> alt.LayerChart:
    """P(word | token) by counting and by the model for the learner's word, the nearest and a far token; the dashed
    line is a blind guess, 1/V."""
    methods = list(dict.fromkeys(df["method"]))
    rows = list(dict.fromkeys(df["row"]))
    base = alt.Chart().encode(
        y=alt.Y("row:N", title=None, sort=rows, axis=alt.Axis(labelLimit=220)),
        yOffset=alt.YOffset("method:N", sort=methods),
        x=alt.X("prob:Q", title=labels["prob"], scale=alt.Scale(domain=[0, 1])),
    )
    bars = base.mark_bar().encode(
        color=alt.Color(
            "method:N",
            title=None,
            sort=methods,
            scale=alt.Scale(domain=methods, range=EMB_METHOD_COLORS[: len(methods)]),
            legend=alt.Legend(orient="top"),
        ),
        tooltip=[
            alt.Tooltip("row:N", title=labels["word"]),
            alt.Tooltip("method:N", title=labels["model"]),
            alt.Tooltip("prob:Q", title=labels["prob"], format=NUM_D3),
        ],
    )
    text = base.mark_text(align="left", dx=4, fontSize=11).encode(text="label:N")
    guess = alt.Chart(pd.DataFrame({"u": [uniform]})).mark_rule(strokeDash=[4, 3], color="#6F6F6F").encode(x="u:Q")
    return alt.layer(bars, text, guess, data=df).properties(
        height=alt.Step(22), width="container", description=labels["emb_bars_desc"]
    )  # titled by the page


def network_bars_chart(df: pd.DataFrame, uniform: float, labels: dict[str, str]) -> alt.LayerChart:
    """P(next | the window) by counting and by the window network, the same bars as the embedding lab's."""
    return embedding_bars_chart(df, uniform, labels | {"emb_bars_desc": labels["net_desc"]})
