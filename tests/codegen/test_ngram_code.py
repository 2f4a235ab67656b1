"""The next-token page's generated script, run in a subprocess, prints the page's counts and probabilities."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys

import pytest

from s2s_core.ngram import continuations, parse_config, parse_prefix, parse_sentence, sentence_probability, sparsity
from s2s_core.ngram.code import script
from s2s_core.ngram.counting import vocabulary
from s2s_ui.catalog import translate


def run(source: str, tmp_path) -> dict[str, str]:
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, encoding="utf-8", env=env, timeout=120, check=True
    ).stdout
    lines = {}
    for line in out.splitlines():
        name, _, value = line.partition(": ")
        lines[name] = value
    return lines


def test_script_names_a_shorter_context(tmp_path):
    config = parse_config(translate("en", "ngram.default.corpus"), 4, False, 1.0)
    cont = continuations(config, ("lunch",))
    out = run(script(config, ("lunch",), None), tmp_path)
    assert cont.shorter and out["context"] == f"1 of 3 words, a {cont.order}-gram estimate"
    assert int(out["prefix count"]) == cont.history_count


@pytest.mark.parametrize(("lang", "smoothing", "n"), [("ko", False, 3), ("en", True, 4)])
def test_script_prints_the_page_values(lang, smoothing, n, tmp_path):
    config = parse_config(translate(lang, "ngram.default.corpus"), n, smoothing, 0.5)
    prefix = parse_prefix(translate(lang, "ngram.default.prefix"), n)
    sentence = parse_sentence(translate(lang, "ngram.default.sentence"))
    out = run(script(config, prefix, sentence), tmp_path)

    cont = continuations(config, prefix)
    assert int(out["prefix count"]) == cont.history_count
    assert ("context" in out) == cont.shorter
    printed = ast.literal_eval(out["continuations"])
    assert [(w, c) for w, c, _ in printed] == list(zip(cont.words, cont.counts, strict=True))
    assert [p for *_, p in printed] == [round(float(p), 4) for p in cont.probs_mle]
    if smoothing:
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


def test_script_with_invalid_parts_left_out_still_runs(tmp_path):
    config = parse_config("he said \"hi\" {x}\nshe said ''' \\ bye", 2, False, 1.0)
    out = run(script(config, None, None), tmp_path)
    assert int(out["V"]) == len(vocabulary(config.corpus)) == 10 and "continuations" not in out
