"""Padding & masks page through AppTest, in English: defaults, checks, a filtered all-PAD source, bad URLs, Reset,
and each tab drawn alone (as a server draws only the open tab) showing what it shows after other tabs ran."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks, default_config, fields
from s2s_core.masks.picture import weight_line
from tests.app.conftest import all_text, open_page, open_tab

EN = default_config("en")  # the English page opens on English sentences
DEFAULT = compute_masks(EN)
DEFAULT_SRC, DEFAULT_TGT = EN.sources, EN.targets
TAB_KEYS = dict(
    zip(
        fields.TABS,
        (
            "masks.tab_loss",
            "masks.tab_attention",
            "masks.tab_final",
            "masks.tab_batch",
            "masks.tab_empty",
            "ui.tab_notice",
            "ui.tab_code",
        ),
        strict=True,
    )
)
CHECKS = {"loss": "masks.check_loss", "attention": "masks.check_attention", "final": "masks.check_final"}


def _open(at, tab: str, lang: str = "en"):
    return open_tab(at, "masks", TAB_KEYS[tab], lang)


def _drawn(at) -> list[bool]:
    """Per tab: does it hold anything (a closed tab is an empty block)?"""
    return [len(tab.children) > 0 for tab in at.tabs]


def _tab(at, tab: str):
    return at.tabs[fields.TABS.index(tab)]


def _titles(block) -> list[str]:
    """The titles of the charts in a block (a tab), as text."""
    out = []
    for chart in block.get("vega_lite_chart"):
        title = json.loads(chart.proto.spec).get("title")
        out.append(" ".join(title["text"]) if isinstance(title, dict) else str(title))
    return out


def _chart_rows(block) -> list[dict]:
    rows = []
    for chart in block.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return rows


def test_defaults_show_both_losses_checks_and_why_empty_is_filtered(lang):
    at = open_page("masks", lang)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "masks.title") in text
    assert _drawn(at) == [tab == "loss" for tab in fields.TABS]  # the first tab opens by default, alone
    assert [m.value for m in at.metric] == [fmt(DEFAULT.loss_ignore), fmt(DEFAULT.loss_all)]
    assert "i read a book" in [w.value for w in at.text_input]  # English sentences in English
    assert set(at.query_params) <= {"lang"}  # its own default: no parameter of the page
    # Each check against PyTorch passes, in its own tab (loss, attention, final state).
    for tab, check in CHECKS.items():
        _open(at, tab, lang)
        assert [s.value for s in at.success] == [s.value for s in _tab(at, tab).success]
        assert len(at.success) == 1 and translate(lang, check) in at.success[0].value
    _open(at, "empty", lang)
    assert "Length of all samples has to be greater than 0" in all_text(at)  # PyTorch's own refusal, live
    assert at.query_params["masks_tabs"] == "empty"  # the open tab is in the link
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
    for tab, check in CHECKS.items():
        _open(at, tab, lang)
        assert len(at.success) == 1 and translate(lang, check) in at.success[0].value


def test_empty_target_and_special_token(lang):
    at = open_page("masks", lang)
    at.text_input(key="masks_tgt_1").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "masks.field.target_1") in " ".join(e.value for e in at.error)
    at.text_input(key="masks_tgt_1").set_value("i <eos>").run()
    assert not at.exception
    assert "eos" in " ".join(e.value for e in at.error)


def test_every_pair_bad_leaves_the_explanations(lang):
    query = {"masks_rows": "1", "masks_src_1": "<pad>", "masks_tabs": "empty"}
    at = open_page("masks", lang, query=query)
    assert not at.exception
    assert len(at.error) == 2  # the pair's own message and "no batch to run" (where the picture would be)
    assert translate(lang, "masks.empty_rule") in all_text(at)  # the all-PAD explanation does not need a batch
    no_batch = translate(lang, "masks.error.no_pairs", field=translate(lang, "masks.field.pairs"))
    _open(at, "loss", lang)  # a tab that needs the batch says it waits for it (the message stands once, above)
    assert [e.value for e in at.error].count(no_batch) == 1
    assert not _tab(at, "loss").error
    assert translate(lang, "ui.error_above") in [c.value for c in _tab(at, "loss").caption]


def test_editing_a_sentence_redraws_the_numbers(lang):
    at = open_page("masks", lang)
    at.text_input(key="masks_src_2").set_value("thanks a lot").run()
    assert not at.exception
    config = MasksConfig(sources=(DEFAULT_SRC[0], ("thanks", "a", "lot"), DEFAULT_SRC[2]), targets=DEFAULT_TGT)
    assert fmt(compute_masks(config).loss_ignore) == at.metric[0].value


def test_the_quiz_answer_is_nowhere_until_answered_then_graded(lang):
    """The loss's divisor (real target tokens) is stated nowhere, not in a formula, notice or chart of any tab, until
    the learner answers; then it is graded against the live count and written out."""
    at = open_page("masks", lang)
    n = DEFAULT.n_real
    formula = translate(
        lang, "masks.formula_ignore", sum_real=fmt(DEFAULT.sum_real), n_real=n, loss=fmt(DEFAULT.loss_ignore)
    )
    notice = translate(lang, "masks.notice_1", n_real=n, n_total=DEFAULT.n_total)
    assert translate(lang, "masks.formula_hidden") in all_text(at)
    for tab in fields.TABS:
        if tab != "code":  # the script prints every number: it is the code, not an explanation
            _open(at, tab, lang)
            text = all_text(at)
            assert formula not in text and notice not in text, tab
            chart_strings = [v for row in _chart_rows(at) for v in row.values() if isinstance(v, str)]
            assert chart_strings and not any(f"÷ {n}" in v or f"/ {n}" in v for v in chart_strings), tab
    at.radio(key="masks_quiz").set_value(str(n)).run()
    assert not at.exception
    assert any(str(n) in s.value for s in at.success)
    assert notice in all_text(at)  # the notices' tab was open last
    _open(at, "loss", lang)
    assert formula in all_text(at)


def test_a_try_this_case_loads_its_inputs_and_reset_forgets_them(lang):
    at = open_page("masks", lang)
    at.button(key="try__masks__0").click().run()  # the other language's example: the syllabus's Korean batch
    assert not at.exception
    assert at.text_input(key="masks_src_1").value == "나는 책을 읽는다"
    assert fmt(compute_masks(MasksConfig()).loss_ignore) == at.metric[0].value
    assert {"masks_src_1", "masks_tgt_3"} <= set(at.query_params)
    at.button(key="reset__masks").click().run()
    assert not at.exception
    assert at.text_input(key="masks_src_1").value == "i read a book"
    assert set(at.query_params) <= {"lang"}


def test_reset_from_a_link_that_set_every_kind_of_field_leaves_no_parameter(lang):
    """Sentences of a 4th row, the folded model settings, the picked sentence, the picture's step, the open tab."""
    query = {
        "masks_rows": "4",
        "masks_src_4": "a b",
        "masks_tgt_4": "x",
        "masks_seed": "7",
        "masks_hidden": "5",
        "masks_embed": "3",
        "masks_row": "3",
        "masks_pick": "3",
        "masks_tabs": "final",
    }
    at = open_page("masks", lang, query=query)
    assert not at.exception
    assert {k: at.query_params[k] for k in query} == query  # every one was read and is still in effect
    assert at.number_input(key="masks_hidden").value == 5  # in the folded expander
    assert at.selectbox(key="masks_row").value == 3
    at.button(key="reset__masks").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    assert at.number_input(key="masks_rows").value == 3 and at.number_input(key="masks_hidden").value == 4
    assert _drawn(at) == [tab == "loss" for tab in fields.TABS]  # back on the first tab


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
            "masks_pick": "99",
            "masks_tabs": "nope",
        },
    )
    assert not at.exception
    assert _drawn(at)[0]  # an unknown tab opens the first one


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
    # Rows 1 and 3 run; the picture opens on row 1, the one of them with the most PAD (its first place).
    kept = MasksConfig(sources=EN.sources[::2], targets=EN.targets[::2], rows=(1, 3))
    masked, unmasked = weight_line(compute_masks(kept), 0)
    assert translate(lang, "masks.picture.follow", row=1, masked=masked, unmasked=unmasked) in all_text(at)


