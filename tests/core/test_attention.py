"""Attention weighting: the seed's numbers, PAD masking, scores mode, and bad input."""

from __future__ import annotations

import json
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.attention import AttentionConfig, attention_weighting, charts, parse_config
from s2s_core.attention.frames import weighted_sum_text
from s2s_core.errors import InputError

SEED_SOURCES = [["2", "0"], ["0", "4"], ["6", "2"]]
SEED_WEIGHTS = [["0.2", "0.3", "0.5"], ["0.6", "0.3", "0.1"]]
DEFAULT_WEIGHTS_ROWS = ((0.2, 0.3, 0.5), (0.6, 0.3, 0.1))


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


WORDS = {
    "context": "{step} context {vector}",
    "term": "{weight} × {vector} = {product}",
    "source": "{position} {vector}",
    "pad": "{position} PAD",
    "link_aria": "step {step}, source {position}: {term}",
    "divide": "÷ sum {total}",
    "chain_sum": "Σ weight × vector = {vector}",
    "chain_aria": "{step}, {position}: {given} → weight {weight}",
    "pad_cell": "PAD",
}
LABELS = {k: k for k in charts.LABELS}  # the picture's own list of the words it takes


def test_the_words_handed_to_the_picture_are_the_builders_own_lists():
    """The page hands the picture exactly these keys (s2s_core.catalog.words): each one is in both catalogs."""
    from s2s_core.attention.frames import WORDS as FRAME_WORDS
    from s2s_core.catalog import load_catalog

    assert set(WORDS) == set(FRAME_WORDS)
    for lang in ("ko", "en"):
        catalog = load_catalog(lang)
        assert [k for k in (*charts.LABELS, *FRAME_WORDS) if f"attention.chart.{k}" not in catalog] == []


def _picture_spec(config: AttentionConfig, before: AttentionConfig | None = None, picked: str | None = None) -> dict:
    from s2s_core.attention.frames import picture_frames
    from s2s_core.chartkit import step_param

    result = attention_weighting(config)
    previous = (attention_weighting(before), before) if before is not None else None
    picture = picture_frames(result, config, WORDS, before=previous)
    param = step_param(charts.STEP_PARAM, result.weights.shape[0], 1, "Step")
    return charts.attention_picture(picture, LABELS, param, picked).to_dict()  # validates against Vega-Lite


def test_the_pictures_context_points_are_the_computed_contexts():
    """The picture's data: each step's context point sits at the computed context, its label prints it, and
    every line runs from a source to that point with the step's weight."""
    from s2s_core.attention.frames import picture_frames

    config = AttentionConfig()
    result = attention_weighting(config)
    picture = picture_frames(result, config, WORDS)
    assert picture.layout == "plane"
    points = torch.tensor(picture.contexts[["x", "y"]].to_numpy(dtype=float), dtype=torch.float64)
    assert torch.allclose(points, result.contexts)
    assert picture.contexts["label"].tolist() == ["t1 context [3.4, 2.2]", "t2 context [1.8, 1.4]"]
    links = picture.links.sort_values(["step", "position"])
    assert links["weight"].tolist() == pytest.approx(result.weights.flatten().tolist())
    for _, row in links.iterrows():
        assert (row.x2, row.y2) == pytest.approx(tuple(result.contexts[row.step - 1].tolist()))
    assert picture.before_links.empty and picture.before_contexts.empty


def test_the_picture_is_one_layered_view_with_the_step_bound_to_a_range():
    spec = _picture_spec(AttentionConfig(), before=AttentionConfig(pad=(False, False, True)))
    assert "layer" in spec and not any(k in spec for k in ("concat", "hconcat", "vconcat"))
    assert spec["width"] == "container"
    params = {p["name"]: p for p in spec["params"]}
    step = params["step_sel"]
    assert step["select"]["fields"] == ["step"] and step["value"] == [{"step": 1}]
    assert step["bind"] == {"step": {"input": "range", "min": 1, "max": 2, "step": 1, "name": "Step"}}
    assert {"hover", "pick"} <= set(params)
    assert "value" not in params["pick"]  # nothing picked: no source ringed
    assert spec["title"]["text"] == "title_plane" and spec["description"] == "description_plane"


def test_the_picked_source_starts_the_pictures_click_selection():
    """A pick from the link (or an earlier click) is where the chart's own click selection starts: that source is
    ringed when the view opens, and a click moves it as before."""
    params = {p["name"]: p for p in _picture_spec(AttentionConfig(), picked="s2")["params"]}
    assert params["pick"]["value"] == [{"position": "s2"}]
    assert params["pick"]["select"] == {"type": "point", "fields": ["position"], "on": "click", "clear": False}


