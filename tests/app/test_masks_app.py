"""Padding & masks page through AppTest, in English: defaults, checks, a filtered all-PAD source, bad URLs."""

from __future__ import annotations

import pyarrow as pa

from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks, default_config
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

EN = default_config("en")  # the English page opens on English sentences
DEFAULT = compute_masks(EN)
DEFAULT_SRC, DEFAULT_TGT = EN.sources, EN.targets


def test_defaults_show_both_losses_checks_and_why_empty_is_filtered(lang):
    at = open_page("masks", lang)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "masks.title") in text
    assert [m.value for m in at.metric] == [fmt(DEFAULT.loss_ignore), fmt(DEFAULT.loss_all)]
    assert "i read a book" in [w.value for w in at.text_input]  # English sentences in English
    assert not [k for k in at.query_params if k.startswith(("masks_src", "masks_tgt"))]  # its own default: no parameter
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
    # Pairs 1 and 3 still make a batch, and the checks still pass.
    after = compute_masks(
        MasksConfig(sources=(DEFAULT_SRC[0], DEFAULT_SRC[2]), targets=(DEFAULT_TGT[0], DEFAULT_TGT[2]), rows=(1, 3))
    )
    assert fmt(after.loss_ignore) == at.metric[0].value
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
    assert translate(lang, "masks.empty_rule") in all_text(at)  # the all-PAD explanation does not need a batch


def test_editing_a_sentence_redraws_the_numbers(lang):
    at = open_page("masks", lang)
    at.text_input(key="masks_src_2").set_value("thanks a lot").run()
    assert not at.exception
    config = MasksConfig(sources=(DEFAULT_SRC[0], ("thanks", "a", "lot"), DEFAULT_SRC[2]), targets=DEFAULT_TGT)
    assert fmt(compute_masks(config).loss_ignore) == at.metric[0].value


def _chart_rows(at) -> list[dict]:
    rows = []
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return rows


def test_the_quiz_answer_is_nowhere_until_answered_then_graded(lang):
    """The loss's divisor (real target tokens) is stated nowhere, not in a formula, notice or chart, until the
    learner answers; then it is graded against the live count and written out."""
    at = open_page("masks", lang)
    n = DEFAULT.n_real
    formula = translate(
        lang, "masks.formula_ignore", sum_real=fmt(DEFAULT.sum_real), n_real=n, loss=fmt(DEFAULT.loss_ignore)
    )
    notice = translate(lang, "masks.notice_1", n_real=n, n_total=DEFAULT.n_total)
    text = all_text(at)
    assert formula not in text and notice not in text and translate(lang, "masks.formula_hidden") in text
    chart_strings = [v for row in _chart_rows(at) for v in row.values() if isinstance(v, str)]
    assert chart_strings and not any(f"÷ {n}" in v or f"/ {n}" in v for v in chart_strings)
    at.radio(key="masks_quiz").set_value(str(n)).run()
    assert not at.exception
    assert any(str(n) in s.value for s in at.success)
    text = all_text(at)
    assert formula in text and notice in text


def test_a_try_this_case_loads_its_inputs(lang):
    at = open_page("masks", lang)
    at.button(key="try__masks_rows__0").click().run()  # the other language's example: the syllabus's Korean batch
    assert not at.exception
    assert at.text_input(key="masks_src_1").value == "나는 책을 읽는다"
    assert fmt(compute_masks(MasksConfig()).loss_ignore) == at.metric[0].value


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


def _picture(at) -> list[dict]:
    """The main picture's rows (the first chart on the page)."""
    chart = at.get("vega_lite_chart")[0]
    rows = []
    for dataset in chart.proto.datasets:
        rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return rows


def test_the_picture_draws_the_batch_the_chosen_rows_weights_and_a_rejected_row(lang):
    """The grid's cells are the padded batch; the strip is the chosen sentence's weights (the one with the most
    PAD by default); the counts appear only after the answer; an all-PAD source is drawn as rejected."""
    at = open_page("masks", lang)
    rows = _picture(at)
    targets = [r for r in rows if r.get("side") == "target"]
    assert len(targets) == DEFAULT.dec_out.numel()  # B x T cells
    assert sum(1 for r in targets if r["pad"]) == DEFAULT.n_pad
    strip = [r for r in rows if "unmasked" in r and r.get("step") == 2]  # "thanks": the most PAD
    assert [fmt(r["masked"]) for r in strip] == [fmt(w) for w in DEFAULT.weights_masked[1, 0].tolist()]
    assert all(r.get("n") is None for r in rows if "n" in r)  # the per-row counts add up to the answer
    at.radio(key="masks_quiz").set_value(str(DEFAULT.n_real)).run()
    rows = _picture(at)
    assert sum(r["n"] for r in rows if r.get("n") is not None) == DEFAULT.n_real
    at = open_page("masks", lang, query={"masks_src_2": "<pad>"})
    assert not at.exception
    rows = _picture(at)
    rejected = translate(lang, "masks.picture.rejected", row=2)
    assert any(r.get("text") == rejected for r in rows)
    assert any(r.get("side") == "rejected" and r["token"] == "PAD" for r in rows)
