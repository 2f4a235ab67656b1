"""The LSTM page's code expander prints the numbers the page shows (sentence and table inputs, overrides)."""

from __future__ import annotations

from s2s_core.lstm import LstmConfig, lstm_gates, parse_config
from s2s_core.lstm.code import script
from tests.codegen.run import PageCase, run_script


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def _r4(m) -> str:
    return str(
        [[round(v, 4) for v in row] for row in m.tolist()] if m.dim() == 2 else [round(v, 4) for v in m.tolist()]
    )


def check_default(stdout: str) -> None:
    result = lstm_gates(LstmConfig())
    out = _parse(stdout)
    for name in "ifgo":
        assert out[name] == _r4(result.run.gates[name].value), name
    assert out["c"] == _r4(result.run.c) and out["h"] == _r4(result.run.h)
    assert out["h_n"] == _r4(result.torch_h_n) and out["c_n"] == _r4(result.torch_c_n)
    assert out["hand == nn.LSTM"] == "True"
    assert out["parameters"] == str(result.n_params)
    assert "forced c" not in out


def page_case() -> PageCase:
    return PageCase("lstm", script(LstmConfig()), check_default)


def test_default_script_matches_the_core():
    check_default(run_script(script(LstmConfig())))


def test_table_input_with_overrides_matches_the_core():
    config = parse_config(
        "table", "", [["1", "-2"], ["0.5", "0"], ["3", "1"]], 2, 3, 7, {"f": ([2, 3], 1), "i": ([2, 3], 0)}
    )
    result = lstm_gates(config)
    out = _parse(run_script(script(config)))
    assert out["h"] == _r4(result.run.h)
    assert out["forced c"] == _r4(result.forced.c) and out["forced h"] == _r4(result.forced.h)
    assert out["hand == nn.LSTM"] == "True"
