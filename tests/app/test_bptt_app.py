"""BPTT page through AppTest, in English: defaults, linear ρ^k check, truncation, clipping, the quiz about an edit
(its answer nowhere on the page until answered), prepared cases and Reset, tabs that each compute what they show."""

from __future__ import annotations

import json
from dataclasses import replace

from s2s_core.bptt import BpttConfig, backprop_through_time, clip, fields
from s2s_core.bptt.code import script
from s2s_core.bptt.frames import ratio_band
from s2s_core.catalog import translate
from s2s_core.fmt import num, sci
from tests.app.conftest import all_text, open_page, open_tab, toasts

TAB_LABELS = (
    "bptt.tab_reach",
    "bptt.tab_curves",
    "bptt.tab_truncate",
    "bptt.tab_clip",
    "ui.tab_tables",
    "ui.tab_check",
    "ui.tab_code",
    "ui.tab_notice",
)


def _metrics(at) -> list[str]:
    return [str(m.value) for m in at.metric]


def _successes(at) -> list[str]:
    return [s.value for s in at.success]


def _band_norms(at) -> list[float]:
    """‖∂L/∂h_t‖ per step as the main picture (the first chart) carries it in its data."""
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[0]
    rows = [r for d in chart.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
    return [r["norm"] for r in sorted((r for r in rows if "half" in r), key=lambda r: r["step"])]


def test_defaults_show_gradients_checks_clipping_and_quiz(lang):
    at = open_page("bptt", lang)
    assert not at.exception
    result = backprop_through_time(BpttConfig())
    text = all_text(at)
    assert translate(lang, "bptt.title") in text
    for cell in result.cells:  # the readout per cell: 20 steps back (the first tab, open by default)
        assert sci(cell.ratio(20, full=False)) in text
    assert _band_norms(at) == list(reversed(result.by_cell("rnn").norms))  # the picture: ‖∂L/∂h_t‖ for t = 1..T
    # ρ per cell: the plain RNN's one block vs the gated cells' stacks, with the measured stretches.
    rnn = result.by_cell("rnn")
    assert translate(lang, "bptt.stretch_one", cell="RNN", H=8, stretch=num(rnn.stretch), rho="0.9") in text
    assert (
        translate(
            lang,
            "bptt.stretch_blocks",
            cell="LSTM",
            H=8,
            G=4,
            gates="i, f, g, o",
            blocks="0.9, 0.9, 0.9, 0.9",
            stretch="1.8",
        )
        in text
    )
    assert not at.query_params.get("bptt_tabs")  # the first tab: no parameter
    open_tab(at, "bptt", "ui.tab_check", lang)
    assert any("nn.LSTM" in s for s in _successes(at))  # loops == nn modules
    assert at.query_params["bptt_tabs"] == "check"
    open_tab(at, "bptt", "bptt.tab_clip", lang)
    text = all_text(at)
    clipped = clip(result.by_cell("rnn"), 1.0)
    assert _metrics(at) == [sci(clipped.total_before), sci(clipped.total_after), "1"]
    # The far step's part of ∂L/∂W_hh, before and after, in the text chosen by its band (vanished here).
    assert clipped.far_band == "vanish"
    far = translate(
        lang,
        "bptt.clip_far_vanish",
        t=10,
        before=sci(clipped.far_before),
        after=sci(clipped.far_after),
        scale=num(clipped.scale),
    )
    assert far in text
    assert any(translate(lang, "bptt.check_parts")[:20] in s for s in _successes(at))
    # The quiz asks about ρ = 2 (an edit not made yet), graded against that run.
    band = ratio_band(backprop_through_time(BpttConfig(rho=2.0)).by_cell("rnn").ratio(20))
    at.radio(key="bptt_quiz_rnn_0.9").set_value(translate(lang, f"bptt.quiz_{band}")).run()
    assert not at.exception and not at.warning
    # A larger max_norm than the total: clipping changes nothing.
    at.slider(key="bptt_clip").set_value(10.0).run()
    assert not at.exception
    assert _metrics(at)[1] == sci(clip(result.by_cell("rnn"), 10.0).total_after)


def test_linear_rnn_shows_the_rho_law_check_and_truncation(lang):
    query = {"bptt_linear": "true", "bptt_rho": "1.5", "bptt_k": "10", "bptt_T": "40", "bptt_tabs": "check"}
    at = open_page("bptt", lang, query=query)
    assert not at.exception
    assert any(translate(lang, "bptt.check_law")[:12] in s for s in _successes(at))
    result = backprop_through_time(BpttConfig(T=40, rho=1.5, linear=True, truncate=10))
    assert result.cuts == (10, 20, 30)
    open_tab(at, "bptt", "bptt.tab_truncate", lang)
    assert translate(lang, "bptt.truncate_on", steps="10, 20, 30", T=40, reach=9, first=31) in all_text(at)
    # Exploding linear RNN at ρ = 1.5; the quiz asks about ρ = 0.5 instead: ρ^20 ≈ 1e-6, vanished.
    at.radio(key="bptt_quiz_rnn_1.5").set_value(translate(lang, "bptt.quiz_vanish")).run()
    assert not at.exception and not at.warning


def test_gated_cell_details_and_out_of_range_link(lang):
    at = open_page("bptt", lang, query={"bptt_cell": "LSTM", "bptt_T": "500", "bptt_tabs": "clip"})
    assert not at.exception
    assert at.slider(key="bptt_T").value == 30  # the default, for an impossible link value ...
    assert translate(lang, "bptt.T_label") in toasts(at) and "500" in toasts(at)  # ... named, with the value
    assert at.segmented_control(key="bptt_cell").value == "lstm"  # an older link named the cell as shown: LSTM
    assert translate(lang, "bptt.clip_cell", cell="LSTM") in all_text(at)
    assert at.radio(key="bptt_quiz_lstm_0.9") is not None


def _chart_data(at) -> str:
    return " ".join(el.proto.spec + json.dumps([str(d) for d in el.proto.datasets]) for el in at.get("vega_lite_chart"))


def test_the_quiz_answer_is_hidden_until_answered(lang):
    at = open_page("bptt", lang)
    edited = backprop_through_time(replace(BpttConfig(), rho=2.0)).by_cell("rnn").ratio(20)
    answer = sci(edited)  # the ratio at ρ = 2, which the page has not drawn
    for label in TAB_LABELS:  # in no tab either (each is drawn only once it is opened)
        open_tab(at, "bptt", label, lang)
        assert answer not in all_text(at) and answer not in _chart_data(at), label
    open_tab(at, "bptt", "bptt.tab_reach", lang)
    at.button(key="bptt_quiz_rnn_0.9__show").click().run()
    assert not at.exception and answer in all_text(at)
    at.button(key="bptt_quiz_apply").click().run()  # apply the edit: now the picture shows it
    assert not at.exception and at.slider(key="bptt_rho").value == 2.0
    assert translate(lang, "bptt.readout", cell="RNN", k=20, ratio=answer) in all_text(at)
    assert at.query_params["bptt_rho"] == "2.0"


def test_a_prepared_case_loads_its_inputs(lang):
    at = open_page("bptt", lang, query={"bptt_T": "50", "bptt_tabs": "check"})
    at.button(key="try__bptt__1").click().run()  # no tanh, ρ = 1.2
    assert not at.exception
    assert at.toggle(key="bptt_linear").value is True and at.slider(key="bptt_rho").value == 1.2
    assert at.slider(key="bptt_T").value == 30  # an input the case does not name goes back to its default
    assert not at.query_params.get("bptt_tabs")  # ... and so does the open tab
    open_tab(at, "bptt", "ui.tab_check", lang)
    assert any(translate(lang, "bptt.check_law")[:12] in s for s in _successes(at))


def test_reset_after_a_link_that_set_every_field_leaves_no_parameter(lang):
    query = {
        "bptt_cell": "gru",
        "bptt_T": "45",
        "bptt_rho": "1.3",
        "bptt_linear": "true",  # folded under "More settings", as are the next four
        "bptt_gate": "2.5",
        "bptt_k": "7",
        "bptt_seed": "3",
        "bptt_clip": "0.5",
        "bptt_tabs": "clip",
    }
    at = open_page("bptt", lang, query=query)
    assert not at.exception and not at.error
    assert {k: at.query_params[k] for k in query} == query  # every value was used, and stays in the link
    assert at.number_input(key="bptt_k").value == 7 and at.slider(key="bptt_clip").value == 0.5
    at.button(key="reset__bptt").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}  # no parameter of the page is left behind
    assert at.segmented_control(key="bptt_cell").value == "rnn" and at.slider(key="bptt_T").value == 30
    assert at.toggle(key="bptt_linear").value is False and at.number_input(key="bptt_seed").value == 0
    assert at.slider(key="bptt_clip").value == 1.0 and at.slider(key="bptt_gate").value == 1.0


