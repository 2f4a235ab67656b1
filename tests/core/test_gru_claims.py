"""The GRU page's lesson claims (s2s_core/gru/claims.py): each holds on a state where the page shows it and fails
on one where it does not; the state is read as the page reads its controls."""

from __future__ import annotations

import pytest

from s2s_core.fmt import num, vec
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.gru.claims import config_of
from s2s_core.gru.compute import gru_gates, parse_config
from s2s_core.lessons import evaluate, page_fields
from s2s_core.lessons.claims import LinkState

FIELDS = page_fields()["gru"]
FREEZE = {"gru_force_z": "2,3,4"}  # the freeze button's state (z = 1 from step 2)


def run(name: str, state: dict[str, str], lang: str = "en", **args):
    return evaluate(f"gru:{name}", args, FIELDS, state, lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_config_of_reads_the_link_as_the_page_does(lang):
    assert config_of(LinkState(FIELDS, {}, lang)) == parse_config("sentence", DEFAULT_SENTENCES[lang], None, 3, 4, 0)
    forced = config_of(LinkState(FIELDS, {"gru_force_r": "1,4", "gru_force_z": "3", "gru_force_z_to": "0"}, lang))
    assert [(f.gate, f.steps, f.value) for f in forced.forces] == [("r", (0, 3), 0.0), ("z", (2,), 0.0)]
    typed = config_of(LinkState(FIELDS, {"gru_source": "table", "gru_x": "1,2;3,4", "gru_E": "2"}, lang))
    assert typed.seq.vectors == ((1.0, 2.0), (3.0, 4.0)) and typed.seq.E == 2


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_gate_open_reads_one_component_of_the_update_gate(lang):
    z = gru_gates(config_of(LinkState(FIELDS, {}, lang))).run.gates["z"].value[1]  # (H,) step 2
    got = run("gate_open", {}, lang, gate="z", step=2, component=4)
    assert got.holds and got.values["value"] == num(z[3]) and got.shown == (vec(z),)
    assert got.values["kept"] == "4"  # the reading line's list: z > 0.5 only there
    assert not run("gate_open", {}, lang, gate="z", step=2, component=2).holds
    assert not run("gate_open", {"gru_force_z": "2", "gru_force_z_to": "0"}, lang, gate="z", step=2, component=4).holds


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_h_frozen_only_with_z_one(lang):
    got = run("h_frozen", FREEZE, lang, start=2)
    forced = gru_gates(config_of(LinkState(FIELDS, FREEZE, lang))).forced
    assert got.holds and got.values["h1"] == vec(forced.h[0]) and got.shown == (vec(forced.h[-1]),)
    assert not run("h_frozen", {}, lang).holds  # nothing forced
    assert not run("h_frozen", {"gru_force_z": "2,3,4", "gru_force_z_to": "0"}, lang).holds  # z = 0: h = n
    assert not run("h_frozen", {"gru_force_r": "2,3,4"}, lang).holds  # r shut: h still moves


def test_params_compares_with_the_lstm():
    got = run("params", {"gru_tabs": "compare"}, gru=108, lstm=144)
    assert got.holds and got.answer == "three_quarters" and got.shown == ("108", "144")
    assert not run("params", {}, gru=144, lstm=144).holds  # a wrong expectation
    bigger = run("params", {"gru_H": "8"}, gru=108, lstm=144)
    assert not bigger.holds and bigger.answer == "three_quarters"  # other sizes: other counts, the same 3/4
    assert bigger.values["gru"] == str(3 * (8 * 3 + 8 * 8 + 2 * 8))


def test_module_check_counts_the_parameters():
    got = run("module_check", {"gru_tabs": "check"}, params=108)
    result = gru_gates(config_of(LinkState(FIELDS, {}, "en")))
    assert got.holds and got.shown == (vec(result.torch_h_n),) and got.values["h_n"] == vec(result.run.h[-1])
    assert not run("module_check", {}, params=144).holds  # that is the LSTM's count
