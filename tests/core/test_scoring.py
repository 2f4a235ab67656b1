"""Bahdanau vs Luong core: each score function vs its textbook formula, windows, keys vs values, bad input."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.errors import InputError
from s2s_core.scoring import functions as F
from s2s_core.scoring.attend import attend
from s2s_core.scoring.compute import ScoringConfig, compare, parse_config
from s2s_core.scoring.fields import MAX_HALF_WIDTH, SCORERS
from s2s_core.scoring.flow import FLOW_EMBED, FLOW_VOCAB, AttnDecoderStep
from s2s_core.scoring.from_encoder import states_from_encoder
from s2s_core.scoring.modules import DotScore, LocalPosition, build_scorers, init_uniform
from s2s_core.scoring.window import flat_gaussian_sum, window_positions

DEFAULT_ENC = [["2", "0"], ["0", "4"], ["6", "2"], ["1", "1"], ["3", "-1"]]


# --- the textbook formulas, written with plain Python floats (independent of the core) ------------


def matvec(W, x):
    return [sum(w * xi for w, xi in zip(row, x, strict=True)) for row in W]


def formula(name, s, h, p):
    """score(s, h) for one source position, as the papers write it."""
    if name == "dot":
        return sum(a * b for a, b in zip(s, h, strict=True))
    if name == "scaled_dot":
        return sum(a * b for a, b in zip(s, h, strict=True)) / math.sqrt(len(h))
    if name == "general":
        return sum(a * b for a, b in zip(s, matvec(p["W"], h), strict=True))
    if name == "additive":
        inner = [a + b for a, b in zip(matvec(p["W_s"], s), matvec(p["W_h"], h), strict=True)]
        return sum(v * math.tanh(x) for v, x in zip(p["v"], inner, strict=True))
    inner = matvec(p["W_c"], list(s) + list(h))
    return sum(v * math.tanh(x) for v, x in zip(p["v"], inner, strict=True))


def plain_params(name, module):
    if name == "additive":
        return {"W_s": module.W_s.weight.tolist(), "W_h": module.W_h.weight.tolist(), "v": module.v.weight[0].tolist()}
    if name == "general":
        return {"W": module.W.weight.tolist()}
    if name == "concat":
        return {"W_c": module.W_c.weight.tolist(), "v": module.v.weight[0].tolist()}
    return {}


def functional(name, s, enc, module):
    if name == "dot":
        return F.dot_score(s, enc)
    if name == "scaled_dot":
        return F.scaled_dot_score(s, enc)
    if name == "general":
        return F.general_score(s, enc, module.W.weight)
    if name == "additive":
        return F.additive_score(s, enc, module.W_s.weight, module.W_h.weight, module.v.weight[0])
    return F.concat_score(s, enc, module.W_c.weight, module.v.weight[0])


@pytest.mark.parametrize("name", SCORERS)
@pytest.mark.parametrize("B, S, H_d, H_e, A", [(1, 5, 2, 2, 3), (3, 4, 3, 3, 2), (2, 6, 4, 4, 5)])
def test_module_and_function_equal_the_formula(name, B, S, H_d, H_e, A):
    gen = torch.Generator().manual_seed(B * 100 + S)
    s = torch.randn(B, H_d, generator=gen, dtype=torch.float64)  # (B, H_d)
    enc = torch.randn(B, S, H_e, generator=gen, dtype=torch.float64)  # (B, S, H_e)
    module = build_scorers(H_d, H_e, A, seed=7, scale=2.0)[name]
    with torch.no_grad():
        by_module = module(s, enc)  # (B, S)
        by_function = functional(name, s, enc, module)  # (B, S)
    p = plain_params(name, module)
    by_formula = torch.tensor(
        [[formula(name, s[b].tolist(), enc[b, j].tolist(), p) for j in range(S)] for b in range(B)], dtype=torch.float64
    )
    assert by_module.shape == (B, S)
    assert torch.allclose(by_module, by_formula, atol=1e-12)
    assert torch.allclose(by_function, by_formula, atol=1e-12)


@pytest.mark.parametrize("name", ["additive", "general", "concat"])
def test_additive_general_concat_accept_different_sizes(name):
    s = torch.randn(2, 3, dtype=torch.float64)
    enc = torch.randn(2, 4, 5, dtype=torch.float64)
    module = build_scorers(3, 5, 4, seed=0)[name]
    p = plain_params(name, module)
    with torch.no_grad():
        got = module(s, enc)
    want = torch.tensor(
        [[formula(name, s[b].tolist(), enc[b, j].tolist(), p) for j in range(4)] for b in range(2)], dtype=torch.float64
    )
    assert torch.allclose(got, want, atol=1e-12)


def test_dot_with_mismatched_sizes_is_a_clear_error():
    with pytest.raises(InputError) as err:
        F.dot_score(torch.zeros(1, 3), torch.zeros(1, 4, 2))
    assert err.value.key == "scoring.error.dot_sizes" and err.value.params == {"dec": 3, "enc": 2}
    result = compare(ScoringConfig(dec_state=(1.0, 2.0, 3.0), focus="dot"))
    assert result.get("dot").error[0] == "scoring.error.dot_sizes"
    assert result.get("scaled_dot").error[0] == "scoring.error.dot_sizes"
    assert result.get("additive").error is None and result.get("additive").read.context.shape == (1, 2)
    assert result.flow is None and result.flow_error[0] == "scoring.error.dot_sizes"


def test_default_page_values_check_against_the_formula():
    result = compare(ScoringConfig())
    assert result.max_abs_diff < 1e-12
    assert result.concat_as_additive_diff < 1e-12  # concat with W_c = [W_s | W_h] is additive
    for f in result.functions:
        assert torch.allclose(f.read.weights.sum(-1), torch.ones(1, dtype=torch.float64))
        # the context sums the ORIGINAL encoder states with the weights
        values = torch.tensor(ScoringConfig().enc_states, dtype=torch.float64)
        assert torch.allclose(f.read.context[0], f.read.weights[0] @ values)
    dot = result.get("dot").read
    assert torch.allclose(dot.scores[0], torch.tensor([0.6, 0.8, 2.2, 0.5, 0.7], dtype=torch.float64))


def test_keys_and_values_are_different_tensors():
    result = compare(ScoringConfig(attn_size=3))
    additive = result.get("additive").read
    assert additive.keys.shape == (1, 5, 3) and additive.values.shape == (1, 5, 2)
    assert additive.query.shape == (1, 3)  # W_s·s lives in the attention space
    general = result.get("general").read
    assert general.keys.shape == (1, 5, 2) and not torch.allclose(general.keys, general.values)
    dot = result.get("dot").read
    assert torch.equal(dot.keys, dot.values)  # dot: the keys ARE the values


@pytest.mark.parametrize("A", [2, 3, 5])
def test_general_maps_only_the_encoder_side_into_s_space(A):
    """general = sᵀ·(W·h_j): s is used as it is and only h_j is mapped, into s's size (H_d = 3 here, H_e = 2);
    additive and concat move both into the A-sized space. mapped_sides reads this off the live tensors and
    selects the page's sentence."""
    config = ScoringConfig(dec_state=(0.3, 0.2, -0.5), attn_size=A)
    result = compare(config)
    s = torch.tensor([config.dec_state], dtype=torch.float64)
    enc = torch.tensor([config.enc_states], dtype=torch.float64)
    general = result.get("general")
    W = dict(general.params)["W"]  # (H_d, H_e)
    assert W.shape == (3, 2)
    assert torch.equal(general.read.query, s)  # the query is s, unchanged
    assert torch.allclose(general.read.keys, enc @ W.T)  # (1, S, H_e) @ (H_e, H_d) -> (1, S, H_d): s's space
    assert general.read.keys.shape == (1, 5, 3)
    assert general.maps == "keys"
    for name in ("additive", "concat"):
        f = result.get(name)
        assert f.maps == "both" and f.read.query.shape == (1, A) and f.read.keys.shape == (1, 5, A)
    assert result.get("dot").maps is None  # H_d ≠ H_e: dot cannot score at all
    assert compare(ScoringConfig()).get("dot").maps == "none"
    assert compare(ScoringConfig()).get("scaled_dot").maps == "none"


