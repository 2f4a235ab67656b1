"""Choice widgets keep the raw option in the link (s2s_ui/linked.py), so a link works in either language."""

from __future__ import annotations

import pytest

from s2s_core.shapes.failures import KINDS
from s2s_ui.catalog import translate
from tests.app.conftest import open_page

# (page, widget kind, key, a non-default raw option, how AppTest reads it back)
CASES = [
    ("attention", "segmented_control", "att_mode", "scores"),
    ("seq2seq", "segmented_control", "seq2seq_bridge", "linear"),
    ("scoring", "segmented_control", "scoring_focus", "dot"),
    ("shapes", "selectbox", "shapes_failure", "wrong_e"),
    ("lstm", "segmented_control", "lstm_source", "table"),
    ("gru", "segmented_control", "gru_step", 3),
    ("training", "selectbox", "training_task", "sort"),
]


@pytest.mark.parametrize("ns, kind, key, option", CASES, ids=[c[2] for c in CASES])
def test_a_choice_made_in_korean_opens_in_english(ns, kind, key, option):
    ko = open_page(ns, "ko")
    getattr(ko, kind)(key=key).set_value(option).run()
    assert not ko.exception
    link = ko.query_params[key]
    assert link == str(option)  # the raw option, not "원점수" or any other label
    en = open_page(ns, "en", query={key: link})
    assert not en.exception
    assert getattr(en, kind)(key=key).value == option


def test_the_default_leaves_no_parameter_and_an_unknown_value_falls_back_with_a_notice():
    at = open_page("attention", "en", query={"att_mode": "원점수"})  # a label is not an option
    assert not at.exception
    assert at.segmented_control(key="att_mode").value == "weights"
    assert "att_mode" not in at.query_params
    assert any("att_mode" in str(toast.value) for toast in at.toast)


def test_shapes_failure_labels_are_translated_but_the_options_are_not():
    at = open_page("shapes", "ko")
    box = at.selectbox(key="shapes_failure")
    assert list(box.options) == [translate("ko", f"shapes.fail.option.{k}") for k in KINDS]
