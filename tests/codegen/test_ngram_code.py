"""The next-token page's generated script, run in a subprocess, prints the page's counts and probabilities."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys

import pytest

from s2s_core.fmt import num, prob
from s2s_core.ngram import continuations, parse_config, parse_prefix, parse_sentence, sentence_probability, sparsity
from s2s_core.ngram.code import script
from s2s_core.ngram.compute import parse_corpus
from s2s_core.ngram.counting import vocabulary
from s2s_core.ngram.embedding import EmbeddingConfig, pair_view, train
from s2s_core.ngram.examples import EXAMPLES
from s2s_core.ngram.window import WindowConfig, blind_contexts, window_view
from s2s_core.ngram.window import train as train_window
from tests.codegen.run import PageCase


def _lines(out: str) -> dict[str, str]:
    lines = {}
    for line in out.splitlines():
        name, _, value = line.partition(": ")
        lines[name] = value
    return lines


def run(source: str, tmp_path) -> dict[str, str]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, encoding="utf-8", env=env, timeout=120, check=True
    ).stdout
    return _lines(out)


def check_counts(config, prefix, sentence, out: dict[str, str]) -> None:
    """The counts after the prefix and the sentence's probability, factor by factor, and the sparsity."""
    cont = continuations(config, prefix)
    assert int(out["prefix count"]) == cont.history_count
    assert ("context" in out) == cont.shorter
    printed = ast.literal_eval(out["continuations"])
    assert [(w, c) for w, c, _ in printed] == list(zip(cont.words, cont.counts, strict=True))
    assert [p for *_, p in printed] == [round(float(p), 4) for p in cont.probs_mle]
    if config.smoothing:
        assert [p for _, p in ast.literal_eval(out["add-k"])] == [round(float(p), 4) for p in cont.probs_addk]
        assert float(out["each unseen word"]) == round(cont.unseen_prob_addk, 4)

    sent = sentence_probability(config, sentence)
    factors = ast.literal_eval(out["factors"])
    assert [(w, c, ch) for w, c, ch, _ in factors] == [(f.word, f.count, f.history_count) for f in sent.factors]
    assert [p for *_, p in factors] == [round(p, 4) for p in sent.probs.tolist()]
    assert math.isclose(float(out["P(sentence)"]), sent.probability, rel_tol=1e-5)
    logp = float(out["log P(sentence)"])
    assert logp == sent.log_probability if math.isinf(logp) else math.isclose(logp, sent.log_probability, abs_tol=1e-4)
    sp = sparsity(config.corpus, sentence)
    for m, u, t in zip(sp.ns, sp.unseen, sp.totals, strict=True):
        assert out[f"unseen {m}-grams"] == f"{u}/{t}"


def check_embedding(lang: str, seed: int, out: dict[str, str]) -> None:
    previous, word = EXAMPLES[lang].pair.split()
    pair = pair_view(train(EmbeddingConfig(parse_corpus(EXAMPLES[lang].corpus), seed)), previous, word)
    assert out["counting P(next | previous)"] == prob(pair.p_count)
    assert out["embedding model P(next | previous)"] == prob(pair.p_model)
    assert out["blind guess 1/V"] == prob(pair.uniform)
    assert out["nearest seen before next"] == f"{pair.nearest} {num(pair.nearest_cosine)} {prob(pair.nearest_p_model)}"
    assert out["pointing away"] == f"{pair.far} {num(pair.far_cosine)} {prob(pair.far_p_model)}"


def _window_inputs(lang: str, n: int):
    ex = EXAMPLES[lang]
    config = parse_config(ex.corpus, n, False, 1.0)
    prefix = tuple(ex.prefix.split())[-(n - 1) :]
    sentence = parse_sentence(ex.sentence)
    return config, prefix, sentence, blind_contexts(config.corpus, n - 1, sentence)


