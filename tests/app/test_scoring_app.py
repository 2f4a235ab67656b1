"""Bahdanau-vs-Luong page through AppTest, in both languages: one function's picture or all compared, live weights,
the compact tables, focus, windows, wiring, bad input (the last good picture kept), Try this and Reset. Tabs are
opened as a learner opens them (`open_tab`, or a link's ?scoring_tabs=): only the open tab is drawn."""

from __future__ import annotations

from s2s_core.catalog import translate
from s2s_core.fmt import num, two
from s2s_core.fmt import vec as vector_text
from s2s_core.scoring.compute import ScoringConfig, compare
from s2s_core.scoring.frames import position_label
from tests.app.conftest import all_text, open_page, open_tab


def _weights(config: ScoringConfig, name: str) -> str:
    return vector_text(compare(config).get(name).read.weights[0])


def _weights_row(at, config: ScoringConfig, name: str, lang: str) -> None:
    """The All functions tab's weights table (the second table) holds the function's weights rounded by two()."""
    frame = at.table[1].value
    row = frame[frame[translate(lang, "scoring.col_function")] == translate(lang, f"scoring.fn.{name}")].iloc[0]
    weights = compare(config).get(name).read.weights[0].tolist()
    assert [row[position_label(j)] for j in range(len(weights))] == [two(w) for w in weights]


def test_defaults_show_every_function_and_the_checks(lang):
    at = open_page("scoring", lang)
    assert not at.exception and not at.error
    text = all_text(at)
    assert translate(lang, "scoring.title") in text
    for name in ("additive", "dot", "general", "concat", "scaled_dot"):  # the first tab, open by default
        _weights_row(at, ScoringConfig(), name, lang)
    assert len(at.success) >= 1  # formula per position == nn.Linear + bmm modules
    assert not [k for k in at.query_params if k.startswith("scoring")]  # the defaults leave no parameter
    weights_line = translate(lang, "scoring.weights_line", weights=_weights(ScoringConfig(), "additive"), total="1")
    assert weights_line not in all_text(at)  # the focus tab is closed: not drawn, as on a server
    open_tab(at, "scoring", "scoring.tab_focus", lang)
    assert weights_line in all_text(at)
    assert at.query_params["scoring_tabs"] == "focus"  # the open tab is in the link


def test_switching_the_focus_shows_its_keys(lang):
    at = open_page("scoring", lang, query={"scoring_tabs": "focus"})
    at.selectbox(key="scoring_focus").set_value("dot").run()
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "scoring.keys_are_values", name=translate(lang, "scoring.fn.dot")) in text
    assert (
        translate(lang, "scoring.weights_line", weights=_weights(ScoringConfig(focus="dot"), "dot"), total="1") in text
    )


def test_dot_with_a_bigger_s_is_named_and_the_rest_scores(lang):
    at = open_page("scoring", lang, query={"scoring_dec": "0.3, 0.2, 1"})
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "scoring.field.dec_state") in errors
    config = ScoringConfig(dec_state=(0.3, 0.2, 1.0))
    _weights_row(at, config, "additive", lang)
    open_tab(at, "scoring", "scoring.tab_focus", lang)
    assert _weights(config, "additive") in all_text(at)


def test_local_windows(lang):
    at = open_page("scoring", lang, query={"scoring_tabs": "window"})
    at.segmented_control(key="scoring_window").set_value("local_m").run()
    assert not at.exception
    assert "−∞" in all_text(at)
    at.number_input(key="scoring_step").set_value(9).run()  # past the 5-word sentence: p_t = t is clipped
    assert not at.exception and not at.error
    w = compare(ScoringConfig(window="local_m", step=9)).window
    assert w.step_clipped and w.center == 5
    text = all_text(at)
    assert translate(lang, "scoring.local_m_clipped", t=9, S=5, p="5", lo="4", hi="6", positions="s4, s5") in text
    at.number_input(key="scoring_step").set_value(2).run()
    assert translate(lang, "scoring.local_m_line", t=2, S=5, p="2", lo="1", hi="3", positions="s1, s2, s3") in all_text(
        at
    )
    at.segmented_control(key="scoring_window").set_value("local_p").run()
    assert not at.exception and not at.error
    text = all_text(at)
    assert translate(lang, "scoring.gauss_note") in text
    w = compare(ScoringConfig(window="local_p")).window  # p = S·sigmoid(...), Luong's own formula
    assert f"**{num(w.center)}**" in text and f"5 × {num(w.sigmoid)}" in text


