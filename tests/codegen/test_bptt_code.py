"""The BPTT page's code expander prints the gradient norms and the clipping numbers the page shows."""

from __future__ import annotations

from s2s_core.bptt import BpttConfig, backprop_through_time
from s2s_core.bptt.code import script
from s2s_core.bptt.frames import sci
from tests.codegen.run import run_script

SEP = "=====8<====="


def test_scripts_print_the_page_numbers():
    configs = [BpttConfig(), BpttConfig(T=17, rho=1.3, linear=True, gate_bias=-0.5, truncate=5, max_norm=0.2, seed=11)]
    # Both scripts in one fresh process (torch is imported once), each in its own namespace.
    runner = "\n".join(f"exec({script(c)!r}, {{'__name__': '__main__'}}); print({SEP!r})" for c in configs)
    outputs = run_script(runner).split(SEP + "\n")
    for config, out in zip(configs, outputs):
        result = backprop_through_time(config)
        lines = out.strip().splitlines()
        for cell in result.cells:
            assert f"{cell.cell} grad norms by steps back: {[sci(v) for v in cell.norms]}" in lines
            assert (f"{cell.cell} clip: before {cell.total_before:.4g} after {cell.total_after:.4g} "
                    f"cosine {cell.cosine:.6f}") in lines
