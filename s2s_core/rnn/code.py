"""The runnable PyTorch script for the RNN page's current inputs (prints what the page shows)."""

from __future__ import annotations

import torch

from s2s_core.fmt import script_defs
from s2s_core.rnn.compute import RnnConfig, resolve_weights, token_vector


def _lit(t: torch.Tensor) -> str:
    """A tensor as an exact Python literal (repr round-trips every float64)."""
    if t.dim() == 1:
        return "[" + ", ".join(repr(float(v)) for v in t.tolist()) + "]"
    return "[\n        " + ",\n        ".join(_lit(row) for row in t) + ",\n    ]"


def script(config: RnnConfig) -> str:
    """A self-contained script: the hand-written loop, nn.RNN with the same weights, and the check."""
    w = resolve_weights(config)
    x = torch.stack([token_vector(tok, config.E, config.seed) for tok in config.tokens])  # (S, E)
    tokens = "[" + ", ".join(repr(tok) for tok in config.tokens) + "]"
    return f'''# %% heading="rnn.title" notes="rnn.intro"
"""RNN unrolled by hand: h_t = tanh(W_x·x_t + W_h·h_(t-1) + b), checked against nn.RNN."""
import torch
from torch import nn


{script_defs("vec", "sci")}


# %% Your numbers heading="ui.notebook.inputs" notes="rnn.bias_note"
tokens = {tokens}
# One input vector per token (an untrained embedding, fixed by the page's seed {config.seed}).
x = torch.tensor({_lit(x)}, dtype=torch.float64)  # (S, E)

# The weights every step shares. PyTorch keeps two biases; the formula's b is b_ih + b_hh.
W_x = torch.tensor({_lit(w.W_x)}, dtype=torch.float64)  # (H, E)
W_h = torch.tensor({_lit(w.W_h)}, dtype=torch.float64)  # (H, H)
b_ih = torch.tensor({_lit(w.b_ih)}, dtype=torch.float64)  # (H,)
b_hh = torch.tensor({_lit(w.b_hh)}, dtype=torch.float64)  # (H,)
b = b_ih + b_hh  # (H,)

# %% 1) The loop by hand: the same W_x, W_h, b at every step. heading="ui.tab_steps" notes="rnn.formula rnn.notice_3"
h = torch.zeros(W_h.shape[0], dtype=torch.float64)  # (H,) h_0 = 0
hs = []
for t in range(x.shape[0]):
    pre = W_x @ x[t] + W_h @ h + b  # (H,)
    h = torch.tanh(pre)  # (H,)
    hs.append(h)
    print(f"step {{t + 1}} {{tokens[t]}}: sum = {{vec(pre)}} -> h_{{t + 1}} = {{vec(h)}}")
hand = torch.stack(hs)  # (S, H)

# %% 2) PyTorch's own nn.RNN with the very same weights copied in. heading="ui.tab_check" notes="rnn.notice_5"
rnn = nn.RNN(x.shape[1], W_h.shape[0], batch_first=True, dtype=torch.float64)
with torch.no_grad():
    rnn.weight_ih_l0.copy_(W_x)
    rnn.weight_hh_l0.copy_(W_h)
    rnn.bias_ih_l0.copy_(b_ih)
    rnn.bias_hh_l0.copy_(b_hh)
    out, h_n = rnn(x.unsqueeze(0))  # (1, S, E) -> (1, S, H), (1, 1, H)

print("h_n:", vec(h_n[0, 0]))
print("parameters:", sum(p.numel() for p in rnn.parameters()))
print("allclose:", torch.allclose(hand, out[0]))
print("max |hand - nn.RNN|:", sci((hand - out[0]).abs().max().item()))
'''
