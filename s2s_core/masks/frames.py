"""Tidy pandas frames for the padding & masks page (long format, ready for Altair and tables)."""

from __future__ import annotations

import pandas as pd

from s2s_core.masks.compute import MasksConfig, MasksResult
from s2s_core.vocab import PAD_ID

SIDES = ("source", "dec_in", "dec_out")


def position_label(s: int, token: str) -> str:
    """0-based source position -> 's1 나는' (position and token, so PAD columns are easy to spot)."""
    return f"s{s + 1} {token}"


def step_label(t: int, token: str) -> str:
    """0-based decoder step -> 't1 i' (the step and the token it should predict)."""
    return f"t{t + 1} {token}"


def _tokens(result: MasksResult, side: str) -> list[list[str]]:
    ids = {"source": result.src_ids, "dec_in": result.dec_in, "dec_out": result.dec_out}[side]
    itos = result.src_itos if side == "source" else result.tgt_itos
    return [[itos[i] for i in row] for row in ids.tolist()]


def batch_frame(result: MasksResult, config: MasksConfig, side: str) -> pd.DataFrame:
    """One row per (sentence, position) of the padded id matrix: token, id, PAD flag."""
    ids = {"source": result.src_ids, "dec_in": result.dec_in, "dec_out": result.dec_out}[side]
    tokens = _tokens(result, side)
    rows = []
    for b, row in enumerate(ids.tolist()):
        for s, i in enumerate(row):
            rows.append(
                {"sentence": str(config.rows[b]), "position": s + 1, "token": tokens[b][s], "id": i, "pad": i == PAD_ID}
            )
    return pd.DataFrame(rows)


def loss_frame(result: MasksResult, config: MasksConfig) -> pd.DataFrame:
    """One row per target position: the token to predict, its -log p, and whether each loss counts it."""
    tokens = _tokens(result, "dec_out")
    rows = []
    for b, row in enumerate(result.token_nll.tolist()):
        for t, nll in enumerate(row):
            real = bool(result.tgt_mask[b, t])
            rows.append(
                {
                    "sentence": str(config.rows[b]),
                    "position": t + 1,
                    "token": tokens[b][t],
                    "nll": nll,
                    "pad": not real,
                    "counted_ignore": real,
                    "counted_all": True,
                }
            )
    return pd.DataFrame(rows)


def attention_frame(result: MasksResult, b: int, masked: bool) -> pd.DataFrame:
    """Sentence b's weights, one row per (decoder step, source position); PAD columns flagged."""
    weights = (result.weights_masked if masked else result.weights_unmasked)[b]  # (T, S)
    src, out = _tokens(result, "source")[b], _tokens(result, "dec_out")[b]
    rows = []
    T, S = weights.shape
    for t in range(T):
        if not bool(result.tgt_mask[b, t]):
            continue  # decoder steps on PAD targets are ignored by the loss; not drawn
        for s in range(S):
            score = float(result.scores[b, t, s])
            rows.append(
                {
                    "step": step_label(t, out[t]),
                    "position": position_label(s, src[s]),
                    "weight": float(weights[t, s]),
                    "score": score,
                    "pad": not bool(result.src_mask[b, s]),
                }
            )
    return pd.DataFrame(rows)


def pad_share_frame(result: MasksResult, b: int, names: dict[str, str]) -> pd.DataFrame:
    """Total attention weight on PAD per decoder step, masked vs unmasked; names: display names."""
    out = _tokens(result, "dec_out")[b]
    rows = []
    for t in range(result.dec_out.shape[1]):
        if not bool(result.tgt_mask[b, t]):
            continue
        for key, share in (("masked", result.pad_share_masked), ("unmasked", result.pad_share_unmasked)):
            rows.append({"step": step_label(t, out[t]), "variant": names[key], "share": float(share[b, t])})
    return pd.DataFrame(rows)


def final_state_frame(result: MasksResult, b: int, names: dict[str, str]) -> pd.DataFrame:
    """Sentence b's final encoder state, component by component: after PAD steps vs at the true last token."""
    rows = []
    for key, state in (("after_pad", result.h_after_pad), ("true_last", result.h_true_last)):
        for h, value in enumerate(state[b].tolist()):
            rows.append({"component": f"h{h + 1}", "state": names[key], "value": value})
    return pd.DataFrame(rows)


def final_state_table(result: MasksResult, config: MasksConfig) -> pd.DataFrame:
    """Per sentence: real length, PAD steps the encoder ran through, and the gap between the two states."""
    S = result.src_ids.shape[1]
    return pd.DataFrame(
        {
            "sentence": [str(r) for r in config.rows],
            "length": result.src_lengths.tolist(),
            "pad_steps": [S - n for n in result.src_lengths.tolist()],
            "gap": result.final_gap.tolist(),
        }
    )


def lengths_text(result: MasksResult) -> tuple[str, str]:
    """The real lengths of the sources and of the targets (with <eos>), as "3, 1, 4"."""
    src, tgt = result.src_lengths.tolist(), result.tgt_lengths.tolist()  # (B,), (B,)
    return ", ".join(map(str, src)), ", ".join(map(str, tgt))