def test_the_code_tab_alone_prints_the_current_settings(lang):
    """Opened alone in a fresh session, the code tab's script is the one for the inputs on screen."""
    at = open_page("bptt", lang, query={"bptt_T": "12", "bptt_clip": "0.2", "bptt_tabs": "code"})
    assert [tab.label for tab in at.tabs if len(tab.children) > 0] == [translate(lang, "ui.tab_code")]
    code = "\n".join(str(c.value) for c in at.code)
    assert code == script(BpttConfig(T=12), 0.2).rstrip("\n")  # st.code drops the last newline


def test_the_fields_match_the_tabs_and_the_core_caps():
    assert fields.TAB.options == tuple(label.rsplit(".", 1)[-1].removeprefix("tab_") for label in TAB_LABELS)
    assert (fields.T.lo, fields.T.hi, fields.TRUNCATE.hi) == (2, fields.MAX_T, fields.MAX_T)


def test_notice_3_says_what_the_defaults_measure():
    """The old notice_3 said the LSTM's cell line "falls by about the forget gate per step" (0.82 vs f = 0.71 at the
    defaults): the notices now give the measured factor, the mean gate, and the relation only when it holds."""
    from s2s_core.bptt.compute import keep_reading

    lang = "en"
    at = open_page("bptt", lang, query={"bptt_tabs": "notice"})
    assert not at.exception
    keep = keep_reading(backprop_through_time(BpttConfig()))
    text = all_text(at)
    lstm = translate(lang, "bptt.notice_3_lstm", k=20, c_step=num(keep.lstm_cell_step), f=num(keep.f))
    gru = translate(lang, "bptt.notice_3_gru", k=20, h_step=num(keep.gru_step), z=num(keep.z))
    assert lstm in text and gru in text
    assert "about the forget gate per step" not in text