def test_impossible_wiring_is_explained_and_luong_works(lang):
    at = open_page("scoring", lang, query={"scoring_tabs": "flow"})
    at.segmented_control(key="scoring_query").set_value("current").run()
    assert not at.exception
    assert translate(lang, "scoring.field.context_into") in " ".join(e.value for e in at.error)
    at.segmented_control(key="scoring_into").set_value("output").run()
    assert not at.exception and not at.error
    flow = compare(ScoringConfig(query_from="current", context_into="output")).flow
    assert vector_text(flow.read.weights[0]) in all_text(at)


def test_states_from_the_encoder(lang):
    at = open_page("scoring", lang)
    at.segmented_control(key="scoring_from").set_value("encoder").run()
    assert not at.exception and not at.error
    at.text_input(key="scoring_sentence").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "scoring.field.sentence") in " ".join(e.value for e in at.error)


def test_the_weights_expander_names_the_focused_function(lang):
    at = open_page("scoring", lang, query={"scoring_tabs": "focus"})
    at.selectbox(key="scoring_focus").set_value("general").run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert translate(lang, "scoring.params_title", name=translate(lang, "scoring.fn.general")) in labels


def test_general_is_described_as_mapping_only_the_encoder_side(lang):
    """s of size 3, encoder states of size 2: general's keys live in s's space (3), its query is s itself."""
    query = {"scoring_dec": "0.3, 0.2, -0.5", "scoring_focus": "general", "scoring_tabs": "focus"}
    at = open_page("scoring", lang, query=query)
    assert not at.exception
    general = compare(ScoringConfig(dec_state=(0.3, 0.2, -0.5), focus="general")).get("general")
    assert general.maps == "keys"
    text = all_text(at)
    expected = translate(lang, "scoring.keys_values_general", H_d=3, H_e=2, keys=(1, 5, 3), values=(1, 5, 2))
    assert expected in text
    at.selectbox(key="scoring_focus").set_value("concat").run()
    assert translate(lang, "scoring.keys_values_both", A=3, H_e=2, keys=(1, 5, 3), values=(1, 5, 2)) in all_text(at)


def test_local_p_sum_is_explained_by_whether_the_sentence_cuts_the_window(lang):
    """D = 1 fits inside the five positions, D = 4 does not: the page explains the live sum accordingly."""
    at = open_page("scoring", lang, query={"scoring_window": "local_p", "scoring_tabs": "window"})
    for D in (1, 4):
        at.number_input(key="scoring_D").set_value(D).run()
        assert not at.exception and not at.error
        result = compare(ScoringConfig(window="local_p", half_width=D))
        w, read = result.window, result.get("additive").read
        assert w.edges_cut == (D == 4)
        key = "scoring.gauss_sum_cut" if w.edges_cut else "scoring.gauss_sum_whole"
        expected = translate(
            lang,
            key,
            total=num(read.weights.sum()),
            m=w.n_window,
            n=w.n_inside,
            whole=num(w.whole_sum),
            cut=num(w.cut_sum),
        )
        assert expected in " ".join(i.value for i in at.info)


def test_korean_names_d_the_windows_half_width():
    """Glossary: D is the window's half-width, 창 반폭, never a bare 반폭 (half-width of what?)."""
    import re

    from s2s_core.catalog import load_catalog

    ko = {k: v for k, v in load_catalog("ko").items() if k.startswith("scoring.")}
    assert [k for k, v in ko.items() if re.search(r"(?<!창 )반폭", v)] == []
    assert "창 반폭" in ko["scoring.half_width_label"] and "창 반폭" in ko["scoring.field.half_width"]


