"""The padding & masks page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/masks.py `read_inputs`): the first `masks_rows`
sentence pairs (each in the step's language when the link leaves it out), the seed and sizes, through the same
`parse_config` that leaves a bad pair out. The sentence a claim is about is the one the page shows: the picture's
slider and the tabs' picker both open on the sentence with the most PAD (`most_pad`) unless the link names one.
Each claim's `shown` is text the page draws on that state: the line under the picture, the Loss tab's formula and
caption, the Attention tab's leak line, the All-PAD tab's weights (when the step opens that tab).
"""

from __future__ import annotations

import math

from s2s_core.fmt import num, signed, vec
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.masks import MasksConfig, fields, parse_config, screen_pairs
from s2s_core.masks.compute import MasksResult, compute_masks, has_pad, most_pad
from s2s_core.masks.empty import FALLBACK_S, empty_source_demo

CHECK_TOL = 1e-9  # the page's check badges: the hand computation vs PyTorch's own


def pairs_of(state: LinkState) -> list[tuple[str, str]]:
    """The typed (source, target) pairs: the first `masks_rows` rows, as the page's text inputs hold them."""
    n = int(state.value(fields.ROWS))
    return [(state.value(s), state.value(t)) for s, t in zip(fields.SOURCES[:n], fields.TARGETS[:n], strict=True)]


def config_of(state: LinkState) -> MasksConfig:
    seed, hidden, embed = (state.value(f) for f in (fields.SEED, fields.HIDDEN, fields.EMBED))
    return parse_config(pairs_of(state), seed, hidden, embed, drop_bad=True)


def picked(state: LinkState, config: MasksConfig) -> int:
    """The sentence (0-based in the batch) the picture's slider shows: the link's, else the one with the most PAD."""
    if state.raw(fields.PICK) is None:
        return most_pad(config)
    return min(max(int(state.value(fields.PICK)), 1), len(config.rows)) - 1


def inspected(state: LinkState, config: MasksConfig) -> int:
    """The sentence (0-based) the Attention and Final-state tabs show: the link's row number, else the most PAD."""
    row = state.value(fields.ROW) if state.raw(fields.ROW) is not None else None
    return config.rows.index(row) if row in config.rows else most_pad(config)


@claim("masks:pad_weight")
def pad_weight(state: LinkState, row: int) -> ClaimResult:
    """The picture's chosen sentence is row `row`, its source has PAD, and at decoder step 1 the weight on PAD is
    exactly 0 with the mask and more than 0 without it (the line under the picture)."""
    config = config_of(state)
    result = compute_masks(config)
    b = picked(state, config)
    masked, unmasked = float(result.pad_share_masked[b, 0]), float(result.pad_share_unmasked[b, 0])
    n_pad = int((~result.src_mask[b]).sum())  # PAD positions in this source
    return ClaimResult(
        config.rows[b] == row and has_pad(result, b) and masked == 0 and unmasked > 0,
        {"row": str(config.rows[b]), "masked": num(masked), "unmasked": num(unmasked), "n_pad": str(n_pad)},
        shown=(num(unmasked),),
    )


def _divisors(result: MasksResult) -> dict[str, int]:
    """The question's three counts: the words typed, the real targets (words + one <eos> each), every position."""
    return {"words": result.n_words, "real": result.n_real, "all": result.n_total}


@claim("masks:divisor")
def divisor(state: LinkState) -> ClaimResult:
    """The loss with ignore_index is the summed −log p over real targets divided by the real targets (words plus one
    <eos> per sentence), not by the words typed nor by every position; PyTorch agrees with the hand mean. The answer
    is the count whose division gives the page's loss ("real", "words" or "all")."""
    result = compute_masks(config_of(state))
    counts = _divisors(result)
    answer = min(counts, key=lambda k: abs(result.sum_real / counts[k] - result.loss_ignore))
    distinct = len(set(counts.values())) == len(counts)  # a batch without PAD cannot tell "real" from "all"
    return ClaimResult(
        answer == "real" and distinct and result.loss_check <= CHECK_TOL,
        {
            "n_real": str(result.n_real),
            "n_words": str(result.n_words),
            "n_total": str(result.n_total),
            "n_pad": str(result.n_pad),
            "B": str(len(result.src_lengths)),
            "loss": num(result.loss_ignore),
        },
        shown=(num(result.loss_ignore), f"{result.n_total}"),
        answer=answer,
    )


