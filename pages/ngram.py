"""Page: next-token prediction by counting — continuations, sentence probability, sparsity, the window."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import prob
from s2s_core.ngram import NgramConfig, fields, parse_config, parse_prefix, parse_sentence
from s2s_core.ngram.compute import parse_corpus, quiz_edit, quiz_reason
from s2s_core.ngram.counting import Corpus, Sentence
from s2s_core.ngram.examples import default_example
from s2s_core.ngram.frames import CHART_TOP
from s2s_core.ngram.picture import PICK_PARAM
from s2s_ui.charts import draw
from s2s_ui.explainer import explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.ngram.embedding import show_embedding
from s2s_ui.ngram.network import show_network
from s2s_ui.ngram.sections import (
    quiz_key,
    quiz_why_text,
    show_code,
    show_continuations,
    show_notices,
    show_sentence,
    show_sparsity,
    show_window,
    words_text,
)
from s2s_ui.ngram.specs import cached_continuations, cached_sentence, picture_spec
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import guarded, predict_then_reveal

PAGE = Page("ngram", fields.FIELDS)
CHANGES = ("higher", "lower", "same")  # the question's answers: P(sentence) after the edit vs now
UNSEEN_PREFIX = {"ko": "오늘 아침에", "en": "at breakfast"}  # a history the default corpus never has


def cases() -> list[TryCase]:
    """Prepared states: the other language's example, a longer window, an unseen prefix, plain frequencies."""
    code = lang()
    other = "ko" if code == "en" else "en"
    ex = default_example(other)
    prefix, n = fields.PREFIX.key, fields.N.key
    example = {fields.CORPUS.key: ex.corpus, prefix: ex.prefix, fields.SENTENCE.key: ex.sentence}
    example[fields.PAIR.key] = ex.pair  # the embedding tab's pair goes with the other language's corpus
    return [
        TryCase(f"ngram.try.{other}", f"ngram.try.{other}_note", example),
        TryCase("ngram.try.window", "ngram.try.window_note", {n: "4"}),
        TryCase("ngram.try.unseen", "ngram.try.unseen_note", {prefix: UNSEEN_PREFIX[code]}),
        TryCase("ngram.try.unigram", "ngram.try.unigram_note", {n: "1", prefix: ""}),
    ]


def read_inputs() -> tuple[Parsed[Corpus], Parsed[NgramConfig], Parsed[Sentence], Parsed[Sentence]]:
    """The controls column: corpus, window, prefix, sentence; smoothing folded. Nothing is reported here: each
    section names the input it needs when that input is bad (the picture first)."""
    help_corpus = t("ngram.corpus_help") + " " + t("ngram.markers")
    corpus_text = PAGE.input(fields.CORPUS, st.text_area, height=150, help=help_corpus)
    n = PAGE.input(fields.N, st.slider, help=t("ngram.n_help"))
    prefix_text = PAGE.input(fields.PREFIX, st.text_input, help=t("ngram.prefix_help"))
    sentence_text = PAGE.input(fields.SENTENCE, st.text_input, help=t("ngram.sentence_help"))
    with st.expander(t("ngram.smoothing_settings"), icon=":material/tune:"):
        smoothing = PAGE.input(fields.SMOOTH, st.toggle)
        k = PAGE.input(fields.K, st.number_input, step=0.1, help=t("ngram.k_help"), disabled=not smoothing)
    PAGE.buttons(cases())
    corpus = Parsed.of(lambda: parse_corpus(corpus_text))
    config = Parsed.of(lambda: parse_config(corpus_text, n, smoothing, k))
    n_used = config.value.n if config.value is not None else int(n)
    prefix = Parsed.of(lambda: parse_prefix(prefix_text, n_used))
    return corpus, config, prefix, Parsed.of(lambda: parse_sentence(sentence_text))


# --- the picture and the question -----------------------------------------------------------------------


