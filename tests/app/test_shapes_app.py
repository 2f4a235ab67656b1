"""Tensor shapes page through AppTest, in English: real shapes, live checks, bad input, quiz.

Each test drives one session through several edits (an AppTest start costs far more than a rerun), and opens a
tab before reading it, as a learner does: the server draws only the open tab, and so does AppTest.
"""

from __future__ import annotations

import json

import pyarrow as pa

from s2s_core.catalog import translate
from s2s_core.fmt import sci
from s2s_core.shapes import fields, parse_config, run_shapes
from s2s_core.shapes.padding import padding_view
from s2s_core.shapes.quiz import make_question, question_code
from tests.app.conftest import all_text, open_page, open_tab, toasts


def _click(at, label: str):
    next(b for b in at.button if b.label == label).click()
    return at.run()


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def _reveal(at):
    """'Show me the answer' under the picture: the checks and the padding comparison appear after it."""
    at.button(key="shapes_predict__show").click()
    return at.run()


def _tab(at, label_key: str, lang: str = "en"):
    """Open one of the page's tabs (as a learner does) and return the page's text with it open."""
    return all_text(open_tab(at, "shapes", label_key, lang))


def _chart_data(at) -> str:
    """Every drawn chart's spec and rows (Streamlit ships the rows as Arrow tables) as one text."""
    parts = []
    for chart in at.get("vega_lite_chart"):
        parts.append(chart.proto.spec)
        parts += [pa.ipc.open_stream(d.data.data).read_all().to_pandas().to_csv() for d in chart.proto.datasets]
    return "\n".join(parts)


def test_defaults_then_batch_first_and_bidirectional(lang):
    at = open_page("shapes", lang)
    assert not at.exception and not at.error
    text = all_text(at)
    assert translate(lang, "shapes.title") in text
    # §8: embedding (2, 3, 4), outputs (2, 3, 6), hidden / cell (1, 2, 6), last output == hidden.
    for row in (
        "| `x` | `(B, S, E)` | `(2, 3, 4)` |",
        "| `outputs` | `(B, S, K·H)` | `(2, 3, 6)` |",
        "| `h_n` | `(L·K, B, H)` | `(1, 2, 6)` |",
        "| `c_n` | `(L·K, B, H)` | `(1, 2, 6)` |",
    ):
        assert row in text
    # Predict, then reveal: the verdict ("equal", with its note) is nowhere until the question is answered.
    verdict = f":green-badge[{translate(lang, 'shapes.check.equal')}]"
    note = translate(lang, "shapes.check.last_step.equal")
    assert translate(lang, "shapes.check.heading") not in text  # the checks' tab is closed: not drawn, as on a server
    text = _tab(at, "ui.tab_check", lang)
    assert at.query_params["shapes_tabs"] == "check"  # the open tab is in the link
    assert verdict not in text and note not in text and note not in _chart_data(at)
    assert translate(lang, "shapes.after_quiz") in text
    picture = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert " ".join(picture["title"]["text"]) == translate(lang, "shapes.picture.title")  # in lines (a phone)
    said = translate(lang, "shapes.picture.equal")
    assert said not in _chart_data(at)  # the picture's verdict waits for the answer too
    at = _reveal(at)
    text = all_text(at)
    assert said in _chart_data(at)
    assert verdict in text
    assert translate(lang, "shapes.check.last_step.equal") in text
    assert translate(lang, "shapes.padding.no_padding")[:15] in _tab(at, "shapes.tab_padding", lang)
    text = _tab(at, "ui.tab_code", lang)  # the code expander
    assert "torch.manual_seed(42)" in text and "nn.LSTM(4, 6, num_layers=1, batch_first=True" in text
    # batch_first=False moves B in x and outputs, never in h_n.
    at.toggle(key="shapes_batch_first").set_value(False).run()
    text = _tab(at, "ui.tab_tables", lang)
    assert "| `outputs` | `(S, B, K·H)` | `(3, 2, 6)` |" in text and "| `h_n` | `(L·K, B, H)` | `(1, 2, 6)` |" in text
    assert translate(lang, "shapes.shapes.batch_first_false")[:20] in text
    assert translate(lang, "shapes.check.wrong_axis.title") in _tab(at, "ui.tab_check", lang)
    # Bidirectional: K·H features, and the backward half at position 0 equals h_n[-1].
    at.toggle(key="shapes_batch_first").set_value(True).run()
    at.toggle(key="shapes_bidirectional").set_value(True).run()
    text = all_text(at)  # the checks' tab is still open
    assert translate(lang, "shapes.check.last_step.bidirectional")[:20] in text
    assert "`outputs[:, 0, 6:]` (2, 6) · `h_n[-1]` (2, 6)" in text
    assert translate(lang, "shapes.check.backward_first.equal")[:20] in text
    text = _tab(at, "ui.tab_tables", lang)
    assert "| `outputs` | `(B, S, K·H)` | `(2, 3, 12)` |" in text and "`(2, 2, 6)`" in text
    # Predict, then reveal: graded against the live check (bidirectional -> not equal).
    at.radio(key="shapes_predict").set_value(translate(lang, "shapes.predict.no")).run()
    assert at.success and not at.exception


