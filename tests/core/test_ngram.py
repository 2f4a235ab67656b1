"""Core tests for the next-token page: hand counts, probabilities, smoothing, sparsity, the window, bad input."""

from __future__ import annotations

import contextlib
import math
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core import caps
from s2s_core.catalog import translate, words
from s2s_core.errors import InputError
from s2s_core.ngram import (
    continuations,
    fields,
    parse_config,
    parse_prefix,
    parse_sentence,
    picture,
    sentence_probability,
    sparsity,
    window_view,
)
from s2s_core.ngram.charts import (
    EMBEDDING_LABELS,
    FACTORS_LABELS,
    SPARSITY_LABELS,
    WINDOW_LABELS,
    ZERO_COLOR,
    embedding_bars_chart,
    embedding_chart,
    factors_chart,
    sparsity_chart,
    window_chart,
)
from s2s_core.ngram.compute import parse_corpus, quiz_change, quiz_edit, quiz_reason
from s2s_core.ngram.counting import count_ngrams, history_counts, ngrams, vocabulary
from s2s_core.ngram.embedding import (
    BETAS,
    L2,
    LR,
    MAX_WORDS,
    STEPS,
    EmbeddingConfig,
    adam_step,
    bigram_counts,
    pair_view,
    parse_embedding,
    parse_pair,
    parse_seed,
    train,
)
from s2s_core.ngram.examples import EXAMPLES, SYLLABUS_QUOTES
from s2s_core.ngram.frames import (
    EMB_ROLES,
    continuation_frame,
    embedding_bars_frame,
    embedding_points_frame,
    factors_frame,
    factors_long,
    log_sum_text,
    product_text,
    sparsity_frame,
    window_frame,
)
from s2s_core.ngram.picture import WORDS as PICTURE_WORDS
from tests import study_note
from tests.chart_order import unordered_axes

TINY = "a b c\na b d\nb c"  # small enough to count on paper


def cfg(text: str = TINY, n: int = 2, smoothing: bool = False, k: float = 1.0):
    return parse_config(text, n, smoothing, k)


# --- counting by hand -------------------------------------------------------------------------------


def test_padding_and_ngrams():
    assert ngrams(("a", "b"), 3) == [("<sos>", "<sos>", "a"), ("<sos>", "a", "b"), ("a", "b", "<eos>")]
    assert ngrams(("a", "b"), 1) == [("a",), ("b",), ("<eos>",)]


def test_bigram_counts_equal_hand_counts():
    counts = count_ngrams(cfg().corpus, 2)
    # <sos> a ×2, <sos> b ×1, a b ×2, b c ×2, b d ×1, c <eos> ×2, d <eos> ×1
    assert counts == {
        ("<sos>", "a"): 2,
        ("<sos>", "b"): 1,
        ("a", "b"): 2,
        ("b", "c"): 2,
        ("b", "d"): 1,
        ("c", "<eos>"): 2,
        ("d", "<eos>"): 1,
    }
    assert history_counts(counts)[("b",)] == 3
    assert vocabulary(cfg().corpus) == ("a", "b", "c", "d", "<eos>", "<unk>")


def test_continuations_equal_hand_ratios():
    res = continuations(cfg(), ("b",))
    assert res.words == ("c", "d") and res.counts == (2, 1) and res.history_count == 3
    assert torch.allclose(res.probs_mle, torch.tensor([2 / 3, 1 / 3], dtype=torch.float64))
    # add-k with k = 1, V = 6: (2+1)/(3+6), (1+1)/(3+6), each of the 4 unseen: 1/9
    assert torch.allclose(res.probs_addk, torch.tensor([3 / 9, 2 / 9], dtype=torch.float64))
    assert res.unseen_types == 4 and res.unseen_prob_addk == pytest.approx(1 / 9)
    assert res.addk_total == pytest.approx(1.0) and res.max_abs_diff < 1e-12


def test_a_prefix_shorter_than_the_window_is_a_lower_order_estimate():
    """With n = 3 and one word typed, the table counts bigrams: the page must say it is not the trigram model's."""
    text = "x a b\ny a c\ny a c"
    short = continuations(cfg(text, n=3), ("a",))
    assert (short.order, short.shorter) == (2, True)
    assert dict(zip(short.words, short.counts, strict=True)) == {"c": 2, "b": 1}  # every "a", whatever came before
    full = continuations(cfg(text, n=3), ("x", "a"))  # what the trigram model conditions on
    assert (full.order, full.shorter) == (3, False)
    assert dict(zip(full.words, full.counts, strict=True)) == {"b": 1}
    assert continuations(cfg(text, n=3), ()).shorter is False  # no prefix: the unigram caption says it already
    assert continuations(cfg(text, n=2), ("a",)).shorter is False


