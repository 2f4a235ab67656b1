"""Next-token page through AppTest, in English: live counts and products, smoothing, the quiz about an edit (its
answer nowhere on the page until answered), prepared cases and Reset, older links, bad input hiding only what
needs it, and each tab (the code tab above all) computing what it shows when it is the only one drawn."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num
from s2s_core.fmt import prob as fmt_prob
from s2s_core.ngram import continuations, fields, parse_config, parse_prefix, parse_sentence, sentence_probability
from s2s_core.ngram.code import script
from s2s_core.ngram.compute import parse_corpus, quiz_change
from s2s_core.ngram.embedding import EmbeddingConfig, pair_view, train
from s2s_core.ngram.examples import EXAMPLES
from s2s_core.ngram.frames import product_text
from s2s_core.ngram.window import WindowConfig, blind_contexts, window_view
from s2s_core.ngram.window import train as train_window
from tests.app.conftest import all_text, open_page, open_tab

EMBEDDING_PART = "# 4) Counting vs a tiny embedding model"  # the script's embedding part starts with this line
WINDOW_PART = "# 5) The fixed-window network"  # and its window network's part
TAB_LABELS = (
    "ngram.tab.sentence",
    "ngram.tab.sparsity",
    "ngram.tab.window",
    "ngram.tab.network",
    "ngram.tab.embedding",
    "ui.tab_tables",
    "ui.tab_code",
    "ui.tab_notice",
)


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def _successes(at) -> str:
    return " ".join(s.value for s in at.success)


def _code(at) -> str:
    return "\n".join(str(c.value) for c in at.code)


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
    config = parse_config(EXAMPLES[lang].corpus, 3, False, 1.0)
    expected = sentence_probability(config, parse_sentence(EXAMPLES[lang].sentence))
    assert product_text(expected, False) in text and fmt_prob(expected.probability) in text
    assert translate(lang, "ngram.sent.check") in _successes(at)  # the sentence tab opens first: its check passes
    factors = [r["p"] for r in _picture_rows(at) if "zero" in r]  # the picture's factor columns, from its data
    assert factors == pytest.approx(expected.probs.tolist())
    assert not at.error
    assert not [k for k in at.query_params if k.startswith("ngram_")]  # the language's own example: no parameter
    open_tab(at, "ngram", "ui.tab_tables", lang)
    assert translate(lang, "ngram.cont.check") in _successes(at)  # the continuation table's check passes too
    assert at.query_params["ngram_tabs"] == "tables"  # the open tab is in the link


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
    for label in TAB_LABELS:  # in no tab either (each is drawn only once it is opened)
        open_tab(at, "ngram", label, lang)
        assert answer not in all_text(at) and answer not in _chart_data(at), label
    assert translate(lang, "ngram.notice.smooth") not in all_text(at)  # the notices tab is open: no smoothing notice
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
    at.button(key="try__ngram__2").click().run()  # a prefix the corpus never has
    assert not at.exception
    assert at.text_input(key="ngram_prefix").value == "at breakfast"
    assert translate(lang, "ngram.cont.unseen", prefix="at breakfast", vocab=20) in " ".join(
        w.value for w in at.warning
    )
    assert at.query_params["ngram_prefix"] == "at breakfast"


def test_reset_after_a_case_and_folded_fields_leaves_no_parameter(lang):
    at = open_page("ngram", lang, query={"ngram_n": "2", "ngram_tabs": "embedding"})
    at.button(key="try__ngram__0").click().run()  # the other language's example: corpus, prefix, sentence, pair
    assert not at.exception
    other = EXAMPLES["ko"]
    assert at.text_area(key="ngram_corpus").value == other.corpus
    assert at.slider(key="ngram_n").value == 3  # the case does not name n: back to its default
    at.toggle(key="ngram_smooth").set_value(True).run()  # folded under "Smoothing"
    at.number_input(key="ngram_k").set_value(0.5).run()
    open_tab(at, "ngram", "ngram.tab.embedding", lang)
    assert at.text_input(key="ngram_pair").value == other.pair
    at.number_input(key="ngram_emb_seed").set_value(4).run()  # inside the embedding tab
    keys = ("ngram_corpus", "ngram_prefix", "ngram_sentence", "ngram_smooth", "ngram_k", "ngram_pair", "ngram_emb_seed")
    assert set(keys) | {"ngram_tabs"} <= set(at.query_params)
    at.button(key="reset__ngram").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}  # no parameter of the page is left behind
    assert at.text_area(key="ngram_corpus").value == EXAMPLES[lang].corpus
    assert at.toggle(key="ngram_smooth").value is False and at.number_input(key="ngram_k").value == 1.0
    open_tab(at, "ngram", "ngram.tab.embedding", lang)  # Reset opened the first tab
    assert at.text_input(key="ngram_pair").value == EXAMPLES[lang].pair
    assert at.number_input(key="ngram_emb_seed").value == 0


def test_links_made_with_per_language_keys_still_open(lang):
    """Each language once kept its own text fields ("ngram_corpus_en"): those links open, and the field's one key
    holds the value from then on."""
    old = {
        f"ngram_corpus_{lang}": "a b c\nb c d",
        f"ngram_prefix_{lang}": "b",
        f"ngram_sentence_{lang}": "a b c",
        f"ngram_pair_{lang}": "a c",
    }
    at = open_page("ngram", lang, query={**old, "ngram_n": "2", "ngram_tabs": "embedding"})
    assert not at.exception and not at.error
    assert at.text_area(key="ngram_corpus").value == "a b c\nb c d"
    assert at.text_input(key="ngram_prefix").value == "b"
    assert at.text_input(key="ngram_sentence").value == "a b c"
    assert at.text_input(key="ngram_pair").value == "a c"  # in the embedding tab, open from the link
    for key, value in old.items():
        new = key.removesuffix(f"_{lang}")
        assert at.query_params[new] == value and key not in at.query_params


def test_the_code_tab_alone_holds_the_embedding_part(lang):
    """Issue 23: the code tab used to take the embedding part from a dict the embedding tab filled, so served (only
    the open tab drawn) its script had no embedding part. Opened alone in a fresh session it now has one."""
    at = open_tab(open_page("ngram", lang), "ngram", "ui.tab_code", lang)
    assert [tab.label for tab in at.tabs if len(tab.children) > 0] == [translate(lang, "ui.tab_code")]
    example = EXAMPLES[lang]
    config = parse_config(example.corpus, 3, False, 1.0)
    previous, word = example.pair.split()
    pair = (previous, word, 0)
    sentence = parse_sentence(example.sentence)
    network = (fields.DEFAULT_WIN_HIDDEN, 0, *blind_contexts(config.corpus, 2, sentence))
    expected = script(config, parse_prefix(example.prefix, 3), sentence, pair, network)
    assert EMBEDDING_PART in _code(at) and _code(at) == expected.rstrip("\n")  # st.code drops the last newline
    assert WINDOW_PART in _code(at)
    # The window network's hidden size and seed, set in its tab, reach the code tab after it.
    open_tab(at, "ngram", "ngram.tab.network", lang)
    at.number_input(key="ngram_win_hidden").set_value(5).run()
    at.number_input(key="ngram_win_seed").set_value(7).run()
    open_tab(at, "ngram", "ui.tab_code", lang)
    assert "W, E, H, SEED, STEPS, LR, INIT_SCALE = 2, 6, 5, 7," in _code(at)
    # A pair and a seed set in the embedding tab reach the code tab after it (the link holds them).
    open_tab(at, "ngram", "ngram.tab.embedding", lang)
    at.text_input(key="ngram_pair").input("ate rice").run()
    at.number_input(key="ngram_emb_seed").set_value(5).run()
    open_tab(at, "ngram", "ui.tab_code", lang)
    assert "previous_word, next_word, SEED = 'ate', 'rice', 5" in _code(at)
    at.run()  # a rerun with only the code tab drawn: the embedding tab's widgets are gone, the link is not
    assert "previous_word, next_word, SEED = 'ate', 'rice', 5" in _code(at)
    # A link straight to the code tab, with the pair under its older per-language key.
    at = open_page("ngram", lang, query={"ngram_tabs": "code", f"ngram_pair_{lang}": "ate rice", "ngram_emb_seed": "2"})
    assert "previous_word, next_word, SEED = 'ate', 'rice', 2" in _code(at)
    # A pair the model has no vector for: the part is left out, the rest of the script stays.
    at = open_page("ngram", lang, query={"ngram_tabs": "code", "ngram_pair": "made pizza"})
    assert not at.exception and EMBEDDING_PART not in _code(at) and "P(sentence)" in _code(at)


def test_prefix_longer_than_the_window_is_named_and_the_rest_works(lang):
    at = open_page("ngram", lang, query={"ngram_n": "2"})
    assert not at.exception
    assert translate(lang, "ngram.field.prefix") in _errors(at)
    assert translate(lang, "ngram.sent.check") in _successes(at)  # the sentence check still runs
    assert at.get("vega_lite_chart")  # the sentence's charts still draw
    assert _errors(at).count(translate(lang, "ngram.field.prefix")) == 1  # the picture
    open_tab(at, "ngram", "ui.tab_tables", lang)
    assert _errors(at).count(translate(lang, "ngram.field.prefix")) == 1  # once, where the picture is
    tables = at.tabs[TAB_LABELS.index("ui.tab_tables")]
    assert translate(lang, "ui.error_above") in [c.value for c in tables.caption]  # the table waits for it
    for label in ("ngram.tab.sparsity", "ngram.tab.window", "ngram.tab.embedding", "ui.tab_code"):
        open_tab(at, "ngram", label, lang)
        assert _errors(at).count(translate(lang, "ngram.field.prefix")) == 1, label


def test_a_short_prefix_is_called_a_lower_order_estimate(lang):
    corpus = EXAMPLES[lang].corpus
    word = EXAMPLES[lang].prefix.split()[-1]
    at = open_page("ngram", lang, query={"ngram_prefix": word, "ngram_tabs": "tables"})
    assert not at.exception
    res = continuations(parse_config(corpus, 3, False, 1.0), (word,))
    assert res.shorter and res.order == 2
    assert translate(lang, "ngram.cont.shorter", used=1, order=2, n=3, window=2) in all_text(at)
    at.slider(key="ngram_n").set_value(2).run()  # now one word is the whole window
    assert translate(lang, "ngram.cont.shorter", used=1, order=2, n=2, window=1) not in all_text(at)


def test_empty_corpus_and_empty_sentence(lang):
    at = open_page("ngram", lang, query={"ngram_corpus": "", "ngram_tabs": "notice"})
    assert not at.exception
    assert translate(lang, "ngram.field.corpus") in _errors(at)
    assert translate(lang, "ui.notice_title") in all_text(at)  # the notices need no input
    at = open_page("ngram", lang, query={"ngram_sentence": ""})
    assert not at.exception
    assert translate(lang, "ngram.field.sentence") in _errors(at)
    assert at.get("vega_lite_chart")  # the picture still draws the prefix and its candidates


def test_n_larger_than_any_sentence_and_a_reserved_marker(lang):
    at = open_page("ngram", lang, query={"ngram_corpus": "a b\nb c", "ngram_prefix": "b", "ngram_tabs": "sparsity"})
    assert not at.exception
    assert translate(lang, "ngram.field.n") in _errors(at)
    assert translate(lang, "ngram.sparse.monotone") in all_text(at)  # sparsity needs no n: still drawn
    at = open_page("ngram", lang, query={"ngram_corpus": "a <sos> b"})
    assert not at.exception
    assert "sos" in _errors(at)


def test_user_text_is_escaped_not_rendered(lang):
    at = open_page("ngram", lang, query={"ngram_sentence": "<b>x</b> **y** [z](http://e)"})
    assert not at.exception
    text = all_text(at)
    assert "\\<b\\>x\\</b\\>" in text and "\\*\\*y\\*\\*" in text


def test_switching_language_swaps_the_default_corpus():
    at = open_page("ngram", "ko")
    at.radio(key="ngram_quiz_smooth").set_value(translate("ko", "ngram.quiz.lower")).run()  # an answer in Korean
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert not at.exception
    assert translate("en", "ngram.title") in all_text(at)
    assert at.text_area(key="ngram_corpus").value == EXAMPLES["en"].corpus
    assert not [k for k in at.query_params if k.startswith("ngram_")]


def test_the_korean_window_tab_names_what_the_window_cannot_see():
    """The Korean example: predicting 먹었다 after 점심에 라면을, a 3-gram model cannot see 어제, and the corpus has
    three continuations of its window, a third each."""
    at = open_page("ngram", "ko", query={"ngram_tabs": "window"})
    assert not at.exception and not at.error
    assert "먹었다 1/3, 끓였다 1/3, 먹는다 1/3" in all_text(at)
    assert "“어제”" in all_text(at)


def test_counting_vs_the_tiny_embedding_model(lang):
    at = open_page("ngram", lang, query={"ngram_tabs": "embedding"})
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
    at.text_input(key="ngram_pair").input("ate rice").run()
    seen = pair_view(model, "ate", "rice")
    assert seen.verdict == "seen" and fmt_prob(seen.p_count) in all_text(at)
    # A word the model has no vector for: the message names the field, the rest of the page still works.
    at.text_input(key="ngram_pair").input("made pizza").run()
    assert not at.exception
    assert translate(lang, "ngram.field.pair") in _errors(at)
    assert at.get("vega_lite_chart")  # the picture
    open_tab(at, "ngram", "ngram.tab.sparsity", lang)
    assert translate(lang, "ngram.sparse.monotone") in all_text(at)
    # Another seed: another model, the same kind of picture.
    open_tab(at, "ngram", "ngram.tab.embedding", lang)
    at.text_input(key="ngram_pair").input("made rice").run()
    at.number_input(key="ngram_emb_seed").set_value(2).run()
    other = pair_view(train(EmbeddingConfig(corpus, 2)), "made", "rice")
    assert {m.label: m.value for m in at.metric}[
        translate(lang, "ngram.emb.metric_model", word="rice", prev="made")
    ] == fmt_prob(other.p_model)


def test_the_fields_declare_every_link_key():
    """Every input's one key, its default per language and its older per-language keys (s2s_core/ngram/fields.py)."""
    for field, part in ((fields.CORPUS, "corpus"), (fields.PREFIX, "prefix"), (fields.SENTENCE, "sentence")):
        for code, example in EXAMPLES.items():
            assert field.default_for(code) == getattr(example, part)
            assert field.owns(f"ngram_{part}_{code}")
    assert fields.TAB.options == tuple(label.rsplit(".", 1)[-1].removeprefix("tab_") for label in TAB_LABELS)


