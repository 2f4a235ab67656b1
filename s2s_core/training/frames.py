"""Tidy pandas frames for the Training lab (long format, ready for Altair and st.dataframe)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from s2s_core.training.compute import DecodeResult, Survival
from s2s_core.training.loop import EvalPoint, TrainRun
from s2s_core.training.trace import MapPoint

METRICS = ("tf_token_acc", "free_token_acc", "free_exact")


def loss_frame(losses: Sequence[tuple[int, float, float]]) -> pd.DataFrame:
    """One row per optimiser step: step, training loss, teacher-forcing ratio used at that step."""
    return pd.DataFrame(list(losses), columns=["step", "loss", "tf_ratio"])


def eval_frame(evals: Sequence[EvalPoint], names: Mapping[str, str]) -> pd.DataFrame:
    """One row per (held-out evaluation, metric); names maps METRICS to the learner's language."""
    rows = [{"step": e.step, "metric": names[m], "value": float(getattr(e, m))} for e in evals for m in METRICS]
    return pd.DataFrame(rows, columns=["step", "metric", "value"])


def step_label(t: int, token: str) -> str:
    """Output step t (0-based) and the token it produced -> 't1 · 5'."""
    return f"t{t + 1} · {token}"


def position_label(s: int, token: str) -> str:
    """Source position s (0-based) and its token -> 's1 · 3'."""
    return f"s{s + 1} · {token}"


def attention_frame(result: DecodeResult) -> pd.DataFrame:
    """One row per (output step, source position): the weight, and whether the position is PAD."""
    weights = None if result.weights is None else result.weights.tolist()  # (T, S)
    return map_frame(result.output, result.src_tokens, len(result.source), weights)


def point_frame(point: MapPoint) -> pd.DataFrame:
    """A checkpoint of a run's trace (or the untrained model) as attention_frame's rows."""
    return map_frame(point.output, point.source, len(point.source), point.weights)


def map_frame(
    output: Sequence[str], src_tokens: Sequence[str], n_real: int, weights: Sequence[Sequence[float]] | None
) -> pd.DataFrame:
    """An attention map's rows (step, position, weight, pad, t, s): output step t by source position s, the ones
    from n_real on marked PAD; also s2s_core/show's map of any weights."""
    if weights is None:
        return pd.DataFrame(columns=["step", "position", "weight", "pad", "t", "s"])
    rows = []
    for t, out_tok in enumerate(output):
        for s, src_tok in enumerate(src_tokens):
            rows.append(
                {
                    "step": step_label(t, out_tok),
                    "position": position_label(s, src_tok),
                    "weight": float(weights[t][s]),
                    "pad": s >= n_real,
                    "t": t,
                    "s": s,
                }
            )
    return pd.DataFrame(rows)


def steps_frame(result: DecodeResult, columns: Mapping[str, str]) -> pd.DataFrame:
    """Free-running vs teacher-forced, step by step: what was fed in and what came out.
    columns maps ("step", "free_in", "free_out", "tf_in", "tf_out", "nll") to translated headers."""
    expected = (*result.expected, "<eos>")
    tf_inputs = ("<sos>", *result.expected)
    n = max(len(result.output), len(expected))
    rows = []
    for t in range(n):
        rows.append(
            {
                columns["step"]: f"t{t + 1}",
                columns["free_in"]: result.inputs[t] if t < len(result.inputs) else "",
                columns["free_out"]: result.output[t] if t < len(result.output) else "",
                columns["tf_in"]: tf_inputs[t] if t < len(tf_inputs) else "",
                columns["tf_out"]: result.tf_preds[t] if t < len(result.tf_preds) else "",
                columns["nll"]: round(result.tf_nll[t], 4) if t < len(result.tf_nll) else None,
            }
        )
    return pd.DataFrame(rows)


def bottleneck_frame(runs: Mapping[str, TrainRun]) -> pd.DataFrame:
    """Exact match per source length for each named run (with / without attention)."""
    rows = [
        {"length": n, "model": name, "exact": acc, "n": count}
        for name, run in runs.items()
        for n, acc, count in run.by_length
    ]
    return pd.DataFrame(rows, columns=["length", "model", "exact", "n"])


SURVIVAL_ITEMS = ("name", "quantity")


def survival_frame(runs: Mapping[str, Sequence[Survival]], items: Mapping[str, str]) -> pd.DataFrame:
    """The names task: one row per (model, copied item, source length): the share of held-out sources whose item
    came through intact. items maps SURVIVAL_ITEMS to the learner's language."""
    rows = [
        {"length": p.length, "model": name, "item": items[item], "rate": getattr(p, item), "n": p.n}
        for name, points in runs.items()
        for item in SURVIVAL_ITEMS
        for p in points
    ]
    return pd.DataFrame(rows, columns=["length", "model", "item", "rate", "n"])


def join_tokens(task: str, tokens: Sequence[str]) -> str:
    """How a token sequence reads: digits and Korean syllables run together, words (English, and the Translation
    lab's Korean and English) get spaces; in the names task words get spaces and a number's digits run together."""
    real = [tok for tok in tokens if tok != "<eos>"]
    if task == "names":
        out = ""
        for prev, tok in zip([None, *real], real, strict=False):
            glue = "" if prev is None or (prev.isdigit() and tok.isdigit()) else " "
            out += glue + tok
        return out
    return " ".join(real) if task in ("num_en", "ko_en") else "".join(real)