def test_empty_prefix_is_the_unigram_distribution():
    res = continuations(cfg(), ())
    assert res.history_count == 11  # 8 words + 3 <eos>
    assert dict(zip(res.words, res.counts, strict=True)) == {"b": 3, "a": 2, "c": 2, "<eos>": 3, "d": 1}
    assert float(res.probs_mle.sum()) == pytest.approx(1.0)


def test_unseen_prefix_gives_nothing_and_uniform_addk():
    res = continuations(cfg(n=3, smoothing=True), ("x", "y"))
    assert res.words == () and res.history_count == 0
    assert res.unseen_prob_addk == pytest.approx(1 / res.vocab_size)
    assert res.addk_total == pytest.approx(1.0)


def test_sentence_probability_is_the_product_of_count_ratios():
    res = sentence_probability(cfg(), ("a", "b", "c"))
    # P(a|<sos>) P(b|a) P(c|b) P(<eos>|c) = 2/3 · 2/2 · 2/3 · 2/2
    assert [(f.count, f.history_count) for f in res.factors] == [(2, 3), (2, 2), (2, 3), (2, 2)]
    assert res.probability == pytest.approx(4 / 9)
    assert res.log_probability == pytest.approx(math.log(4 / 9))
    assert res.first_zero is None and res.max_abs_diff < 1e-12
    assert product_text(res, False) == "2/3 × 2/2 × 2/3 × 2/2"


def test_unseen_bigram_gives_zero_and_smoothing_removes_it():
    plain = sentence_probability(cfg(), ("a", "c"))
    assert plain.probability == 0.0 and plain.log_probability == -math.inf
    assert plain.first_zero == 1 and plain.first_zero_mle == 1  # P(c | a) = 0/2
    assert log_sum_text(plain).count("∞") == 1
    smooth = sentence_probability(cfg(smoothing=True, k=0.5), ("a", "c"))
    V = 6
    expected = (2 + 0.5) / (3 + 0.5 * V) * (0 + 0.5) / (2 + 0.5 * V) * (2 + 0.5) / (2 + 0.5 * V)
    assert smooth.probability == pytest.approx(expected)
    assert smooth.probability_mle == 0.0 and smooth.first_zero is None
    assert smooth.max_abs_diff < 1e-12


def test_unseen_history_is_undefined_not_a_crash():
    res = sentence_probability(cfg(n=3), ("z", "a"))
    f = res.factors[1]  # history (<sos>, z) never occurs
    assert f.history_count == 0 and f.mle is None
    assert res.probability == 0.0
    smooth = sentence_probability(cfg(n=3, smoothing=True), ("z", "a"))
    assert smooth.factors[1].addk == pytest.approx(1 / smooth.vocab_size)


def test_torch_count_matrix_matches_hand_on_the_default_corpora():
    for lang in ("ko", "en"):
        c = cfg(EXAMPLES[lang].corpus, n=3)
        sentence = parse_sentence(EXAMPLES[lang].sentence)
        for smoothing in (False, True):
            res = sentence_probability(parse_config(EXAMPLES[lang].corpus, 3, smoothing, 1.0), sentence)
            assert res.max_abs_diff < 1e-12
        prefix = parse_prefix(EXAMPLES[lang].prefix, 3)
        assert continuations(c, prefix).max_abs_diff < 1e-12


def test_default_korean_numbers():
    text = EXAMPLES["ko"].corpus
    res = continuations(cfg(text, n=3), ("오늘", "점심에"))
    assert dict(zip(res.words, res.counts, strict=True)) == {"김밥을": 2, "라면을": 1, "친구를": 1}
    sent = parse_sentence(EXAMPLES["ko"].sentence)
    assert sentence_probability(cfg(text, n=3), sent).probability == pytest.approx(2 / 8 * 1 / 2 * 1 * 1 / 3 * 1)
    assert sentence_probability(cfg(text, n=4), sent).probability == 0.0
    assert sparsity(cfg(text).corpus, sent).unseen == (0, 0, 0, 1)
    win = window_view(sent, 3)
    assert win.outside == ("어제",) and win.history == ("점심에", "라면을")
    alt = continuations(cfg(text, n=3), win.history)
    assert set(alt.words) == {"먹었다", "끓였다", "먹는다"}  # the window cannot tell past from future


