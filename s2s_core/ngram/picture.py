"""The next-token page's main picture: one layered Vega-Lite view at the container's width.

Top: the prefix as a path of word boxes (the words the model's window reads outlined, older ones faded), then
the candidates for the next word as bars: one row per word seen after that history, bar length = P(word |
history), with count/c(history) and the probability written beside it. Clicking a candidate (`pick`) extends the
prefix. Bottom: the sentence's probability as the product of its per-word factors, one column per factor (the
words and <eos>), bar height = P(w_i | history); a zero factor is marked in the warm role colour with "0", where
the corpus never saw that continuation. Under them the product itself, factor by factor.

x runs 0…100 across the container's width; y is in pixels from the top (the height follows the rows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records
from s2s_core.fmt import prob
from s2s_core.ngram.charts import ZERO_COLOR
from s2s_core.ngram.compute import ContinuationResult, SentenceResult
from s2s_core.ngram.counting import Sentence
from s2s_core.ngram.frames import CHART_TOP

SOURCE = "#2C7FB8"  # the house source blue: what is read (the prefix, the candidates)
ZERO = ZERO_COLOR  # the one warm role colour: a zero factor (always also written "0")
GREY = "#8A8A8A"
TEXT = "currentColor"  # the theme's text colour: charts.finish leaves text beside shapes as it is given
PICK_PARAM = "pick"  # click a candidate: the page appends it to the prefix
FONT = 12
PATH_Y = 40  # px: the prefix's boxes
BOX_H = 26
ROW_H = 22  # px per candidate row
SHOWN_PATH = 4  # prefix words drawn (the latest ones; the window is at most n - 1 ≤ 4)
BAR_X0, BAR_W = 30.0, 48.0  # x units: where the candidates' bars start and their length at P = 1
COLUMN_H = 110  # px: a factor's bar at P = 1


@dataclass(frozen=True)
class Picture:
    path: pd.DataFrame  # prefix words (boxes)
    candidates: pd.DataFrame  # one row per candidate word
    factors: pd.DataFrame  # one row per factor of the sentence
    factors_top: float  # px: where the sentence part starts
    height: int
    product: str  # the product line written under the factors


def picture_data(
    prefix: Sentence, window: int, cont: ContinuationResult, sent: SentenceResult | None, smoothing: bool
) -> Picture:
    """window: how many of the prefix's last words the model reads (n - 1)."""
    shown = list(prefix[-SHOWN_PATH:])
    width = 72.0 / SHOWN_PATH
    path = pd.DataFrame(
        [
            {
                "word": w,
                "x1": i * width,
                "x2": (i + 1) * width - 2,
                "xc": (i + 0.5) * width - 1,
                "read": i >= len(shown) - window,
            }
            for i, w in enumerate(shown)
        ],
        columns=["word", "x1", "x2", "xc", "read"],
    )
    probs = cont.probs_addk if smoothing else cont.probs_mle
    rows = []
    for i, (word, count) in enumerate(zip(cont.words[:CHART_TOP], cont.counts[:CHART_TOP], strict=False)):
        p = float(probs[i])
        y = PATH_Y + BOX_H + 34 + i * ROW_H
        rows.append(
            {
                "word": word,
                "count": count,
                "p": p,
                "y": y,
                "x2": BAR_X0 + p * BAR_W,
                "text": f"{count}/{cont.history_count} = {prob(p)}",
            }
        )
    candidates = pd.DataFrame(rows, columns=["word", "count", "p", "y", "x2", "text"])
    factors_top = PATH_Y + BOX_H + 34 + max(1, len(rows)) * ROW_H + 40
    frows = []
    if sent is not None:
        used = sent.probs.tolist()
        n = len(sent.factors)
        step = 100.0 / max(n, 1)
        for i, f in enumerate(sent.factors):
            p = float(used[i])
            frows.append(
                {
                    "i": i + 1,
                    "word": f.word,
                    "history": " ".join(f.history),
                    "p": p,
                    "label": prob(p),
                    "zero": p == 0.0,
                    "ratio": f"{f.count}/{f.history_count}",
                    "x1": i * step + step * 0.2,
                    "x2": (i + 1) * step - step * 0.2,
                    "xc": (i + 0.5) * step,
                    "y_top": factors_top + COLUMN_H * (1 - p),
                }
            )
    factors = pd.DataFrame(
        frows, columns=["i", "word", "history", "p", "label", "zero", "ratio", "x1", "x2", "xc", "y_top"]
    )
    height = int(factors_top + COLUMN_H + 60)
    product = ""
    if sent is not None:
        product = " × ".join(prob(float(p)) for p in sent.probs) + f" = {prob(sent.probability)}"
    return Picture(path, candidates, factors, factors_top, height, product)


WORDS = (  # "ngram.picture.*": ngram_picture's words
    "title",
    "description",
    "prefix",
    "next",
    "empty",
    "sentence",
    "product",
    "never",
    "p",
    "word",
    "history",
    "count",
)


