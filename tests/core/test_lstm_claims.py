"""The LSTM page's lesson claims (s2s_core/lstm/claims.py): each holds on a state where the page shows it and
fails on one where it does not; the state is read as the page reads its controls."""

from __future__ import annotations

import pytest
import torch

from s2s_core.fmt import num, vec
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.lessons import evaluate, page_fields
from s2s_core.lessons.claims import LinkState
from s2s_core.lstm import fields
from s2s_core.lstm.claims import config_of
from s2s_core.lstm.compute import lstm_gates, parse_config

FIELDS = page_fields()["lstm"]
LOUD = {"lstm_source": "table", "lstm_x": "3,3,-2;3,3,-2;3,3,-2;3,3,-2"}  # c adds up past 1
FREEZE = {"lstm_force_f": "2,3,4", "lstm_force_i": "2,3,4"}  # the freeze button's state (f = 1, i = 0)
FORGET_LAST = {"lstm_force_f": "4", "lstm_force_f_to": "0", "lstm_step": "4"}


def run(name: str, state: dict[str, str], lang: str = "en", **args):
    return evaluate(f"lstm:{name}", args, FIELDS, state, lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_config_of_reads_the_link_as_the_page_does(lang):
    config = config_of(LinkState(FIELDS, {}, lang))
    assert config == parse_config("sentence", DEFAULT_SENTENCES[lang], None, 3, 4, 0)
    forced = config_of(LinkState(FIELDS, {**FORGET_LAST, "lstm_force_i": "2,9"}, lang))
    assert [(f.gate, f.steps, f.value) for f in forced.forces] == [("i", (1,), 0.0), ("f", (3,), 0.0)]  # 9: no step
    typed = config_of(LinkState(FIELDS, LOUD, lang))
    assert typed.seq.source == "table" and typed.seq.vectors[0] == (3.0, 3.0, -2.0) and not typed.forces
    assert fields.GATED.sentence.key == "lstm_sentence"  # the page's own key: the state speaks its link


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_gate_open_reads_one_component_of_one_gate(lang):
    result = lstm_gates(config_of(LinkState(FIELDS, {}, lang)))
    f = result.run.gates["f"].value[1]  # (H,) step 2
    got = run("gate_open", {}, lang, gate="f", step=2, component=2)
    assert got.holds and float(f[1]) > 0.5
    assert got.values["value"] == num(f[1]) and got.shown == (vec(f),)
    assert "2" in got.values["kept"].split(", ")
    assert not run("gate_open", {}, lang, gate="f", step=2, component=4).holds  # f4 = 0.30 (en), 0.39 (ko)
    assert not run("gate_open", FORGET_LAST, lang, gate="f", step=4, component=2).holds  # forced shut: 0


def test_c_beyond_h_needs_a_cell_past_one():
    got = run("c_beyond_h", LOUD)
    assert got.holds and float(got.values["max_c"]) > 1 > float(got.values["max_h"])
    assert got.shown == (got.values["max_c"], got.values["max_h"])
    assert not run("c_beyond_h", {}).holds  # the default sentence: |c| stays near 0.5


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_old_cell_kept_grades_the_forget_question(lang):
    shut = run("old_cell_kept", FORGET_LAST, lang, step=4, expect="none")
    assert shut.holds and shut.answer == "none"
    assert shut.values["c"] == shut.values["ig"]  # c_t = i⊙g: nothing of c_(t-1)
    assert shut.shown == (shut.values["c"],)  # the Override tab's forced last c
    natural = run("old_cell_kept", {}, lang, step=4, expect="none")
    assert not natural.holds and natural.answer == "part"
    kept = run("old_cell_kept", {"lstm_force_f": "4"}, lang, step=4, expect="all")  # f forced open: all of it
    assert kept.holds and kept.answer == "all"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_cell_frozen_only_with_the_freeze(lang):
    got = run("cell_frozen", FREEZE, lang, start=2)
    result = lstm_gates(config_of(LinkState(FIELDS, FREEZE, lang)))
    assert got.holds and got.values["c1"] == vec(result.forced.c[0]) and got.shown == (vec(result.forced.c[-1]),)
    assert not run("cell_frozen", {}, lang).holds  # nothing forced: c moves
    assert not run("cell_frozen", {"lstm_force_f": "2,3,4"}, lang).holds  # f = 1 alone: i still writes
    assert not run("cell_frozen", FREEZE, lang, start=1).holds  # step 1 is computed, not frozen


def test_module_check_counts_the_parameters():
    got = run("module_check", {"lstm_tabs": "check"}, params=144)
    result = lstm_gates(config_of(LinkState(FIELDS, {}, "en")))
    assert got.holds and got.shown == (vec(result.torch_h_n), vec(result.torch_c_n))
    assert torch.allclose(result.torch_h_n, result.run.h[-1])
    assert not run("module_check", {}, params=108).holds  # that is the GRU's count
    assert run("module_check", {"lstm_H": "5"}, params=4 * (5 * 3 + 5 * 5 + 2 * 5)).holds
