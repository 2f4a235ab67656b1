"""Which sentence the attention page says about the current inputs: the "what to notice" line about the decoder
steps' contexts is chosen here, so it does not promise each step its own context when two steps share weights."""

from __future__ import annotations

import torch

from s2s_core.attention.compute import AttentionResult


def shared_steps(result: AttentionResult, tol: float = 1e-9) -> tuple[int, ...]:
    """0-based decoder steps whose context equals an earlier step's (the same weights on the same sources)."""
    contexts = result.contexts  # (T, D)
    return tuple(
        t
        for t in range(1, contexts.shape[0])
        if any(torch.allclose(contexts[t], contexts[u], atol=tol, rtol=0) for u in range(t))
    )


def steps_key(result: AttentionResult) -> str:
    """notice_1: one step only, some steps sharing a context, or every step its own."""
    if result.contexts.shape[0] == 1:
        return "attention.notice_1_one"
    return "attention.notice_1_shared" if shared_steps(result) else "attention.notice_1"