def test_local_m_window_zero_outside_and_sums_to_one_inside():
    result = compare(ScoringConfig(window="local_m", step=2, half_width=1))
    for f in result.functions:
        w = f.read.weights[0]
        assert torch.equal(f.read.mask[0], torch.tensor([True, True, True, False, False]))
        assert torch.all(w[3:] == 0)
        assert math.isclose(float(w[:3].sum()), 1.0, abs_tol=1e-12)
        assert torch.isinf(f.read.masked_scores[0, 3:]).all()
        assert torch.allclose(w[:3], torch.softmax(f.read.scores[0, :3], dim=0))


def test_local_window_clipped_at_the_edge():
    result = compare(ScoringConfig(window="local_m", step=5, half_width=2))
    assert result.get("additive").read.mask[0].tolist() == [False, False, True, True, True]


def test_local_p_predicts_a_centre_and_multiplies_a_gaussian():
    result = compare(ScoringConfig(window="local_p", half_width=1))
    p = result.window.center
    assert 0 < p < 5
    read = result.get("additive").read
    positions = torch.arange(1, 6, dtype=torch.float64)
    assert torch.equal(read.mask[0], (positions - p).abs() <= 1)  # Luong's [p - D, p + D]
    gauss = torch.exp(-((positions - p) ** 2) / (2 * 0.5**2))  # σ = D / 2
    assert torch.allclose(read.gauss[0], gauss)
    assert math.isclose(float(read.align[0].sum()), 1.0, abs_tol=1e-12)
    assert torch.allclose(read.weights[0], read.align[0] * gauss)
    assert float(read.weights[0].sum()) < 1.0  # Luong does not renormalise after the Gaussian
    assert torch.all(read.weights[0][~read.mask[0]] == 0)


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@pytest.mark.parametrize("seed, S, H_d, A", [(0, 5, 2, 3), (3, 7, 3, 2), (11, 12, 4, 5), (5, 1, 2, 1)])
def test_local_p_centre_is_luongs_formula(seed, S, H_d, A):
    """p_t = S·sigmoid(v_pᵀ·tanh(W_p·h_t)) (Luong et al. 2015, eq. 9), from plain Python floats; the window holds
    the positions j with |j - p| ≤ D, as the paper's [p_t - D, p_t + D]."""
    gen = torch.Generator().manual_seed(seed)
    dec = [round(x, 3) for x in (torch.rand(H_d, generator=gen) * 2 - 1).tolist()]
    enc = [[round(x, 3) for x in row] for row in (torch.rand(S, H_d, generator=gen) * 4 - 2).tolist()]
    for D in (1, 2, 3):
        config = ScoringConfig(
            dec_state=tuple(dec),
            enc_states=tuple(map(tuple, enc)),
            attn_size=A,
            seed=seed,
            window="local_p",
            half_width=D,
        )
        result = compare(config)
        locator = init_uniform(LocalPosition(H_d, A), seed + 3, config.scale)
        W_p, v_p = locator.W_p.weight.tolist(), locator.v_p.weight[0].tolist()
        share = _sigmoid(sum(v * math.tanh(x) for v, x in zip(v_p, matvec(W_p, dec), strict=True)))
        p = S * share
        assert math.isclose(result.window.center, p, rel_tol=1e-12)
        assert math.isclose(result.window.sigmoid, share, rel_tol=1e-12)
        assert (result.window.lo, result.window.hi) == pytest.approx((p - D, p + D))
        inside = [abs(j - p) <= D for j in range(1, S + 1)]
        assert result.get("additive").read.mask[0].tolist() == inside
        assert any(inside)  # p is in (0, S) and the window 2D ≥ 2 wide: never empty


