"""Which sentence the padding & masks page says about the current batch: the notices and the loss line are chosen
here from the live result, so none claims a PAD effect the batch does not have (a batch with nothing to pad)."""

from __future__ import annotations

from s2s_core.masks.compute import MasksResult, has_pad

# "near ln V": the mean loss over real tokens within this share of a uniform guess's loss (untrained weights)
NEAR_UNIFORM = 0.1


def source_padded(result: MasksResult) -> bool:
    """Does any source carry PAD (is any sentence shorter than the longest)?"""
    return any(has_pad(result, b) for b in range(result.src_ids.shape[0]))


def near_uniform(result: MasksResult) -> bool:
    """Is the mean loss over real tokens within NEAR_UNIFORM of ln V, the loss of a uniform guess?"""
    return abs(result.loss_ignore - result.ln_v) <= NEAR_UNIFORM * result.ln_v


def loss_diff_key(result: MasksResult) -> str:
    """The line under the two losses: no PAD target (nothing to ignore), or how far the mean is from ln V."""
    if result.n_pad == 0:
        return "masks.loss_diff_no_pad"
    return "masks.loss_diff" if near_uniform(result) else "masks.loss_diff_far"


def notice_keys(result: MasksResult, revealed: bool) -> list[str]:
    """The "what to notice" lines for this batch. notice_1 states the loss's divisor, the question's answer: it
    joins the list once the answer is out."""
    padded_target, padded_source = result.n_pad > 0, source_padded(result)
    keys = []
    if revealed:
        keys.append("masks.notice_1" if padded_target else "masks.notice_1_no_pad")
    keys.append("masks.notice_2")
    keys.append("masks.notice_3" if padded_source else "masks.notice_3_no_pad")
    keys.append("masks.notice_4")
    keys.append("masks.notice_5" if padded_source else "masks.notice_5_no_pad")
    return keys
