"""Every page opens in Korean and in English: no exception, no missing or unfilled text, its key value shown.

The behaviour tests (tests/app/test_<ns>_app.py) run once, in English: both catalogs are checked key for
key by tests/test_catalogs.py, so a second language would repeat the same code paths. This smoke test is the
two-language check, one run per page and language (the values that differ by language are asserted here).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import vec
from s2s_ui.registry import existing_pages
from tests.app.conftest import LANGS, all_text, open_page
from tests.robustness.fuzz import unfilled_texts


def _home(lang: str) -> list[str]:
    return [translate(lang, f"{spec.ns}.title") for spec in existing_pages() if spec.ns != "home"]


def _ngram(lang: str) -> list[str]:
    from s2s_core.ngram import parse_config, parse_sentence, sentence_probability
    from s2s_core.ngram.examples import EXAMPLES
    from s2s_core.ngram.frames import product_text

    result = sentence_probability(
        parse_config(EXAMPLES[lang].corpus, 3, False, 1.0),
        parse_sentence(EXAMPLES[lang].sentence),
    )
    if lang == "ko":  # the seed's own example: 오늘 점심에 → 김밥을 2, 라면을 1, 친구를 1
        # (its window tab's "먹었다 1/3, 끓였다 1/3, 먹는다 1/3" is checked with that tab open in test_ngram_app.py)
        return ["`2/8 × 1/2 × 1/1 × 1/3 × 1/1` = **0.0417**"]
    return [product_text(result, False)]


def _rnn(lang: str) -> list[str]:
    from s2s_core.rnn import parse_config, unroll

    sentence = {"ko": "나는 책을 읽는다", "en": "I read a book"}[lang]
    return [vec(unroll(parse_config(sentence, 3, 4, 0)).x[0])]  # x_1 of the first word


def _bptt(lang: str) -> list[str]:
    from s2s_core.bptt import BpttConfig, backprop_through_time
    from s2s_core.fmt import sci

    return [sci(cell.ratio(20, full=False)) for cell in backprop_through_time(BpttConfig()).cells]


def _lstm(lang: str) -> list[str]:
    from s2s_core.gated.inputs import default_sentence
    from s2s_core.lstm import lstm_gates, parse_config

    result = lstm_gates(parse_config("sentence", default_sentence(lang), None, 3, 4, 0))  # each language's sentence
    return [vec(result.torch_h_n), vec(result.torch_c_n)]


def _gru(lang: str) -> list[str]:
    from s2s_core.gated.inputs import default_sentence
    from s2s_core.gru import gru_gates, parse_config

    return [vec(gru_gates(parse_config("sentence", default_sentence(lang), None, 3, 4, 0)).torch_h_n)]


def _shapes(lang: str) -> list[str]:
    return ["| `outputs` | `(B, S, K·H)` | `(2, 3, 6)` |", "| `h_n` | `(L·K, B, H)` | `(1, 2, 6)` |"]


def _seq2seq(lang: str) -> list[str]:
    from s2s_core.fmt import vec as vector_text
    from s2s_core.seq2seq import default_config
    from s2s_core.seq2seq.trained import run_trained

    trained = _trained_translation()  # the page's default model, trained before the page opened (BEFORE)
    result = run_trained(default_config(lang), trained.config, trained.run.model.state_dict())
    return [vector_text(result.handoff.h0[-1, 0])]  # h0 = h_n of the trained encoder, this language's sentence


def _trained_translation():
    """The Translation lab's default model (the Encoder–decoder page's default), trained once per test process."""
    from s2s_core.translation.lab import DEFAULT
    from s2s_jobs import jobs

    result = jobs.default_result(DEFAULT, timeout=900)
    assert result is not None, "the Translation lab's default model did not train"
    return result


def _attention(lang: str) -> list[str]:
    return ["[3.4, 2.2]", "[1.8, 1.4]", "0.2×2 + 0.3×0 + 0.5×6 = 3.4"]  # the seed's worked example


def _scoring(lang: str) -> list[str]:
    from s2s_core.scoring.compute import ScoringConfig, compare
    from s2s_core.scoring.frames import position_parts

    # The line under picture 2 at s1: additive's live score, weight and share of the context (its focus tab's
    # weights line is checked with that tab open in test_scoring_app.py).
    parts = position_parts(compare(ScoringConfig()).get("additive").read, 0)
    return [translate(lang, "scoring.position_line", position="s1", **parts)]


def _masks(lang: str) -> list[str]:
    from s2s_core.fmt import num as fmt
    from s2s_core.masks import compute_masks, default_config

    config = default_config(lang)  # each language opens on its own sentences
    result = compute_masks(config)
    most_pad = min(range(len(config.rows)), key=lambda b: len(config.sources[b]))  # the sentence the picture picks
    # loss_ignore is in a metric; the weight that reaches PAD without the mask is in the line under the picture
    return [fmt(result.loss_all), fmt(result.leak_by_row[most_pad])]


def _training(lang: str) -> list[str]:
    return []  # nothing is trained on opening: the Train button's label is checked below


def _translation(lang: str) -> list[str]:
    from s2s_core.grammar import MAX_WORDS, MIN_WORDS, count_meanings

    return [f"{count_meanings(MIN_WORDS, MAX_WORDS):,}"]  # the toy grammar's size, in its tab (nothing trained yet)


KEY_VALUES: dict[str, Callable[[str], list[str]]] = {
    "home": _home,
    "ngram": _ngram,
    "rnn": _rnn,
    "bptt": _bptt,
    "lstm": _lstm,
    "gru": _gru,
    "shapes": _shapes,
    "seq2seq": _seq2seq,
    "attention": _attention,
    "scoring": _scoring,
    "masks": _masks,
    "training": _training,
    "translation": _translation,
}


# Pages whose default picture needs a trained model: it is trained before the page opens, so the page shows it.
BEFORE = {"seq2seq": _trained_translation}

# Pages whose key values sit in a folded tab: the smoke run opens that tab by its link, as a shared link would.
OPEN_TAB = {"lstm": "check", "gru": "check"}


def test_every_page_has_a_smoke_check():
    assert {spec.ns for spec in existing_pages()} <= set(KEY_VALUES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", existing_pages(), ids=lambda s: s.ns)
def test_page_opens_with_its_key_values(spec, lang):
    query = {f"{spec.ns}_tabs": OPEN_TAB[spec.ns]} if spec.ns in OPEN_TAB else None
    if spec.ns in BEFORE:
        BEFORE[spec.ns]()
    at = open_page(spec.ns, lang, query=query)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]  # the defaults are valid input
    text = all_text(at)
    assert translate(lang, f"{spec.ns}.title") in text
    for value in KEY_VALUES[spec.ns](lang):
        assert value in text, value
    if spec.ns == "training":
        assert at.button(key="training_train").label == translate(lang, "training.train")
    assert not unfilled_texts(at)  # no ⟦missing.key⟧ and no {placeholder} left unfilled