def check_window(config, prefix, sentence, hidden: int, seed: int, out: dict[str, str]) -> None:
    """The script's own nn.Module and torch.optim.Adam train the page's network: the same prediction after the
    prefix, the same loss, the hand forward equal to the module, and the blind spot's difference of 0."""
    model = train_window(WindowConfig(config.corpus, config.n - 1, hidden, seed))
    view = window_view(model, prefix, sentence)
    word, p = view.forward.top[0]
    assert out["window network top"] == f"{word} {prob(p)}"
    assert out["final loss"] == num(model.loss_end)
    assert ast.literal_eval(out["window"]) == list(view.forward.window)
    assert float(out["hand vs module"]) <= 1e-12
    assert ast.literal_eval(out["counting after the window"]) == list(
        zip(view.counted.words, view.counted.counts, strict=True)
    )
    assert out["outside the window, max difference"] == num(view.blind.max_abs_diff) == "0"


def page_case() -> PageCase:
    """The Korean page at its defaults: every part of the script (counts, sentence, embedding, window network)."""
    config, prefix, sentence, contexts = _window_inputs("ko", 3)
    previous, word = EXAMPLES["ko"].pair.split()
    source = script(config, prefix, sentence, (previous, word, 0), (12, 0, *contexts))

    def check(stdout: str) -> None:
        out = _lines(stdout)
        check_counts(config, prefix, sentence, out)
        check_embedding("ko", 0, out)
        check_window(config, prefix, sentence, 12, 0, out)

    return PageCase("ngram", source, check)


def test_script_names_a_shorter_context(tmp_path):
    config = parse_config(EXAMPLES["en"].corpus, 4, False, 1.0)
    cont = continuations(config, ("lunch",))
    out = run(script(config, ("lunch",), None), tmp_path)
    assert cont.shorter and out["context"] == f"1 of 3 words, a {cont.order}-gram estimate"
    assert int(out["prefix count"]) == cont.history_count


@pytest.mark.parametrize(("lang", "smoothing", "n"), [("ko", False, 3), ("en", True, 4)])
def test_script_prints_the_page_values(lang, smoothing, n, tmp_path):
    config = parse_config(EXAMPLES[lang].corpus, n, smoothing, 0.5)
    prefix = parse_prefix(EXAMPLES[lang].prefix, n)
    sentence = parse_sentence(EXAMPLES[lang].sentence)
    check_counts(config, prefix, sentence, run(script(config, prefix, sentence), tmp_path))


def test_script_with_invalid_parts_left_out_still_runs(tmp_path):
    config = parse_config("he said \"hi\" {x}\nshe said ''' \\ bye", 2, False, 1.0)
    out = run(script(config, None, None), tmp_path)
    assert int(out["V"]) == len(vocabulary(config.corpus)) == 10 and "continuations" not in out


@pytest.mark.parametrize(("lang", "seed"), [("ko", 0), ("en", 5)])
def test_script_trains_the_same_embedding_model(lang, seed, tmp_path):
    config = parse_config(EXAMPLES[lang].corpus, 3, False, 1.0)
    previous, word = EXAMPLES[lang].pair.split()
    check_embedding(lang, seed, run(script(config, None, None, (previous, word, seed)), tmp_path))


@pytest.mark.parametrize(("lang", "n", "hidden", "seed"), [("ko", 3, 12, 0), ("en", 2, 5, 3)])
def test_script_trains_the_same_window_network(lang, n, hidden, seed, tmp_path):
    config, prefix, sentence, contexts = _window_inputs(lang, n)
    out = run(script(config, prefix, sentence, None, (hidden, seed, *contexts)), tmp_path)
    check_window(config, prefix, sentence, hidden, seed, out)


def test_script_leaves_the_window_network_out_at_n_1(tmp_path):
    config = parse_config(EXAMPLES["en"].corpus, 1, False, 1.0)
    out = run(script(config, (), None, None, (12, 0, None, None)), tmp_path)
    assert "window network top" not in out and int(out["V"]) == len(vocabulary(config.corpus))
