"""The tensor-shapes page's lesson claims: each holds on the state its lessons use and fails on another, and a
question's answer follows the live tensors, not the settings."""

from __future__ import annotations

import pytest

from s2s_core.lessons import LinkState
from s2s_core.lessons.claims import evaluate
from s2s_core.shapes import parse_config
from s2s_core.shapes.claims import config_of
from s2s_core.shapes.fields import FIELDS

PADDED = {"shapes_lengths": "3, 1"}
TWO_WAYS = {"shapes_bidirectional": "true"}


def claim(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_a_state_is_read_as_the_page_reads_its_controls():
    assert config_of(LinkState(FIELDS, {}, "ko")) == parse_config()
    state = LinkState(FIELDS, {**PADDED, "shapes_cell": "GRU", "shapes_proj_size": "3", "shapes_batch_first": "false"})
    assert config_of(state) == parse_config(cell="GRU", proj_size=3, batch_first=False, lengths="3, 1")


def test_shapes_quote_the_pictures_captions_and_fail_on_a_wrong_shape():
    right = claim("shapes:shapes", {}, outputs=[2, 3, 6], h_n=[1, 2, 6])
    assert right.holds and right.values["outputs"] == "(B=2, S=3, K·H=6)"
    assert right.shown == ("(B=2, S=3, K·H=6)", "(L·K=1, B=2, H=6)")
    assert not claim("shapes:shapes", {}, outputs=[3, 2, 6]).holds
    assert not claim("shapes:shapes", {"shapes_batch_first": "false"}, outputs=[2, 3, 6]).holds
    assert not claim("shapes:shapes", {}).holds  # nothing expected is no claim


@pytest.mark.parametrize(
    ("params", "outputs"),
    [
        ({}, [2, 3, 6]),
        ({"shapes_batch_first": "false"}, [3, 2, 6]),
        ({**TWO_WAYS, "shapes_num_layers": "2"}, [2, 3, 12]),
    ],
)
def test_batch_first_never_moves_the_states(params, outputs):
    result = claim("shapes:batch_first", params, outputs=outputs)
    assert result.holds
    assert result.values["h_n"] in result.shown and result.values["outputs"] != result.values["outputs_flipped"]


def test_batch_first_fails_on_a_wrong_layout():
    assert not claim("shapes:batch_first", {"shapes_batch_first": "false"}, outputs=[2, 3, 6]).holds
    assert not claim("shapes:batch_first", {}, outputs=[3, 2, 6]).holds


def test_last_step_is_equal_in_the_study_notes_case_and_not_with_two_directions():
    note = claim("shapes:last_step", {}, equal=True)
    assert note.holds and note.answer == "equal" and note.values["lhs_shape"] == note.values["rhs_shape"] == "(2, 6)"
    assert not claim("shapes:last_step", {}, equal=False).holds
    both = claim("shapes:last_step", TWO_WAYS, "ko", equal=False)
    assert both.holds and both.answer == "differ"
    assert (both.values["lhs_shape"], both.values["rhs_shape"], both.values["final"]) == ("(2, 12)", "(2, 6)", "0")
    assert not claim("shapes:last_step", TWO_WAYS, equal=True).holds
    # Through PAD both sides ran the same PAD steps: still equal (the page's "equal_through_pad").
    assert claim("shapes:last_step", PADDED, equal=True).answer == "equal"
    assert claim("shapes:last_step", {**PADDED, "shapes_packed": "true"}).answer == "differ"


def test_backward_final_is_at_position_zero_only_with_two_directions():
    both = claim("shapes:backward_final", TWO_WAYS)
    assert both.holds and both.answer == "first" and both.values == {"final": "0", "last": "2"}
    one = claim("shapes:backward_final", {})
    assert not one.holds and one.answer == "last"


def test_true_last_fails_after_pad_steps_and_holds_when_packed():
    padded = claim("shapes:true_last", PADDED, sentence=2, equal=False)
    assert padded.holds and padded.answer == "after_pad" and padded.values["pads"] == "2"
    assert float(padded.values["diff"]) > 1e-3
    assert not claim("shapes:true_last", PADDED, sentence=2, equal=True).holds
    full = claim("shapes:true_last", PADDED, sentence=1)  # sentence 1 has no PAD: its h_n is its true last state
    assert full.answer == "true_last" and full.values["pads"] == "0"
    assert claim("shapes:true_last", {**PADDED, "shapes_packed": "true"}, sentence=2).answer == "true_last"


def test_packed_quotes_the_packing_tabs_numbers_and_needs_a_packed_run():
    result = claim("shapes:packed", {**PADDED, "shapes_packed": "true"})
    assert result.holds and result.values == {"data": "(4, 4)", "rows": "4", "batch_sizes": "[2, 1, 1]"}
    assert not claim("shapes:packed", PADDED).holds  # straight through PAD: h_n is not every sentence's true end


def test_error_quotes_pytorchs_own_message():
    result = claim("shapes:error", {}, kind="wrong_e")
    assert result.holds and result.values["type"] == "RuntimeError"
    assert "Expected 4, got 5" in result.values["message"] and result.shown == (result.values["message"],)
    assert not claim("shapes:error", {}, kind="none").holds