def test_padding_packing_and_bad_lengths(lang):
    at = _reveal(open_page("shapes", lang, query={"shapes_lengths": "3, 1"}))
    assert not at.exception
    assert translate(lang, "shapes.check.true_last.through_pad")[:20] in _tab(at, "ui.tab_check", lang)
    _tab(at, "shapes.tab_padding", lang)
    assert len(at.success) >= 2  # gathering and packing both reach the true last state
    assert "`[2, 1, 1]`" in _tab(at, "shapes.tab_packed", lang)  # batch_sizes: both sentences at step 1, one after
    at.toggle(key="shapes_packed").set_value(True).run()
    text = _tab(at, "ui.tab_check", lang)
    assert translate(lang, "shapes.check.last_step.packed_pad")[:20] in text
    assert translate(lang, "shapes.check.true_last.packed")[:20] in text
    assert "| `packed.data` | `(ΣS, E)` | `(4, 4)` |" in _tab(at, "ui.tab_tables", lang)
    for raw in ("0, 3", "3, 3, 3", "9", "two"):
        at.text_input(key="shapes_lengths").input(raw).run()
        assert not at.exception
        assert translate(lang, "shapes.field.lengths") in _errors(at), raw
        # The rest of the page still works: the tables, the bridge, the quiz, the inputs.
        assert "| `ids` | `(B, S)` | `(2, 3)` |" in _tab(at, "ui.tab_tables", lang)
        assert translate(lang, "shapes.quiz.heading") in _tab(at, "shapes.tab_quiz", lang)
        assert translate(lang, "shapes.bridge.heading") in _tab(at, "shapes.tab_bridge", lang)
        assert at.number_input(key="shapes_B").value == 2
        assert translate(lang, "shapes.field.lengths") in _errors(at), raw  # still named, whichever tab is open
    # The picture traces the lengths: the last good one is kept (faded) next to the message, packed or not.
    at.toggle(key="shapes_packed").set_value(False).run()
    assert translate(lang, "shapes.field.lengths") in _errors(at) and len(at.get("vega_lite_chart")) >= 1
    at.toggle(key="shapes_packed").set_value(True).run()
    # Bidirectional with two layers: gathering misses the true state, and the notice says so with the live number.
    at.text_input(key="shapes_lengths").input("3, 1").run()
    at.toggle(key="shapes_bidirectional").set_value(True).run()
    at.number_input(key="shapes_num_layers").set_value(2).run()
    padding = padding_view(run_shapes(parse_config(lengths="3 1", bidirectional=True, num_layers=2, packed=True)))
    assert not padding.gather_exact
    text = _tab(at, "shapes.tab_padding", lang)
    assert translate(lang, "shapes.padding.gather_not_enough", diff=sci(padding.gather_max_diff)) in text
    text = _tab(at, "ui.tab_notice", lang)
    bar = translate(lang, "shapes.padding.chart.method_through_pad")  # named by its legend entry, not a colour
    assert translate(lang, "shapes.notice.n4_gather_fails", diff=sci(padding.gather_max_diff), through_pad=bar) in text
    at.toggle(key="shapes_bidirectional").set_value(False).run()
    at.number_input(key="shapes_num_layers").set_value(1).run()
    at.text_input(key="shapes_lengths").input("").run()
    at.number_input(key="shapes_proj_size").set_value(6).run()
    assert translate(lang, "shapes.field.proj_size") in _errors(at)


