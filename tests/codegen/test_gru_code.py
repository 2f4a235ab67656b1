"""The GRU page's code expander prints the numbers the page shows, and the parameter counts."""

from __future__ import annotations

from s2s_core.gru import GruConfig, gru_gates, parse_config
from s2s_core.gru.code import script
from s2s_core.gru.compare import compare
from tests.codegen.run import PageCase, run_script


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def _r4(m) -> str:
    return str(
        [[round(v, 4) for v in row] for row in m.tolist()] if m.dim() == 2 else [round(v, 4) for v in m.tolist()]
    )


def check_default(stdout: str) -> None:
    result = gru_gates(GruConfig())
    out = _parse(stdout)
    for name in "rzn":
        assert out[name] == _r4(result.run.gates[name].value), name
    assert out["h"] == _r4(result.run.h) and out["h_n"] == _r4(result.torch_h_n)
    assert out["hand == nn.GRU"] == "True"
    comp = compare(GruConfig().seq.E, GruConfig().H)
    assert [out[f"parameters {m}"] for m in ("RNN", "GRU", "LSTM")] == [
        str(comp.totals[c]) for c in ("rnn", "gru", "lstm")
    ]


def page_case() -> PageCase:
    return PageCase("gru", script(GruConfig()), check_default)


def test_default_script_matches_the_core():
    check_default(run_script(script(GruConfig())))


def test_sentence_with_override_matches_the_core():
    config = parse_config("sentence", "나는 책을 읽는다 나는", None, 5, 2, 3, {"z": ([2], 1), "r": ([3], 0)})
    result = gru_gates(config)
    out = _parse(run_script(script(config)))
    assert out["h"] == _r4(result.run.h)
    assert out["forced h"] == _r4(result.forced.h)