# --- issue 23: the final-state tab drawn alone, as a server draws it ------------------------------------------


def _final_title(row: int, lang: str = "en") -> str:
    return translate(lang, "masks.chart.final_chart", row=row)


def test_the_final_state_tab_alone_titles_and_draws_the_picked_sentence(lang):
    """A fresh session that opens only the final-state tab, with sentence 2 picked: the chart is sentence 2's (it
    was titled "Sentence 1" when this tab read a choice the attention tab made, which a server never drew)."""
    at = open_page("masks", lang, query={"masks_tabs": "final", "masks_row": "2"})
    assert not at.exception
    assert _drawn(at) == [tab == "final" for tab in fields.TABS]
    final = _tab(at, "final")
    assert _titles(final) == [_final_title(2, lang)]
    values = [r["value"] for r in _chart_rows(final)]
    assert values == pytest.approx(DEFAULT.h_after_pad[1].tolist() + DEFAULT.h_true_last[1].tolist())
    # The tab's own picker moves its chart, and the link says so.
    final.selectbox(key="masks_row").set_value(3).run()
    assert not at.exception
    assert _titles(_tab(at, "final")) == [_final_title(3, lang)] and at.query_params["masks_row"] == "3"
    # With nothing picked, the tab opens on the sentence with the most PAD, as the attention tab does.
    at = open_page("masks", lang, query={"masks_tabs": "final"})
    assert _titles(_tab(at, "final")) == [_final_title(2, lang)]


