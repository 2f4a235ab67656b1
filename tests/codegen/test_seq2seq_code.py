"""The encoder–decoder page's code expander prints the numbers the page shows."""

from __future__ import annotations

import pytest

from s2s_core.seq2seq import Seq2SeqConfig, run
from s2s_core.seq2seq.code import script
from s2s_core.seq2seq.frames import bottleneck_summary
from tests.codegen.run import PageCase, run_script

CONFIGS = [
    Seq2SeqConfig(),
    Seq2SeqConfig(
        cell="gru",
        bidirectional=True,
        enc_layers=2,
        dec_layers=3,
        dec_hidden=4,
        bridge="linear",
        source=("I", "read", "a", "book"),
        replacement="you",
        steps=4,
        top_k=2,
        seed=5,
    ),
    Seq2SeqConfig(bidirectional=True),  # no bridge and the shapes differ
]


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def _rounded(t) -> str:
    return str([round(x, 4) for x in t.tolist()])


@pytest.fixture(scope="module")
def outputs() -> list[dict[str, str]]:
    """Every config's script in ONE fresh Python process (importing torch once keeps the test fast)."""
    runner = "\n".join(f"exec({script(c)!r}, {{'__name__': '__main__'}}); print('=====')" for c in CONFIGS)
    return [_parse(block) for block in run_script(runner).split("=====\n") if block.strip()]


def check(config: Seq2SeqConfig, out: dict[str, str]) -> None:
    result = run(config)
    assert out["outputs shape"] == str(tuple(result.encoder.outputs.shape))
    assert out["h_n shape"] == str(tuple(result.encoder.h_n.shape))
    assert out["encoder summary"] == _rounded(result.encoder.h_n[-1, 0])
    assert out["decoder h0 shape"] == str(tuple(result.handoff.h0.shape))
    for t, step in enumerate(result.decoding.steps, start=1):
        assert out[f"step {t}"] == str([(tok, round(p, 4)) for tok, p in step.top])
    assert out["output"] == " ".join(result.decoding.output)
    b = result.bottleneck
    m = bottleneck_summary(b)
    assert out["hand-off numbers"] == str(m.handoff_numbers)
    assert out["per-word factor"] == str(round(m.per_word, 4))
    for n in (len(config.source), 24):
        assert out[f"first-word change at length {n}"] == str([f"{d:.4e}" for d in b.delta_first[:, n - 1].tolist()])


def page_case() -> PageCase:
    """The untrained model with a bridge (the trained one's script is the Translation lab's: see test_training)."""
    return PageCase("seq2seq", script(CONFIGS[1]), lambda stdout: check(CONFIGS[1], _parse(stdout)))


@pytest.mark.parametrize("index", [0, 1])
def test_script_matches_the_core(outputs, index):
    check(CONFIGS[index], outputs[index])


def test_script_without_a_bridge_shows_pytorchs_refusal(outputs):
    assert run(CONFIGS[2]).error is not None
    assert "Expected hidden" in outputs[2]["PyTorch refuses the hand-off"]