def test_the_flow_section_shows_the_decoder_is_still_recurrent(lang):
    flow = compare(ScoringConfig()).flow
    at = open_page("scoring", lang, query={"scoring_tabs": "flow"})
    assert not at.exception
    expected = translate(
        lang,
        "scoring.flow_recurrent",
        s_t=vector_text(flow.s_t[0]),
        zero=vector_text(flow.s_t_from_zero[0]),
        carried=num(flow.carried),
    )
    assert expected in " ".join(i.value for i in at.info)
    links = [link.proto.label for link in at.get("page_link")]
    lab = translate(lang, "translation.title")
    assert translate(lang, "scoring.flow_translation_link", lab=lab) in links  # the Translation lab exists: linked
    assert "flow_translation_later" not in " ".join(translate(lang, k) for k in ("scoring.flow_translation_link",))
    at = open_page("scoring", lang, query={"scoring_dec": "0, 0", "scoring_tabs": "flow"})
    assert compare(ScoringConfig(dec_state=(0.0, 0.0))).flow.prev_is_zero
    assert translate(lang, "scoring.flow_recurrent_zero") in " ".join(i.value for i in at.info)


def _chart_numbers(at) -> set[str]:
    """Every number in the page's chart data, written as the page writes numbers."""
    import pyarrow as pa

    out = set()
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            for row in pa.ipc.open_stream(dataset.data.data).read_all().to_pylist():
                out |= {num(v) for v in row.values() if isinstance(v, float)}
    return out


def test_the_quiz_asks_about_doubling_s_and_its_answer_is_nowhere_until_answered(lang):
    """The picture shows the weights for s; the answer (the focus's largest weight for 2s) is in no text and no
    chart until the learner answers, then it is graded against the live computation."""
    from s2s_core.scoring.quiz import doubled_query

    q = doubled_query(ScoringConfig())
    assert q.name == "additive" and q.verdict == "same"  # 0.2398 -> 0.2427: tanh, not a sharper softmax
    at = open_page("scoring", lang)
    peak2 = num(q.peak_doubled)
    assert peak2 not in all_text(at) and peak2 not in _chart_numbers(at)
    for tab in ("scoring.tab_focus", "scoring.tab_window", "scoring.tab_flow", "ui.tab_notice"):
        open_tab(at, "scoring", tab, lang)
        assert peak2 not in all_text(at) and peak2 not in _chart_numbers(at), tab
    assert translate(lang, "scoring.notice_1", n_scoring=5) in all_text(at)
    assert translate(lang, "scoring.notice_doubled") not in all_text(at)
    at.radio(key="scoring_quiz").set_value(translate(lang, "scoring.quiz_same")).run()
    assert not at.exception
    assert any(translate(lang, "scoring.quiz_same") in s.value for s in at.success)
    text = all_text(at)
    assert peak2 in text and translate(lang, "scoring.notice_doubled") in text


def test_english_page_reads_an_english_sentence_and_a_try_this_case_loads_the_korean_one(lang):
    at = open_page("scoring", lang)
    at.segmented_control(key="scoring_from").set_value("encoder").run()
    assert at.text_input(key="scoring_sentence").value == "i read a book"
    assert "scoring_sentence" not in at.query_params  # the language's own default leaves no parameter
    at.button(key="try__scoring__0").click().run()  # the syllabus's Korean sentence
    assert not at.exception and not at.error
    assert at.segmented_control(key="scoring_from").value == "encoder"
    assert at.text_input(key="scoring_sentence").value == "나는 책을 읽는다"
    assert at.query_params["scoring_sentence"] == "나는 책을 읽는다"


