"""Lessons: ordered steps over the pages, each a page state with narration and, optionally, a claim.

    lessons = load_lessons()                       # every lessons/*.toml, read once
    problems = validate(lessons, page_fields())    # unknown page, field or value; unknown claim
    result = evaluate(step.claim, step.params, "ko")  # the claim, computed by the core on the step's state

A lesson is data (lessons/<id>.toml); its sentences are catalog text (locales/<lang>/lesson_<id>.toml). A step's
claim is a predicate the page's core computes on that step's state (s2s_core/<ns>/claims.py), so a lesson's
narration cannot drift from the computation: the tests check every claim of every step in both languages, and a
narration may quote the claim's own numbers ({context}), formatted as the page shows them.

Pure Python: no streamlit (tests/test_architecture.py).
"""

from s2s_core.lessons.claims import ClaimResult, LinkState, claim, evaluate, registered
from s2s_core.lessons.model import (
    ClaimRef,
    Lesson,
    Question,
    Step,
    load_lessons,
    page_fields,
    same_state,
    validate,
)

__all__ = [
    "ClaimRef",
    "ClaimResult",
    "Lesson",
    "LinkState",
    "Question",
    "Step",
    "claim",
    "evaluate",
    "load_lessons",
    "page_fields",
    "registered",
    "same_state",
    "validate",
]
