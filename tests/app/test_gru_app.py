"""GRU page through AppTest, in English: check, step view, z freeze, comparison, bad input.

Each test drives one app session through several edits: starting a session costs far more than a rerun.
"""

from __future__ import annotations

from s2s_core.fmt import vec as vec_text
from s2s_core.gru import GruConfig, gru_gates, parse_config
from s2s_core.gru.compare import compare
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

SENTENCE = "나는 도서관에서 책을 읽는다"


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def test_defaults_step_freeze_compare_and_empty_sentence(lang):
    # 1) Defaults: badge passes, h_n and the step-2 equations and the parameter counts are on screen.
    at = open_page("gru", lang)
    assert not at.exception
    result = gru_gates(GruConfig())
    text = all_text(at)
    assert translate(lang, "gru.title") in text
    assert vec_text(result.torch_h_n) in text
    assert "h_t = (1 − z)⊙n + z⊙h_(t-1) = " in text and vec_text(result.run.h[1]) in text
    assert "c_t" not in text.split("import math")[0]  # no cell state on this page (the script aside)
    assert at.success and not at.error and not at.warning
    comp = compare(3, 4)
    assert translate(lang, "gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"]) in text

    # 2) The hidden size changes the counts, read off the modules.
    at.number_input(key="gru_H").set_value(6).run()
    assert not at.exception
    comp = compare(3, 6)
    assert translate(lang, "gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"]) in all_text(at)

    # 3) Freeze h (z = 1 from step 2): h stays at h_1.
    at.button(key="gru_freeze").click().run()
    assert not at.exception
    forced = gru_gates(parse_config("sentence", SENTENCE, None, 3, 6, 0, {"z": ([2, 3, 4], 1)})).forced
    assert f"h = {vec_text(forced.h[-1])}" in all_text(at) and vec_text(forced.h[0]) == vec_text(forced.h[-1])

    # 4) An empty sentence names the field; the rest of the page frame still renders.
    at.text_input(key="gru_sentence").set_value("").run()
    assert not at.exception
    assert translate(lang, "gru.field.sentence") in _errors(at)
    assert translate(lang, "gru.inputs") in all_text(at)


def test_table_mode_with_a_non_finite_cell(lang):
    at = open_page("gru", lang, query={"gru_x": "1,inf"})
    at.number_input(key="gru_E").set_value(2).run()
    at.segmented_control(key="gru_source").set_value("table").run()
    assert not at.exception
    assert translate(lang, "gru.field.vectors") in _errors(at)
