"""The next-token page's sub-lab: counting vs a tiny embedding model trained now on the learner's corpus.

Counting gives a pair it never saw exactly 0; the model shares what it learned across words used alike. The
sub-lab draws its own two inputs (the word pair and the model's seed) inside its tab.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, prob
from s2s_core.ngram.counting import Corpus
from s2s_core.ngram.embedding import L2, E, PairResult, pair_view, parse_embedding
from s2s_core.ngram.fields import EMB_SEED, PAIR
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.ngram.specs import cached_embedding, embedding_specs
from s2s_ui.state import Page
from s2s_ui.widgets import md_escape, show_error


def pair_words(pair: PairResult) -> dict[str, object]:
    """Every number and word the embedding texts may name, written by fmt."""
    return {
        "prev": md_escape(pair.previous),
        "word": md_escape(pair.word),
        "count": pair.count,
        "p_count": prob(pair.p_count),
        "p_model": prob(pair.p_model),
        "uniform": prob(pair.uniform),
        "V": pair.vocab,
        "near": md_escape(pair.nearest or ""),
        "cos": num(pair.nearest_cosine) if pair.nearest_cosine is not None else "—",
        "near_p": prob(pair.nearest_p_model),
        "near_count": prob(pair.nearest_p_count),
        "far": md_escape(pair.far or ""),
        "far_cos": num(pair.far_cosine) if pair.far_cosine is not None else "—",
        "far_p": prob(pair.far_p_model),
    }


def show_embedding(page: Page, corpus: Parsed[Corpus]) -> None:
    """The pair and the seed, then counting vs the model for that pair: metrics, the verdict, both charts."""
    st.markdown(f"**{t('ngram.emb.header')}**")
    words_of_corpus = corpus.need()
    st.caption(t("ngram.emb.intro"))
    c1, c2 = st.columns([3, 1])
    pair_text = page.input(PAIR, c1.text_input, help=t("ngram.pair_help"))
    seed = page.input(EMB_SEED, c2.number_input, step=1, help=t("ngram.emb_seed_help"))
    parsed = Parsed.of(lambda: parse_embedding(pair_text, seed, words_of_corpus))
    if parsed.error is not None:
        show_error(parsed.error)
        return
    config, previous, word = parsed.need()
    model = cached_embedding(config)
    pair = pair_view(model, previous, word)
    words = pair_words(pair)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("ngram.emb.metric_count", **words), words["p_count"])
    m2.metric(t("ngram.emb.metric_model", **words), words["p_model"])
    if pair.nearest is not None:
        m3.metric(t("ngram.emb.metric_near", **words), f"{pair.nearest} ({words['cos']})")
    # The text is chosen by the core's verdict: seen pair, unseen and lifted above 1/V, or unseen and not.
    st.markdown(t(f"ngram.emb.{pair.verdict}", **words))
    if pair.far is not None and pair.verdict != "seen":
        st.markdown(t("ngram.emb.far", **words))
    specs = embedding_specs(config, previous, word, lang())
    st.markdown(f"**{t('ngram.chart.emb_points_title', word=words['word'])}**")
    draw(st, specs["points"])
    st.markdown(f"**{t('ngram.chart.emb_bars_title', word=words['word'])}**")
    draw(st, specs["bars"])
    loss = {"loss_start": num(model.loss_start), "loss_end": num(model.loss_end), "l2": num(L2)}
    st.caption(t("ngram.emb.model", E=E, steps=model.steps, pairs=model.pairs, seed=config.seed, **loss))