ROOT = Path(__file__).resolve().parents[2]

# --- what the page says comes from the study note -----------------------------------------------------------

NOTE_WORDS = {"en": re.compile(r"syllabus|\bthe note\b|note's", re.I), "ko": re.compile(r"노트|교재|강의")}
OWNS_DATA = re.compile(r"(syllabus|note)'s (own )?(corpus|sentence|example)|노트의 (말뭉치|코퍼스|문장|예문|예\b)")
QUOTED = re.compile(r"`([^`]+)`|“([^”]+)”|\"([^\"]+)\"")


def _note_sentences(lang: str) -> list[str]:
    """Every sentence of the page's catalog that names the study note."""
    catalog = tomllib.loads((ROOT / "locales" / lang / "ngram.toml").read_text(encoding="utf-8"))
    texts, stack = [], [catalog]
    while stack:
        for value in stack.pop().values():
            (stack.append(value) if isinstance(value, dict) else texts.append(str(value)))
    return [part for text in texts for part in re.split(r"(?<=[.;:])\s+", text) if NOTE_WORDS[lang].search(part)]


def test_what_the_page_quotes_from_the_note_is_in_the_note():
    """The note's §1 has the prefix 오늘 점심에 and no corpus, sentence or counts (the old try-this note called the
    Korean corpus, prefix and sentence "the syllabus's own": none of the corpus lines is in it)."""
    note = study_note.text()  # docs/study_note.ko.txt
    assert all(quote in note for quote in SYLLABUS_QUOTES)
    assert EXAMPLES["ko"].prefix in SYLLABUS_QUOTES
    assert not any(line in note for line in EXAMPLES["ko"].corpus.splitlines())  # ours, so never called the note's
    assert EXAMPLES["ko"].sentence not in note


def test_the_catalogs_quote_from_the_note_only_what_it_has():
    """Every phrase quoted in a sentence that names the study note is one of SYLLABUS_QUOTES (checked against the
    note above), and no such sentence calls a corpus or a sentence the note's own."""
    for lang in ("en", "ko"):
        sentences = _note_sentences(lang)
        assert sentences, lang  # the try-this note names the note
        for sentence in sentences:
            quoted = [next(g for g in m.groups() if g) for m in QUOTED.finditer(sentence)]
            korean = [q for q in quoted if re.search("[가-힣]", q)]
            assert all(q in SYLLABUS_QUOTES for q in korean), (lang, sentence)
            assert not OWNS_DATA.search(sentence), sentence


# --- smoothing and distributions (properties) -------------------------------------------------------

WORDS = st.sampled_from(["a", "b", "c", "d", "나는", "책을"])
SENTENCES = st.lists(WORDS, min_size=1, max_size=6)
CORPORA = st.lists(SENTENCES, min_size=1, max_size=6).map(lambda ss: "\n".join(" ".join(s) for s in ss))


@settings(max_examples=40, deadline=None)
@given(corpus=CORPORA, prefix=st.lists(WORDS | st.just("zz"), max_size=3), k=st.floats(0.01, 10))
def test_addk_sums_to_one_and_mle_to_one_when_seen(corpus, prefix, k):
    c = (
        parse_config(corpus, 4, True, k)
        if max(len(s.split()) for s in corpus.splitlines()) >= 4
        else parse_config(corpus, 1, True, k)
    )
    res = continuations(c, tuple(prefix))
    assert res.addk_total == pytest.approx(1.0)
    total_addk = float(res.probs_addk.sum()) + res.unseen_types * res.unseen_prob_addk
    assert total_addk == pytest.approx(1.0)
    if res.history_count:
        assert float(res.probs_mle.sum()) == pytest.approx(1.0)
    assert res.max_abs_diff < 1e-12


@settings(max_examples=40, deadline=None)
@given(corpus=CORPORA, sentence=st.lists(WORDS | st.just("zz"), min_size=1, max_size=6), smoothing=st.booleans())
def test_sentence_hand_equals_torch_and_sparsity_never_falls(corpus, sentence, smoothing):
    c = parse_config(corpus, 1, smoothing, 1.0)
    res = sentence_probability(c, tuple(sentence))
    assert res.max_abs_diff < 1e-12
    assert 0.0 <= res.probability <= 1.0
    sp = sparsity(c.corpus, tuple(sentence))
    assert list(sp.unseen) == sorted(sp.unseen)
    assert all(t == len(sentence) + 1 for t in sp.totals)


