"""The masks page's generated script, run in a subprocess, prints the same numbers as the core."""

from __future__ import annotations

import ast

import pytest

from s2s_core.masks import MasksConfig, compute_masks, parse_config
from s2s_core.masks.code import script
from tests.codegen.run import PageCase, run_script


def _edited() -> MasksConfig:
    """Sentences of different lengths, one with both quote characters a Python literal must escape."""
    return parse_config([("a b c d e", "x"), ("f", "y z w 'q\""), ("g h", "v")], 12345, 3, 5)


def check(config: MasksConfig, stdout: str) -> None:
    r = compute_masks(config)
    printed = dict(line.split(": ", 1) for line in stdout.strip().splitlines())
    assert ast.literal_eval(printed["src_ids"]) == r.src_ids.tolist()
    assert ast.literal_eval(printed["dec_out"]) == r.dec_out.tolist()
    assert printed["real target tokens"] == f"{r.n_real} of {r.n_total}"
    assert float(printed["loss ignore_index"]) == round(r.loss_ignore, 4)
    assert float(printed["loss by hand over real tokens"]) == round(r.loss_ignore, 4)
    assert float(printed["loss with PAD included"]) == round(r.loss_all, 4)
    assert float(printed["max weight on PAD, masked"]) == 0.0
    leak = [[round(x, 4) for x in row] for row in r.pad_share_unmasked.tolist()]
    assert ast.literal_eval(printed["weight on PAD, unmasked"]) == leak
    gap = [round(x, 4) for x in r.final_gap.tolist()]
    assert ast.literal_eval(printed["final state gap |after PAD - true last|"]) == gap
    assert printed["true last == packed h_n"] == "True"


def page_case() -> PageCase:
    config = _edited()
    return PageCase("masks", script(config), lambda out: check(config, out))


@pytest.mark.parametrize("make", [MasksConfig, _edited], ids=["defaults", "edited"])
def test_script_prints_the_page_numbers(make):
    config = make()
    check(config, run_script(script(config)))
