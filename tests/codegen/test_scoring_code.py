"""The Bahdanau-vs-Luong page's code expander prints the numbers the page shows."""

from __future__ import annotations

import pytest

from s2s_core.scoring.code import script
from s2s_core.scoring.compute import ScoringConfig, compare
from tests.codegen.run import PageCase, run_script

CONFIGS = [
    ScoringConfig(),
    ScoringConfig(
        window="local_p", half_width=2, query_from="current", context_into="output", focus="general", seed=3, scale=1.5
    ),
    ScoringConfig(window="local_m", step=4, dec_state=(1.0, -1.0, 0.5), context_into="output", focus="concat"),
    ScoringConfig(query_from="current", context_into="input"),  # impossible wiring
    ScoringConfig(dec_state=(1.0, 2.0, 3.0), focus="dot"),  # dot with H_d ≠ H_e
    ScoringConfig(window="local_m", step=9, half_width=2),  # local-m past the sentence: p_t = t clipped to S
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


def check(config: ScoringConfig, out: dict[str, str]) -> None:
    result = compare(config)
    if result.window is None:
        assert "window centre" not in out
    else:  # the centre the page's window section shows: p_t = min(t, S) or S·sigmoid(v_pᵀ·tanh(W_p·s))
        assert out["window centre"] == str(round(result.window.center, 4))
    for f in result.functions:
        if f.read is None:
            assert out[f.name].startswith("needs H_d == H_e")
            continue
        assert out[f"{f.name} scores"] == _rounded(f.read.scores[0])
        assert out[f"{f.name} weights"] == _rounded(f.read.weights[0])
        assert out[f"{f.name} context"] == _rounded(f.read.context[0])
    focus = result.get(config.focus).read
    assert out["keys vs values"] == f"{tuple(focus.keys.shape)} {tuple(focus.values.shape)}"
    shapes = {k: v for k, v in result.flow.shapes if k not in ("y", "s_prev", "query", "enc")}
    assert out["flow shapes"] == str(shapes)
    assert out["flow weights"] == _rounded(result.flow.read.weights[0])
    assert out["flow carried"] == str(round(result.flow.carried, 4))


def page_case() -> PageCase:
    return PageCase("scoring", script(CONFIGS[0]), lambda stdout: check(CONFIGS[0], _parse(stdout)))


@pytest.mark.parametrize("index", [0, 1, 2, 5])
def test_script_matches_the_core(outputs, index):
    check(CONFIGS[index], outputs[index])


def test_impossible_wiring_and_dot_size_mismatch_are_explained(outputs):
    assert outputs[3]["flow"].startswith("impossible")
    assert outputs[4]["flow"] == "dot needs H_d == H_e"