def test_a_bad_state_is_named_and_the_frame_stays(lang):
    at = open_page("scoring", lang, query={"scoring_dec": "0.3, x"})
    assert not at.exception
    assert translate(lang, "scoring.field.dec_state") in " ".join(e.value for e in at.error)
    assert at.selectbox(key="scoring_focus") is not None  # the controls are still drawn
    assert at.button(key="try__scoring__0") is not None and at.button(key="reset__scoring") is not None


def _picture_rows(at, index: int) -> list[dict]:
    """The rows of the index-th chart on the page (its datasets, as Streamlit sends them)."""
    import pyarrow as pa

    rows: list[dict] = []
    for dataset in at.get("vega_lite_chart")[index].proto.datasets:
        rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return rows


def _spec(at, index: int) -> dict:
    import json

    return json.loads(at.get("vega_lite_chart")[index].proto.spec)


def _described(at, index: int) -> str:
    return _spec(at, index).get("description", "")


def test_compare_all_draws_every_function_and_the_previous_weights_after_an_edit(lang):
    """With "compare all" the first picture carries each function's live weights; after editing s, the old weights
    ride along as dashes. The one-function picture follows it and its title names the function."""
    import json

    at = open_page("scoring", lang, query={"scoring_compare": "true"})
    assert not at.exception and len(at.get("vega_lite_chart")) == 2
    first = [r for r in _picture_rows(at, 0) if "weight" in r and "function" in r]
    dot = compare(ScoringConfig()).get("dot").read.weights[0].tolist()
    drawn = [r["weight"] for r in first if r["function"] == translate(lang, "scoring.fn.dot")]
    assert [num(w) for w in drawn] == [num(w) for w in dot]
    assert all(r.get("before") is None for r in first)
    texts = {r["text"] for r in _picture_rows(at, 0) if "text" in r}
    assert translate(lang, "scoring.chart.softmax_short") in texts  # the softmax step between scores and weights
    assert translate(lang, "scoring.fn.additive") in json.dumps(_spec(at, 1)["title"], ensure_ascii=False)
    at.text_input(key="scoring_dec").set_value("0.6, 0.4").run()
    assert not at.exception
    rows = [r for r in _picture_rows(at, 0) if r.get("function") == translate(lang, "scoring.fn.dot")]
    assert [num(r["before"]) for r in rows] == [num(w) for w in dot]
    new = compare(ScoringConfig(dec_state=(0.6, 0.4))).get("dot").read.weights[0].tolist()
    assert [num(r["weight"]) for r in rows] == [num(w) for w in new]


def test_one_function_at_a_time_its_scores_softmax_and_weights(lang):
    """By default the picture is one function: its signed scores, exp(score − max) per position with their sum in
    the softmax row's name, and the weights they make. Picking dot redraws it for dot; the link keeps the choice."""
    import json

    from s2s_core.scoring.frames import softmax_steps
    from s2s_core.scoring.notes import softmax_reading

    at = open_page("scoring", lang)
    assert not at.exception and len(at.get("vega_lite_chart")) == 1  # no compare picture until asked for
    for name in ("additive", "dot"):
        read = compare(ScoringConfig(focus=name)).get(name).read
        title = json.dumps(_spec(at, 0)["title"], ensure_ascii=False)
        assert translate(lang, f"scoring.fn.{name}") in title
        bars = [r for r in _picture_rows(at, 0) if "exp" in r]
        exps, total_exp = softmax_steps(read)
        assert [num(r["score"]) for r in bars] == [num(x) for x in read.scores[0].tolist()]
        assert [num(r["exp"]) for r in bars] == [num(x) for x in exps]
        assert [num(r["exp"] / total_exp) for r in bars] == [num(w) for w in read.weights[0].tolist()]
        texts = {r["text"] for r in _picture_rows(at, 0) if "text" in r}
        assert translate(lang, "scoring.chart.softmax_row", total=two(total_exp)) in texts
        reading = softmax_reading(read)
        assert translate(lang, reading.key, **reading.numbers) in [c.value for c in at.caption]
        at.selectbox(key="scoring_focus").set_value("dot").run()
        assert not at.exception
    assert at.query_params["scoring_focus"] == "dot" and "scoring_compare" not in at.query_params
    at.toggle(key="scoring_compare").set_value(True).run()
    assert len(at.get("vega_lite_chart")) == 2 and at.query_params["scoring_compare"] == "true"


