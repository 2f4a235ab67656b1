"""Attention weighting: the seed's numbers, PAD masking, scores mode, and bad input."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.attention import AttentionConfig, attention_weighting, parse_config
from s2s_core.attention.frames import weighted_sum_text
from s2s_core.errors import InputError

SEED_SOURCES = [["2", "0"], ["0", "4"], ["6", "2"]]
SEED_WEIGHTS = [["0.2", "0.3", "0.5"], ["0.6", "0.3", "0.1"]]


def test_seed_defaults_give_the_seed_contexts():
    config = parse_config(SEED_SOURCES, SEED_WEIGHTS, "weights", [False] * 3)
    result = attention_weighting(config)
    assert torch.allclose(result.contexts, torch.tensor([[3.4, 2.2], [1.8, 1.4]], dtype=torch.float64))
    assert torch.allclose(result.weight_sums, torch.ones(2, dtype=torch.float64))
    assert result.rows_not_one == ()
    assert result.max_abs_diff < 1e-12
    assert weighted_sum_text(result, 0, 0) == "0.2×2 + 0.3×0 + 0.5×6 = 3.4"
    assert result.dominant == (2, 0)


def test_the_largest_weight_need_not_mark_the_nearest_vector():
    """The issue's counter-example: weights [.4, .3, .3] on [0, 0], [10, 0], [10, 0] give [6, 0], 6 from the
    heaviest vector and 4 from the others. The quiz's answer comes from these measured distances."""
    config = parse_config([["0", "0"], ["10", "0"], ["10", "0"]], [["0.4", "0.3", "0.3"]], "weights", [False] * 3)
    result = attention_weighting(config)
    assert torch.allclose(result.contexts, torch.tensor([[6.0, 0.0]], dtype=torch.float64))
    assert result.dominant == (0,)
    assert torch.allclose(result.distances, torch.cdist(result.contexts, result.values))
    assert result.distances[0].tolist() == pytest.approx([6.0, 4.0, 4.0])
    assert result.runner_up == (1,) and result.dominant_vs_rest == ("farther",)


def test_seed_defaults_nearest_vectors():
    """Step t2 ([.6, .3, .1]) lands nearest s1, its heaviest; step t1 ([.2, .3, .5]) lands exactly as far from
    s1 as from its heaviest, s3 (both √6.8): a tie, so 'closer than every other' is false there."""
    result = attention_weighting(AttentionConfig())
    assert result.dominant == (2, 0) and result.runner_up == (0, 1)
    assert result.dominant_vs_rest == ("tie", "nearer")
    assert float(result.distances[0, 0]) == pytest.approx(math.sqrt(6.8)) == float(result.distances[0, 2])


def test_pad_vectors_are_not_compared_and_a_lone_position_is_alone():
    result = attention_weighting(AttentionConfig(pad=(True, False, True)))
    assert torch.isinf(result.distances[:, [0, 2]]).all() and torch.all(result.distances[:, 1] == 0)
    assert result.runner_up == (None, None) and result.dominant_vs_rest == ("alone", "alone")
    result = attention_weighting(AttentionConfig(pad=(False, False, True)))
    assert result.runner_up == (0, 1) and 2 not in result.runner_up  # s3 is PAD: never the runner-up


def test_hand_sum_equals_matrix_product():
    result = attention_weighting(AttentionConfig())
    by_hand = torch.tensor(result.hand_contexts, dtype=torch.float64)
    assert torch.allclose(by_hand, result.weights @ result.values)
    assert torch.allclose(result.terms.sum(dim=1), result.contexts)  # (T, S, D) summed over S


def test_pad_gets_exactly_zero_and_rest_renormalised():
    result = attention_weighting(AttentionConfig(pad=(False, False, True)))
    assert torch.all(result.weights[:, 2] == 0)
    assert torch.allclose(result.weights[0, :2], torch.tensor([0.4, 0.6], dtype=torch.float64))
    assert torch.isinf(result.masked_scores[:, 2]).all()


def test_scores_mode_is_softmax():
    config = AttentionConfig(steps=((1.0, 2.0, 3.0),), mode="scores")
    result = attention_weighting(config)
    expected = torch.softmax(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), dim=0)
    assert torch.allclose(result.weights[0], expected)