def test_a_sentence_picked_in_one_tab_is_the_one_the_other_shows(lang):
    at = open_page("masks", lang, query={"masks_tabs": "attention"})
    _tab(at, "attention").selectbox(key="masks_row").set_value(1).run()
    assert translate(lang, "masks.attn_caption", row=1) in all_text(at)
    _open(at, "loss", lang)  # a tab without the picker in between: the pick stays (in the link)
    assert at.query_params["masks_row"] == "1"
    _open(at, "final", lang)
    assert _titles(_tab(at, "final")) == [_final_title(1, lang)]


def _content(block) -> list[tuple[str, str]]:
    """What a tab shows, in order: each element's type and its text or chart spec and data."""
    out = []
    for node in block.children.values():
        if node.type == "vega_lite_chart":
            data = [pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in node.proto.datasets]
            out.append((node.type, node.proto.spec + json.dumps(data, default=str)))
        elif hasattr(node, "children") and node.children:
            out += _content(node)
        else:
            out.append((node.type, str(getattr(node, "value", ""))))
    return out


@pytest.mark.parametrize("tab", fields.TABS)
def test_each_tab_alone_shows_what_it_shows_after_the_others_ran(tab, lang):
    """A tab drawn first in a fresh session (from its link) equals the same tab opened after every other tab."""
    alone = open_page("masks", lang, query={"masks_tabs": tab})
    assert _drawn(alone) == [t == tab for t in fields.TABS]
    after = open_page("masks", lang)
    for other in [t for t in fields.TABS if t != tab] + [tab]:
        _open(after, other, lang)
    assert _content(_tab(alone, tab)) == _content(_tab(after, tab))
    assert _content(_tab(alone, tab))  # and it drew something


def test_a_language_switch_brings_the_other_languages_batch_and_keeps_the_open_tab():
    at = open_page("masks", "en", query={"masks_tabs": "final", "masks_seed": "3"})
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert at.text_input(key="masks_src_1").value == "나는 책을 읽는다"  # untouched sentences follow the language
    assert at.number_input(key="masks_seed").value == 3  # a value the learner set stays
    assert _drawn(at) == [tab == "final" for tab in fields.TABS]
    assert _titles(_tab(at, "final")) == [_final_title(2, "ko")]
    assert set(at.query_params) == {"lang", "masks_tabs", "masks_seed"}
