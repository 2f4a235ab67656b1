"""The RNN page's code expander prints the numbers the page shows (the hand loop, h_n, the check)."""

from __future__ import annotations

from s2s_core.fmt import vec as vec_text
from s2s_core.rnn import RnnConfig, parse_config, unroll
from s2s_core.rnn.code import script
from tests.codegen.run import PageCase, run_script

SEP = "=====8<====="


def _run_all(configs: list[RnnConfig]) -> list[list[str]]:
    """Every script in one fresh process (torch is imported once), each in its own namespace."""
    runner = "\n".join(f"exec({script(c)!r}, {{'__name__': '__main__'}}); print({SEP!r})" for c in configs)
    chunks = run_script(runner).split(SEP + "\n")
    return [chunk.strip().splitlines() for chunk in chunks[: len(configs)]]


def _typed() -> RnnConfig:
    """Typed weights, and a sentence with every character a Python literal must escape."""
    return parse_config(
        "\"quote' back\\slash {brace}",
        2,
        3,
        9,
        [["1", "-2"], ["0.5", "0"], ["3", "1e-3"]],
        [["0", "1", "0"], ["1", "0", "0"], ["0", "0", "-1"]],
        [["0.1"], ["0"], ["-0.25"]],
    )


def check(config: RnnConfig, lines: list[str]) -> None:
    result = unroll(config)
    for t, tok in enumerate(config.tokens):
        assert lines[t] == f"step {t + 1} {tok}: sum = {vec_text(result.pre[t])} -> h_{t + 1} = {vec_text(result.h[t])}"
    assert f"h_n: {vec_text(result.torch_h_n)}" in lines
    assert f"parameters: {result.n_params}" in lines
    assert "allclose: True" in lines


def page_case() -> PageCase:
    config = _typed()
    return PageCase("rnn", script(config), lambda out: check(config, out.strip().splitlines()))


def test_scripts_print_the_page_numbers():
    default, typed = parse_config("나는 책을 읽는다", 3, 4, 0), _typed()
    for config, lines in zip((default, typed), _run_all([default, typed]), strict=True):
        check(config, lines)
