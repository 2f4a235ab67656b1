"""Padding & masks: ignore_index == mean over real tokens, masked attention is 0 on PAD, final states, bad input."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core.errors import InputError
from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, charts, compute_masks, frames, parse_config, screen_pairs
from s2s_core.masks.compute import DEFAULT_PAIRS, MAX_PAIRS, MAX_WORDS
from s2s_core.masks.model import build_model
from s2s_core.vocab import PAD, PAD_ID

DEFAULT = compute_masks(MasksConfig())


def test_default_batch_is_padded_as_the_page_says():
    r = DEFAULT
    assert r.src_ids.tolist() == [[4, 5, 6, PAD_ID], [7, PAD_ID, PAD_ID, PAD_ID], [8, 9, 10, 11]]
    assert r.src_lengths.tolist() == [3, 1, 4]
    assert r.dec_in[:, 0].tolist() == [1, 1, 1]  # every decoder input starts with <sos>
    assert r.dec_out.tolist()[1] == [8, 2, 0, 0, 0, 0, 0]  # "thanks <eos>" then PAD
    assert (r.n_real, r.n_total) == (14, 21)


def test_loss_with_ignore_index_is_the_mean_over_real_tokens():
    r = DEFAULT
    real = r.dec_out != PAD_ID  # (B, T)
    by_hand = r.token_nll[real].sum().item() / real.sum().item()
    assert math.isclose(r.loss_ignore, by_hand, rel_tol=1e-12)
    V = r.logits.shape[-1]
    torch_loss = nn.CrossEntropyLoss(ignore_index=PAD_ID)(r.logits.reshape(-1, V), r.dec_out.reshape(-1))
    assert torch.allclose(torch_loss, torch.tensor(by_hand, dtype=torch.float64))
    assert r.loss_check < 1e-12


def test_loss_with_pad_counts_every_position():
    r = DEFAULT
    assert math.isclose(r.loss_all, r.token_nll.mean().item(), rel_tol=1e-12)
    assert math.isclose(r.loss_all, (r.sum_real + r.sum_pad) / r.n_total, rel_tol=1e-12)
    assert r.loss_all != r.loss_ignore  # PAD targets change the number


def test_masked_attention_puts_exactly_zero_on_pad():
    r = DEFAULT
    pad = ~r.src_mask.unsqueeze(1).expand_as(r.weights_masked)  # (B, T, S)
    assert torch.all(r.weights_masked[pad] == 0)
    assert torch.all(r.pad_share_masked == 0)
    assert torch.all(torch.isinf(r.masked_scores[pad]))
    assert torch.allclose(r.weights_masked.sum(-1), torch.ones_like(r.pad_share_masked))
    # Without the mask some weight leaks onto PAD in every row that has PAD (rows 1 and 2).
    assert torch.all(r.pad_share_unmasked[:2] > 0)
    assert torch.all(r.pad_share_unmasked[2] == 0)  # the longest sentence has no PAD: nothing to leak to
    assert r.attention_check < 1e-12  # == F.scaled_dot_product_attention with the boolean mask


def test_final_state_after_pad_differs_only_for_padded_rows():
    r = DEFAULT
    assert r.final_gap[0] > 0 and r.final_gap[1] > 0
    assert r.final_gap[2] == 0
    assert torch.allclose(r.h_true_last, r.h_packed)
    assert r.final_check < 1e-12


def _alone(config: MasksConfig, b: int):
    """Sentence b run on its own (no PAD anywhere) with the very same weights: per-token -log p."""
    r = compute_masks(config)
    model = build_model(len(r.src_itos), len(r.tgt_itos), config.embed, config.hidden, config.seed)
    S_b, T_b = int(r.src_lengths[b]), int(r.tgt_mask[b].sum())
    src = r.src_ids[b : b + 1, :S_b]  # (1, S_b)
    dec_in = r.dec_in[b : b + 1, :T_b]  # (1, T_b)
    with torch.no_grad():
        enc, h_n = model.encoder(model.src_embed(src))  # (1, S_b, H), (1, 1, H)
        states, _ = model.decoder(model.tgt_embed(dec_in), h_n)  # (1, T_b, H)
        weights = torch.softmax(states @ enc.transpose(1, 2), dim=-1)  # (1, T_b, S_b)
        logits = model.out(torch.cat([states, weights @ enc], dim=-1))  # (1, T_b, V)
        nll = -torch.log_softmax(logits, -1).gather(-1, r.dec_out[b : b + 1, :T_b].unsqueeze(-1)).squeeze(-1)
    return r, h_n[0, 0], weights[0], nll[0]


@pytest.mark.parametrize("b", [0, 1, 2])
def test_masked_batch_equals_each_sentence_alone(b):
    r, h_last, weights, nll = _alone(MasksConfig(), b)
    S_b, T_b = weights.shape[1], weights.shape[0]
    assert torch.allclose(r.h_true_last[b], h_last)
    assert torch.allclose(r.weights_masked[b, :T_b, :S_b], weights)
    assert torch.allclose(r.token_nll[b, :T_b], nll)


def test_seeded_and_deterministic():
    again = compute_masks(MasksConfig())
    assert torch.equal(again.logits, DEFAULT.logits)
    other = compute_masks(MasksConfig(seed=7))
    assert not torch.equal(other.logits, DEFAULT.logits)


def test_parse_config_accepts_the_defaults():
    config = parse_config(DEFAULT_PAIRS, 0, 4, 4)
    assert config == MasksConfig()
    assert hash(config) == hash(MasksConfig())


@pytest.mark.parametrize(
    "pairs, key, field",
    [
        ([("나는", "i"), (f"{PAD} {PAD}", "x")], "errors.all_pad", "masks.field.source_2"),
        ([("  ", "i")], "masks.error.empty_source", "masks.field.source_1"),
        ([("나는", "")], "masks.error.empty_target", "masks.field.target_1"),
        ([("나는", None)], "masks.error.empty_target", "masks.field.target_1"),
        ([("나는", PAD)], "masks.error.all_pad_target", "masks.field.target_1"),
        ([("나는 <eos>", "i")], "masks.error.special_token", "masks.field.source_1"),
        ([("나는", "<unk> i")], "masks.error.special_token", "masks.field.target_1"),
        ([("a " * (MAX_WORDS + 1), "i")], "errors.too_many_tokens", "masks.field.source_1"),
        ([("a" * 500, "i")], "errors.text_too_long", "masks.field.source_1"),
        ([("a", "b")] * (MAX_PAIRS + 1), "errors.too_many_rows", "masks.field.pairs"),
        ([], "errors.empty_batch", "masks.field.pairs"),
    ],
)
def test_bad_pairs_get_a_named_message(pairs, key, field):
    with pytest.raises(InputError) as err:
        parse_config(pairs, 0, 4, 4)
    assert (err.value.key, err.value.field) == (key, field)


@pytest.mark.parametrize(
    "seed, hidden, embed, field",
    [
        (-1, 4, 4, "masks.field.seed"),
        ("x", 4, 4, "masks.field.seed"),
        (2**40, 4, 4, "masks.field.seed"),
        (0, 99, 4, "masks.field.hidden"),
        (0, 1, 4, "masks.field.hidden"),
        (0, 4, 2.5, "masks.field.embed"),
    ],
)
def test_settings_over_the_caps_rejected(seed, hidden, embed, field):
    with pytest.raises(InputError) as err:
        parse_config(DEFAULT_PAIRS, seed, hidden, embed)
    assert err.value.field == field


def test_bad_rows_are_filtered_out_and_named():
    pairs = [("나는 책을", "i read"), (PAD, "x"), ("고마워", "thanks")]
    screened = screen_pairs(pairs)
    assert screened.rows == (1, 3)
    assert [e.field for e in screened.errors] == ["masks.field.source_2"]
    config = parse_config(pairs, 0, 4, 4, drop_bad=True)
    assert config.rows == (1, 3) and len(config.sources) == 2
    with pytest.raises(InputError) as err:
        parse_config([(PAD, "x"), ("", "y")], 0, 4, 4, drop_bad=True)
    assert err.value.key == "masks.error.no_pairs"


def test_equal_lengths_mean_no_pad_and_equal_losses():
    r = compute_masks(parse_config([("a b", "x y"), ("c d", "z w")], 1, 3, 2))
    assert r.src_mask.all() and r.tgt_mask.all()
    assert math.isclose(r.loss_ignore, r.loss_all, rel_tol=1e-12)
    assert torch.equal(r.weights_masked, r.weights_unmasked)
    assert torch.all(r.final_gap == 0)


words = st.sampled_from(["나는", "a", "<pad>", "<sos>", "", " ", "책을", "x" * 30, "é", "\t", "1.5"])
sentence = st.one_of(st.lists(words, max_size=10).map(" ".join), st.none(), st.integers(), st.text(max_size=12))


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(sentence, sentence), max_size=5),
    seed=st.one_of(st.integers(-5, 2**32), st.text(max_size=3)),
    hidden=st.integers(0, 12),
    embed=st.integers(0, 12),
)
def test_any_input_is_either_rejected_cleanly_or_computed(pairs, seed, hidden, embed):
    try:
        config = parse_config(pairs, seed, hidden, embed, drop_bad=True)
    except InputError:
        return
    r = compute_masks(config)
    assert torch.all(r.pad_share_masked == 0)
    assert r.loss_check < 1e-9 and r.attention_check < 1e-9 and r.final_check < 1e-9
    assert r.src_lengths.min() >= 1


def test_frames_and_charts_build():
    config = MasksConfig()
    labels = {k: k for k in charts.LABELS}  # the words the page hands the builders (masks.chart.*)
    batch = frames.batch_frame(DEFAULT, config, "source")
    assert len(batch) == 12 and batch["pad"].sum() == 4
    loss = frames.loss_frame(DEFAULT, config)
    assert int(loss["counted_ignore"].sum()) == DEFAULT.n_real
    att = frames.attention_frame(DEFAULT, 1, masked=True)
    assert len(att) == 2 * 4  # "thanks <eos>": 2 real steps x 4 source positions
    assert att.loc[att["pad"], "weight"].eq(0).all()
    assert att["position"].iloc[1] == "s2 <pad>"
    share = frames.pad_share_frame(DEFAULT, 0, {"masked": "m", "unmasked": "u"})
    final = frames.final_state_frame(DEFAULT, 0, {"after_pad": "a", "true_last": "t"})
    table = frames.final_state_table(DEFAULT, config)
    assert table["pad_steps"].tolist() == [1, 3, 0]
    titles = [k for k in charts.LABELS if k.startswith(("grid_", "heat_")) or k.endswith(("_title", "_chart"))]
    titles += ["masked", "unmasked", "after_pad", "true_last"]
    labels |= {k: f"{k} 'quoted'" for k in titles} | {"pad_yes": "it's PAD", "final_chart": "s{row}: final"}
    specs = charts.batch_charts(DEFAULT, config, labels) | charts.sentence_charts(DEFAULT, config, 1, labels)
    assert len(specs) == 9
    for chart in specs.values():
        assert chart.to_dict()
    assert specs["final"].to_dict()["title"] == "s2: final"  # titled with the sentence it shows (row 2)
    gapped = MasksConfig(sources=config.sources[1:], targets=config.targets[1:], rows=(2, 3))
    row_3 = charts.sentence_charts(compute_masks(gapped), gapped, 1, labels)["final"]
    assert row_3.to_dict()["title"] == "s3: final"  # b is a place in the batch, the title the row as typed
    assert share["share"].max() > 0 and final["value"].notna().all()


def test_empty_source_demo_shows_what_breaks():
    from s2s_core.masks.empty import empty_source_demo

    demo = empty_source_demo(4)
    assert all(math.isnan(w) for w in demo.weights)  # softmax over all -inf is 0/0
    assert demo.wrapped_to == 3  # length-1 = -1 silently picks the last PAD position
    assert "greater than 0" in demo.pack_error
    with pytest.raises(InputError):
        empty_source_demo(0)


def test_summary_numbers_for_the_page():
    r = DEFAULT
    assert (r.n_words, r.n_pad) == (11, 7)
    assert math.isclose(r.ln_v, math.log(len(r.tgt_itos)))
    assert r.leak_by_row[2] == 0 and r.leak_by_row[1] > r.leak_by_row[0] > 0  # 3 PAD of 4 leak more than 1 of 4
    assert r.gap_by_row[2] == 0 and r.gap_by_row[1] > 0


def test_each_language_opens_on_its_own_sentences_of_the_same_shape():
    from s2s_core.masks import default_config, default_pairs

    assert default_config("ko") == MasksConfig()  # the syllabus's Korean batch is the config's default
    en = default_config("en")
    assert en.sources[0] == ("i", "read", "a", "book") and all(w.isascii() for s in en.sources for w in s)
    assert len(default_pairs("en")) == len(default_pairs("ko")) == MAX_PAIRS
    r = compute_masks(en)
    assert r.n_pad > 0 and r.leak_by_row[1] > 0  # a short row with PAD: the mechanics show as in Korean
    assert parse_config(default_pairs("en")[:3], 0, 4, 4) == en


def test_the_pictures_data_equals_the_computation():
    """Every cell is the padded batch's token (PAD labelled), the strip is each row's weights at decoder step 1,
    and the counts of targets that count appear only once the question is answered."""
    from s2s_core.masks.picture import picture_frames

    config = MasksConfig()
    result = compute_masks(config)
    names = {"sentence": "s{row}", "rejected": "x{row}", "source": "src", "target": "tgt"}
    f = picture_frames(result, config, [(4, "why")], names)
    cells = f["cells"]
    src = cells[cells["side"] == "source"]
    assert src["pad"].tolist() == (~result.src_mask).flatten().tolist()
    tgt = cells[cells["side"] == "target"]
    assert tgt["pad"].tolist() == (~result.tgt_mask).flatten().tolist()
    assert set(tgt[tgt["pad"]]["token"]) == {"PAD"}
    w = f["weights"]
    assert w["masked"].tolist() == pytest.approx(result.weights_masked[:, 0].flatten().tolist())
    assert w["unmasked"].tolist() == pytest.approx(result.weights_unmasked[:, 0].flatten().tolist())
    assert f["heads"]["n"].isna().all()
    shown = picture_frames(result, config, [], names, revealed=True)["heads"]
    assert shown["n"].sum() == result.n_real
    assert "why" in f["rejected"]["text"].tolist() and "x4" in f["rejected"]["text"].tolist()
    gone = cells[cells["side"] == "rejected"]  # the all-PAD source as the batch would hold it: S PAD cells
    assert len(gone) == result.src_ids.shape[1] and set(gone["token"]) == {"PAD"}


def test_the_picture_is_valid_vega_lite():
    """The page draws the spec unvalidated (cached_spec): validated against the schema here, with every layer."""
    from s2s_core.chartkit import step_param
    from s2s_core.masks.picture import WORDS, masks_picture

    config = MasksConfig()
    result = compute_masks(config)
    words = {k: k for k in WORDS} | {"sentence": "s{row}", "rejected": "x{row}", "counted": "{n} count"}
    words |= {"description": "B={B} S={S} T={T}", "denominator": "÷ {n_real} = {loss}", "subtitle_before": "sb"}
    step = step_param("sel", len(config.rows), 1, "row")
    spec = masks_picture(result, config, ((4, "why"),), words, step, True, (result, config)).to_dict()
    assert spec["description"] == "B=3 S=4 T=7"  # the builder fills in the numbers
    assert spec["title"]["subtitle"] == ["sb"]  # the previous batch shows: the subtitle says so
    shown = [v for d in spec["datasets"].values() for row in d for v in row.values() if isinstance(v, str)]
    assert f"÷ {result.n_real} = {fmt(result.loss_ignore)}" in shown
    assert masks_picture(result, config, (), words, step, False).to_dict()["title"]["subtitle"] == ["subtitle"]


def test_the_picks_and_the_question_come_from_the_computation():
    from s2s_core.masks.compute import has_pad, most_pad, quiz_choices, worst_leak
    from s2s_core.masks.picture import weight_line

    config = MasksConfig()
    assert most_pad(config) == 1  # "고마워": one word, three PAD
    assert worst_leak(DEFAULT) == 1 and has_pad(DEFAULT, 1) and not has_pad(DEFAULT, 2)
    assert weight_line(DEFAULT, 2) is None and weight_line(DEFAULT, 1) is not None
    options, answer = quiz_choices(DEFAULT)
    assert answer == str(DEFAULT.n_real) and options == ("11", "14", "21")  # words, real targets, every position
    screened = screen_pairs([("a", "b"), (f"{PAD} {PAD}", "c"), ("", "d"), (PAD, "e")])
    assert screened.dropped == (2, 3, 4) and [row for row, _ in screened.all_pad()] == [2, 4]


def test_a_long_token_has_a_two_line_form_and_the_rows_grow_for_it():
    """A token wider than its cell (decided in the browser from the live width) is drawn on two even lines,
    hyphenated inside a word; a batch whose words would need that on a phone gets taller rows."""
    from s2s_core.masks.picture import ROW_PX, ROW_PX_TWO_LINES, row_px, text_px, two_lines

    assert two_lines("merveilleuse") == "mervei-\nlleuse" and two_lines("도서관에서").replace("\n", "") == "도서관에서"
    assert two_lines("x") == "x" and "-" not in two_lines("도서관에서")
    assert 55 < text_px("merveilleuse") < 64  # measured in Chromium: 59 px at 11 px
    assert row_px([text_px(w) for w in ("i", "read", "a", "book", "<eos>")], 7) == ROW_PX
    assert row_px([text_px("merveilleuse")], 9) == ROW_PX_TWO_LINES


def test_the_fields_defaults_are_each_languages_batch():
    """The page's fields (s2s_core/masks/fields.py) open on the batch the core calls each language's default."""
    from s2s_core.masks import default_config, fields

    n = fields.ROWS.default
    for lang in ("ko", "en"):
        rows = zip(fields.SOURCES[:n], fields.TARGETS[:n], strict=True)
        pairs = [(src.default_for(lang), tgt.default_for(lang)) for src, tgt in rows]
        sizes = (fields.SEED.default, fields.HIDDEN.default, fields.EMBED.default)
        assert parse_config(pairs, *sizes) == default_config(lang)
    assert fields.TAB.options == fields.TABS and len(fields.SOURCES) == len(fields.TARGETS) == MAX_PAIRS
