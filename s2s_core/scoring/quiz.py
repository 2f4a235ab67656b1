"""The page's question, graded live: what doubling the decoder state s does to one function's sharpest weight.

The picture shows every function's weights for the current s, so a question about those weights would be
answered by the picture before it is asked; this one asks about an edit the learner is about to make.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from s2s_core.scoring.compute import ScoringConfig, compare

STAY = 0.005  # a change of the largest weight below this counts as "about the same"
VERDICTS = ("rise", "same", "fall")  # the question's options, in this order (catalog keys scoring.quiz_<verdict>)


@dataclass(frozen=True)
class DoubledQuery:
    """The focus function's largest weight now and with s doubled (s → 2s, the encoder states unchanged)."""

    name: str  # the score function asked about (the focus, or additive when the focus cannot score)
    doubled: tuple[float, ...]  # 2s, as the learner would type it
    peak: float  # max_j weight_j for s
    peak_doubled: float  # max_j weight_j for 2s
    verdict: str  # "rise", "fall" or "same"


def doubled_query(config: ScoringConfig) -> DoubledQuery | None:
    """Score 2s with the same weights and states; None when no function can score these states."""
    fn = compare(config).shown(config.focus)
    if fn.read is None:
        return None
    doubled = tuple(2 * x for x in config.dec_state)  # (H_d,)
    after = compare(replace(config, dec_state=doubled)).get(fn.name)
    if after.read is None:
        return None
    peak, peak_doubled = float(fn.read.weights.max()), float(after.read.weights.max())
    change = peak_doubled - peak
    verdict = "same" if abs(change) < STAY else "rise" if change > 0 else "fall"
    return DoubledQuery(fn.name, doubled, peak, peak_doubled, verdict)
