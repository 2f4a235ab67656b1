"""The one link helper (s2s_ui/link.py): raw options in the link (a Korean link opens in English), a bad
value named when it seeds, stale values dropped, the default leaving no parameter."""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.shapes.failures import KINDS
from tests.app.conftest import all_text, open_page, toasts

# (page, widget kind, key, a non-default raw option, how AppTest reads it back)
CASES = [
    ("attention", "segmented_control", "att_mode", "scores"),
    ("seq2seq", "segmented_control", "seq2seq_bridge", "linear"),
    ("scoring", "selectbox", "scoring_focus", "dot"),
    ("shapes", "selectbox", "shapes_failure", "wrong_e"),
    ("lstm", "segmented_control", "lstm_source", "table"),
    ("gru", "segmented_control", "gru_inspect", 3),
    ("training", "selectbox", "training_task", "sort"),
]
# A field drawn inside a tab is drawn only while its tab is open: the link opens that tab too.
IN_TAB = {  # what else a field needs in the link to be drawn (its tab, or the model whose setting it is)
    "shapes_failure": {"shapes_tabs": "failure"},
    "gru_inspect": {"gru_tabs": "steps"},
    "seq2seq_bridge": {"seq2seq_model": "untrained"},
}


@pytest.mark.parametrize("ns, kind, key, option", CASES, ids=[c[2] for c in CASES])
def test_a_choice_made_in_korean_opens_in_english(ns, kind, key, option):
    ko = open_page(ns, "ko", query=IN_TAB.get(key))
    getattr(ko, kind)(key=key).set_value(option).run()
    assert not ko.exception
    link = ko.query_params[key]
    assert link == str(option)  # the raw option, not "원점수" or any other label
    en = open_page(ns, "en", query={key: link, **IN_TAB.get(key, {})})
    assert not en.exception
    assert getattr(en, kind)(key=key).value == option


def test_the_default_leaves_no_parameter_and_an_unknown_value_falls_back_with_a_notice():
    at = open_page("attention", "en", query={"att_mode": "원점수"})  # a label is not an option
    assert not at.exception
    assert at.segmented_control(key="att_mode").value == "weights"
    assert "att_mode" not in at.query_params
    assert "att_mode" in toasts(at)


def test_shapes_failure_labels_are_translated_but_the_options_are_not():
    at = open_page("shapes", "ko", query=IN_TAB["shapes_failure"])
    box = at.selectbox(key="shapes_failure")
    assert list(box.options) == [translate("ko", f"shapes.fail.option.{k}") for k in KINDS]


def test_a_rejected_number_is_named_with_the_reason_when_it_seeds():
    at = open_page("rnn", "ko", query={"rnn_H": "99", "rnn_E": "inf", "rnn_seed": "7"})
    assert not at.exception
    assert at.number_input(key="rnn_H").value == 4 and at.number_input(key="rnn_E").value == 3  # defaults
    assert at.number_input(key="rnn_seed").value == 7  # a good value in the same link is kept
    said = toasts(at)
    assert translate("ko", "rnn.field.H") in said and "99" in said  # field and value, in Korean
    assert translate("ko", "rnn.field.E") in said
    assert at.query_params.get("rnn_seed") == "7" and "rnn_H" not in at.query_params  # the link is repaired


def test_a_value_for_a_field_drawn_later_is_kept_and_not_reported():
    """/training?training_wi=0,0,0,1: the what-if's weights appear only after training; nothing is rejected."""
    at = open_page("training", "en", query={"training_wi": "0,0,0,1", "training_tabs": "map"})
    assert not at.exception
    assert toasts(at) == ""
    assert at.query_params.get("training_wi") == "0,0,0,1"


def test_a_stale_choice_is_dropped_by_the_helper():
    at = open_page("attention", "en")
    at.multiselect(key="att_pad").set_value(["s3"]).run()
    assert at.query_params["att_pad"] == "s3"
    at.number_input(key="att_dim").set_value(2).run()  # same rows: s3 still exists
    assert at.multiselect(key="att_pad").value == ["s3"]
    at2 = open_page("gru", "en", query={"gru_inspect": "3", **IN_TAB["gru_inspect"]})
    assert at2.segmented_control(key="gru_inspect").value == 3
    at2.text_input(key="gru_sentence").input("two words").run()  # two steps: step 3 is gone
    assert not at2.exception
    assert at2.segmented_control(key="gru_inspect").value == 2  # back to the default
    assert "gru_inspect" not in at2.query_params


# --- a number typed outside its range: words under the field, the page goes on with a valid value ----------


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_typed_number_outside_its_range_is_named_with_the_range_and_clamped(lang):
    at = open_page("rnn", lang)
    at.number_input(key="rnn_H").set_value(999).run()
    assert not at.exception
    said = " ".join(c.value for c in at.caption)
    field = translate(lang, "rnn.field.H")
    assert field in said and "999" in said and "1–8" in said  # the field, what was typed, the range
    assert at.number_input(key="rnn_H").value == 999  # the field keeps what the learner typed ...
    assert at.query_params["rnn_H"] == "8"  # ... the link and the page use the clamped value
    assert translate(lang, "rnn.title") in all_text(at) and len(at.get("vega_lite_chart")) > 0
    at.number_input(key="rnn_H").set_value(3).run()
    assert not at.exception and "999" not in " ".join(c.value for c in at.caption)  # the line is gone


def test_a_float_field_names_nan_infinity_and_a_value_below_its_range():
    at = open_page("scoring", "en")
    for typed in (float("nan"), float("inf"), 1e300):
        at.number_input(key="scoring_scale").set_value(typed).run()
        assert not at.exception
        said = " ".join(c.value for c in at.caption)
        assert "0.1–10" in said and "using 2 for now" in said  # the last valid value (the default) is kept
        assert "scoring_scale" not in at.query_params
    at.number_input(key="scoring_scale").set_value(0.01).run()
    assert "0.01 is outside 0.1–10; using 0.1." in " ".join(c.value for c in at.caption)
    assert at.query_params["scoring_scale"] == "0.1"


# Every table field that a default run reads from the link, with its page (a family by the member it read).
TABLES = [
    ("attention", "att_steps"),
    ("attention", "att_src"),
    ("scoring", "scoring_enc"),
    ("lstm", "lstm_x"),
]


@pytest.mark.parametrize("ns, key", TABLES, ids=[k for _, k in TABLES])
def test_a_table_cell_in_the_link_that_is_not_a_number_opens_the_default_with_a_notice(ns, key):
    """README "Bad input": a bad link value is named in a notice and the field opens on its default (it used to
    seed the table with "abc", so the picture gave way to an error about a cell the learner never typed)."""
    query = {key: "abc", **({"lstm_source": "table"} if ns == "lstm" else {})}
    at = open_page(ns, "en", query=query)
    assert not at.exception
    assert key in toasts(at), toasts(at)
    assert not at.error, [e.value for e in at.error]  # no message where the picture is: it is drawn
    assert key not in at.query_params  # the default leaves no parameter
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart"), "the page's picture was not drawn"
