"""Tidy pandas frames for the encoder–decoder page (long format, ready for Altair), and short texts."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import torch

from s2s_core.fmt import DIGITS, num
from s2s_core.seq2seq.bottleneck import Bottleneck
from s2s_core.seq2seq.compute import DecodeStep, Decoding, EncoderResult, state_rows

ARROWS = ("→", "←")  # forward, backward direction
BRIEF_SHOWN, BRIEF_DIGITS = 4, 2  # the step text's short vectors: first components, the picture's 2 decimals


def brief(values: torch.Tensor) -> str:
    """A state vector short enough for a phone's line: '[0.04, -0.17, 0.19, 0.18, …]', its first BRIEF_SHOWN
    components at the two decimals the picture's squares print (num() of the rounded value, so the signs and
    trailing zeros read as everywhere else); the page gives the full vec() beside it."""
    items = values.tolist()  # (H,)
    shown = ", ".join(num(round(v, BRIEF_DIGITS)) for v in items[:BRIEF_SHOWN])
    return "[" + shown + (", …" if len(items) > BRIEF_SHOWN else "") + "]"


def position_label(s: int, token: str) -> str:
    """0-based position -> '1 나는' (position first, so equal words stay distinct)."""
    return f"{s + 1} {token}"


def component_labels(H: int, K: int) -> list[str]:
    """'h1' … for one direction; '→h1' … '←h1' … when the encoder reads both ways (PyTorch's order)."""
    if K == 1:
        return [f"h{i + 1}" for i in range(H)]
    return [f"{ARROWS[k]}h{i + 1}" for k in range(K) for i in range(H)]


def state_labels(L: int, K: int) -> list[str]:
    """Row labels of h_n: PyTorch orders them layer by layer, directions inside a layer (compute.state_rows)."""
    return [f"L{layer}{ARROWS[k] if K == 2 else ''}" for layer, k in state_rows(L, K)]


def matrix_frame(matrix: torch.Tensor, rows: list[str], cols: list[str]) -> pd.DataFrame:
    """(R, C) tensor -> one row per cell: row, col, value."""
    return pd.DataFrame(
        [{"row": r, "col": c, "value": float(matrix[i, j])} for i, r in enumerate(rows) for j, c in enumerate(cols)]
    )


def encoder_outputs_frame(enc: EncoderResult, K: int) -> pd.DataFrame:
    outputs = enc.outputs[0]  # (S, K*H_e)
    rows = [position_label(s, tok) for s, tok in enumerate(enc.tokens)]
    return matrix_frame(outputs, rows, component_labels(outputs.shape[1] // K, K))


def final_state_frame(state: torch.Tensor, L: int, K: int) -> pd.DataFrame:
    """h_n or c_n (L*K, B, H) -> frame with one row per layer/direction."""
    return matrix_frame(state[:, 0], state_labels(L, K), [f"h{i + 1}" for i in range(state.shape[-1])])


def decoder_states_frame(dec: Decoding, first_label: str) -> pd.DataFrame:
    """h0 (the hand-off) and the top layer's state after each step."""
    rows = [first_label] + [f"t{t + 1}" for t in range(len(dec.steps))]
    return matrix_frame(dec.states, rows, [f"h{i + 1}" for i in range(dec.states.shape[1])])


def steps_frame(dec: Decoding, source: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per decoding step: the input word, the chosen word, its probability, how far h moved; with
    attention also the source word with the largest weight ("1 나는": position and word)."""
    rows = []
    for t, s in enumerate(dec.steps):
        row = {
            "step": f"t{t + 1}",
            "input": s.input_token,
            "chosen": s.chosen,
            "p": round(s.top[0][1], DIGITS),
            "change": round(s.change, DIGITS),
        }
        if s.looked is not None and source:
            row["looked"] = position_label(s.looked, source[s.looked])
        rows.append(row)
    return pd.DataFrame(rows)


def topk_frame(step: DecodeStep) -> pd.DataFrame:
    return pd.DataFrame([{"token": tok, "p": p, "chosen": tok == step.chosen} for tok, p in step.top])


def bottleneck_frame(b: Bottleneck) -> pd.DataFrame:
    """One row per (length, which word was replaced, direction): the change of the final state."""
    rows = []
    K = b.delta_first.shape[0]
    for k in range(K):
        for n in b.lengths:
            for edit, delta in (("first", b.delta_first), ("last", b.delta_last)):
                rows.append(
                    {
                        "length": n,
                        "edit": edit,
                        "direction": ARROWS[k],
                        "delta": float(delta[k, n - 1]),
                        "norm": float(b.norm[k, n - 1]),
                    }
                )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class BottleneckSummary:
    """The numbers the page quotes, and the conditions that choose its sentences."""

    n: int  # the learner's sentence length
    N: int  # the longest measured
    short: float  # first-word change of the final state at n words
    long: float  # … at N words
    ratio: float | None  # long / short; None: the replacement is the first word itself
    per_word: float | None  # (long / short)^(1 / (N - n)): the trace's average factor per extra word
    last_long: float  # last-word change at N words
    backward_long: float | None  # first-word change of the ← state at N words (bidirectional only)
    handoff_numbers: int  # the hand-off's size, the same at every length: the bottleneck

    @property
    def fades(self) -> bool:
        """The untrained network is contracting here: the early word's trace shrinks with each word (forgetting)."""
        return self.per_word is not None and self.per_word < 1

    @property
    def band(self) -> str | None:
        """The quiz's answer: the long sentence's change is "less" than half, "more" than double, or the "same"."""
        if self.ratio is None:
            return None
        return "less" if self.ratio < 0.5 else "more" if self.ratio > 2 else "same"


def bottleneck_summary(b: Bottleneck) -> BottleneckSummary:
    """First-word change at the learner's length (short) and the longest (long), and what they say."""
    n, N = b.learner_length, b.lengths[-1]
    short, long = float(b.delta_first[0, n - 1]), float(b.delta_first[0, N - 1])
    ratio = long / short if short else None
    return BottleneckSummary(
        n=n,
        N=N,
        short=short,
        long=long,
        ratio=ratio,
        per_word=ratio ** (1 / (N - n)) if ratio is not None and n < N else None,
        last_long=float(b.delta_last[0, N - 1]),
        backward_long=float(b.delta_first[1, N - 1]) if b.delta_first.shape[0] == 2 else None,
        handoff_numbers=b.handoff_numbers,
    )