def test_the_quiz_about_the_no_tanh_rnn_does_not_say_it_need_not_explode():
    lang = "en"
    at = open_page("bptt", lang, query={"bptt_linear": "true"})
    at.radio(key="bptt_quiz_rnn_0.9").set_value(translate(lang, "bptt.quiz_explode")).run()
    assert not at.exception and not at.warning  # graded right: exploded
    text = all_text(at)
    assert translate(lang, "bptt.quiz_why_up_linear", new="2", k=20, ratio=sci(2.0**20)) in text
    assert "need not explode" not in text


def test_no_input_here_can_be_bad_so_the_picture_is_always_live(lang):
    """Every input of this page is a slider, a choice or a number, and a number typed out of range is clamped with
    a line under its field (s2s_ui/link.py): the picture (drawn through kept_picture like every page's) is then
    drawn live from the clamped value, never a faded kept copy, and no message box replaces it."""
    at = open_page("bptt", lang)
    at.number_input(key="bptt_k").set_value(10).run()  # a good edit: detach every 10 steps
    cut = list(reversed(backprop_through_time(BpttConfig(truncate=10)).by_cell("rnn").norms))
    assert _band_norms(at) == cut
    at.number_input(key="bptt_k").set_value(500).run()  # above the cap: used as MAX_T (no cut within T = 30)
    assert not at.exception and not at.error
    whole = list(reversed(backprop_through_time(BpttConfig(truncate=fields.MAX_T)).by_cell("rnn").norms))
    assert whole != cut and _band_norms(at) == whole  # live, from the clamped value, not the kept one
    assert translate(lang, "ui.kept_note") not in [c.value for c in at.caption]
    assert at.radio  # the question is drawn from the live input
