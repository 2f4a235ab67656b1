"""Tidy pandas frames for the next-token page (long format where a chart needs it).

Column names are internal; the page renames them to the learner's language. `names` carries the
translated labels that end up inside a chart (model names, the "each unseen word" row).
"""

from __future__ import annotations

import math

import pandas as pd

from s2s_core.fmt import num, prob, rounded, short
from s2s_core.ngram.compute import ContinuationResult, SentenceResult
from s2s_core.ngram.embedding import EmbeddingModel, PairResult
from s2s_core.ngram.sparsity import SparsityResult, WindowResult
from s2s_core.ngram.window import WindowModel, WindowView


def continuation_frame(res: ContinuationResult) -> pd.DataFrame:
    """One row per word seen after the prefix: count, the count ratio, MLE and add-k probabilities."""
    return pd.DataFrame(
        {
            "word": list(res.words),
            "count": list(res.counts),
            "ratio": [f"{c}/{res.history_count}" for c in res.counts],
            "p_mle": rounded(res.probs_mle),
            "p_addk": rounded(res.probs_addk),
        }
    )


CHART_TOP = 12  # continuations drawn in the picture; the table lists them all


def factors_frame(res: SentenceResult, smoothing: bool) -> pd.DataFrame:
    """One row per factor P(w_i | history): the counts, the ratio, the probability used and its log."""
    rows = []
    for i, (f, p) in enumerate(zip(res.factors, res.probs.tolist(), strict=True), start=1):
        rows.append(
            {
                "i": i,
                "word": f.word,
                "history": " ".join(f.history) if f.history else "∅",
                "ratio": f"{f.count}/{f.history_count}",
                "addk_ratio": f"({f.count}+k)/({f.history_count}+k·{res.vocab_size})",
                "p_mle": prob(f.mle),
                "p_addk": prob(f.addk),
                "p": prob(p),
                "log_p": num(math.log(p) if p > 0 else -math.inf),
            }
        )
    df = pd.DataFrame(rows)
    return df if smoothing else df.drop(columns=["addk_ratio", "p_addk"])


def factors_long(res: SentenceResult, smoothing: bool, names: dict[str, str]) -> pd.DataFrame:
    """Bars for the chart: one per (position, model); the label is the count ratio."""
    rows = []
    for i, f in enumerate(res.factors, start=1):
        pos = f"{i}. {f.word}"
        rows.append(
            {
                "pos": pos,
                "i": i,
                "model": names["mle"],
                "prob": float(res.probs_mle[i - 1]),
                "label": f"{f.count}/{f.history_count}",
                "zero": float(res.probs_mle[i - 1]) == 0.0,
            }
        )
        if smoothing:
            p = float(res.probs_addk[i - 1])
            # short(): the add-k bars sit beside the ratio bars and their labels must not collide on a phone.
            rows.append({"pos": pos, "i": i, "model": names["addk"], "prob": p, "label": short(p), "zero": False})
    return pd.DataFrame(rows)


def sparsity_frame(res: SparsityResult, current_n: int | None) -> pd.DataFrame:
    """One row per n: unseen / total n-grams of the held-out sentence, and which ones."""
    return pd.DataFrame(
        {
            "n": list(res.ns),
            "unseen": list(res.unseen),
            "total": list(res.totals),
            "share": list(res.shares),
            "label": [f"{u}/{t}" for u, t in zip(res.unseen, res.totals, strict=True)],
            "current": [n == current_n for n in res.ns],
            "grams": [", ".join("(" + " ".join(g) + ")" for g in gs) or "—" for gs in res.unseen_grams],
            "distinct": list(res.distinct_in_corpus),
        }
    )


def window_frame(res: WindowResult, names: dict[str, str]) -> pd.DataFrame:
    """One row per (model, earlier word): can that model read the word when predicting the target?"""
    models = [
        (names["ngram"], res.ngram_visible),
        (names["ffnn"], res.ngram_visible),
        (names["rnn"], tuple(True for _ in res.before)),
    ]
    rows = []
    for model, visible in models:
        for i, (word, v) in enumerate(zip(res.before, visible, strict=True), start=1):
            rows.append(
                {
                    "model": model,
                    "pos": f"{i}. {word}",
                    "i": i,
                    "word": word,
                    "seen": names["sees"] if v else names["blind"],
                }
            )
        rows.append(
            {
                "model": model,
                "pos": f"{len(res.before) + 1}. {res.target}",
                "i": len(res.before) + 1,
                "word": f"{res.target} ?",
                "seen": names["target"],
            }
        )
    return pd.DataFrame(rows)