def test_all_sentences_of_a_bigram_model_sum_to_at_most_one():
    # Σ over every word sequence up to length 4 of P(sentence) approaches 1 from below.
    from itertools import product

    c = cfg()
    words = ("a", "b", "c", "d")
    total = sum(sentence_probability(c, s).probability for m in range(1, 5) for s in product(words, repeat=m))
    assert 0.99 < total <= 1.0 + 1e-12


def test_window_view():
    w = window_view(("w1", "w2", "w3", "w4", "w5"), 3)
    assert w.target == "w5" and w.history == ("w3", "w4") and w.outside == ("w1", "w2")
    assert w.ngram_visible == (False, False, True, True)
    short = window_view(("w1", "w2"), 4)
    assert short.history == ("<sos>", "<sos>", "w1") and short.outside == ()
    assert window_view(("w1", "w2"), 1).history == ()


def test_frames_have_one_row_per_item():
    c = cfg(smoothing=True)
    names = {
        "mle": "MLE",
        "addk": "add-k",
        "unseen_each": "(unseen)",
        "ngram": "n",
        "ffnn": "f",
        "rnn": "r",
        "sees": "s",
        "blind": "b",
        "target": "t",
    }
    cont = continuations(c, ("b",))
    assert len(continuation_frame(cont)) == 2
    sent = sentence_probability(c, ("a", "c"))
    assert len(factors_frame(sent, True)) == 3 and "p_addk" in factors_frame(sent, True)
    assert "p_addk" not in factors_frame(sent, False)
    assert len(factors_long(sent, True, names)) == 6
    sp = sparsity_frame(sparsity(c.corpus, ("a", "c")), 2)
    assert sp["current"].tolist() == [False, True, False]
    win = window_frame(window_view(("a", "b", "c"), 2), names)
    assert len(win) == 3 * 3


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_charts_are_valid_vega_lite_with_translated_labels(lang):
    """Each builder gets exactly its own label tuple (what the page hands it), and the words exist in both catalogs."""
    factors = words(lang, "ngram.chart", FACTORS_LABELS)
    window = words(lang, "ngram.chart", WINDOW_LABELS) | {"ngram": translate(lang, "ngram.chart.ngram", n=3)}
    sparse = words(lang, "ngram.chart", SPARSITY_LABELS)
    c = cfg(EXAMPLES[lang].corpus, n=3, smoothing=True)
    sent = parse_sentence(EXAMPLES[lang].sentence)
    charts = [
        (factors_chart(factors_long(sentence_probability(c, sent), True, factors), factors), factors),
        (sparsity_chart(sparsity_frame(sparsity(c.corpus, sent), 3), sparse), sparse),
        (window_chart(window_frame(window_view(sent, 3), window), window), window),
    ]
    for chart, labels in charts:
        assert not [v for v in labels.values() if v.startswith("⟦")]
        spec = chart.to_dict()  # validates against the Vega-Lite schema
        assert spec["layer"] and spec["title"] in labels.values()
        assert unordered_axes(spec) == []  # every nominal/ordinal axis names its order (issue 24 §1)
    spec = charts[0][0].to_dict()  # the factors' models side by side in the frame's order, counts first
    assert spec["layer"][0]["encoding"]["xOffset"]["sort"] == [factors["mle"], factors["addk"]]
    window_rows = charts[2][0].to_dict()["layer"][0]["encoding"]["y"]["sort"]
    assert window_rows == [window["ngram"], window["ffnn"], window["rnn"]]