def test_local_p_window_is_the_interval_not_a_rounded_centre():
    """The default p (2.83) is not a whole number: [p - 1, p + 1] holds s2 and s3, not three positions."""
    result = compare(ScoringConfig(window="local_p", half_width=1))
    p = result.window.center
    assert p != round(p)
    mask = result.get("additive").read.mask[0].tolist()
    assert mask == [abs(j - p) <= 1 for j in range(1, 6)] and sum(mask) == 2


class FixedCentre(torch.nn.Module):
    """A local-p locator that puts p where the test says (the real one predicts it from s)."""

    def __init__(self, p: float) -> None:
        super().__init__()
        self.p = p

    def forward(self, s, S):
        return torch.full((s.shape[0],), self.p, dtype=torch.float64)


@pytest.mark.parametrize("p", [7.0, 7.5, 7.83])
def test_widening_d_keeps_the_local_p_sum_near_0_6_on_a_long_sentence(p):
    """Equal scores on 14 positions (every window fits): the weights' sum is the Gaussian's mean over the window,
    ≤ 0.61 for every D, not a climb toward 1 (σ = D/2 grows with the window). The core's flat_gaussian_sum
    equals the live sum computed through attend()."""
    enc = torch.ones(1, 14, 2, dtype=torch.float64)  # equal states -> equal scores
    s = torch.tensor([[0.3, 0.2]], dtype=torch.float64)
    for D in range(1, MAX_HALF_WIDTH + 1):
        read = attend(DotScore(), s, enc, "local_p", half_width=D, locator=FixedCentre(p))
        live = float(read.weights.sum())
        whole = window_positions(p, D)
        assert all(1 <= j <= 14 for j in whole) and int(read.mask.sum()) == len(whole)
        assert live == pytest.approx(flat_gaussian_sum(p, D, whole), abs=1e-12)
        assert 0.42 < live < 0.61