def ngram_picture(pic: Picture, words: Mapping[str, str]) -> alt.LayerChart:
    """words: title, description, prefix, next, empty, sentence, product, never, p, word, history, count."""
    xs = alt.Scale(domain=[0, 100], nice=False, zero=False)
    ys = alt.Scale(domain=[0, pic.height], reverse=True, nice=False, zero=False)

    def at(x_field: str, y_field: str) -> dict:
        return {"x": alt.X(f"{x_field}:Q", scale=xs, axis=None), "y": alt.Y(f"{y_field}:Q", scale=ys, axis=None)}

    def note(x: float, y: float, text: str, **style: object) -> alt.Chart:
        return (
            alt.Chart(alt.InlineData(values=[{"x": x, "y": y, "text": text}]))
            .mark_text(fontSize=FONT, align="left", limit=alt.ExprRef("width"), **({"color": TEXT} | style))
            .encode(**at("x", "y"), text="text:N")
        )

    # 1) The prefix as a path: boxes, the model's window outlined in the source colour, older words faded.
    path = alt.Chart(records(pic.path)).transform_calculate(
        y1=f"{PATH_Y}", y2=f"{PATH_Y + BOX_H}", ym=f"{PATH_Y + BOX_H / 2}"
    )
    boxes = path.mark_rect(filled=False, cornerRadius=8).encode(
        **at("x1", "y1"),
        x2="x2:Q",
        y2="y2:Q",
        stroke=alt.condition("datum.read", alt.value(SOURCE), alt.value(GREY)),
        strokeWidth=alt.condition("datum.read", alt.value(2.0), alt.value(1.0)),
    )
    path_words = path.mark_text(fontSize=FONT, color=TEXT, limit=alt.ExprRef("width * 0.16")).encode(
        **at("xc", "ym"),
        text="word:N",
        opacity=alt.condition("datum.read", alt.value(1.0), alt.value(0.6)),
        tooltip=alt.Tooltip("word:N", title=words["prefix"]),
    )
    # 2) The candidates: one bar per word, the number beside it; a click picks the word.
    pick = alt.selection_point(name=PICK_PARAM, fields=["word"], on="click", empty=False)
    cand = alt.Chart(records(pic.candidates)).transform_calculate(
        x0=f"{BAR_X0}", y1="datum.y - 8", y2="datum.y + 8", xw=f"{BAR_X0 - 1}"
    )
    # An unseen history has no candidate: the layer draws nothing then, and an empty mark group with a role and no
    # name is an accessibility error (axe svg-img-alt), so it is hidden from screen readers. The layer stays: it
    # holds the click selection the page listens to.
    bars = (
        cand.mark_rect(color=SOURCE, cornerRadiusEnd=3, **({} if len(pic.candidates) else {"aria": False}))
        .encode(
            **at("x0", "y1"),
            x2="x2:Q",
            y2="y2:Q",
            opacity=alt.when(pick).then(alt.value(1.0)).otherwise(alt.value(0.8)),
            tooltip=[
                alt.Tooltip("word:N", title=words["word"]),
                alt.Tooltip("text:N", title=words["p"]),
            ],
        )
        .add_params(pick)
    )
    cand_words = cand.mark_text(
        fontSize=FONT, align="right", color=TEXT, limit=alt.ExprRef(f"width * {BAR_X0 - 2} / 100")
    ).encode(**at("xw", "y"), text="word:N")
    cand_text = cand.mark_text(fontSize=11, align="left", dx=4, color=TEXT).encode(**at("x2", "y"), text="text:N")
    layers = [boxes, path_words, bars, cand_words, cand_text]
    layers.append(note(0, PATH_Y - 12, words["prefix"], fontWeight="bold"))
    layers.append(note(0, PATH_Y + BOX_H + 10, words["next"] if len(pic.candidates) else words["empty"]))
    # 3) The sentence: one column per factor, bar height = P(w_i | history); a zero marked and written.
    if len(pic.factors):
        top = pic.factors_top
        fac = alt.Chart(records(pic.factors)).transform_calculate(
            y_base=f"{top + COLUMN_H}", y_word=f"{top + COLUMN_H + 14}", y_label="datum.y_top - 6", y_frame=f"{top}"
        )
        frame = fac.mark_rect(filled=False, stroke=GREY, strokeDash=[2, 2], strokeWidth=0.8).encode(
            **at("x1", "y_frame"), x2="x2:Q", y2="y_base:Q"
        )
        fbars = fac.mark_rect().encode(
            **at("x1", "y_top"),
            x2="x2:Q",
            y2="y_base:Q",
            color=alt.condition("datum.zero", alt.value(ZERO), alt.value(SOURCE)),
            tooltip=[
                alt.Tooltip("word:N", title=words["word"]),
                alt.Tooltip("history:N", title=words["history"]),
                alt.Tooltip("ratio:N", title=words["count"]),
                alt.Tooltip("label:N", title=words["p"]),
            ],
        )
        # Two layers: a zero's "0 ✕" in the warm role colour, the other numbers in the theme's text colour.
        flabels = (
            fac.transform_filter("!datum.zero")
            .mark_text(fontSize=11, baseline="bottom", color=TEXT)
            .encode(**at("xc", "y_label"), text="label:N")
        )
        fzero = (
            fac.transform_filter("datum.zero")
            .mark_text(fontSize=FONT, fontWeight="bold", baseline="bottom", color=ZERO)
            .encode(**at("xc", "y_label"), text=alt.value("0 ✕"))
        )
        fwords = fac.mark_text(
            fontSize=FONT, baseline="top", color=TEXT, limit=alt.ExprRef(f"width / {len(pic.factors)} - 2")
        ).encode(**at("xc", "y_word"), text="word:N")
        layers += [frame, fbars, flabels, fzero, fwords]
        layers.append(note(0, top - 22, words["sentence"], fontWeight="bold"))
        layers.append(note(0, top + COLUMN_H + 42, f"{words['product']} {pic.product}"))
        if bool(pic.factors["zero"].any()):
            layers.append(note(0, top - 8, words["never"], color=ZERO))
    return alt.layer(
        *layers,
        width="container",
        height=pic.height,
        autosize=FIT_X,
        title=alt.Title(words["title"], fontSize=FONT + 3, anchor="start"),
        description=words["description"],
    )
