"""The runnable PyTorch script for the GRU page's current inputs (prints what the page shows)."""

from __future__ import annotations

from s2s_core.gated.code import ROUNDED_DEF, forces_literal, init_block, input_block
from s2s_core.gru.compute import GruConfig


def script(config: GruConfig) -> str:
    """A self-contained script: split nn.GRU's weights into r, z, n, run the steps by hand, compare; count
    parameters."""
    seq = config.seq
    override = ' notes="gru.override_intro"' if config.forces else ""
    return f'''# %% heading="gru.title" notes="gru.intro"
"""GRU by hand with nn.GRU's own weights (PyTorch's formulation), checked against nn.GRU."""
import math

import torch
from torch import nn

# %% Your numbers heading="ui.notebook.inputs" notes="gru.untrained_more"
{input_block(seq)}S = x.shape[0]
{init_block("GRU", seq.E, config.H, seq.seed, config.own)}
# %% The weights, split by block heading="gru.weights_heading" notes="gru.notice_4"
# PyTorch stacks the three blocks in the order r, z, n: rows k*H to (k+1)*H belong to block k.
W_ir, W_iz, W_in = cell.weight_ih_l0.detach().chunk(3)  # 3 x (H, E)
W_hr, W_hz, W_hn = cell.weight_hh_l0.detach().chunk(3)  # 3 x (H, H)
b_ir, b_iz, b_in = cell.bias_ih_l0.detach().chunk(3)  # 3 x (H,)
b_hr, b_hz, b_hn = cell.bias_hh_l0.detach().chunk(3)  # 3 x (H,)
FORCE = {forces_literal(config)}  # gate -> (0-based steps, forced value)


# %% The steps by hand heading="ui.tab_steps" notes="gru.notice_3"
def run(force):
    h = torch.zeros(H, dtype=torch.float64)  # (H,) h_0; a GRU has no cell state
    seen = {{name: [] for name in "rznh"}}
    for t in range(S):
        r = torch.sigmoid((W_ir @ x[t] + b_ir) + (W_hr @ h + b_hr))  # (H,) reset gate
        z = torch.sigmoid((W_iz @ x[t] + b_iz) + (W_hz @ h + b_hz))  # (H,) update gate
        gates = {{"r": r, "z": z}}
        for name, (steps, value) in force.items():
            if t in steps:
                gates[name] = torch.full_like(gates[name], value)
        r, z = gates["r"], gates["z"]
        n = torch.tanh((W_in @ x[t] + b_in) + r * (W_hn @ h + b_hn))  # (H,) candidate: r gates the old state
        h = (1 - z) * n + z * h  # (H,) z keeps the old state, 1 - z takes the candidate
        for name, value in zip("rznh", (r, z, n, h)):
            seen[name].append(value)
    return {{name: torch.stack(rows) for name, rows in seen.items()}}  # each (S, H)


{ROUNDED_DEF}

# %% The check against nn.GRU heading="gru.check_heading" notes="gru.notice_1"
hand = run({{}})
with torch.no_grad():
    out, h_n = cell(x.unsqueeze(0))  # (1, S, H), (1, 1, H)
for name in "rznh":
    print(f"{{name}}: {{rounded(hand[name])}}")
print("h_n:", rounded(h_n[0, 0]))
same = torch.allclose(hand["h"], out[0]) and torch.allclose(hand["h"][-1], h_n[0, 0])
print("hand == nn.GRU:", same)

# %% Parameters of RNN, GRU and LSTM heading="gru.tab_compare" notes="gru.compare_keeps gru.compare_which"
for module in (nn.RNN, nn.GRU, nn.LSTM):
    print(f"parameters {{module.__name__}}:", sum(p.numel() for p in module(E, H).parameters()))

# %% Forced gates heading="gru.override_heading"{override}
if FORCE:
    forced = run(FORCE)
    print("forced h:", rounded(forced["h"]))
'''