def product_text(res: SentenceResult, smoothing: bool) -> str:
    """'2/8 × 1/2 × 1/1' (count ratios), or the add-k factors as decimals when smoothing is on."""
    if smoothing:
        return " × ".join(prob(float(p)) for p in res.probs_addk)
    return " × ".join(f"{f.count}/{f.history_count}" for f in res.factors)


def log_sum_text(res: SentenceResult) -> str:
    """'−1.3863 − 0.6931 − 0.0': the natural logs of the factors used, added up (each is ≤ 0; log 0 = −∞).

    The minus signs are the formula's operators (as in "1 − z" elsewhere); each term is num(−log p)."""
    terms = [num(-math.log(p)) if p > 0 else "∞" for p in res.probs.tolist()]
    return "−" + " − ".join(terms) if terms else ""


# --- counting vs the tiny embedding model ---------------------------------------------------------------

EMB_ROLES = ("previous", "nearest", "far", "before", "other")  # drawing order of the roles, most important first


def embedding_points_frame(model: EmbeddingModel, pair: PairResult, names: dict[str, str]) -> pd.DataFrame:
    """One row per previous token: its 2-number vector, its cosine to the learner's previous word, and its role:
    the learner's word, the nearest / a far token seen or not seen before the next word, other tokens."""
    i = model.previous.index(pair.previous)
    j = model.following.index(pair.word)
    rows = []
    for a, token in enumerate(model.previous):
        if token == pair.previous:
            role = "previous"
        elif token == pair.nearest:
            role = "nearest"
        elif token == pair.far:
            role = "far"
        else:
            role = "before" if model.counts[a, j] > 0 else "other"
        x, y = (float(v) for v in model.vectors[a])
        rows.append(
            {
                "token": token,
                "x": x,
                "y": y,
                "role": role,
                "role_label": names[f"emb_role_{role}"],
                "cosine": float(model.cosine[i, a]),
                "order": EMB_ROLES.index(role),
            }
        )
    return pd.DataFrame(rows)


def embedding_bars_frame(pair: PairResult, names: dict[str, str]) -> pd.DataFrame:
    """P(word | token) by counting and by the model, for the learner's previous word, the nearest token seen before
    the word, and one pointing away (when they exist)."""
    rows = []
    for role, token, p_count, p_model in (
        ("previous", pair.previous, pair.p_count, pair.p_model),
        ("nearest", pair.nearest, pair.nearest_p_count, pair.nearest_p_model),
        ("far", pair.far, 0.0, pair.far_p_model),
    ):
        if token is None:
            continue
        row = f"{token} · {names[f'emb_short_{role}']}"
        rows.append({"row": row, "method": names["emb_counting"], "prob": p_count, "label": prob(p_count)})
        rows.append({"row": row, "method": names["emb_model"], "prob": p_model, "label": prob(p_model)})
    return pd.DataFrame(rows, columns=["row", "method", "prob", "label"])


# --- the fixed-window network beside counting ---------------------------------------------------------------


def network_bars_frame(model: WindowModel, view: WindowView, names: dict[str, str]) -> pd.DataFrame:
    """P(next | the window) by counting and by the network, for the words counting saw after the window and the
    network's most likely ones, the network's most likely first (counting's bars only when it saw the window)."""
    fwd, cnt = view.forward, view.counted
    col_of = {w: j for j, w in enumerate(model.outputs)}
    words = sorted(dict.fromkeys([w for w, _ in fwd.top] + list(cnt.words)), key=lambda w: -float(fwd.probs[col_of[w]]))
    seen = dict(zip(cnt.words, cnt.counts, strict=True))
    rows = []
    for word in words:
        if cnt.history_count:
            p = seen.get(word, 0) / cnt.history_count
            rows.append({"row": word, "method": names["net_counting"], "prob": p, "label": prob(p)})
        p = float(fwd.probs[col_of[word]])
        rows.append({"row": word, "method": names["net_model"], "prob": p, "label": prob(p)})
    return pd.DataFrame(rows, columns=["row", "method", "prob", "label"])