def test_link_values_out_of_range_are_named():
    query = {"shapes_B": "0", "shapes_cell": "Transformer", "shapes_failure": "x", "shapes_tabs": "failure"}
    at = open_page("shapes", "ko", query=query)  # the link opens the failure tab, whose field it names
    assert not at.exception
    for field in ("B", "cell", "failure"):
        assert translate("ko", f"shapes.field.{field}") in toasts(at)
    assert at.selectbox(key="shapes_failure").value == "none"
    assert "`(2, 3, 6)`" in _tab(at, "ui.tab_tables", "ko")  # defaults are shown instead


def test_proj_size_layers_and_bridge():
    at = _reveal(open_page("shapes", "en", query={"shapes_proj_size": "2", "shapes_num_layers": "2"}))
    assert not at.exception
    text = all_text(at)
    assert "| `h_n` | `(L·K, B, P)` | `(2, 2, 2)` |" in text and "| `c_n` | `(L·K, B, H)` | `(2, 2, 6)` |" in text
    text = _tab(at, "ui.tab_check")
    assert translate("en", "shapes.check.proj_cell.differ")[:20] in text
    assert translate("en", "shapes.check.bottom_layer.title") in text
    at.number_input(key="shapes_proj_size").set_value(0).run()
    at.toggle(key="shapes_bidirectional").set_value(True).run()
    _tab(at, "shapes.tab_bridge")
    at.number_input(key="shapes_dec_layers").set_value(3).run()
    text = all_text(at)
    assert "torch.cat([s[:, 0], s[:, 1]], dim=-1)" in text and "s[-1:].repeat(3, 1, 1)" in text
    assert "nn.Linear(12, 8)" in text and "(3, 2, 8)" in text
    assert "Expected hidden[0] size (3, 2, 8), got [4, 2, 6]" in text
    # With proj_size, the wrong h_0 demo names (L·K, B, P) and lists the shapes that run.
    at.number_input(key="shapes_proj_size").set_value(2).run()
    at.number_input(key="shapes_num_layers").set_value(1).run()
    _tab(at, "shapes.tab_failure")
    at.selectbox(key="shapes_failure").set_value("wrong_h0").run()
    assert not at.exception
    text = all_text(at)  # bidirectional, one layer: L·K = 2 = B, so the wrong layout happens to fit
    assert translate("en", "shapes.fail.wrong_h0.coincide", n=2) in text
    assert "h_0: (2, 2, 2)\nc_0: (2, 2, 6)" in text
    at.number_input(key="shapes_B").set_value(3).run()
    text = all_text(at)
    assert translate("en", "shapes.fail.wrong_h0.raised_proj") in text
    assert "h_0: (2, 3, 2)\nc_0: (2, 3, 6)" in text


def test_each_wrong_input_shows_the_real_error(lang):
    at = open_tab(open_page("shapes", lang), "shapes", "shapes.tab_failure", lang)
    for kind, words in (
        ("wrong_e", "Expected 4, got 5"),
        ("wrong_h0", "Expected hidden[0] size (1, 2, 6)"),
        ("input_2d", "unbatched 2-D input"),
        ("unsorted", "enforce_sorted"),
    ):
        at.selectbox(key="shapes_failure").set_value(kind).run()
        assert not at.exception
        assert words in all_text(at), kind
        note = "raised_batch" if kind == "input_2d" else "raised"  # the default layer is batch-first
        assert translate(lang, f"shapes.fail.{kind}.{note}", B=2)[:20] in all_text(at)