COLOUR_WORDS = {  # the ui.colour words, and the Korean adjective forms a sentence uses ("빨간 0")
    "en": ("red", "blue", "orange", "purple", "yellow", "green", "grey", "gray"),
    "ko": ("빨강", "빨간", "파랑", "파란", "주황", "보라", "노랑", "노란", "초록", "회색"),
}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_zero_notice_names_no_colour_the_marks_are_not_a_colour_scale(lang):
    """A zero factor is a written label ("0/1" in the factor chart, "0 ✕" in the picture) in one fixed role colour,
    not a colour scale, so the notice names the label, not a colour (it said "red" where the picture drew orange)."""
    assert ZERO_COLOR == picture.ZERO  # one colour for a zero factor in both pictures
    zero = translate(lang, "ngram.notice.zero").lower()
    assert not [w for w in COLOUR_WORDS[lang] if w in zero], zero
    assert "0 ✕" in zero and "0 ✕" in translate(lang, "ngram.picture.never")


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "key", "field"),
    [
        (("", 2, False, 1.0), "errors.empty_text", "ngram.field.corpus"),
        (("   \n  \n", 2, False, 1.0), "errors.empty_text", "ngram.field.corpus"),
        (("a b", 3, False, 1.0), "ngram.error.n_too_large", "ngram.field.n"),
        (("a b", 0, False, 1.0), "errors.out_of_range", "ngram.field.n"),
        (("a b", 2.5, False, 1.0), "errors.not_an_integer", "ngram.field.n"),
        (("a b", "x", False, 1.0), "errors.not_an_integer", "ngram.field.n"),
        (("a b", 2, "yes", 1.0), "errors.bad_choice", "ngram.field.smoothing"),
        (("a b", 2, True, float("nan")), "errors.nan", "ngram.field.k"),
        (("a b", 2, True, 0.0), "errors.out_of_range", "ngram.field.k"),
        (("a b", 2, True, 1e9), "errors.too_large", "ngram.field.k"),
        (("a <eos> b", 2, False, 1.0), "ngram.error.reserved_line", "ngram.field.corpus"),
        (("a\n" * 201, 1, False, 1.0), "ngram.error.too_many_sentences", "ngram.field.corpus"),
        ((" ".join(["w"] * 41), 1, False, 1.0), "ngram.error.line_too_long", "ngram.field.corpus"),
        (("w" * (caps.MAX_CORPUS_CHARS + 1), 1, False, 1.0), "errors.text_too_long", "ngram.field.corpus"),
    ],
)
def test_bad_config_raises_input_error(args, key, field):
    with pytest.raises(InputError) as info:
        parse_config(*args)
    assert (info.value.key, info.value.field) == (key, field)


def test_bad_prefix_and_sentence():
    with pytest.raises(InputError) as info:
        parse_prefix("오늘 점심에", 2)
    assert info.value.key == "ngram.error.prefix_too_long" and info.value.params["window"] == 1
    with pytest.raises(InputError) as info:
        parse_prefix("<sos>", 3)
    assert info.value.key == "ngram.error.reserved"
    assert parse_prefix("   ", 1) == ()
    with pytest.raises(InputError) as info:
        parse_prefix("a", 1)
    assert info.value.key == "ngram.error.prefix_unigram"
    for bad, key in [
        ("", "errors.empty_text"),
        ("  ", "errors.empty_text"),
        (None, "errors.empty_text"),
        ("w " * 25, "errors.too_many_tokens"),
        ("a <unk>", "ngram.error.reserved"),
    ]:
        with pytest.raises(InputError) as info:
            parse_sentence(bad)
        assert info.value.key == key and info.value.field == "ngram.field.sentence"


def test_every_error_key_has_both_languages():
    keys = [
        "ngram.error.too_many_sentences",
        "ngram.error.line_too_long",
        "ngram.error.reserved_line",
        "ngram.error.reserved",
        "ngram.error.n_too_large",
        "ngram.error.prefix_too_long",
        "ngram.error.prefix_unigram",
    ]
    for lang in ("ko", "en"):
        for key in keys:
            assert not translate(lang, key).startswith("⟦")
        for f in ("corpus", "n", "prefix", "sentence", "smoothing", "k"):
            assert not translate(lang, f"ngram.field.{f}").startswith("⟦")


ANY = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.floats(allow_nan=True), st.text(max_size=60))


@settings(max_examples=50, deadline=None)
@given(corpus=ANY, n=ANY, smoothing=ANY, k=ANY, prefix=ANY, sentence=ANY)
def test_anything_is_a_config_or_an_input_error(corpus, n, smoothing, k, prefix, sentence):
    try:
        c = parse_config(corpus, n, smoothing, k)
    except InputError:
        return
    for fn in (
        lambda: continuations(c, parse_prefix(prefix, c.n)),
        lambda: sentence_probability(c, parse_sentence(sentence)),
    ):
        with contextlib.suppress(InputError):
            fn()


# --- counting vs the tiny embedding model -------------------------------------------------------------------

# "dog" and "cat" are both followed by "ran"; only "cat" was ever followed by "sat". "bus" behaves like "car".
SIMILAR = "the cat ran\nthe dog ran\nthe cat sat\na car stopped\na bus stopped\na car honked"


