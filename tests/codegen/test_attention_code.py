"""The attention page's code expander prints the numbers the page shows."""

from __future__ import annotations

from s2s_core.attention import AttentionConfig, attention_weighting
from s2s_core.attention.code import script
from tests.codegen.run import PageCase, run_script


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def check(config: AttentionConfig, stdout: str) -> None:
    result, out = attention_weighting(config), _parse(stdout)
    assert out["contexts"] == str([[round(x, 4) for x in row] for row in result.contexts.tolist()])
    assert out["weights"] == str([[round(x, 4) for x in row] for row in result.weights.tolist()])
    assert out["weight sums"] == str([1.0] * len(config.steps))


def page_case() -> PageCase:
    return PageCase("attention", script(AttentionConfig()), lambda out: check(AttentionConfig(), out))


def test_default_script_prints_the_seed_output():
    out = run_script(script(AttentionConfig()))
    check(AttentionConfig(), out)
    assert _parse(out)["contexts"] == "[[3.4, 2.2], [1.8, 1.4]]"


def test_scores_and_pad_script_matches_the_core():
    config = AttentionConfig(
        sources=((1.0, -2.0, 0.5), (3.0, 0.0, 1.0), (0.0, 1.0, 1.0)),
        steps=((0.5, -1.0, 2.0),),
        mode="scores",
        pad=(False, False, True),
    )
    check(config, run_script(script(config)))
