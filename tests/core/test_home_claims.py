"""Home's claims (its tour of the learning path): each holds on the path as drawn and fails otherwise."""

from __future__ import annotations

from s2s_core.lessons.claims import evaluate


def test_the_path_has_twelve_pages():
    assert evaluate("home:path", {"pages": 12}, (), {}, "ko").holds
    assert not evaluate("home:path", {"pages": 11}, (), {}, "ko").holds


def test_the_path_forks_after_bptt_only():
    fork = evaluate("home:fork", {"after": "bptt"}, (), {}, "en")
    assert fork.holds and fork.answer == "two"
    straight = evaluate("home:fork", {"after": "rnn"}, (), {}, "en")
    assert not straight.holds and straight.answer == "one"
