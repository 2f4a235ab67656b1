"""BPTT page in real Chromium: moving the ρ slider with the keyboard redraws the readout and the gradient curves.

Truncation, clipping, the quiz and bad links are tested through AppTest (tests/app/test_bptt_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.bptt import BpttConfig, backprop_through_time
from s2s_core.fmt import sci
from s2s_ui.catalog import translate
from tests.browser.harness import chart_labels, charts_drawn, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def _rnn_norm_drawn(page, k: int, T: int = 30) -> float:
    """‖∂L/∂h_t‖ k steps back as the picture drew it: the band's mark at step T - k (aria-label "field: value; …")."""
    for label in chart_labels(page, 0):
        fields = dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)
        if fields.get(translate("en", "bptt.picture.step")) == str(T - k):
            return float(fields[translate("en", "bptt.picture.norm")].replace("−", "-"))
    raise AssertionError(f"no band mark at step {T - k}")


def test_raising_rho_redraws_the_readout_and_the_curves(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "bptt", "en")
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    at_09 = backprop_through_time(BpttConfig(rho=0.9)).by_cell("rnn").ratio(20, full=False)
    wait_for_text(page, f"RNN: 20 steps back the gradient is {sci(at_09)}")
    before = _rnn_norm_drawn(page, 20)
    rho = page.get_by_role("slider", name=translate("en", "bptt.rho_label"))
    for _ in range(2):  # two steps of 0.05: ρ = 1.0
        rho.press("ArrowRight")
        settle(page)
    at_10 = backprop_through_time(BpttConfig(rho=1.0)).by_cell("rnn").ratio(20, full=False)
    wait_for_text(page, f"RNN: 20 steps back the gradient is {sci(at_10)}")
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    assert at_10 > at_09 and _rnn_norm_drawn(page, 20) > before  # less vanishing, in the text and in the band
    assert "bptt_rho=1" in page.url
