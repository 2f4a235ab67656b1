"""The BPTT page's code expander prints the gradient norms and the clipping numbers the page shows."""

from __future__ import annotations

from s2s_core.bptt import BpttConfig, backprop_through_time, clip
from s2s_core.bptt.code import script
from s2s_core.fmt import sci
from tests.codegen.run import run_script

SEP = "=====8<====="


def test_scripts_print_the_page_numbers():
    cases = [(BpttConfig(), 1.0), (BpttConfig(T=17, rho=1.3, linear=True, gate_bias=-0.5, truncate=5, seed=11), 0.2)]
    # Both scripts in one fresh process (torch is imported once), each in its own namespace.
    runner = "\n".join(f"exec({script(c, m)!r}, {{'__name__': '__main__'}}); print({SEP!r})" for c, m in cases)
    outputs = run_script(runner).split(SEP + "\n")
    for (config, max_norm), out in zip(cases, outputs):
        result = backprop_through_time(config)
        lines = out.strip().splitlines()
        for cell in result.cells:
            assert f"{cell.cell} grad norms by steps back: {[sci(v) for v in cell.norms]}" in lines
            clipped = clip(cell, max_norm)
            assert (f"{cell.cell} clip: before {clipped.total_before:.4g} after {clipped.total_after:.4g} "
                    f"cosine {clipped.cosine:.6f}") in lines
