"""Attention weighting: the notice about each step's context is chosen by the contexts (issue 24 §2), and the
page names the study note as the rest of the app does (never "the seed", the random seed elsewhere)."""

from __future__ import annotations

from s2s_core.attention import attention_weighting, parse_config
from s2s_core.attention.notes import shared_steps, steps_key
from s2s_core.catalog import load_catalog
from s2s_core.fmt import vec

SOURCES = [["2", "0"], ["0", "4"], ["6", "2"]]


def _result(weights):
    return attention_weighting(parse_config(SOURCES, weights, "weights", [False] * 3))


def test_each_step_its_own_context_only_when_it_is():
    """The old notice promised every step its own context; two steps with the same weights share one."""
    default = _result([["0.2", "0.3", "0.5"], ["0.6", "0.3", "0.1"]])
    assert [vec(c) for c in default.contexts] == ["[3.4, 2.2]", "[1.8, 1.4]"]  # the study note's numbers
    assert steps_key(default) == "attention.notice_1" and shared_steps(default) == ()
    same = _result([["0.2", "0.3", "0.5"], ["0.6", "0.3", "0.1"], ["0.2", "0.3", "0.5"]])
    assert shared_steps(same) == (2,) and steps_key(same) == "attention.notice_1_shared"
    assert steps_key(_result([["0.2", "0.3", "0.5"]])) == "attention.notice_1_one"


def test_the_summary_names_the_study_note_not_the_seed():
    for lang, name in (("en", "study note"), ("ko", "학습 노트")):
        summary = load_catalog(lang)["attention.summary"]
        assert name in summary and "seed" not in summary and "[3.4, 2.2]" in summary and "[1.8, 1.4]" in summary
