"""A learner's own weights on the RNN, LSTM and GRU pages through AppTest: a practitioner's state_dict uploaded,
the picture and every tab on those weights with the check passing; hostile files named, the page still working.

The modules here are a practitioner's: float32, default layout (not batch_first), saved by torch.save.
"""

from __future__ import annotations

import io

import pytest
import torch
from torch import nn

from s2s_core.catalog import translate
from s2s_core.fmt import vec
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.gru import compute as gru
from s2s_core.lstm import compute as lstm
from s2s_core.own_weights import load_weights
from s2s_core.rnn import compute as rnn
from s2s_ui.text import md_escape
from tests.app.conftest import all_text, open_page, open_tab
from tests.app.test_lstm_app import picture_rows


def saved(module: nn.Module, prefix: str = "") -> bytes:
    buf = io.BytesIO()
    torch.save({prefix + k: v for k, v in module.state_dict().items()}, buf)
    return buf.getvalue()


def practitioners(kind: str, E: int, H: int, seed: int) -> nn.Module:
    torch.manual_seed(seed)
    return {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind](E, H)  # float32, seq-first: as people make them


def upload(at, ns: str, name: str, raw: bytes):
    at.file_uploader[0].upload(name, raw).run()  # the page's one uploader
    assert not at.exception
    return at


def test_lstm_page_runs_a_practitioners_own_weights_with_the_check(lang):
    at = open_page("lstm", lang)
    mine = practitioners("lstm", 5, 6, seed=11)
    upload(at, "lstm", "my_lstm.pt", saved(mine, prefix="encoder."))  # a wrapper module's keys
    text = all_text(at)
    assert translate(lang, "own.loaded", name=md_escape("my_lstm.pt"), E=5, H=6) in text
    assert translate(lang, "own.sizes_from_file", E=5, H=6) in text
    assert "lstm_E" not in [w.key for w in at.number_input]  # the file decides E and H: their fields are not drawn
    # The picture is the learner's module by hand: its c_t column at step 2 is nn.LSTM's own c_2 on the same x.
    own = load_weights(saved(mine), "lstm")
    config = lstm.parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0, own=own)
    x = lstm.input_vectors(config.seq)  # (S, 5)
    with torch.no_grad():
        out, _ = mine.double()(x.unsqueeze(1))  # the practitioner's own module, seq-first: (S, 1, E) -> (S, 1, H)
    result = lstm.lstm_gates(config)
    assert torch.allclose(result.run.h, out[:, 0], atol=1e-12)
    assert [round(v, 9) for v in picture_rows(at, "c_t", 2)] == [round(float(v), 9) for v in result.run.c[1]]
    # The check, right under the picture, and its tab; the numbers are the learner's.
    check = translate(lang, "ui.check_pass", what=translate(lang, "lstm.check_what"), diff="", tol="1e-09")
    assert any(s.value.startswith(check.split("{")[0][:30]) for s in at.success)
    assert translate(lang, "own.gates_range", lo="", hi="").split(":")[0] in text
    assert translate(lang, "lstm.untrained", lo="", hi="")[:20] not in text  # not "untrained": they are the learner's
    open_tab(at, "lstm", "ui.tab_check", lang)
    assert vec(result.torch_c_n) in all_text(at) and not at.error
    open_tab(at, "lstm", "ui.tab_tables", lang)
    assert f"{round(float(mine.weight_ih_l0.detach()[0, 0]), 4)}" in str(at.dataframe[0].value.to_dict())
    open_tab(at, "lstm", "ui.tab_notice", lang)
    assert translate(lang, "own.more") in all_text(at)
    assert translate(lang, "lstm.untrained_more") not in all_text(at)
    open_tab(at, "lstm", "ui.tab_code", lang)
    assert repr(float(mine.bias_hh_l0.detach().double()[0])) in all_text(at)  # the script copies the learner's weights
    # Nothing of the file in the link.
    assert not any("own" in k for k in at.query_params)

    # Removing the file brings back the seeded module and its sizes.
    at.file_uploader[0].set_value(None).run()
    assert not at.exception and at.number_input(key="lstm_E").value == 3
    assert translate(lang, "lstm.untrained", lo="", hi="")[:20] in all_text(at)


