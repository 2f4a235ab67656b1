"""Next-token page through AppTest, in English: live counts and products, smoothing, the quiz about an edit (its
answer nowhere on the page until answered), a prepared case, bad input hiding only what needs it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from s2s_core.fmt import num
from s2s_core.fmt import prob as fmt_prob
from s2s_core.ngram import continuations, parse_config, parse_sentence, sentence_probability
from s2s_core.ngram.compute import parse_corpus, quiz_change
from s2s_core.ngram.embedding import EmbeddingConfig, pair_view, train
from s2s_core.ngram.examples import EXAMPLES
from s2s_core.ngram.frames import product_text
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def _picture_rows(at) -> list[dict]:
    """The main picture's (the first chart's) data rows, decoded from its Arrow datasets."""
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[0]
    return [r for d in chart.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]


def test_defaults_show_the_live_product_and_checks(lang):
    at = open_page("ngram", lang)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "ngram.title") in text
    expected = sentence_probability(
        parse_config(EXAMPLES[lang].corpus, 3, False, 1.0),
        parse_sentence(EXAMPLES[lang].sentence),
    )
    assert product_text(expected, False) in text and fmt_prob(expected.probability) in text
    assert len(at.success) >= 2  # both hand-vs-torch checks pass
    factors = [r["p"] for r in _picture_rows(at) if "zero" in r]  # the picture's factor columns, from its data
    assert factors == pytest.approx(expected.probs.tolist())
    assert not at.error
    assert not [k for k in at.query_params if k.startswith("ngram_")]  # the language's own example: no parameter


def test_smoothing_turns_the_zero_factor_positive(lang):
    at = open_page("ngram", lang, query={"ngram_n": "4"})
    assert not at.exception
    assert at.warning  # an unseen 4-gram: one factor is 0
    assert "**0**" in all_text(at)
    at.toggle(key="ngram_smooth").set_value(True).run()
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "ngram.sent.smooth_on", k="1", vocab=16 if lang == "ko" else 20) in text
    assert "**0**" not in text


def _chart_data(at) -> str:
    return " ".join(el.proto.spec + json.dumps([str(d) for d in el.proto.datasets]) for el in at.get("vega_lite_chart"))


def test_quiz_asks_about_smoothing_and_hides_its_answer_until_answered(lang):
    at = open_page("ngram", lang)
    config = parse_config(EXAMPLES[lang].corpus, 3, False, 1.0)
    sentence = parse_sentence(EXAMPLES[lang].sentence)
    now = sentence_probability(config, sentence)
    after = sentence_probability(replace(config, smoothing=True), sentence)
    answer = fmt_prob(after.probability)  # P with add-1 smoothing: drawn nowhere until it is turned on
    assert answer not in all_text(at) and answer not in _chart_data(at)
    change = quiz_change(now.probability, after.probability)
    assert change == "lower"  # every factor is seen: the seen words pay for the unseen ones
    at.radio(key="ngram_quiz_smooth").set_value(translate(lang, f"ngram.quiz.{change}")).run()
    assert not at.exception and at.success and not at.warning
    assert answer in all_text(at) and translate(lang, "ngram.notice.smooth") in all_text(at)
    # With n = 4 an unseen 4-gram makes P = 0: smoothing can only lift it.
    at.slider(key="ngram_n").set_value(4).run()
    at.radio(key="ngram_quiz_smooth").set_value(translate(lang, "ngram.quiz.higher")).run()
    assert not at.exception and any(translate(lang, "ngram.quiz.higher") in s.value for s in at.success)


def test_a_prepared_case_loads_its_inputs(lang):
    at = open_page("ngram", lang)
    at.button(key=f"try__ngram_corpus_{lang}__2").click().run()  # a prefix the corpus never has
    assert not at.exception
    assert at.text_input(key=f"ngram_prefix_{lang}").value == "at breakfast"
    assert translate(lang, "ngram.cont.unseen", prefix="at breakfast", vocab=20) in " ".join(
        w.value for w in at.warning
    )


def test_prefix_longer_than_the_window_is_named_and_the_rest_works(lang):
    at = open_page("ngram", lang, query={"ngram_n": "2"})
    assert not at.exception
    assert translate(lang, "ngram.field.prefix") in _errors(at)
    assert len(at.success) >= 1  # the sentence check still runs
    assert at.get("vega_lite_chart")  # the sentence's charts still draw
    assert _errors(at).count(translate(lang, "ngram.field.prefix")) == 2  # the picture and the table only


def test_a_short_prefix_is_called_a_lower_order_estimate(lang):
    corpus = EXAMPLES[lang].corpus
    word = EXAMPLES[lang].prefix.split()[-1]
    at = open_page("ngram", lang, query={f"ngram_prefix_{lang}": word})
    assert not at.exception
    res = continuations(parse_config(corpus, 3, False, 1.0), (word,))
    assert res.shorter and res.order == 2
    assert translate(lang, "ngram.cont.shorter", used=1, order=2, n=3, window=2) in all_text(at)
    at.slider(key="ngram_n").set_value(2).run()  # now one word is the whole window
    assert translate(lang, "ngram.cont.shorter", used=1, order=2, n=2, window=1) not in all_text(at)


def test_empty_corpus_and_empty_sentence(lang):
    at = open_page("ngram", lang, query={f"ngram_corpus_{lang}": ""})
    assert not at.exception
    assert translate(lang, "ngram.field.corpus") in _errors(at)
    assert translate(lang, "ui.notice_title") in all_text(at)
    at = open_page("ngram", lang, query={f"ngram_sentence_{lang}": ""})
    assert not at.exception
    assert translate(lang, "ngram.field.sentence") in _errors(at)
    assert at.get("vega_lite_chart")  # the picture still draws the prefix and its candidates


def test_n_larger_than_any_sentence_and_a_reserved_marker(lang):
    at = open_page("ngram", lang, query={f"ngram_corpus_{lang}": "a b\nb c", f"ngram_prefix_{lang}": "b"})
    assert not at.exception
    assert translate(lang, "ngram.field.n") in _errors(at)
    assert translate(lang, "ngram.sparse.monotone") in all_text(at)  # sparsity needs no n: still drawn
    at = open_page("ngram", lang, query={f"ngram_corpus_{lang}": "a <sos> b"})
    assert not at.exception
    assert "sos" in _errors(at)


def test_user_text_is_escaped_not_rendered(lang):
    at = open_page("ngram", lang, query={f"ngram_sentence_{lang}": "<b>x</b> **y** [z](http://e)"})
    assert not at.exception
    text = all_text(at)
    assert "\\<b\\>x\\</b\\>" in text and "\\*\\*y\\*\\*" in text


def test_switching_language_swaps_the_default_corpus():
    at = open_page("ngram", "ko")
    at.radio(key="ngram_quiz_smooth").set_value(translate("ko", "ngram.quiz.lower")).run()  # an answer in Korean
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert not at.exception
    assert translate("en", "ngram.title") in all_text(at)
    assert at.text_area(key="ngram_corpus_en").value == EXAMPLES["en"].corpus


def test_counting_vs_the_tiny_embedding_model(lang):
    at = open_page("ngram", lang)
    assert not at.exception
    corpus = parse_corpus(EXAMPLES[lang].corpus)
    model = train(EmbeddingConfig(corpus, 0))
    pair = pair_view(model, "made", "rice")  # the English default pair
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[translate(lang, "ngram.emb.metric_count", word="rice", prev="made")] == "0"
    assert metrics[translate(lang, "ngram.emb.metric_model", word="rice", prev="made")] == fmt_prob(pair.p_model)
    assert pair.verdict == "borrowed"
    text = all_text(at)
    assert f"“{pair.nearest}”" in text and fmt_prob(pair.nearest_p_model) in text
    assert (
        translate(
            lang,
            "ngram.emb.far",
            far=pair.far,
            word="rice",
            prev="made",
            far_cos=num(pair.far_cosine),
            far_p=fmt_prob(pair.far_p_model),
        )
        in text
    )
    # A pair the corpus has: the "seen" text, with its count ratio.
    at.text_input(key="ngram_pair_en").input("ate rice").run()
    seen = pair_view(model, "ate", "rice")
    assert seen.verdict == "seen" and fmt_prob(seen.p_count) in all_text(at)
    # A word the model has no vector for: the message names the field, the rest of the page still works.
    at.text_input(key="ngram_pair_en").input("made pizza").run()
    assert not at.exception
    assert translate(lang, "ngram.field.pair") in _errors(at)
    assert translate(lang, "ngram.sparse.monotone") in all_text(at)
    # Another seed: another model, the same kind of picture.
    at.text_input(key="ngram_pair_en").input("made rice").run()
    at.number_input(key="ngram_emb_seed").set_value(2).run()
    other = pair_view(train(EmbeddingConfig(corpus, 2)), "made", "rice")
    assert {m.label: m.value for m in at.metric}[
        translate(lang, "ngram.emb.metric_model", word="rice", prev="made")
    ] == fmt_prob(other.p_model)
