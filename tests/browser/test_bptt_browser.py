"""BPTT page in real Chromium: moving the ρ slider with the keyboard redraws the readout and the gradient curves.

Truncation, clipping, the quiz and bad links are tested through AppTest (tests/app/test_bptt_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.bptt import BpttConfig, backprop_through_time
from s2s_core.catalog import translate
from s2s_core.fmt import sci
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


def test_at_the_default_rho_the_band_visibly_thins_and_its_numbers_are_plain(app_server, new_page):
    """Issue 25: the default RNN (ρ = 0.9, T = 30) loses 4.5 decades from h30 back to h1. The band drawn at h1 is
    under a third as thick as at h30 (on the old 1e-10 … 1e2 scale it was 0.6 of it), the colour legend's labels
    are plain numbers spanning six decades (0.0001 … 100, not 1.0e-10 style), and so are the step's numbers
    where they fit (0.0027, 0.18, 2.8)."""
    page = new_page()
    open_page(page, app_server, "bptt", "en")
    charts_drawn(page, 1)
    chart = page.locator('[data-testid="stVegaLiteChart"]').nth(0)
    step = translate("en", "bptt.picture.step")
    heights = chart.evaluate(
        """(c, step) => Object.fromEntries([...c.querySelectorAll('svg [role="graphics-symbol"][aria-label]')]
            .filter(e => e.closest('.mark-rect') && e.getAttribute('aria-label').startsWith(step + ': '))
            .map(e => [e.getAttribute('aria-label').split('; ')[0].split(': ')[1],
                       e.getBoundingClientRect().height]))""",
        step,
    )
    assert heights["1"] < heights["30"] / 3, heights  # the fall is visible as the band's thickness alone
    legend = chart.evaluate("c => [...c.querySelectorAll('svg .role-legend-label text')].map(t => t.textContent)")
    assert legend == ["0.0001", "0.01", "1", "100"], legend
    texts = set(chart.evaluate("c => [...c.querySelectorAll('svg text')].map(t => t.textContent)"))
    grad = backprop_through_time(BpttConfig()).by_cell("rnn")
    for k in (20, 10, 0):  # h10, h20, h30: plain numbers (h1's 8.3e-05 is below 0.0001: an exponent there)
        assert f"{float(grad.norms[k]):.2g}" in texts and "e" not in f"{float(grad.norms[k]):.2g}", sorted(texts)
    assert f"{float(grad.norms[29]):.1e}" in texts and float(grad.norms[29]) < float(grad.norms[0]) * 1e-4
    # The previous input's outline and the cuts are left out when they would draw nothing (axe svg-img-alt).
    assert page.locator('[data-testid="stVegaLiteChart"] g.role-mark[role="graphics-symbol"]:empty').count() == 0


def test_the_curves_axis_writes_plain_numbers_where_they_fit(app_server, new_page):
    """Issue 25: the log axis of "All three cells" was labelled 1e-3 style; it now writes 0.001 … 10 plainly and
    keeps an exponent only below 0.0001 (1e-5)."""
    page = new_page()
    open_page(page, app_server, "bptt", "en", "bptt_tabs=curves")
    charts_drawn(page, 2)  # the picture and the open tab's curves
    labels = (
        page.locator('[data-testid="stVegaLiteChart"]')
        .nth(1)
        .evaluate("c => [...c.querySelectorAll('svg .role-axis-label text')].map(t => t.textContent)")
    )
    assert {"0.0001", "0.001", "0.01", "0.1", "1"} <= set(labels), labels
    assert all("e" not in x or float(x.replace("−", "-")) < 1e-4 for x in labels), labels