def test_flat_window_sum_bounds_hold_for_every_centre_and_width():
    for D in range(1, MAX_HALF_WIDTH + 1):
        for k in range(200):
            p = 7 + k / 200
            assert 0.42 < flat_gaussian_sum(p, D, window_positions(p, D)) < 0.61


def test_the_default_local_p_sum_climbs_only_where_the_sentence_cuts_the_window():
    """Five positions, p = 2.83: D = 1, 2 fit (no cut); from D = 3 the ends cut the window, and only then does
    the sum with equal scores rise above the whole window's (the page picks its sentence by edges_cut)."""
    for D in range(1, MAX_HALF_WIDTH + 1):
        w = compare(ScoringConfig(window="local_p", half_width=D)).window
        assert w.n_window == len(window_positions(w.center, D))
        assert w.n_inside == int(compare(ScoringConfig(window="local_p", half_width=D)).get("dot").read.mask.sum())
        assert w.edges_cut == (D >= 3)
        assert w.whole_sum < 0.61
        if w.edges_cut:
            assert w.cut_sum > w.whole_sum
        else:
            assert w.cut_sum == w.whole_sum
    same = ScoringConfig(enc_states=((1.0, 1.0),) * 5, window="local_p", half_width=4)  # equal scores, cut window
    result = compare(same)
    assert float(result.get("dot").read.weights.sum()) == pytest.approx(result.window.cut_sum, abs=1e-12)


@pytest.mark.parametrize("step", [1, 2, 5, 6, 9, 24])
def test_local_m_centre_is_the_decoder_step_clipped_to_the_source(step):
    """Luong's local-m: p_t = t (monotonic alignment); past the last source position it stays there."""
    S, D = 5, 1
    config = parse_config("0.3, 0.2", DEFAULT_ENC, window="local_m", step=step, half_width=D)
    result = compare(config)
    p = min(step, S)
    assert result.window.center == p and result.window.step_clipped == (step > S)
    assert (result.window.lo, result.window.hi) == (p - D, p + D)
    assert result.get("dot").read.mask[0].tolist() == [abs(j - p) <= D for j in range(1, S + 1)]
    assert float(result.get("dot").read.weights[0].sum()) == pytest.approx(1.0)


@pytest.mark.parametrize("step", [0, -1, 25])
def test_a_step_outside_1_to_the_cap_is_a_clear_error(step):
    with pytest.raises(InputError) as err:
        parse_config("0.3, 0.2", DEFAULT_ENC, window="local_m", step=step)
    assert err.value.key == "errors.out_of_range" and err.value.field == "scoring.field.step"


def test_the_step_only_moves_local_m():
    assert parse_config("0.3, 0.2", DEFAULT_ENC, window="global", step=9).window == "global"
    assert compare(ScoringConfig(window="global", step=9)).window is None
    assert (
        compare(ScoringConfig(window="local_p", step=1)).window
        == compare(ScoringConfig(window="local_p", step=4)).window
    )