@claim("masks:loss_counts_pad")
def loss_counts_pad(state: LinkState) -> ClaimResult:
    """With attention masked, counting the PAD targets still changes the loss: the attention mask does not keep PAD
    out of the loss (the answer "no"; "yes" when both losses are equal, a batch with no padded target)."""
    result = compute_masks(config_of(state))
    gap = result.loss_all - result.loss_ignore
    differs = result.n_pad > 0 and num(result.loss_all) != num(result.loss_ignore)
    return ClaimResult(
        differs and result.loss_check <= CHECK_TOL and result.attention_check <= CHECK_TOL,
        {
            "ignore": num(result.loss_ignore),
            "all": num(result.loss_all),
            "diff": signed(gap),
            "n_pad": str(result.n_pad),
            "n_real": str(result.n_real),
            "n_total": str(result.n_total),
        },
        shown=(num(result.loss_all), signed(gap)),
        answer="no" if differs else "yes",
    )


@claim("masks:nothing_to_mask")
def nothing_to_mask(state: LinkState) -> ClaimResult:
    """No source and no target is padded: ignore_index leaves nothing out (both losses equal) and the attention mask
    changes no weight."""
    result = compute_masks(config_of(state))
    same_weights = bool((result.weights_masked == result.weights_unmasked).all())  # (B, T, S)
    return ClaimResult(
        result.n_pad == 0 and not bool((~result.src_mask).any()) and same_weights,
        {"loss": num(result.loss_all), "n_total": str(result.n_total), "B": str(len(result.src_lengths))},
        shown=(num(result.loss_all),),
    )


@claim("masks:leak")
def leak(state: LinkState, row: int) -> ClaimResult:
    """The Attention tab's sentence is row `row`: unmasked, its PAD positions take weight at some real decoder step
    and the context moves; masked, PAD gets exactly 0 at every step."""
    config = config_of(state)
    result = compute_masks(config)
    b = inspected(state, config)
    masked_zero = bool((result.pad_share_masked[b] == 0).all())  # (T,)
    unmasked, gap = result.leak_by_row[b], result.gap_by_row[b]
    return ClaimResult(
        config.rows[b] == row and masked_zero and unmasked > 0 and gap > 0,
        {"row": str(config.rows[b]), "leak": num(unmasked), "gap": num(gap)},
        shown=(num(unmasked), num(gap)),
    )


@claim("masks:all_pad_rejected")
def all_pad_rejected(state: LinkState, row: int) -> ClaimResult:
    """Row `row`'s source is nothing but PAD: it is left out with its reason, the rest of the batch still runs, and
    the All-PAD tab shows what it would have done to attention: every weight NaN (0 ÷ 0)."""
    pairs = pairs_of(state)
    screened = screen_pairs(pairs)
    rejected = [r for r, err in screened.all_pad()]
    config = config_of(state) if screened.pairs else None
    S = int(compute_masks(config).src_ids.shape[1]) if config is not None else FALLBACK_S
    demo = empty_source_demo(S)
    weights = list(demo.weights)  # (S,)
    return ClaimResult(
        rejected == [row] and config is not None and row not in config.rows and all(math.isnan(w) for w in weights),
        {"row": str(row), "rows": ", ".join(map(str, config.rows if config else ())), "weights": vec(demo.weights)},
        shown=(vec(demo.weights),),
    )