@pytest.mark.parametrize("seed", range(4))
def test_embedding_model_gives_an_unseen_pair_a_share_through_a_similar_word(seed):
    model = train(EmbeddingConfig(parse_corpus(SIMILAR), seed))
    dog, bus = pair_view(model, "dog", "sat"), pair_view(model, "bus", "sat")
    assert dog.count == bus.count == 0 and dog.p_count == bus.p_count == 0  # counting: both never seen
    assert dog.p_model > dog.uniform  # the model: more than a blind guess over V ...
    assert dog.p_model > 2 * bus.p_model  # ... and far more than for a word used differently
    assert dog.nearest == "cat" and dog.nearest_cosine > 0.5  # the similar word that was seen before "sat"
    assert dog.nearest_cosine > pair_view(model, "bus", "sat").nearest_cosine
    # The verdict that picks the page's text follows the same numbers.
    assert (dog.verdict, bus.verdict) == ("borrowed", "weak")
    assert pair_view(model, "cat", "sat").verdict == "seen"


def test_embedding_model_is_deterministic_for_a_seed_and_bounded():
    corpus = parse_corpus(SIMILAR)
    a, b = train(EmbeddingConfig(corpus, 3)), train(EmbeddingConfig(corpus, 3))
    assert torch.equal(a.vectors, b.vectors) and torch.equal(a.probs, b.probs)
    assert not torch.equal(a.vectors, train(EmbeddingConfig(corpus, 4)).vectors)
    assert a.steps == STEPS and a.loss_end < a.loss_start
    assert torch.allclose(a.probs.sum(dim=1), torch.ones(len(a.previous), dtype=torch.float64))
    assert bool((a.probs > 0).all())  # a softmax never gives exactly 0
    assert torch.allclose(a.cosine.diagonal(), torch.ones(len(a.previous), dtype=torch.float64))


def test_embedding_counts_are_the_bigram_counts():
    corpus = parse_corpus(SIMILAR)
    previous, following, counts = bigram_counts(corpus)
    assert previous[0] == "<sos>" and following[-1] == "<eos>"
    expected = count_ngrams(corpus, 2)
    assert {(previous[i], following[j]): int(c) for (i, j), c in np.ndenumerate(counts.numpy()) if c} == expected
    seen = pair_view(train(EmbeddingConfig(corpus, 0)), "cat", "sat")
    assert (seen.count, seen.previous_count, seen.p_count) == (1, 2, 0.5)


def test_hand_written_adam_equals_torch_optim_adam():
    _, _, counts = bigram_counts(parse_corpus(SIMILAR))
    g = torch.Generator().manual_seed(1)
    start = [torch.randn(*counts.shape, generator=g, dtype=torch.float64) * 0.1 for _ in range(2)]

    def run(step_fn):
        params = [p.clone().requires_grad_(True) for p in start]
        for step in range(1, 51):
            for p in params:
                p.grad = None
            loss = -(counts * torch.log_softmax(params[0] @ params[1].T, dim=1)).sum() + L2 * params[0].pow(2).sum()
            loss.backward()
            step_fn(params, step)
        return params

    state: list = []

    def hand(params, step):
        if not state:
            state.extend((torch.zeros_like(p), torch.zeros_like(p)) for p in params)
        adam_step(params, state, step)

    opt: list = []

    def library(params, step):
        if not opt:
            opt.append(torch.optim.Adam(params, lr=LR, betas=BETAS, foreach=False))
        opt[0].step()

    for a, b in zip(run(hand), run(library), strict=True):
        assert torch.equal(a, b)