@pytest.mark.parametrize(
    "query_from, context_into, gru_in, combined",
    [
        ("previous", "input", (1, 5), False),
        ("previous", "output", (1, 3), True),
        ("current", "output", (1, 3), True),
    ],
)
def test_flow_wiring_shapes(query_from, context_into, gru_in, combined):
    result = compare(ScoringConfig(query_from=query_from, context_into=context_into))
    flow = result.flow
    shapes = dict(flow.shapes)
    assert shapes["gru_in"] == gru_in  # E = 3, plus H_e = 2 when the context is an input
    assert ("combined" in shapes) == combined
    assert shapes["logits"] == (1, 8) and shapes["context"] == (1, 2) and shapes["weights"] == (1, 5)
    assert torch.equal(flow.query, flow.s_prev if query_from == "previous" else flow.s_t)
    if query_from == "previous":  # same query and scorer as the comparison table: same weights
        assert torch.allclose(flow.read.weights, result.get("additive").read.weights)


def test_current_state_into_the_input_is_circular():
    result = compare(ScoringConfig(query_from="current", context_into="input"))
    assert result.flow is None and result.flow_error[0] == "scoring.error.circular"
    assert result.get("additive").read is not None  # the comparison still stands


@pytest.mark.parametrize(
    "kwargs, key",
    [
        (dict(dec_text=""), "errors.empty_value"),
        (dict(dec_text="1 2 3 4 5 6 7 8 9"), "errors.too_many_values"),
        (dict(dec_text="0.3, abc"), "errors.not_a_number"),
        (dict(enc_rows=[["1", "2"]] * 13), "errors.too_many_rows"),
        (dict(enc_rows=[["1", "nan"]]), "errors.nan"),
        (dict(enc_rows=[]), "errors.empty_table"),
        (dict(attn_size=9), "errors.out_of_range"),
        (dict(attn_size=0), "errors.out_of_range"),
        (dict(half_width=0), "errors.out_of_range"),
        (dict(half_width=99), "errors.out_of_range"),
        (dict(scale=1e9), "errors.too_large"),
        (dict(scale=50), "errors.out_of_range"),
        (dict(seed=-1), "errors.out_of_range"),
        (dict(focus="cosine"), "errors.bad_choice"),
        (dict(window="nearby"), "errors.bad_choice"),
        (dict(query_from="next"), "errors.bad_choice"),
    ],
)
def test_bad_input_gets_a_named_message(kwargs, key):
    args = {"dec_text": "0.3, 0.2", "enc_rows": DEFAULT_ENC, **kwargs}
    with pytest.raises(InputError) as err:
        parse_config(args.pop("dec_text"), args.pop("enc_rows"), **args)
    assert err.value.key == key
    assert err.value.field.startswith("scoring.field.")


def test_states_from_the_encoder():
    s, rows = states_from_encoder("나는 책을 읽는다", 0)
    assert len(s) == 4 and len(rows) == 3 and all(len(r) == 4 for r in rows)
    config = parse_config(", ".join(map(str, s)), [[str(x) for x in r] for r in rows], focus="dot")
    assert compare(config).get("dot").error is None
    with pytest.raises(InputError) as err:
        states_from_encoder("   ", 0)
    assert err.value.field == "scoring.field.sentence"


cell = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=32), st.text(max_size=4), st.none(), st.integers(-5, 5)
)


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet="0123456789.,- ae", max_size=12),
    st.lists(st.lists(cell, min_size=1, max_size=3), min_size=0, max_size=6),
    st.sampled_from(list(SCORERS) + ["x"]),
    st.sampled_from(["global", "local_m", "local_p", "?"]),
    st.integers(-3, 8),
    st.integers(-1, 7),
    st.sampled_from(["previous", "current"]),
    st.sampled_from(["input", "output"]),
)
def test_any_input_gives_a_result_or_an_input_error(dec, enc, focus, window, step, half, qf, ci):
    try:
        config = parse_config(
            dec, enc, focus=focus, window=window, step=step, half_width=half, query_from=qf, context_into=ci
        )
    except InputError:
        return
    result = compare(config)
    for f in result.functions:
        if f.read is None:
            continue
        assert torch.isfinite(f.read.context).all()
        assert torch.all(f.read.weights[~f.read.mask] == 0)
        assert math.isclose(float(f.read.align.sum()), 1.0, abs_tol=1e-9)