def test_the_all_functions_tables_are_rounded_and_mark_each_rows_largest_weight(lang):
    """Two compact tables (signed scores; weights and context), numbers by two(), the dominant position of each
    row highlighted in both (the peak cell's style, nowhere else in its row)."""
    import re

    from s2s_ui.scoring.sections import PEAK_CSS

    at = open_page("scoring", lang)
    result = compare(ScoringConfig())
    scores = at.table[0].value
    fn = translate(lang, "scoring.col_function")
    for f in result.functions:
        row = scores[scores[fn] == translate(lang, f"scoring.fn.{f.name}")].iloc[0]
        assert [row[position_label(j)] for j in range(result.S)] == [two(x, sign=True) for x in f.read.scores[0]]
    assert "0.2398" not in at.table[1].value.to_string()  # no four-decimal wall: 0.24
    contexts = at.table[2].value[translate(lang, "scoring.col_context")].tolist()
    assert contexts == ["[" + ", ".join(two(x) for x in f.read.context[0]) + "]" for f in result.functions]
    # Column 0 names the function, column j + 1 is position j: each row's peak cell alone carries the style.
    peaks = {(i, int(f.read.weights[0].argmax()) + 1) for i, f in enumerate(result.functions)}
    for table in at.table[:2]:
        rule = table.proto.arrow_data.styler.styles
        assert PEAK_CSS in rule
        cells = {(int(r), int(c)) for r, c in re.findall(r"row(\d+)_col(\d+)", rule.split("{")[0])}
        assert cells == peaks, rule


def test_a_bad_input_keeps_the_last_good_picture_faded_with_the_message_once(lang):
    """A good edit, then a bad one: the message once, the picture still drawn from the good input under the kept
    caption; the question and tabs wait. A good edit again: the live picture, no caption."""
    at = open_page("scoring", lang)
    at.text_input(key="scoring_dec").set_value("0.6, 0.4").run()
    good = _weights(ScoringConfig(dec_state=(0.6, 0.4)), "additive")
    assert good in _described(at, 0)
    at.text_input(key="scoring_dec").set_value("0.6, x").run()
    assert not at.exception
    assert len(at.error) == 1 and translate(lang, "scoring.field.dec_state") in at.error[0].value
    assert len(at.get("vega_lite_chart")) == 1 and good in _described(at, 0)  # the last good picture, kept
    assert translate(lang, "ui.kept_note") in [c.value for c in at.caption]
    assert not at.radio  # the question needs the live input
    at.text_input(key="scoring_dec").set_value("0.1, 0.5").run()
    assert not at.exception and not at.error
    assert _weights(ScoringConfig(dec_state=(0.1, 0.5)), "additive") in _described(at, 0)
    assert translate(lang, "ui.kept_note") not in [c.value for c in at.caption]


def test_reset_forgets_every_field_even_the_folded_settings_the_slider_and_the_open_tab(lang):
    """From a link that sets every field (the folded settings included, picture 2's position and the open tab),
    Reset brings back the defaults and leaves no parameter of the page in the link."""
    query = {
        "scoring_dec": "0.6, 0.4",
        "scoring_he": "2",
        "scoring_enc": "1,0;0,1;1,1",
        "scoring_attn": "4",
        "scoring_seed": "7",
        "scoring_scale": "8",
        "scoring_focus": "dot",
        "scoring_compare": "true",
        "scoring_window": "local_m",
        "scoring_step": "2",
        "scoring_D": "2",
        "scoring_query": "current",
        "scoring_into": "output",
        "scoring_pos": "3",
        "scoring_tabs": "window",
    }
    at = open_page("scoring", lang, query=query)
    assert not at.exception and not at.error
    assert set(query) - {"scoring_he"} <= set(at.query_params)  # every field took its link value (H_e = 2: default)
    assert at.number_input(key="scoring_seed").value == 7 and at.segmented_control(key="scoring_into").value == "output"
    assert at.toggle(key="scoring_compare").value is True
    at.button(key="reset__scoring").click().run()
    assert not at.exception and not at.error
    assert set(at.query_params) <= {"lang"}
    assert at.number_input(key="scoring_seed").value == 0 and at.selectbox(key="scoring_focus").value == "additive"
    assert at.text_input(key="scoring_dec").value == "0.3, 0.2" and at.toggle(key="scoring_compare").value is False
    _weights_row(at, ScoringConfig(), "dot", lang)  # the first tab is open again


