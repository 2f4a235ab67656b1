"""The backprop page's lesson claims (s2s_core/bptt/claims.py): each holds on a state where the page shows it, and
does not hold on a state (or with an expectation) where the page shows something else."""

from __future__ import annotations

from s2s_core.bptt.claims import config_of
from s2s_core.bptt.compute import BpttConfig
from s2s_core.lessons import page_fields
from s2s_core.lessons.claims import LinkState, evaluate

FIELDS = page_fields()["bptt"]


def _eval(name: str, params: dict[str, str], **args):
    return evaluate(name, args, FIELDS, params, "en")  # no claim here reads a word of the language


def test_config_of_reads_the_link_as_the_page_does():
    got, max_norm = config_of(LinkState(FIELDS, {"bptt_cell": "LSTM", "bptt_rho": "1.2000000001", "bptt_clip": "2"}))
    assert got == BpttConfig(cell="lstm", rho=1.2) and max_norm == 2.0
    assert config_of(LinkState(FIELDS, {}, "ko")) == (BpttConfig(), 1.0)


def test_reach_vanishes_by_default_explodes_linear_and_stays_with_tanh_or_a_gate():
    default = _eval("bptt:reach", {}, band_is="vanish")
    assert default.holds and default.answer == "vanish"
    assert (default.values["first"], default.values["last"]) == default.shown == ("8.3e-05", "2.8")
    assert not _eval("bptt:reach", {}, band_is="same").holds
    linear = _eval("bptt:reach", {"bptt_linear": "true", "bptt_rho": "1.2"}, band_is="explode")
    assert linear.holds and linear.values["per_step"] == "1.2"  # exactly ρ per step without tanh
    tanh = _eval("bptt:reach", {"bptt_rho": "2"}, band_is="explode")
    assert not tanh.holds and tanh.answer == "same"  # tanh′ takes its share: no explosion at ρ = 2
    gate = _eval("bptt:reach", {"bptt_cell": "lstm", "bptt_gate": "5"}, band_is="same")
    assert gate.holds and gate.values["cell"] == "LSTM"
    assert not _eval("bptt:reach", {"bptt_cell": "lstm"}, band_is="same").holds  # the default gate: it vanishes


def test_clip_rescales_all_by_one_factor_only_above_max_norm():
    active = _eval("bptt:clip", {"bptt_tabs": "clip"}, active=True)
    assert active.holds and active.shown == ("9.5", "1") and active.values["far_before"] == active.values["far_after"]
    assert float(active.values["scale"]) < 1
    assert not _eval("bptt:clip", {}, active=False).holds
    idle = _eval("bptt:clip", {"bptt_clip": "10"}, active=True)
    assert not idle.holds and idle.values["scale"] == "1"
    assert _eval("bptt:clip", {"bptt_clip": "10"}, active=False).holds