def test_quiz_grades_against_the_forward_pass_and_keeps_score(lang):
    at = open_tab(open_page("shapes", lang), "shapes", "shapes.tab_quiz", lang)
    q = make_question(1)
    assert "shapes_question" not in at.query_params  # the first question: no parameter
    at.text_input(key="shapes_quiz_answer_1").input(str(q.answer))
    _click(at, translate(lang, "shapes.quiz.submit"))
    assert not at.exception and translate(lang, "shapes.quiz.right", expected=str(q.answer)) in all_text(at)
    assert translate(lang, "shapes.quiz.score", right=1, asked=1) in all_text(at)
    _click(at, translate(lang, "shapes.quiz.next"))
    assert at.number_input(key="shapes_question").value == 2 and at.query_params["shapes_question"] == "2"
    q2 = make_question(2)
    wrong = "(" + ", ".join(str(n + 1) for n in q2.answer) + ")"
    at.text_input(key="shapes_quiz_answer_2").input(wrong)
    _click(at, translate(lang, "shapes.quiz.submit"))
    assert at.warning
    assert translate(lang, "shapes.quiz.score", right=1, asked=2) in all_text(at)
    at.text_input(key="shapes_quiz_answer_2").input(str(q2.answer))  # right at the second try: not counted
    _click(at, translate(lang, "shapes.quiz.submit"))
    assert at.success and translate(lang, "shapes.quiz.score", right=1, asked=2) in all_text(at)
    at.text_input(key="shapes_quiz_answer_2").input("no idea")
    _click(at, translate(lang, "shapes.quiz.submit"))
    assert translate(lang, "shapes.field.quiz_answer") in _errors(at)


def test_a_link_opens_the_same_question_in_any_session(lang):
    """The drill's question is a field: a copied link (a teacher's, say) shows that very layer and tensor."""
    q = make_question(7)
    at = open_page("shapes", lang, query={"shapes_question": "7", "shapes_tabs": "quiz"})
    assert not at.exception and at.number_input(key="shapes_question").value == 7
    assert next(c.value for c in at.code if c.value.startswith("rnn = nn.")) == question_code(q)
    at.text_input(key="shapes_quiz_answer_7").input(str(q.answer))
    _click(at, translate(lang, "shapes.quiz.submit"))
    assert translate(lang, "shapes.quiz.right", expected=str(q.answer)) in all_text(at)


def test_try_this_loads_a_packed_padded_batch(lang):
    # The decoder's fields and the wrong call sit in tabs, folded away: a case forgets them all the same.
    query = {"shapes_B": "3", "shapes_dec_layers": "3", "shapes_dec_hidden": "5", "shapes_failure": "wrong_e"}
    at = open_page("shapes", lang, query=query)
    at.button(key="try__shapes__1").click().run()  # "The same batch, packed"
    assert not at.exception
    assert at.text_input(key="shapes_lengths").value == "3, 1" and at.toggle(key="shapes_packed").value
    assert at.number_input(key="shapes_B").value == 2  # an input the case does not name is back to its default
    assert dict(at.query_params) == {"lang": lang, "shapes_lengths": "3, 1", "shapes_packed": "true"}
    assert "| `packed.data` | `(ΣS, E)` | `(4, 4)` |" in all_text(at)
    # The picture draws packed.data under the blocks: its rows and batch_sizes are PyTorch's for these lengths.
    packed = run_shapes(parse_config(lengths="3, 1", packed=True))
    rows = _picture_rows(at, "packed_row")
    assert sorted(r["packed_row"] for r in rows) == list(range(packed.packed_data.shape[0]))
    steps = sorted((r["step"], r["batch_size"]) for r in _picture_rows(at, "t"))
    assert [n for _, n in steps] == list(packed.batch_sizes) == [2, 1, 1]


def _picture_rows(at, column: str) -> list[dict]:
    """The picture's data rows that carry `column` (the packed strip's cells or its steps): inline in the spec or
    shipped by Streamlit as Arrow datasets."""
    chart = at.get("vega_lite_chart")[0]
    spec = json.loads(chart.proto.spec)
    rows = [row for layer in spec.get("layer", []) for row in (layer.get("data") or {}).get("values", [])]
    for d in chart.proto.datasets:
        rows += pa.ipc.open_stream(d.data.data).read_all().to_pylist()
    return [row for row in rows if row.get(column) is not None]