def test_the_quiz_explanation_with_smoothing_on_and_an_unseen_factor():
    """k 1 -> 10 with "어제 점심에 김밥을" never in the corpus: P falls, and the explanation says a factor is unseen
    (the old one, picked by the change alone, said "every factor is seen here")."""
    query = {"ngram_smooth": "true", "ngram_sentence": "어제 점심에 김밥을 먹었다"}
    at = open_page("ngram", "ko", query=query)
    assert not at.exception
    at.radio(key="ngram_quiz_k1").set_value(translate("ko", "ngram.quiz.lower")).run()
    shown = " ".join(s.value for s in at.success) + all_text(at)
    assert translate("ko", "ngram.quiz.seen_some", unseen=1, total=5) in shown
    assert translate("ko", "ngram.quiz.seen_all") not in shown
    assert translate("ko", "ngram.quiz.move_up", u=fmt_prob(1 / 16)) in shown


def test_the_window_network_tab_predicts_beside_counting_and_names_its_blind_spot(lang):
    """The tab's prediction, counting's for the same window, the two contexts that differ only outside the window
    (the same distribution, computed), the hand-vs-module check, and a change of its own inputs."""
    at = open_page("ngram", lang, query={"ngram_tabs": "network"})
    assert not at.exception and not at.error
    ex = EXAMPLES[lang]
    corpus, prefix, sentence = parse_corpus(ex.corpus), tuple(ex.prefix.split()), tuple(ex.sentence.split())
    view = window_view(train_window(WindowConfig(corpus, 2)), prefix, sentence)
    top, p = view.forward.top[0]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[translate(lang, "ngram.net.metric_net")] == f"{top} ({fmt_prob(p)})"
    cnt = view.counted
    assert metrics[translate(lang, "ngram.net.metric_count")] == f"{cnt.words[0]} ({cnt.counts[0]}/{cnt.history_count})"
    text = all_text(at)
    ratio, cp = f"{cnt.counts[0]}/{cnt.history_count}", fmt_prob(cnt.counts[0] / cnt.history_count)
    assert view.agree and translate(lang, "ngram.net.agree", top=top, p=fmt_prob(p), ratio=ratio, cp=cp) in text
    spot = view.blind
    assert spot is not None and spot.max_abs_diff == 0.0
    assert f"“{spot.replaced}” → “{spot.by}”" in text and translate(lang, "ngram.net.check") in _successes(at)
    # Its own input: another hidden size, another network (the page's prediction follows the core's).
    at.number_input(key="ngram_win_hidden").set_value(4).run()
    other = window_view(train_window(WindowConfig(corpus, 2, hidden=4)), prefix, sentence).forward.top[0]
    assert {m.label: m.value for m in at.metric}[translate(lang, "ngram.net.metric_net")] == (
        f"{other[0]} ({fmt_prob(other[1])})"
    )
    # n = 1: no previous word to feed it; the message names n.
    at.slider(key="ngram_n").set_value(1).run()
    at.text_input(key="ngram_prefix").input("").run()
    assert not at.exception and translate(lang, "ngram.field.n") in _errors(at)


def test_the_window_network_on_an_unseen_window_with_an_unknown_word():
    at = open_page("ngram", "en", query={"ngram_tabs": "network", "ngram_prefix": "at breakfast"})
    assert not at.exception and not at.error
    text = all_text(at)
    assert translate("en", "ngram.net.unk", words="“breakfast”") in text
    assert "0/0" in text and translate("en", "ngram.net.agree").split("“")[0] not in text