@pytest.mark.parametrize(
    "config",
    [
        ScoringConfig(),
        ScoringConfig(window="local_p", focus="concat"),
        ScoringConfig(dec_state=(1.0, 2.0, 3.0), focus="dot", window="local_m"),  # dot cannot score: additive's window
    ],
)
def test_every_chart_is_valid_vega_lite_and_the_diagram_names_the_shapes(config):
    from s2s_core.scoring.charts import DIAGRAM_WORDS, WINDOW_WORDS, flow_dot, page_charts

    labels = {k: k for k in ("title", "subtitle", "description", "scores", "softmax", "gauss_row", *WINDOW_WORDS)}
    result = compare(config)
    charts = page_charts(result, config.focus, labels)
    assert list(charts) == ["window"]
    for chart in charts.values():
        spec = chart.to_dict()  # validates against the Vega-Lite schema (the page skips this for speed)
        # The score bars outside a local window are dashed, those inside solid (no empty layer for global).
        dashes = [layer["mark"].get("strokeDash") for layer in spec["layer"] if layer["mark"].get("fillOpacity")]
        assert dashes == ([None] if config.window == "global" else [None, [3, 2]])
    if result.flow is not None:
        dot = flow_dot(result.flow, {k: k for k in DIAGRAM_WORDS})
        assert dot.startswith("digraph") and "(1, 5, 2)" in dot and "penwidth=2" in dot


def test_the_words_handed_to_the_charts_are_in_both_catalogs():
    """The page hands each builder its own list of keys (s2s_core.catalog.words): every one is a real catalog key."""
    from s2s_core.catalog import load_catalog
    from s2s_core.scoring.charts import DIAGRAM_WORDS, WINDOW_WORDS
    from s2s_core.scoring.picture import COMPARE_WORDS, FOCUS_WORDS

    wanted = [f"scoring.chart.{k}" for k in (*WINDOW_WORDS, *COMPARE_WORDS, *FOCUS_WORDS)]
    wanted += [f"scoring.diagram.{k}" for k in DIAGRAM_WORDS]
    for lang in ("ko", "en"):
        assert [k for k in wanted if k not in load_catalog(lang)] == []


def test_the_shown_function_and_its_peak():
    """What the pictures draw for a focus that cannot score (dot with H_d ≠ H_e): additive's read; a read's peak is
    its largest weight and where it sits."""
    from s2s_core.scoring.frames import peak

    result = compare(ScoringConfig(dec_state=(1.0, 2.0, 3.0), focus="dot"))
    assert result.get("dot").read is None and result.shown("dot").name == "additive"
    assert compare(ScoringConfig(focus="general")).shown("general").name == "general"
    read = result.shown("dot").read
    j, weight = peak(read)
    assert weight == float(read.weights.max()) and float(read.weights[0, j]) == weight