def test_reset_forgets_every_field_of_the_page_even_in_closed_tabs_and_folded_settings(lang):
    """Issue 23's drift: the decoder's layers and hidden size and the wrong call lived in the link but not in the
    page's key list, so Reset left them behind. Now every field of FIELDS is forgotten: those in closed tabs, in
    the folded settings, the open tab itself."""
    query = {
        "shapes_dec_layers": "3",
        "shapes_dec_hidden": "5",
        "shapes_failure": "wrong_e",
        "shapes_num_layers": "2",  # in the folded "more settings" expander
        "shapes_seed": "7",
        "shapes_lengths": "3, 1",
        "shapes_packed": "true",
        "shapes_question": "4",
        "shapes_tabs": "bridge",
    }
    at = open_page("shapes", lang, query=query)
    assert not at.exception and not toasts(at)
    assert at.number_input(key="shapes_dec_layers").value == 3 and at.number_input(key="shapes_dec_hidden").value == 5
    assert "(3, 2, 5)" in all_text(at)  # the bridge made the decoder's (Ld, B, Hd) state from the link's sizes
    _tab(at, "shapes.tab_failure", lang)
    assert at.selectbox(key="shapes_failure").value == "wrong_e"
    # The bridge tab is closed now: its fields are not drawn, and the link still holds them.
    assert {"shapes_dec_layers", "shapes_dec_hidden", "shapes_failure", "shapes_question"} <= set(at.query_params)
    assert all(at.query_params[k] == v for k, v in query.items() if k != "shapes_tabs")
    at.button(key="reset__shapes").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}  # no parameter of the page is left
    assert not [f.key for f in fields.FIELDS if f.key in at.query_params]
    assert at.number_input(key="shapes_num_layers").value == 1 and at.number_input(key="shapes_seed").value == 42
    assert at.text_input(key="shapes_lengths").value == "" and not at.toggle(key="shapes_packed").value
    assert "| `ids` | `(B, S)` | `(2, 3)` |" in all_text(at)  # back on the first tab
    _tab(at, "shapes.tab_bridge", lang)
    assert at.number_input(key="shapes_dec_layers").value == 1 and at.number_input(key="shapes_dec_hidden").value == 8
    _tab(at, "shapes.tab_failure", lang)
    assert at.selectbox(key="shapes_failure").value == "none"
    _tab(at, "shapes.tab_quiz", lang)
    assert at.number_input(key="shapes_question").value == 1
    assert set(at.query_params) <= {"lang", "shapes_tabs"}  # opening a tab puts only the tab in the link


def test_the_2d_input_note_follows_batch_first(lang):
    """With batch_first=False, x[0] drops the time axis: the note and the fix say x[:, 0:1], and the fix's real
    shapes are shown; the batch-first note (x[0:1]) is not."""
    at = open_page("shapes", lang, query={"shapes_batch_first": "false", "shapes_tabs": "failure"})
    at.selectbox(key="shapes_failure").set_value("input_2d").run()
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "shapes.fail.input_2d.raised_time", B=2) in text
    assert translate(lang, "shapes.fail.input_2d.raised_batch", B=2) not in text
    assert translate(lang, "shapes.fail.input_2d.without_h0_time", B=2) in text
    assert any("rnn(x[:, 0:1], (h_0[:, 0:1], c_0[:, 0:1]))" in c.value and "(3, 1, 4)" in c.value for c in at.code)


def test_the_bridge_note_follows_proj_size(lang):
    """The old note called h bounded "like any LSTM output" with proj_size too; now the note is chosen by the
    config and carries the measured max |h_n|."""
    from s2s_core.fmt import num
    from s2s_core.shapes.bridge import BridgeConfig, bridge_view

    for query, key in (({}, "linear_note"), ({"shapes_proj_size": "3"}, "linear_note_proj")):
        b = bridge_view(run_shapes(parse_config(proj_size=int(query.get("shapes_proj_size", 0)))), BridgeConfig(1, 8))
        at = open_page("shapes", lang, query={**query, "shapes_tabs": "bridge"})
        assert not at.exception
        other = "linear_note_proj" if key == "linear_note" else "linear_note"
        text = all_text(at)
        assert translate(lang, f"shapes.bridge.{key}", h_max=num(b.h_max)) in text
        assert translate(lang, f"shapes.bridge.{other}", h_max=num(b.h_max)) not in text
