"""The Translation lab's held-out split (issue 24 §2): by English sentence, so that no held-out English target is
ever a training target. It needs s2s_core/training/tasks.py to split ko_en by grammar.split_key (heldout_key)."""

from __future__ import annotations

import random

import pytest

from s2s_core.grammar import MAX_WORDS, MIN_WORDS, parse_korean
from s2s_core.training.loop import HELDOUT_PER_LEN
from s2s_core.training.tasks import KO_EN, make_heldout, sample_sources, target_tokens


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_no_heldout_english_target_is_ever_a_training_target(seed):
    """The split is by English sentence (issue 24 §2): 74 of seed 0's 240 held-out targets were training targets
    too when it was by Korean string (내가 vs 나는, 읽는다 vs 읽었다 for "i read")."""
    heldout = make_heldout(KO_EN, MIN_WORDS, MAX_WORDS, HELDOUT_PER_LEN, seed=seed)
    exclude = {tuple(s) for s in heldout}
    targets = {tuple(target_tokens(KO_EN, s)) for s in heldout}
    assert None not in {parse_korean(s) for s in heldout} and len(targets) == len(heldout)  # distinct English
    rng = random.Random(seed + 1)
    drawn = sample_sources(rng, KO_EN, MIN_WORDS, MAX_WORDS, 3000, exclude)
    drawn += sample_sources(rng, KO_EN, 2, 2, 1000, exclude)  # 2 words: about an eighth of them held out
    assert not {tuple(target_tokens(KO_EN, s)) for s in drawn} & targets
    # The same draws without the exclusion do hit held-out targets: the check above can fail.
    free = sample_sources(random.Random(seed + 1), KO_EN, 2, 2, 1000, set())
    assert {tuple(target_tokens(KO_EN, s)) for s in free} & targets