def _extend_prefix(chart_key: str, window: int) -> None:
    """A candidate clicked on the picture: append it to the prefix and keep the model's window of n - 1 words, so the
    history slides along the sentence being built (a callback: it runs before the widgets are drawn)."""
    try:
        picked = st.session_state[chart_key].selection.get(PICK_PARAM) or []
        word = str(picked[0]["word"])
    except (AttributeError, IndexError, KeyError, TypeError):
        return
    key = fields.PREFIX.key
    words = [*str(st.session_state.get(key, "")).split(), word]
    st.session_state[key] = " ".join(words[len(words) - window :] if window > 0 else [])


def show_picture(config: NgramConfig, prefix: Sentence, sentence: Sentence | None) -> None:
    """The prefix and its next-word candidates (click one to extend the prefix), the sentence's probability as the
    product of its factors; the counts behind the candidates in one line above it."""
    res = cached_continuations(config, prefix)
    if not prefix:
        st.caption(t("ngram.cont.unigram", history=res.history_count))
    elif res.history_count == 0:
        st.warning(t("ngram.cont.unseen", prefix=words_text(prefix), vocab=res.vocab_size))
    else:
        caption = t("ngram.cont.caption", prefix=words_text(prefix), history=res.history_count, vocab=res.vocab_size)
        st.caption(caption)
    chart_key = "ngram_pick_chart"
    draw(  # through charts.draw: the main picture gets its SVG / PNG downloads like every page's
        st,
        picture_spec(config, prefix, sentence, lang()),
        on_select=lambda: _extend_prefix(chart_key, config.n - 1),
        selection_mode=[PICK_PARAM],
        key=chart_key,
    )
    if len(res.words) > CHART_TOP:
        st.caption(t("ngram.cont.top", shown=CHART_TOP, total=len(res.words)))
    if res.words:
        st.caption(t("ngram.picture.pick_hint"))


def show_quiz(config: NgramConfig, sentence: Sentence) -> None:
    """Predict the effect of an edit not made yet: the page shows the current probability, not the edited one."""
    now = cached_sentence(config, sentence)
    edited = quiz_edit(config)
    after = cached_sentence(edited, sentence)
    reason = quiz_reason(config, now, after)
    change = reason.change
    k = f"{config.k:g}"
    edit = t("ngram.quiz.edit_k", k=k, k2=f"{edited.k:g}") if config.smoothing else t("ngram.quiz.edit_on", k=k)
    why = quiz_why_text(reason, now)  # one sentence per condition the core computed
    predict_then_reveal(
        quiz_key(config),
        t("ngram.quiz.question", edit=edit, sentence=words_text(sentence)),
        [t(f"ngram.quiz.{c}") for c in CHANGES],
        t(f"ngram.quiz.{change}"),
        t("ngram.quiz.explain", edit=edit, p=prob(now.probability), p2=prob(after.probability)) + " " + why,
    )


controls, picture = explainer("ngram")
with controls:
    corpus, config, prefix, sentence = read_inputs()
with picture:
    # A bad corpus, window or prefix keeps the last picture, faded, under its message (s2s_ui/kept.py). A bad
    # sentence alone leaves the picture live without its factors; its message stands under it, for the question.
    kept_picture(PAGE, lambda: (config.need(), prefix.need(), sentence.value), lambda drawn: show_picture(*drawn))
    guarded(lambda: show_quiz(config.need(), sentence.need()))
PAGE.tabs(
    [
        ("ngram.tab.sentence", lambda: show_sentence(config.need(), sentence.need())),
        ("ngram.tab.sparsity", lambda: show_sparsity(corpus.need(), sentence.need(), config.value)),
        ("ngram.tab.window", lambda: show_window(config.need(), sentence.need())),
        ("ngram.tab.network", lambda: show_network(PAGE, corpus, config, prefix, sentence)),
        ("ngram.tab.embedding", lambda: show_embedding(PAGE, corpus)),
        ("ui.tab_tables", lambda: show_continuations(config.need(), prefix.need())),
        ("ui.tab_code", lambda: show_code(PAGE, corpus, config, prefix, sentence)),
        ("ui.tab_notice", lambda: show_notices(config)),
    ]
)