def _gru_cell_by_hand(x, h, cell):
    """PyTorch's GRUCell equations (r, z, n in its weight order), written out."""
    W_ir, W_iz, W_in = cell.weight_ih.chunk(3)
    W_hr, W_hz, W_hn = cell.weight_hh.chunk(3)
    b_ir, b_iz, b_in = cell.bias_ih.chunk(3)
    b_hr, b_hz, b_hn = cell.bias_hh.chunk(3)
    r = torch.sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = torch.sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = torch.tanh(x @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    return (1 - z) * n + z * h


@pytest.mark.parametrize(
    "query_from, context_into", [("previous", "input"), ("previous", "output"), ("current", "output")]
)
@pytest.mark.parametrize("seed", [0, 4])
def test_with_attention_the_decoder_step_is_still_recurrent(query_from, context_into, seed):
    """s_t = GRU(input, s_(t-1)) in every wiring: the same input with s_(t-1) = 0 gives another state. Both are
    checked against the GRU equations by hand with the step's own weights."""
    config = ScoringConfig(query_from=query_from, context_into=context_into, seed=seed)
    flow = compare(config).flow
    step = init_uniform(AttnDecoderStep(FLOW_EMBED, 2, 2, FLOW_VOCAB, context_into), seed + 10)
    y = torch.randn(1, FLOW_EMBED, generator=torch.Generator().manual_seed(seed + 11), dtype=torch.float64)
    gru_in = torch.cat([y, flow.read.context], dim=-1) if context_into == "input" else y
    with torch.no_grad():
        assert torch.allclose(_gru_cell_by_hand(gru_in, flow.s_prev, step.gru), flow.s_t)
        zero = _gru_cell_by_hand(gru_in, torch.zeros_like(flow.s_prev), step.gru)
    assert torch.allclose(zero, flow.s_t_from_zero)
    assert flow.carried == pytest.approx(float((flow.s_t - zero).norm())) and flow.carried > 0.01
    assert not flow.prev_is_zero


def test_a_zero_previous_state_carries_nothing_and_says_so():
    flow = compare(ScoringConfig(dec_state=(0.0, 0.0))).flow
    assert flow.prev_is_zero and flow.carried == 0.0


def test_doubling_s_sharpens_dot_products_but_not_the_additive_score():
    """The page's question: s -> 2s doubles every dot-product score (a sharper softmax); additive adds W_s·s to
    every position's term inside tanh, so its largest weight barely moves at the defaults."""
    from dataclasses import replace

    from s2s_core.scoring.quiz import doubled_query

    additive = doubled_query(ScoringConfig())
    assert additive.doubled == (0.6, 0.4) and additive.verdict == "same"
    for name in ("dot", "general", "scaled_dot"):
        q = doubled_query(replace(ScoringConfig(), focus=name))
        assert q.name == name and q.verdict == "rise" and q.peak_doubled > q.peak
    # dot cannot score H_d != H_e: the question falls back to additive
    q = doubled_query(replace(ScoringConfig(), focus="dot", dec_state=(0.3, 0.2, 0.1)))
    assert q is not None and q.name == "additive"


def test_the_pictures_data_equals_the_computation():
    """Picture 1's weights and scores are every function's own; picture 2's squares are the keys, values and
    context, its window is the read's, and local-p's Gaussian is drawn from the read's factor."""
    from s2s_core.scoring.fields import SCORERS as NAMES
    from s2s_core.scoring.picture import compare_frame, focus_frames

    config = ScoringConfig(window="local_p", half_width=2)
    result = compare(config)
    frame = compare_frame(result, {n: n for n in NAMES})
    for f in result.functions:
        rows = frame[frame["function"] == f.name]
        assert rows["weight"].tolist() == pytest.approx(f.read.weights[0].tolist())
        assert rows["score"].tolist() == pytest.approx(f.read.scores[0].tolist())
        assert rows[rows["peak"]]["x"].tolist() == [int(f.read.weights[0].argmax()) + 1]
    read = result.get("general").read
    frames = focus_frames(read)
    squares = frames["squares"]
    assert squares[squares["part"] == "key"]["value"].tolist() == pytest.approx(read.keys[0].flatten().tolist())
    assert squares[squares["part"] == "value"]["value"].tolist() == pytest.approx(read.values[0].flatten().tolist())
    assert squares[squares["part"] == "context"]["value"].tolist() == pytest.approx(read.context[0].tolist())
    assert frames["bars"]["inside"].tolist() == read.mask[0].tolist()
    assert frames["bars"]["gauss"].tolist() == pytest.approx(read.gauss[0].tolist())
    assert frames["band"]["p"].tolist() == pytest.approx([float(read.center[0])])
    # The softmax row: exp(score − max) inside the window, 0 outside; divided by their sum, softmax's own output.
    exps = frames["bars"]["exp"]
    assert exps[~frames["bars"]["inside"]].tolist() == [0.0] * int((~read.mask[0]).sum())
    assert (exps / exps.sum()).tolist() == pytest.approx(read.align[0].tolist())
    assert max(exps) == pytest.approx(1.0)
    # Before an edit: the previous input's weights, position by position.
    before = compare(ScoringConfig(dec_state=(0.6, 0.4)))
    old = compare_frame(result, {n: n for n in NAMES}, before)
    dot = old[old["function"] == "dot"]
    assert dot["before"].tolist() == pytest.approx(before.get("dot").read.weights[0].tolist())


@pytest.mark.parametrize("window", ["global", "local_m", "local_p"])
def test_the_pictures_are_valid_vega_lite(window):
    """The page draws these specs unvalidated (cached_spec): they are validated against the schema here."""
    from s2s_core.chartkit import step_param
    from s2s_core.scoring.fields import SCORERS as NAMES
    from s2s_core.scoring.picture import COMPARE_WORDS, FOCUS_WORDS, compare_picture, focus_picture

    result = compare(ScoringConfig(window=window, half_width=2))
    # The pictures' own word lists, plus what the page fills in with live numbers (s2s_ui/scoring/specs.py).
    filled = ("title", "subtitle", "description", "keys", "scores", "softmax", "values")
    labels = {k: k for k in (*COMPARE_WORDS, *FOCUS_WORDS, *filled)}
    compare_picture(result, {n: n for n in NAMES}, labels, compare(ScoringConfig(dec_state=(1.0, 2.0)))).to_dict()
    focus_picture(result.get("general").read, labels, step_param("sel", result.S, 2, "j")).to_dict()


def test_picture_titles_are_cut_into_lines_that_fit_a_phone():
    """chartkit.lines (the scoring and masks pictures' titles): a Hangul character counts two Latin ones."""
    from s2s_core.chartkit import lines

    assert lines("aa bb cc", 5) == ["aa bb", "cc"]
    assert lines("가나 다라", 4) == ["가나", "다라"]
    assert lines("unbreakable word", 3) == ["unbreakable", "word"]  # a longer word stays whole


def test_the_signed_scores_and_the_softmax_row_are_drawn_as_text_marks():
    """The main picture prints every score with its sign (d3 '+.2~f': rising bars labelled above the zero line,
    hanging ones below) and the softmax row's exp values; the compare picture names the softmax between each
    function's scores and weights. Number layers are aria-hidden (a phone's width may filter them to nothing)."""
    import json

    from s2s_core.chartkit import step_param
    from s2s_core.fmt import SIGNED_TWO_D3
    from s2s_core.scoring.fields import SCORERS as NAMES
    from s2s_core.scoring.picture import COMPARE_WORDS, FOCUS_WORDS, compare_picture, focus_picture

    result = compare(ScoringConfig())
    labels = {k: k for k in (*COMPARE_WORDS, *FOCUS_WORDS, "title", "subtitle", "description", "keys", "scores")}
    labels |= {"softmax": "SOFTMAX ROW", "values": "values"}
    step = step_param("s", 5, 1, "j")
    focus = json.dumps(focus_picture(result.get("general").read, labels, step).to_dict())
    assert (
        f"format(datum.score, '{SIGNED_TWO_D3}')" in focus
        and "datum.score >= 0" in focus
        and "datum.score < 0" in focus
    )
    assert "format(datum.exp" in focus and "SOFTMAX ROW" in focus
    spec = compare_picture(result, {n: n for n in NAMES}, labels).to_dict()
    assert f"format(datum.score, '{SIGNED_TWO_D3}')" in json.dumps(spec)
    layers = spec["layer"]
    texts = [v["text"] for rows in spec["datasets"].values() for v in rows if "text" in v]
    assert texts.count("softmax_short") == len(result.functions)  # one "↓ softmax" per function's row
    numbers = [layer for layer in layers if "format(datum" in json.dumps(layer.get("transform", []))]
    assert numbers and all(layer["mark"].get("aria") is False for layer in numbers)


def test_the_comparison_tables_round_every_function_and_name_each_rows_peak():
    from s2s_core.fmt import two
    from s2s_core.scoring.fields import SCORERS as NAMES
    from s2s_core.scoring.frames import comparison_tables

    config = ScoringConfig(dec_state=(0.3, 0.2, 0.1))  # dot and scaled dot cannot score: their rows say so
    result = compare(config)
    tables = comparison_tables(result, {n: n for n in NAMES}, {"function": "f", "context": "c"}, "NA")
    scores, weights, contexts, peaks = tables
    assert scores["f"].tolist() == list(NAMES) and list(weights.columns) == ["f", "s1", "s2", "s3", "s4", "s5"]
    for i, f in enumerate(result.functions):
        if f.read is None:
            assert peaks[i] is None and scores.iloc[i]["s1"] == "NA" and contexts.iloc[i]["c"] == "NA"
            continue
        assert weights.iloc[i][["s1", "s2", "s3", "s4", "s5"]].tolist() == [two(w) for w in f.read.weights[0]]
        assert peaks[i] == f"s{int(f.read.weights[0].argmax()) + 1}"
        assert contexts.iloc[i]["c"] == "[" + ", ".join(two(x) for x in f.read.context[0]) + "]"
    assert [p is None for p in peaks] == [f.read is None for f in result.functions] and None in peaks