class Exploit:
    """Unpickling this would call print: torch.load(weights_only=True) refuses the global instead."""

    def __reduce__(self):
        return (print, ("this ran",))


def saved_object(value: object) -> bytes:
    buf = io.BytesIO()
    torch.save(value, buf)
    return buf.getvalue()


HOSTILE = {
    "code_refused": saved_object({"weight_ih_l0": Exploit()}),  # a pickle with code: refused, never run
    "not_weights": b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
    "not_finite": None,  # built below: NaN weights
    "shapes": None,  # an LSTM's file on the GRU page
}


@pytest.mark.parametrize("why", list(HOSTILE))
def test_a_hostile_file_is_named_and_the_page_keeps_working(lang, why):
    ns = "gru"
    raw = HOSTILE[why]
    if why == "not_finite":
        bad = practitioners("gru", 3, 4, 0)
        with torch.no_grad():
            bad.weight_hh_l0[0, 0] = float("nan")
        raw = saved(bad)
    elif why == "shapes":
        raw = saved(practitioners("lstm", 3, 4, 0))
    at = open_page(ns, lang)
    upload(at, ns, "weights.pt", raw)
    errors = " ".join(e.value for e in at.error)
    field = translate(lang, "errors.own_weights.field")
    expected = translate(lang, f"errors.own_weights.{why}", field=field, name="weight\\_hh\\_l0", shapes="")
    assert expected.rstrip(".") in errors  # shapes: the message up to the listed shapes
    assert translate(lang, "own.seeded_meanwhile") in all_text(at)
    assert at.get("vega_lite_chart") and at.number_input(key="gru_E").value == 3  # the seeded page, working
    assert translate(lang, "gru.untrained", lo="", hi="")[:20] in all_text(at)


def test_rnn_and_gru_pages_take_their_own_kind(lang):
    mine = practitioners("rnn", 2, 3, seed=5)
    at = upload(open_page("rnn", lang), "rnn", "rnn.pt", saved(mine))
    own = load_weights(saved(mine), "rnn")
    result = rnn.unroll(rnn.parse_config("the cat sat on the mat", 3, 4, 0, own=own))
    assert result.max_abs_diff < 1e-12 and "rnn_edit" not in [w.key for w in at.toggle]  # the tables do not apply
    assert translate(lang, "own.sizes_from_file", E=2, H=3) in all_text(at)
    assert any(translate(lang, "rnn.check_what") in s.value for s in at.success)
    open_tab(at, "rnn", "ui.tab_tables", lang)
    assert translate(lang, "own.weights_shown") in all_text(at)

    gru_mine = practitioners("gru", 4, 2, seed=6)
    at = upload(open_page("gru", lang), "gru", "gru.pt", saved(gru_mine))
    own = load_weights(saved(gru_mine), "gru")
    result = gru.gru_gates(gru.parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0, own=own))
    assert result.max_abs_diff < 1e-12
    assert any(translate(lang, "gru.check_what") in s.value for s in at.success)
    assert translate(lang, "own.loaded", name=md_escape("gru.pt"), E=4, H=2) in all_text(at)


def test_reset_and_a_lesson_step_drop_the_file_and_the_lesson_sees_it(lang):
    mine = saved(practitioners("lstm", 2, 2, seed=3))
    at = upload(open_page("lstm", lang), "lstm", "a.pt", mine)
    assert translate(lang, "own.sizes_from_file", E=2, H=2) in all_text(at)
    at.button(key="reset__lstm").click().run()
    assert not at.exception and at.number_input(key="lstm_E").value == 3  # Reset: the seeded page again
    assert at.file_uploader[0].value is None
    assert translate(lang, "own.gates_range", lo="", hi="")[:12] not in all_text(at)

    # The LSTM tour: a step's sentences are about the page's weights; with a file in use the bar says the learner
    # has left the step (and its question waits); Again opens the step without the file.
    at.button(key="tour_start").click().run()
    assert not at.exception
    assert translate(lang, "lesson.explored") not in all_text(at)
    upload(at, "lstm", "a.pt", mine)
    assert translate(lang, "lesson.explored") in all_text(at)
    at.button(key="lesson_again").click().run()
    assert not at.exception and translate(lang, "lesson.explored") not in all_text(at)
    assert translate(lang, "own.sizes_from_file", E=2, H=2) not in all_text(at)