def test_reset_after_the_encoder_forgets_the_sentence(lang):
    at = open_page("scoring", lang)
    at.button(key="try__scoring__0").click().run()  # the encoder, reading the Korean sentence
    assert at.query_params["scoring_from"] == "encoder"
    at.button(key="reset__scoring").click().run()
    assert not at.exception and set(at.query_params) <= {"lang"}
    assert at.segmented_control(key="scoring_from").value == "table"
    at.segmented_control(key="scoring_from").set_value("encoder").run()
    assert at.text_input(key="scoring_sentence").value == "i read a book"  # the language's own again


def test_the_notices_follow_the_live_shapes_and_sizes(lang):
    """At H_d = H_e general's keys have the values' shape (the old notice said every key differed in shape but
    dot's); with H_d != H_e dot cannot score, and the notice says so instead of asking to type a third number."""
    at = open_page("scoring", lang, query={"scoring_tabs": "notice"})
    text = all_text(at)
    general = translate(lang, "scoring.fn.general")
    assert translate(lang, "scoring.notice_2_same", names=general, values="(1, 5, 2)") in text
    assert translate(lang, "scoring.notice_3") in text
    at = open_page("scoring", lang, query={"scoring_tabs": "notice", "scoring_dec": "0.3, 0.2, 0.1"})
    text = all_text(at)
    assert translate(lang, "scoring.notice_3_mismatch", H_d=3, H_e=2) in text
    assert translate(lang, "scoring.notice_3") not in text
    at = open_page("scoring", lang, query={"scoring_tabs": "notice", "scoring_dec": "0, 0"})
    assert translate(lang, "scoring.notice_1_equal", n_scoring=5, n_rows=3) in all_text(at)


def test_the_local_p_case_says_the_window_it_opens(lang):
    """The Try-this note and the window tab agree with the window the case really opens: p = 2.83 with D = 2
    holds 2D = 4 positions (the old note said 2D + 1)."""
    at = open_page("scoring", lang, query={"scoring_window": "local_p", "scoring_D": "2", "scoring_tabs": "window"})
    assert translate(lang, "scoring.window_size_fractional", p="2.8273", n=4) in all_text(at)
    assert translate(lang, "scoring.try_local_p_note_fractional") in all_text(at)


def test_the_try_this_cases_about_every_function_open_compare_all_and_reset_closes_it(lang):
    """Large weights and H_e ≠ H_d are about the rows of every function: those cases open "compare all" (the field
    is in the link); Reset brings back the one-function picture and no parameter."""
    at = open_page("scoring", lang)
    at.button(key="try__scoring__3").click().run()  # large untrained weights
    assert not at.exception and not at.error
    assert at.toggle(key="scoring_compare").value is True and at.query_params["scoring_compare"] == "true"
    assert len(at.get("vega_lite_chart")) == 2
    rows = [r for r in _picture_rows(at, 0) if r.get("function") == translate(lang, "scoring.fn.general")]
    general = compare(ScoringConfig(scale=8.0)).get("general").read.weights[0].tolist()
    assert [num(r["weight"]) for r in rows] == [num(w) for w in general]
    at.button(key="reset__scoring").click().run()
    assert at.toggle(key="scoring_compare").value is False and len(at.get("vega_lite_chart")) == 1
    assert set(at.query_params) <= {"lang"}