def test_position_index_reads_a_pick_only_when_the_sources_have_it():
    from s2s_core.attention.frames import position_index

    result = attention_weighting(AttentionConfig())
    assert [position_index(result, p) for p in ("s1", "s3", "s4", None, "x")] == [0, 2, None, None, None]


def test_other_sizes_draw_sources_and_steps_as_lines():
    from s2s_core.attention.frames import picture_frames

    config = AttentionConfig(sources=((1.0, 0.0, 2.0), (0.0, 3.0, 1.0)), steps=((0.5, 0.5),), pad=(False, False))
    picture = picture_frames(attention_weighting(config), config, WORDS)
    assert picture.layout == "lines"
    assert set(picture.sources["x"]) == {0.0} and set(picture.contexts["x"]) == {1.0}
    assert picture.contexts["label"].tolist() == ["t1 context [0.5, 1.5, 1.5]"]
    _picture_spec(config)  # validates


def test_pad_what_if_is_the_real_recomputation():
    """The quiz's answer: PAD the heaviest source of step t1 (s3 at 0.5) and the other two share the whole 1."""
    from s2s_core.attention.compute import pad_what_if

    config = AttentionConfig()
    what = pad_what_if(config, attention_weighting(config))
    assert what is not None and what.position == 2 and what.step == 0
    assert what.after == pytest.approx((0.8, 2.4)) and what.weights_after == pytest.approx((0.4, 0.6, 0.0))
    assert what.dropped == pytest.approx((0.4, 1.2)) and what.rest == pytest.approx(0.5)
    redone = attention_weighting(AttentionConfig(pad=(False, False, True)))
    assert what.after == pytest.approx(tuple(redone.contexts[0].tolist()))
    # No telling edit: all weight on one source (the others would sum to 0), or only one real position.
    one_hot = AttentionConfig(steps=((0.0, 0.0, 1.0),))
    assert pad_what_if(one_hot, attention_weighting(one_hot)) is None
    alone = AttentionConfig(pad=(True, False, True))
    assert pad_what_if(alone, attention_weighting(alone)) is None


def test_the_questions_options_hold_the_answer_and_two_tempting_ones_in_a_fixed_order():
    """Graded in the core: the answer is the recomputed context; the options are it, the term just deleted and no
    change, sorted (so the answer's place gives nothing away)."""
    from s2s_core.attention.compute import pad_what_if

    what = pad_what_if(AttentionConfig(), attention_weighting(AttentionConfig()))
    assert what.answer == "[0.8, 2.4]"
    assert what.options == ("[0.4, 1.2]", "[0.8, 2.4]", "[3.4, 2.2]")


def _layers(spec: dict) -> list[dict]:
    return spec["layer"]


def _rows_of(spec: dict, layer: dict) -> list:
    """The rows a layer draws (every layer here has its own data: Altair moves it into the spec's datasets)."""
    data = layer.get("data", {})
    return spec["datasets"][data["name"]] if "name" in data else data.get("values", [])


def test_the_chain_frame_is_the_computation_step_by_step():
    """Issue 25: the chain under the plot. Weights mode: the typed row, ÷ its sum, the weights, the weighted sum;
    scores mode: the scores (−∞ at PAD), the softmax's weights."""
    from s2s_core.attention.frames import picture_frames

    config = AttentionConfig(steps=((0.2, 0.2, 0.2), (0.6, 0.3, 0.1)))
    result = attention_weighting(config)
    picture = picture_frames(result, config, WORDS)
    assert picture.mode == "weights"
    t1 = picture.chain[picture.chain["step"] == 1].sort_values("col")
    assert t1["given_text"].tolist() == ["0.2", "0.2", "0.2"]
    assert t1["weight"].tolist() == pytest.approx([1 / 3] * 3)
    steps = picture.chain_steps.set_index("step")
    assert steps.loc[1, "divide"] == "÷ sum 0.6" and steps.loc[2, "divide"] == "÷ sum 1"
    assert steps.loc[2, "sum"] == "Σ weight × vector = [1.8, 1.4]"

    config = AttentionConfig(steps=((0.0, 0.0, 8.0), (1.0, 2.0, 3.0)), mode="scores", pad=(True, False, False))
    result = attention_weighting(config)
    picture = picture_frames(result, config, WORDS)
    t2 = picture.chain[picture.chain["step"] == 2].sort_values("col")
    assert t2["given_text"].tolist() == ["−∞", "2", "3"] and t2["masked"].tolist() == [True, False, False]
    expected = [0.0, *torch.softmax(torch.tensor([2.0, 3.0], dtype=torch.float64), 0).tolist()]
    assert t2["weight"].tolist() == pytest.approx(expected)
    assert set(picture.chain_steps["divide"]) == {""}  # scores mode: the softmax makes the weights, no division
    # Weights mode with PAD: the typed weight of a PAD position is left out, and named.
    config = AttentionConfig(pad=(False, False, True))
    picture = picture_frames(attention_weighting(config), config, WORDS)
    assert picture.chain[picture.chain["step"] == 1]["given_text"].tolist() == ["0.2", "0.3", "PAD"]


