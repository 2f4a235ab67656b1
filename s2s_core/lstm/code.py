"""The runnable PyTorch script for the LSTM page's current inputs (prints what the page shows)."""

from __future__ import annotations

from s2s_core.gated.code import ROUNDED_DEF, forces_literal, init_block, input_block
from s2s_core.lstm.compute import LstmConfig


def script(config: LstmConfig) -> str:
    """A self-contained script: split nn.LSTM's weights into i, f, g, o, run the steps by hand, compare."""
    seq = config.seq
    override = ' notes="lstm.override_intro"' if config.forces else ""
    return f'''# %% heading="lstm.title" notes="lstm.intro"
"""LSTM gates by hand with nn.LSTM's own weights, checked against nn.LSTM."""
import math

import torch
from torch import nn

# %% Your numbers heading="ui.notebook.inputs" notes="lstm.untrained_more"
{input_block(seq)}S = x.shape[0]
{init_block("LSTM", seq.E, config.H, seq.seed, config.own)}
# %% The weights, split by gate heading="lstm.weights_heading" notes="lstm.notice_4"
# PyTorch stacks the four blocks in the order i, f, g, o: rows k*H to (k+1)*H belong to block k.
W_ii, W_if, W_ig, W_io = cell.weight_ih_l0.detach().chunk(4)  # 4 x (H, E)
W_hi, W_hf, W_hg, W_ho = cell.weight_hh_l0.detach().chunk(4)  # 4 x (H, H)
b_ii, b_if, b_ig, b_io = cell.bias_ih_l0.detach().chunk(4)  # 4 x (H,)
b_hi, b_hf, b_hg, b_ho = cell.bias_hh_l0.detach().chunk(4)  # 4 x (H,)
FORCE = {forces_literal(config)}  # gate -> (0-based steps, forced value)


# %% The steps by hand heading="ui.tab_steps" notes="lstm.notice_2"
def run(force):
    h = torch.zeros(H, dtype=torch.float64)  # (H,) h_0
    c = torch.zeros(H, dtype=torch.float64)  # (H,) c_0
    seen = {{name: [] for name in "ifgoch"}}
    for t in range(S):
        i = torch.sigmoid(W_ii @ x[t] + b_ii + W_hi @ h + b_hi)  # (H,) input gate
        f = torch.sigmoid(W_if @ x[t] + b_if + W_hf @ h + b_hf)  # (H,) forget gate
        g = torch.tanh(W_ig @ x[t] + b_ig + W_hg @ h + b_hg)  # (H,) candidate
        o = torch.sigmoid(W_io @ x[t] + b_io + W_ho @ h + b_ho)  # (H,) output gate
        gates = {{"i": i, "f": f, "o": o}}
        for name, (steps, value) in force.items():
            if t in steps:
                gates[name] = torch.full_like(gates[name], value)
        i, f, o = gates["i"], gates["f"], gates["o"]
        c = f * c + i * g  # (H,) keep f of the old cell, write i of the candidate
        h = o * torch.tanh(c)  # (H,) expose o of the squashed cell
        for name, value in zip("ifgoch", (i, f, g, o, c, h)):
            seen[name].append(value)
    return {{name: torch.stack(rows) for name, rows in seen.items()}}  # each (S, H)


{ROUNDED_DEF}

# %% The check against nn.LSTM heading="lstm.check_heading" notes="lstm.notice_3"
hand = run({{}})
with torch.no_grad():
    out, (h_n, c_n) = cell(x.unsqueeze(0))  # (1, S, H), (1, 1, H), (1, 1, H)
for name in "ifgoch":
    print(f"{{name}}: {{rounded(hand[name])}}")
print("h_n:", rounded(h_n[0, 0]))
print("c_n:", rounded(c_n[0, 0]))
same = (
    torch.allclose(hand["h"], out[0])
    and torch.allclose(hand["h"][-1], h_n[0, 0])
    and torch.allclose(hand["c"][-1], c_n[0, 0])
)
print("hand == nn.LSTM:", same)
print("parameters:", sum(p.numel() for p in cell.parameters()))

# %% Forced gates heading="lstm.override_heading"{override}
if FORCE:
    forced = run(FORCE)
    print("forced c:", rounded(forced["c"]))
    print("forced h:", rounded(forced["h"]))
'''
