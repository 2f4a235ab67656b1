"""The BPTT page's code expander prints the gradient norms and the clipping numbers the page shows."""

from __future__ import annotations

from s2s_core.bptt import BpttConfig, backprop_through_time, clip
from s2s_core.bptt.code import script
from s2s_core.fmt import num, sci
from tests.codegen.run import PageCase, run_script

SEP = "=====8<====="


def check(config: BpttConfig, max_norm: float, out: str) -> None:
    result = backprop_through_time(config)
    lines = out.strip().splitlines()
    for cell in result.cells:
        assert f"{cell.cell} grad norms by steps back: {[sci(v) for v in cell.norms]}" in lines
        blocks = ", ".join(num(b) for b in cell.block_stretch)
        assert f"{cell.cell} W_hh stretch: {num(cell.stretch)}, each block: {blocks}" in lines
        clipped = clip(cell, max_norm)
        name = cell.cell
        assert (
            f"{name} clip: before {sci(clipped.total_before)} after {sci(clipped.total_after)} "
            f"cosine {num(clipped.cosine)}"
        ) in lines
        before, after = [sci(v) for v in clipped.part_before], [sci(v) for v in clipped.part_after]
        assert f"{name} W_hh parts by steps back, before clipping: {before}" in lines
        assert f"{name} W_hh parts by steps back, after clipping: {after}" in lines
        assert (
            f"{name} step {config.T - clipped.far_back} part / last step's part: "
            f"before {sci(clipped.far_before)} after {sci(clipped.far_after)}"
        ) in lines
        assert (
            f"{name} clipped parts summed vs clipped dL/dW_hh: max |difference| {sci(clipped.parts_sum_diff)}" in lines
        )


def page_case() -> PageCase:
    return PageCase("bptt", script(BpttConfig(), 1.0), lambda out: check(BpttConfig(), 1.0, out))


def test_scripts_print_the_page_numbers():
    cases = [(BpttConfig(), 1.0), (BpttConfig(T=17, rho=1.3, linear=True, gate_bias=-0.5, truncate=5, seed=11), 0.2)]
    # Both scripts in one fresh process (torch is imported once), each in its own namespace.
    runner = "\n".join(f"exec({script(c, m)!r}, {{'__name__': '__main__'}}); print({SEP!r})" for c, m in cases)
    outputs = run_script(runner).split(SEP + "\n")
    for (config, max_norm), out in zip(cases, outputs[: len(cases)], strict=True):
        check(config, max_norm, out)