def test_embedding_inputs_and_caps():
    corpus = parse_corpus(SIMILAR)
    assert parse_pair(" dog  sat ", corpus) == ("dog", "sat")
    for text, key in (
        ("dog", "ngram.error.pair_count"),
        ("the dog sat", "ngram.error.pair_count"),
        ("dog zebra", "ngram.error.pair_unknown"),
        ("<eos> sat", "ngram.error.reserved"),
        ("", "errors.empty_text"),
    ):
        with pytest.raises(InputError) as err:
            parse_pair(text, corpus)
        assert (err.value.key, err.value.field) == (key, "ngram.field.pair"), text
    with pytest.raises(InputError):
        parse_seed(-1)
    assert parse_seed("7") == 7
    many = parse_corpus(
        "\n".join(" ".join(f"w{i}" for i in range(r, min(r + 40, MAX_WORDS + 1))) for r in range(0, MAX_WORDS + 1, 40))
    )
    with pytest.raises(InputError) as err:
        train(EmbeddingConfig(many, 0))
    assert (err.value.key, err.value.field) == ("ngram.error.emb_vocab", "ngram.field.corpus")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_default_pair_shows_the_point_on_the_default_corpus(lang):
    corpus = parse_corpus(EXAMPLES[lang].corpus)
    pair = pair_view(train(EmbeddingConfig(corpus, 0)), *parse_pair(EXAMPLES[lang].pair, corpus))
    assert pair.count == 0 and pair.verdict == "borrowed" and pair.nearest_p_count > 0


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_embedding_frames_and_charts(lang):
    corpus = parse_corpus(EXAMPLES[lang].corpus)
    model = train(EmbeddingConfig(corpus, 0))
    pair = pair_view(model, *parse_pair(EXAMPLES[lang].pair, corpus))
    roles = {f"emb_role_{r}": translate(lang, f"ngram.chart.emb_role_{r}", word=pair.word) for r in EMB_ROLES}
    labels = words(lang, "ngram.chart", EMBEDDING_LABELS) | roles  # what the page hands the builders
    assert not [v for v in labels.values() if v.startswith("⟦")]
    points = embedding_points_frame(model, pair, labels)
    assert len(points) == len(model.previous)
    roles = dict(zip(points["token"], points["role"], strict=True))
    assert roles[pair.previous] == "previous" and roles[pair.nearest] == "nearest" and roles[pair.far] == "far"
    bars = embedding_bars_frame(pair, labels)
    assert list(bars["prob"]) == [
        pair.p_count,
        pair.p_model,
        pair.nearest_p_count,
        pair.nearest_p_model,
        0.0,
        pair.far_p_model,
    ]
    for chart in (embedding_chart(points, labels), embedding_bars_chart(bars, pair.uniform, labels)):
        spec = chart.to_dict()  # validates against the Vega-Lite schema
        assert spec["layer"] and spec["description"] in labels.values()


def test_the_question_asks_about_an_edit_and_grades_its_direction():
    config = parse_config(EXAMPLES["en"].corpus, 3, False, 1.0)
    assert quiz_edit(config) == replace(config, smoothing=True)  # smoothing off: turn it on, same k
    on = replace(config, smoothing=True, k=2.0)
    assert quiz_edit(on).k == 0.2  # k x10 would pass the cap of 10: a tenth instead
    assert quiz_edit(replace(on, k=0.5)).k == 5.0
    assert quiz_change(0.0, 1e-9) == "higher" and quiz_change(0.5, 0.25) == "lower" and quiz_change(0.3, 0.3) == "same"
    zero = sentence_probability(config, ("we", "ate", "soup"))  # "ate soup" never occurs: P = 0
    reason = quiz_reason(config, zero, sentence_probability(quiz_edit(config), zero.tokens))
    assert zero.probability == 0 and reason.zero == zero.first_zero and reason.change == "higher"
    sentence = parse_sentence(EXAMPLES["en"].sentence)
    seen = sentence_probability(config, sentence)
    reason = quiz_reason(config, seen, sentence_probability(quiz_edit(config), sentence))
    assert (reason.zero, reason.move, reason.seen, reason.change) == (None, "on", "all", "lower")
    assert reason.rose + reason.fell == reason.total == len(seen.factors) and reason.fell > reason.rose


def _reason(config, text):
    sentence = parse_sentence(text)
    now = sentence_probability(config, sentence)
    return now, quiz_reason(config, now, sentence_probability(quiz_edit(config), sentence))


def test_the_questions_explanation_knows_smoothing_is_on_and_a_factor_is_unseen():
    """Smoothing on (k 1 -> 10) and "어제 점심에 김밥을" never in the corpus: P goes down, but not every factor is
    seen. The old explanation was picked by the change alone ("lower" -> "every factor is seen here")."""
    config = parse_config(EXAMPLES["ko"].corpus, 3, True, 1.0)
    now, reason = _reason(config, "어제 점심에 김밥을 먹었다")
    assert now.probability > 0 and [f.count for f in now.factors].count(0) == 1
    assert (reason.change, reason.move, reason.zero) == ("lower", "up", None)
    assert reason.seen == "some" and reason.unseen == 1
    # At k = 5 the edit is k -> 0.5: the factors move back toward their count ratios, and P goes up.
    _, down = _reason(replace(config, k=5.0), "어제 점심에 김밥을 먹었다")
    assert (down.change, down.move, down.seen) == ("higher", "down", "some") and down.rose > down.fell
    # A history the corpus never has (c(h) = 0) sits at 1/V whatever k is: it neither rises nor falls.
    _, still = _reason(config, "모레 아침에")
    assert still.unseen == still.total and still.rose + still.fell < still.total


