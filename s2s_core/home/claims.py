"""Home's claims for its tour: what the learning path (s2s_core/path/graph.py) draws."""

from __future__ import annotations

from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.path.graph import ORDER, course


@claim("home:path")
def path(state: LinkState, pages: int) -> ClaimResult:
    """The path draws `pages` boxes, numbered in the study note's order (the last box's label starts "<n>. ")."""
    del state  # Home has no inputs: the path is the same for every link
    drawn = course(ORDER)
    n = len(drawn.nodes)
    return ClaimResult(n == pages, {"n": str(n)}, shown=(f"{n}. ",))


@claim("home:fork")
def fork(state: LinkState, after: str) -> ClaimResult:
    """Right after page `after` the path forks: two pages follow it, and both lead on to the same page. The answer
    is how many pages follow it ("one" or "two")."""
    del state
    edges = course(ORDER).edges
    following = [b for a, b in edges if a == after]
    joined = len(following) == 2 and len({b for a, b in edges if a in following}) == 1
    return ClaimResult(joined, {"count": str(len(following))}, answer="two" if len(following) == 2 else "one")