def test_the_chain_is_drawn_for_the_chosen_step_and_names_what_the_mode_has():
    """Every chain layer is filtered by the step slider's selection; scores mode names the softmax, weights mode
    names the typed row and its division instead (it has no scores and no softmax)."""
    for mode, steps, has, lacks in (
        ("scores", ((1.0, 2.0, 3.0),), "chain_softmax", "chain_typed"),
        ("weights", DEFAULT_WEIGHTS_ROWS, "chain_typed", "chain_softmax"),
    ):
        spec = _picture_spec(AttentionConfig(steps=steps, mode=mode))
        text = json.dumps(spec, ensure_ascii=False)
        assert f'"{has}"' in text and f'"{lacks}"' not in text
        chain = [
            layer for layer in _layers(spec) if any("weight_text" in json.dumps(t) for t in layer.get("transform", []))
        ]
        assert chain and all({"filter": {"param": "step_sel"}} in layer["transform"] for layer in chain)
        bars = [layer for layer in _layers(spec) if layer["encoding"].get("x2", {}).get("field") == "bar"]
        assert len(bars) == 1 and bars[0]["mark"]["color"] == charts.CONTEXT


def test_no_layer_is_empty_and_the_before_copy_is_there_only_after_an_edit():
    """axe `svg-img-alt`: a layer with no rows leaves an empty, unnamed mark group. Before any edit the faint copy and
    its key entry are left out; after one they are drawn and the key names them."""
    spec = _picture_spec(AttentionConfig())
    assert all(_rows_of(spec, layer) for layer in _layers(spec))
    text = json.dumps(spec)
    assert "key_before" not in text and "key_other" in text  # two steps: the other step's ring is in the key
    spec = _picture_spec(AttentionConfig(), before=AttentionConfig(pad=(False, False, True)))
    assert all(_rows_of(spec, layer) for layer in _layers(spec))
    assert "key_before" in json.dumps(spec)
    dashed = [layer for layer in _layers(spec) if layer["mark"].get("strokeDash") and layer["mark"]["type"] == "point"]
    assert len(dashed) == 2  # the old context ring, and its symbol in the key
    # The faded copy is filtered by the step, and an edit that added a step leaves it nothing to draw at that step:
    # it says nothing of its own to a screen reader, so its group has no role to be named.
    faded = [
        layer for layer in _layers(spec) if layer["mark"].get("color") == charts.PAD and "strokeDash" in layer["mark"]
    ]
    assert len(faded) == 3 and all(layer["mark"]["aria"] is False for layer in faded)
    one_step = _picture_spec(AttentionConfig(steps=((0.2, 0.3, 0.5),)))
    assert "key_other" not in json.dumps(one_step)  # one step: no other rings, no key entry, no key at all
    assert all(_rows_of(one_step, layer) for layer in _layers(one_step))


def test_no_text_on_the_page_background_is_in_a_role_colour():
    """Issue 25: no role colour keeps 4.5:1 on both #ffffff and #171614 (the context purple is 4.16:1 on the dark
    page), so every text mark uses the theme's text colour; the colour stays on the marks beside the text."""
    from s2s_ui.charts import DARK_BG, LIGHT_BG, _rgb, contrast

    assert all(
        min(contrast(_rgb(c.lower()), _rgb(LIGHT_BG)), contrast(_rgb(c.lower()), _rgb(DARK_BG))) < 4.5
        for c in (charts.SOURCE, charts.DECODER, charts.CONTEXT, charts.PAD)
    )  # why: none of them would do for text on both backgrounds
    for config in (AttentionConfig(), AttentionConfig(sources=((1.0, 0.0, 2.0), (0.0, 3.0, 1.0), (2.0, 2.0, 0.0)))):
        spec = _picture_spec(config, before=AttentionConfig(pad=(True, False, False), sources=config.sources))
        texts = [layer for layer in _layers(spec) if layer["mark"]["type"] == "text"]
        assert texts and all(layer["mark"]["color"] == "currentColor" for layer in texts)
        assert all("color" not in layer.get("encoding", {}) for layer in texts)
