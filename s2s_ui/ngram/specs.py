"""The next-token page's cached work: the core's results and the charts' finished specs, both keyed by value
(frozen configs and token tuples, never tensors). Building an Altair chart costs far more than the counting."""

from __future__ import annotations

from typing import Any

from s2s_core.catalog import translate, words
from s2s_core.ngram import (
    ContinuationResult,
    NgramConfig,
    SentenceResult,
    SparsityResult,
    continuations,
    sentence_probability,
    sparsity,
    window_view,
)
from s2s_core.ngram.charts import (
    EMBEDDING_LABELS,
    FACTORS_LABELS,
    NETWORK_LABELS,
    SPARSITY_LABELS,
    WINDOW_LABELS,
    embedding_bars_chart,
    embedding_chart,
    factors_chart,
    network_bars_chart,
    sparsity_chart,
    window_chart,
)
from s2s_core.ngram.counting import Corpus, Sentence
from s2s_core.ngram.embedding import EmbeddingConfig, EmbeddingModel, pair_view, train
from s2s_core.ngram.frames import (
    EMB_ROLES,
    embedding_bars_frame,
    embedding_points_frame,
    factors_long,
    network_bars_frame,
    sparsity_frame,
    window_frame,
)
from s2s_core.ngram.picture import WORDS, ngram_picture, picture_data
from s2s_core.ngram.window import WindowConfig, WindowModel, WindowView
from s2s_core.ngram.window import train as train_window
from s2s_core.ngram.window import window_view as network_view
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec

CHART = "ngram.chart"


@cached_result(max_entries=256)
def cached_continuations(config: NgramConfig, prefix: Sentence) -> ContinuationResult:
    return continuations(config, prefix)


@cached_result(max_entries=256)
def cached_sentence(config: NgramConfig, sentence: Sentence) -> SentenceResult:
    return sentence_probability(config, sentence)


@cached_result(max_entries=256)
def cached_sparsity(corpus: Corpus, sentence: Sentence) -> SparsityResult:
    return sparsity(corpus, sentence)


@cached_result(max_entries=32)
def cached_embedding(config: EmbeddingConfig) -> EmbeddingModel:
    return train(config)


@cached_spec(max_entries=128)
def picture_spec(config: NgramConfig, prefix: Sentence, sentence: Sentence | None, code: str) -> Any:
    """The main picture (s2s_core/ngram/picture.py): the prefix, its candidates, the sentence's factors."""
    cont = cached_continuations(config, prefix)
    sent = cached_sentence(config, sentence) if sentence is not None else None
    pic = picture_data(prefix, max(config.n - 1, 0), cont, sent, config.smoothing)
    return ngram_picture(pic, words(code, "ngram.picture", WORDS))


@cached_spec(max_entries=128)
def factors_spec(config: NgramConfig, sentence: Sentence, code: str) -> Any:
    names = words(code, CHART, FACTORS_LABELS)
    return factors_chart(factors_long(cached_sentence(config, sentence), config.smoothing, names), names)


@cached_spec(max_entries=128)
def sparsity_spec(corpus: Corpus, sentence: Sentence, n: int | None, code: str) -> Any:
    return sparsity_chart(sparsity_frame(cached_sparsity(corpus, sentence), n), words(code, CHART, SPARSITY_LABELS))


@cached_spec(max_entries=128)
def window_spec(sentence: Sentence, n: int, code: str) -> Any:
    names = words(code, CHART, WINDOW_LABELS) | {"ngram": translate(code, f"{CHART}.ngram", n=n)}
    return window_chart(window_frame(window_view(sentence, n), names), names)


def embedding_names(code: str, word: str) -> dict[str, str]:
    """The embedding charts' words; the role names mention the learner's next word."""
    roles = {f"emb_role_{r}": translate(code, f"{CHART}.emb_role_{r}", word=word) for r in EMB_ROLES}
    return words(code, CHART, EMBEDDING_LABELS) | roles


@cached_spec(max_entries=64)
def embedding_specs(config: EmbeddingConfig, previous: str, word: str, code: str) -> Any:
    """The embedding sub-lab's two charts: every word's vector, and counting vs the model for three words."""
    model = cached_embedding(config)
    pair = pair_view(model, previous, word)
    names = embedding_names(code, word)
    return {
        "points": embedding_chart(embedding_points_frame(model, pair, names), names),
        "bars": embedding_bars_chart(embedding_bars_frame(pair, names), pair.uniform, names),
    }


@cached_result(max_entries=32)
def cached_window_model(config: WindowConfig) -> WindowModel:
    return train_window(config)


@cached_result(max_entries=128)
def cached_network_view(config: WindowConfig, prefix: Sentence, sentence: Sentence | None) -> WindowView:
    return network_view(cached_window_model(config), prefix, sentence)


@cached_spec(max_entries=64)
def network_spec(config: WindowConfig, prefix: Sentence, code: str) -> Any:
    """The window network's bars beside counting's, after the prefix's window."""
    model = cached_window_model(config)
    names = words(code, CHART, NETWORK_LABELS)
    frame = network_bars_frame(model, cached_network_view(config, prefix, None), names)
    return network_bars_chart(frame, 1.0 / len(model.outputs), names)
