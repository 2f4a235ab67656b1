"""Padding & masks page through AppTest, in English: defaults, checks, a filtered all-PAD source, bad URLs."""

from __future__ import annotations

from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

DEFAULT = compute_masks(MasksConfig())
DEFAULT_SRC, DEFAULT_TGT = MasksConfig().sources, MasksConfig().targets


def test_defaults_show_both_losses_checks_and_why_empty_is_filtered(lang):
    at = open_page("masks", lang)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "masks.title") in text
    assert fmt(DEFAULT.loss_ignore) in text and fmt(DEFAULT.loss_all) in text
    assert f"÷ {DEFAULT.n_real}" in text or f"÷ 실제 토큰 {DEFAULT.n_real}" in text
    assert len(at.success) == 3  # loss, attention and final-state checks against PyTorch all pass
    assert "Length of all samples has to be greater than 0" in text  # PyTorch's own refusal, live
    assert not at.error


def test_all_pad_source_is_named_filtered_and_the_rest_still_runs(lang):
    at = open_page("masks", lang, query={"masks_src_2": "<pad> <pad>"})
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "masks.field.source_2") in errors
    assert "PAD" in errors
    text = all_text(at)
    assert translate(lang, "masks.dropped", rows="2") in text
    # Pairs 1 and 3 still make a batch: S = 4 (sentence 3), T = 7, and the checks still pass.
    after = compute_masks(
        MasksConfig(sources=(DEFAULT_SRC[0], DEFAULT_SRC[2]), targets=(DEFAULT_TGT[0], DEFAULT_TGT[2]), rows=(1, 3))
    )
    assert fmt(after.loss_ignore) in text
    assert len(at.success) == 3


def test_empty_target_and_special_token(lang):
    at = open_page("masks", lang)
    at.text_input(key="masks_tgt_1").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "masks.field.target_1") in " ".join(e.value for e in at.error)
    at.text_input(key="masks_tgt_1").set_value("i <eos>").run()
    assert not at.exception
    assert "eos" in " ".join(e.value for e in at.error)


def test_every_pair_bad_leaves_the_explanations(lang):
    at = open_page("masks", lang, query={"masks_rows": "1", "masks_src_1": "<pad>"})
    assert not at.exception
    assert len(at.error) == 2  # the pair's own message and "no batch to run"
    assert translate(lang, "masks.empty_heading") in all_text(at)


def test_editing_a_sentence_redraws_the_numbers(lang):
    at = open_page("masks", lang)
    at.text_input(key="masks_src_2").set_value("고마워 정말로").run()
    assert not at.exception
    config = MasksConfig(sources=(DEFAULT_SRC[0], ("고마워", "정말로"), DEFAULT_SRC[2]))
    assert fmt(compute_masks(config).loss_ignore) in all_text(at)


def test_quiz_is_graded_against_the_live_count(lang):
    at = open_page("masks", lang)
    at.radio(key="masks_quiz").set_value(str(DEFAULT.n_real)).run()
    assert not at.exception
    assert at.success and any(str(DEFAULT.n_real) in s.value for s in at.success)


def test_url_values_over_the_caps_never_crash(lang):
    at = open_page(
        "masks",
        lang,
        query={
            "masks_rows": "99",
            "masks_seed": "-5",
            "masks_hidden": "999",
            "masks_src_1": "a " * 50,
            "masks_row": "7",
        },
    )
    assert not at.exception
