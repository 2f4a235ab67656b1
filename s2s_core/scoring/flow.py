"""One decoder step with attention, wired four ways: which state scores, and where the context goes.

query_from  "previous": score with s_(t-1) before the GRU runs (Bahdanau; PyTorch's translation tutorial)
            "current":  run the GRU first, score with its new state s_t (Luong)
context_into "input":  [y_(t-1); context] is the GRU's input (Bahdanau)
             "output": h̃ = tanh(W_c·[context; s_t]) feeds the word scores (Luong; the tutorial's output side)
"current" + "input" is impossible: s_t would need the context that s_t is used to compute.
Shapes: B batch (1 here), E embedding, H_d decoder size, H_e encoder size, S source positions, V vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch
from torch import nn

from s2s_core.errors import InputError
from s2s_core.rng import isolated
from s2s_core.scoring.attend import Read, Window, attend
from s2s_core.scoring.modules import init_uniform

QueryFrom = Literal["previous", "current"]
ContextInto = Literal["input", "output"]
FLOW_VOCAB = 8  # V: a toy output vocabulary; only the shape of the word scores matters here
FLOW_EMBED = 3  # E: the previous output word's embedding


class AttnDecoderStep(nn.Module):
    """The decoder side of one step: a GRU cell, the output combiner and the word-score layer."""

    def __init__(self, embed: int, dec_size: int, enc_size: int, vocab: int, context_into: str) -> None:
        super().__init__()
        gru_in = embed + enc_size if context_into == "input" else embed
        self.gru = nn.GRUCell(gru_in, dec_size)
        self.combine = nn.Linear(enc_size + dec_size, dec_size, bias=False)  # W_c: [context; s_t] -> h̃
        self.out = nn.Linear(dec_size, vocab)


@dataclass(frozen=True)
class FlowResult:
    query_from: str
    context_into: str
    s_prev: torch.Tensor  # (B, H_d) the decoder state you typed, taken as s_(t-1)
    query: torch.Tensor  # (B, H_d) the state that scores: s_(t-1) or s_t
    read: Read  # scores, weights, context of this step's attention
    s_t: torch.Tensor  # (B, H_d) the GRU's new state
    logits: torch.Tensor  # (B, V) word scores
    shapes: tuple[tuple[str, tuple[int, ...]], ...]  # every tensor's shape (y, gru_in, h̃ too), for the diagram
    s_t_from_zero: torch.Tensor  # (B, H_d) the same GRU input with s_(t-1) = 0: what the step makes without memory
    carried: float  # ||s_t - s_t_from_zero||: what the recurrence still carries, attention or not

    @property
    def prev_is_zero(self) -> bool:
        """s_(t-1) is all zeros, so this step cannot show what the recurrence carries (selects the wording)."""
        return bool(torch.all(self.s_prev == 0))


def check_wiring(query_from: str, context_into: str, field: str = "scoring.field.context_into") -> None:
    if query_from == "current" and context_into == "input":
        raise InputError("scoring.error.circular", field)


def decoder_step(
    scorer: nn.Module,
    s_prev: torch.Tensor,
    enc: torch.Tensor,
    query_from: QueryFrom,
    context_into: ContextInto,
    seed: int,
    *,
    window: Window = "global",
    t: int = 1,
    half_width: int = 1,
    locator: nn.Module | None = None,
) -> FlowResult:
    """s_prev (B, H_d), enc (B, S, H_e) -> FlowResult; the attention read is the page's focused scorer."""
    check_wiring(query_from, context_into)
    B, H_d = s_prev.shape
    H_e = enc.shape[-1]
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        step = init_uniform(AttnDecoderStep(FLOW_EMBED, H_d, H_e, FLOW_VOCAB, context_into), seed + 10)
    y = torch.randn(B, FLOW_EMBED, generator=torch.Generator().manual_seed(seed + 11), dtype=torch.float64)  # (B, E)

    def read_with(query: torch.Tensor) -> Read:
        return attend(scorer, query, enc, window, t=t, half_width=half_width, locator=locator)

    combined = None
    with torch.no_grad():
        if query_from == "previous":
            # 1) Score with the state the decoder had before this step.
            read = read_with(s_prev)
            # 2) The context either joins the GRU's input, or waits for the GRU's output.
            gru_in = torch.cat([y, read.context], dim=-1) if context_into == "input" else y  # (B, E + H_e) or (B, E)
            s_t = step.gru(gru_in, s_prev)  # (B, H_d)
        else:
            # 1) Run the GRU first (no context yet), then score with its new state.
            gru_in = y  # (B, E)
            s_t = step.gru(gru_in, s_prev)  # (B, H_d)
            read = read_with(s_t)
        if context_into == "output":
            # 3) Luong's attentional hidden state: the context and s_t together decide the word.
            combined = torch.tanh(step.combine(torch.cat([read.context, s_t], dim=-1)))  # (B, H_e + H_d) -> (B, H_d)
        logits = step.out(combined if combined is not None else s_t)  # (B, V)
        # 4) With attention on top the decoder is still recurrent: the same input without s_(t-1) gives another s_t.
        s_t_from_zero = step.gru(gru_in, torch.zeros_like(s_prev))  # (B, H_d)
    query = s_prev if query_from == "previous" else s_t
    tensors = {
        "y": y,
        "s_prev": s_prev,
        "query": query,
        "enc": enc,
        "weights": read.weights,
        "context": read.context,
        "gru_in": gru_in,
        "s_t": s_t,
        "logits": logits,
    }
    if combined is not None:
        tensors["combined"] = combined
    return FlowResult(
        query_from=query_from,
        context_into=context_into,
        s_prev=s_prev,
        query=query,
        read=read,
        s_t=s_t,
        logits=logits,
        shapes=tuple((name, tuple(t.shape)) for name, t in tensors.items()),
        s_t_from_zero=s_t_from_zero,
        carried=float((s_t - s_t_from_zero).norm()),
    )
