"""Parallel sentences a learner might paste: distinct pairs of the Translation lab's toy grammar (Korean -> English),
as tab-separated text (tests of the own-sentences tab: AppTest, Chromium, the core)."""

from __future__ import annotations

import random

from s2s_core.grammar import pair, random_meaning


def toy_pairs(n: int, seed: int = 1) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < n:
        p = pair(random_meaning(rng, rng.randint(2, 5)))
        found.setdefault(" ".join(p.ko), " ".join(p.en))
    return sorted(found.items())


def toy_text(n: int, seed: int = 1) -> str:
    return "\n".join(f"{ko}\t{en}" for ko, en in toy_pairs(n, seed))