def test_weights_not_summing_to_one_are_reported_and_normalised():
    config = parse_config(SEED_SOURCES, [["0.2", "0.2", "0.2"]], "weights", [False] * 3)
    result = attention_weighting(config)
    assert result.rows_not_one == (0,)
    assert math.isclose(result.given_sums[0], 0.6)
    assert torch.allclose(result.weights[0], torch.full((3,), 1 / 3, dtype=torch.float64))


@pytest.mark.parametrize(
    "sources, steps, mode, pad, key",
    [
        (SEED_SOURCES, SEED_WEIGHTS, "weights", [True] * 3, "attention.error.all_pad"),
        (SEED_SOURCES, [["-0.2", "0.7", "0.5"]], "weights", [False] * 3, "attention.error.negative_weight"),
        (SEED_SOURCES, [["0", "0", "0"]], "weights", [False] * 3, "attention.error.zero_row"),
        (SEED_SOURCES, [["0.5", "0.5"]], "weights", [False] * 3, "errors.wrong_cols"),
        ([["2", "x"]], [["1"]], "weights", [False], "errors.not_a_number"),
        ([["2", "nan"]], [["1"]], "weights", [False], "errors.nan"),
        ([["2", ""]], [["1"]], "weights", [False], "errors.empty_cell"),
        (SEED_SOURCES, SEED_WEIGHTS, "bogus", [False] * 3, "errors.bad_choice"),
    ],
)
def test_bad_input_gets_a_named_message(sources, steps, mode, pad, key):
    with pytest.raises(InputError) as err:
        parse_config(sources, steps, mode, pad)
    assert err.value.key == key


cell = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.none(), st.integers())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(cell, min_size=1, max_size=3), min_size=0, max_size=4),
    st.lists(st.lists(cell, min_size=1, max_size=4), min_size=0, max_size=3),
    st.sampled_from(["weights", "scores", "x"]),
    st.lists(st.booleans(), max_size=5),
)
def test_any_input_gives_a_result_or_an_input_error(sources, steps, mode, pad):
    try:
        config = parse_config(sources, steps, mode, pad)
    except InputError:
        return
    result = attention_weighting(config)
    real = [not p for p in config.pad]
    assert torch.isfinite(result.contexts).all()
    for t, verdict in enumerate(result.dominant_vs_rest):  # the quiz's answer agrees with the distances
        d = result.distances[t]
        others = [float(d[s]) for s in range(len(real)) if real[s] and s != result.dominant[t]]
        mine = float(d[result.dominant[t]])
        if verdict == "alone":
            assert others == []
        elif verdict == "nearer":
            assert all(mine < o for o in others)
        else:
            assert min(others) <= mine or math.isclose(mine, min(others), rel_tol=1e-9, abs_tol=1e-12)
    assert torch.allclose(result.weight_sums, torch.ones_like(result.weight_sums))
    assert all(
        float(result.weights[t, s]) == 0.0
        for t in range(result.weights.shape[0])
        for s in range(len(real))
        if not real[s]
    )


def test_the_chart_spec_validates_against_vega_lite():
    """The page draws the cached spec unvalidated (to_dict(validate=False)); the structure is checked here."""
    from s2s_core.attention.charts import attention_charts
    from s2s_core.attention.compute import DEFAULT_SOURCES, DEFAULT_WEIGHTS
    from s2s_core.attention.frames import vectors_frame, weights_frame

    config = parse_config(DEFAULT_SOURCES, DEFAULT_WEIGHTS, "weights", [False, True, False])
    result = attention_weighting(config)
    labels = {
        k: k
        for k in (
            "position",
            "step",
            "weight",
            "score",
            "vector",
            "component",
            "value",
            "weights_title",
            "vectors_title",
        )
    }
    spec = attention_charts(weights_frame(result, config.pad), vectors_frame(result), labels).to_dict()  # validates
    assert len(spec["vconcat"]) == 2


def test_vectors_frame_names_contexts_in_the_given_word():
    from s2s_core.attention.frames import vectors_frame

    frame = vectors_frame(attention_weighting(AttentionConfig()), "문맥")
    assert sorted(frame.loc[frame["kind"] == "context", "vector"].unique()) == ["문맥 t1", "문맥 t2"]
