"""The runnable PyTorch script for the attention page's current inputs (prints what the page shows)."""

from __future__ import annotations

from s2s_core.attention.compute import AttentionConfig
from s2s_core.fmt import DIGITS


def _rows(rows: tuple[tuple[float, ...], ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in rows) + "]"


def script(config: AttentionConfig) -> str:
    """A self-contained script: scores -> mask PAD -> softmax -> weights @ values."""
    if config.mode == "weights":
        scores_line = (
            f"weights_in = torch.tensor({_rows(config.steps)}, dtype=torch.float64)  # (T, S)\n"
            "scores = torch.log(weights_in)  # (T, S): softmax(log w) gives w back (renormalised)"
        )
    else:
        scores_line = f"scores = torch.tensor({_rows(config.steps)}, dtype=torch.float64)  # (T, S)"
    pad = "[" + ", ".join(str(bool(p)) for p in config.pad) + "]"
    return f'''# %% heading="attention.title" notes="attention.intro"
"""Attention as a weighted sum: scores -> softmax over source positions -> context vectors."""
import torch

# %% Your numbers heading="ui.notebook.inputs" notes="attention.pipeline"
values = torch.tensor({_rows(config.sources)}, dtype=torch.float64)  # (S, D) source vectors
{scores_line}
is_pad = torch.tensor({pad})  # (S,) True marks a PAD position

# %% Scores -> softmax -> weighted sum heading="ui.tab_steps" notes="attention.notice_3 attention.notice_2"
# PAD positions get -inf before softmax, so their weight is exactly 0.
masked = scores.masked_fill(is_pad.unsqueeze(0), float("-inf"))  # (T, S)
weights = masked.softmax(dim=-1)  # (T, S): softmax over the source positions
contexts = weights @ values  # (T, S) @ (S, D) -> (T, D)

print("weights:", [[round(x, {DIGITS}) for x in row] for row in weights.tolist()])
print("weight sums:", [round(x, {DIGITS}) for x in weights.sum(-1).tolist()])
print("contexts:", [[round(x, {DIGITS}) for x in row] for row in contexts.tolist()])
'''
