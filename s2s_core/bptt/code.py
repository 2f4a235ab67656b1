"""The runnable PyTorch script for the backprop-through-time page's current inputs (prints what the page shows)."""

from __future__ import annotations

from s2s_core.bptt.compute import QUIZ_BACK, STRETCH_SEED, BpttConfig, E, H
from s2s_core.bptt.fields import CELLS, MAX_T
from s2s_core.fmt import script_defs


def script(config: BpttConfig, max_norm: float = 1.0) -> str:
    """A self-contained script: the same seeded inputs and weights, the unrolled loop, autograd, clipping, and each
    step's part of ∂L/∂W_hh before and after clipping."""
    return f'''# %% heading="bptt.title" notes="bptt.intro"
"""Backprop through time: how much gradient of a last-step loss reaches each earlier hidden state."""
import math

import torch
from torch import nn

# %% Your numbers heading="ui.notebook.inputs" notes="bptt.setup"
T, RHO, GATE_BIAS, SEED = {config.T}, {config.rho!r}, {config.gate_bias!r}, {config.seed}
TRUNCATE, MAX_NORM = {config.truncate}, {max_norm!r}
LINEAR = {config.linear!r}  # the plain RNN without tanh: the gradient k steps back is exactly RHO**k times the last
E, H, MAX_T = {E}, {H}, {MAX_T}
FAR = max(0, min({QUIZ_BACK}, T - 2))  # the far step read below, in steps back (step 1 multiplies h_0 = 0: no part)
CELLS = {CELLS!r}
GATES = {{"rnn": 1, "lstm": 4, "gru": 3}}  # blocks stacked in W_ih / W_hh (PyTorch's order)


# %% The inputs, the weights and one step of each cell notes="bptt.why"
def make_inputs():
    g = torch.Generator().manual_seed(SEED * 4)
    return torch.randn(MAX_T, E, generator=g, dtype=torch.float64)[:T]  # (T, E)


def make_weights(cell):
    """PyTorch's init U(-1/sqrt(H), 1/sqrt(H)), but each HxH block of W_hh = RHO * (orthogonal Q)."""
    G, k = GATES[cell], 1.0 / math.sqrt(H)
    g = torch.Generator().manual_seed(SEED * 4 + 1 + CELLS.index(cell))
    uniform = lambda *shape: torch.rand(*shape, generator=g, dtype=torch.float64) * 2 * k - k
    W_ih = uniform(G * H, E)  # (G*H, E)
    blocks = []
    for _ in range(G):
        q, r = torch.linalg.qr(torch.randn(H, H, generator=g, dtype=torch.float64))
        blocks.append(q * torch.sign(torch.diagonal(r)))
    W_hh = RHO * torch.cat(blocks)  # (G*H, H): each HxH block has spectral radius RHO (the stack is no square)
    b_ih, b_hh = uniform(G * H), uniform(G * H)
    if cell != "rnn":
        b_ih[H:2 * H] += GATE_BIAS  # the LSTM's forget gate f / the GRU's update gate z
    return [p.requires_grad_(True) for p in (W_ih, W_hh, b_ih, b_hh)]


def step(cell, x, h, c, W_ih, W_hh, b_ih, b_hh):
    """One step of nn.RNN / nn.LSTM / nn.GRU, written out with PyTorch's gate names."""
    if cell == "rnn":
        pre = x @ W_ih.T + b_ih + h @ W_hh.T + b_hh  # (1, H)
        return (pre if LINEAR else torch.tanh(pre)), c
    if cell == "lstm":
        i, f, g, o = (x @ W_ih.T + b_ih + h @ W_hh.T + b_hh).chunk(4, dim=-1)  # each (1, H)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)  # (1, H)
        return torch.sigmoid(o) * torch.tanh(c), c
    i_r, i_z, i_n = (x @ W_ih.T + b_ih).chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ W_hh.T + b_hh).chunk(3, dim=-1)
    r, z = torch.sigmoid(i_r + h_r), torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h, c


{script_defs("num", "sci")}

# %% Backward, then clipping heading="bptt.tab_clip" notes="bptt.clip_intro bptt.clip_parts_intro bptt.notice_5"
x = make_inputs()  # (T, E)
for cell in CELLS:
    params = make_weights(cell)
    W_ih, W_hh, b_ih, b_hh = params
    # How much W_hh lengthens a random vector: each HxH block by RHO, the stack of G blocks by RHO * sqrt(G).
    v = torch.randn(H, generator=torch.Generator().manual_seed({STRETCH_SEED} + SEED), dtype=torch.float64)
    with torch.no_grad():
        whole = num(((W_hh @ v).norm() / v.norm()).item())
        blocks = ", ".join(num(((block @ v).norm() / v.norm()).item()) for block in W_hh.split(H))
        print(f"{{cell}} W_hh stretch: {{whole}}, each block: {{blocks}}")
    # W_hh is used at every step; an exact zero added at step t only (a "tap") collects that step's part of dL/dW_hh.
    taps = [torch.zeros_like(W_hh, requires_grad=True) for _ in range(T)]
    h = torch.zeros(1, H, dtype=torch.float64)  # (1, H) h_0
    c = torch.zeros(1, H, dtype=torch.float64)  # (1, H) the LSTM's cell state
    hs = []
    for t in range(1, T + 1):
        h, c = step(cell, x[t - 1:t], h, c, W_ih, W_hh + taps[t - 1], b_ih, b_hh)
        h.retain_grad()  # keep dL/dh_t (autograd frees it otherwise)
        hs.append(h)
        if TRUNCATE and t % TRUNCATE == 0 and t < T:
            h, c = h.detach(), c.detach()  # truncated BPTT: no gradient flows back past here
    loss = hs[-1].sum()  # a loss at the last step only
    loss.backward()
    norms = [0.0 if s.grad is None else s.grad.norm().item() for s in reversed(hs)]  # k = 0 .. T-1 steps back
    print(f"{{cell}} grad norms by steps back:", [sci(v) for v in norms])

    # Clipping works on the parameter gradients (never on dL/dh_t): one factor for all of them.
    parts = [torch.zeros_like(W_hh) if tap.grad is None else tap.grad.clone() for tap in taps]  # step t's part
    before = torch.cat([p.grad.flatten() for p in params])
    total = nn.utils.clip_grad_norm_(params, MAX_NORM)
    after = torch.cat([p.grad.flatten() for p in params])
    cosine = (before @ after / (before.norm() * after.norm())).item()
    print(f"{{cell}} clip: before {{sci(total.item())}} after {{sci(after.norm().item())}} cosine {{num(cosine)}}")

    # Each step's part, scaled with clip_grad_norm_'s own total (clip_grads_with_norm_ is its scaling half).
    stand_ins = [torch.zeros_like(p) for p in parts]
    for s, p in zip(stand_ins, parts):
        s.grad = p.clone()
    nn.utils.clip_grads_with_norm_(stand_ins, MAX_NORM, total)
    part_before = [p.norm().item() for p in reversed(parts)]  # by steps back
    part_after = [s.grad.norm().item() for s in reversed(stand_ins)]
    print(f"{{cell}} W_hh parts by steps back, before clipping:", [sci(v) for v in part_before])
    print(f"{{cell}} W_hh parts by steps back, after clipping:", [sci(v) for v in part_after])
    ratio = lambda v: v[FAR] / v[0] if v[0] > 0 else 0.0
    print(f"{{cell}} step {{T - FAR}} part / last step's part: before {{sci(ratio(part_before))}} "
          f"after {{sci(ratio(part_after))}}")
    summed = torch.stack([s.grad for s in stand_ins]).sum(dim=0)
    diff = (summed - W_hh.grad).abs().max().item()
    print(f"{{cell}} clipped parts summed vs clipped dL/dW_hh: max |difference| {{sci(diff)}}")
'''