def test_the_fields_are_the_cores_caps():
    """One declaration (s2s_core/ngram/fields.py): the widget's range and the core's check are the same numbers."""
    assert parse_config("a b c d e", fields.MAX_N, True, fields.K_MAX).n == fields.MAX_N
    for n, k, field in ((fields.MAX_N + 1, 1.0, "ngram.field.n"), (2, fields.K_MAX * 1.01, "ngram.field.k")):
        with pytest.raises(InputError) as err:
            parse_config("a b c d e f", n, True, k)
        assert (err.value.key, err.value.field) == ("errors.out_of_range", field)
    # The corpus field holds as much as the core reads (its widget once stopped at a sentence's 400 characters).
    assert fields.CORPUS.max_chars == caps.MAX_CORPUS_CHARS
    long = "\n".join(["the cat sat on the mat"] * 150)  # 3,449 characters
    assert len(long) > caps.MAX_TEXT_CHARS and len(parse_corpus(long)) == 150
    for field in (fields.PREFIX, fields.SENTENCE, fields.PAIR):
        assert field.max_chars == caps.MAX_TEXT_CHARS
    with pytest.raises(InputError) as err:
        parse_seed(caps.MAX_SEED + 1)
    assert err.value.field == fields.EMB_SEED.label


def test_embedding_inputs_are_checked_in_the_order_they_are_named():
    corpus = parse_corpus(SIMILAR)
    assert parse_embedding(" dog sat ", "3", corpus) == (EmbeddingConfig(corpus, 3), "dog", "sat")
    many = parse_corpus(
        "\n".join(" ".join(f"w{i}" for i in range(r, min(r + 40, MAX_WORDS + 1))) for r in range(0, MAX_WORDS + 1, 40))
    )
    for pair, seed, text, key in (
        ("dog zebra", -1, SIMILAR, "ngram.error.pair_unknown"),  # the pair first
        ("dog sat", -1, SIMILAR, "errors.out_of_range"),  # then the seed
        ("w0 w1", -1, None, "errors.out_of_range"),
        ("w0 w1", 0, None, "ngram.error.emb_vocab"),  # then a vocabulary the tiny model can train on
    ):
        with pytest.raises(InputError) as err:
            parse_embedding(pair, seed, parse_corpus(text) if text else many)
        assert err.value.key == key, (pair, seed)


def test_the_picture_holds_the_candidates_and_the_factors():
    """The candidates' bars are P(word | prefix) with their counts; the factors are the sentence's own, a zero
    factor flagged; the product line ends with P(sentence); the spec is valid Vega-Lite."""
    from s2s_core.fmt import prob
    from s2s_core.ngram import continuations, parse_config, parse_prefix, parse_sentence, sentence_probability
    from s2s_core.ngram.examples import default_example
    from s2s_core.ngram.frames import CHART_TOP
    from s2s_core.ngram.picture import ngram_picture, picture_data

    example = default_example("ko")
    config = parse_config(example.corpus, 4, False, 1.0)
    prefix, sentence = parse_prefix(example.prefix, 4), parse_sentence(example.sentence)
    cont, sent = continuations(config, prefix), sentence_probability(config, sentence)
    pic = picture_data(prefix, 3, cont, sent, smoothing=False)
    assert pic.candidates["word"].tolist() == list(cont.words)
    assert pic.candidates["p"].tolist() == pytest.approx(cont.probs_mle.tolist())
    assert pic.candidates["count"].tolist() == list(cont.counts)
    assert pic.factors["p"].tolist() == pytest.approx(sent.probs.tolist())
    assert pic.factors["zero"].tolist() == [p == 0 for p in sent.probs.tolist()] and pic.factors["zero"].any()
    assert pic.product.endswith(f"= {prob(sent.probability)}")
    ngram_picture(pic, dict.fromkeys(PICTURE_WORDS, "w")).to_dict()  # validates, with just the words the page hands it
    every = continuations(config, ())  # no prefix: every word of the corpus follows
    shown = picture_data((), 3, every, None, smoothing=False).candidates
    assert len(shown) == CHART_TOP < len(every.words)  # the most frequent ones drawn; the table lists them all
