"""BPTT page through AppTest, in English: defaults, linear ρ^k check, truncation, clipping, quiz."""

from __future__ import annotations

from s2s_core.bptt import BpttConfig, backprop_through_time, clip
from s2s_core.bptt.frames import ratio_band
from s2s_core.fmt import num, sci
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page, toasts


def _metrics(at) -> list[str]:
    return [str(m.value) for m in at.metric]


def test_defaults_show_gradients_checks_clipping_and_quiz(lang):
    at = open_page("bptt", lang)
    assert not at.exception
    result = backprop_through_time(BpttConfig())
    text = all_text(at)
    assert translate(lang, "bptt.title") in text
    for cell in result.cells:  # the readout per cell: 20 steps back
        assert sci(cell.ratio(20, full=False)) in text
    assert any("nn.LSTM" in s.value for s in at.success)  # loops == nn modules
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
    assert any(translate(lang, "bptt.check_parts")[:20] in s.value for s in at.success)
    # The quiz, graded against the live ratio.
    band = ratio_band(result.by_cell("rnn").ratio(20))
    at.radio(key="bptt_quiz_rnn").set_value(translate(lang, f"bptt.quiz_{band}")).run()
    assert not at.exception and not at.warning
    # A larger max_norm than the total: clipping changes nothing.
    at.slider(key="bptt_clip").set_value(10.0).run()
    assert not at.exception
    assert _metrics(at)[1] == sci(clip(result.by_cell("rnn"), 10.0).total_after)


def test_linear_rnn_shows_the_rho_law_check_and_truncation(lang):
    at = open_page("bptt", lang, query={"bptt_linear": "true", "bptt_rho": "1.5", "bptt_k": "10", "bptt_T": "40"})
    assert not at.exception
    text = all_text(at)
    assert any(translate(lang, "bptt.check_law")[:12] in s.value for s in at.success)
    result = backprop_through_time(BpttConfig(T=40, rho=1.5, linear=True, truncate=10))
    assert result.cuts == (10, 20, 30)
    assert translate(lang, "bptt.truncate_on", steps="10, 20, 30", T=40, reach=9, first=31) in text
    # Exploding linear RNN: the quiz answer is "exploded".
    at.radio(key="bptt_quiz_rnn").set_value(translate(lang, "bptt.quiz_explode")).run()
    assert not at.exception and not at.warning


def test_gated_cell_details_and_out_of_range_link(lang):
    at = open_page("bptt", lang, query={"bptt_cell": "LSTM", "bptt_T": "500"})
    assert not at.exception
    assert at.slider(key="bptt_T").value == 30  # the default, for an impossible link value ...
    assert translate(lang, "bptt.T_label") in toasts(at) and "500" in toasts(at)  # ... named, with the value
    assert at.segmented_control(key="bptt_cell").value == "lstm"  # an older link named the cell as shown: LSTM
    assert translate(lang, "bptt.clip_cell", cell="LSTM") in all_text(at)
    assert at.radio(key="bptt_quiz_lstm") is not None
