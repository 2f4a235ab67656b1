"""Bahdanau vs Luong page in real Chromium: the picture follows one score function (its signed scores, the softmax
written out, its weights), picked in the select box above it; "compare all" adds every function side by side; the
folded tab draws the picked function's weights and the wiring diagram (Graphviz) draws; Reset brings the position
slider back in the browser's own view. The drawn SVG's text marks are read, not a screenshot.

Windows, wiring, bad input (the kept picture) and every function's weights are tested through AppTest
(tests/app/test_scoring_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num, two
from s2s_core.fmt import vec as vector_text
from s2s_core.scoring.compute import ScoringConfig, compare
from s2s_core.scoring.frames import softmax_steps
from tests.browser.harness import (
    chart_labels,
    charts_drawn,
    main_text,
    open_page,
    settle,
    wait_for_mark,
    wait_for_text,
)

pytestmark = pytest.mark.browser
PICTURE = '.st-key-s2s_picture [data-testid="stVegaLiteChart"]'
TEXTS = "([chart, n]) => [...document.querySelectorAll(chart)[n].querySelectorAll('svg text')].map(t => t.textContent)"


def _texts(page, index: int = 0) -> list[str]:
    """The text marks Vega drew in the picture column's index-th chart."""
    return page.evaluate(TEXTS, [PICTURE, index])


def _wait_texts(page, index: int, wanted: list[str]) -> None:
    page.wait_for_function(
        "([chart, n, wanted]) => { const c = document.querySelectorAll(chart)[n]; if (!c) return false;"
        " const got = [...c.querySelectorAll('svg text')].map(t => t.textContent);"
        " return wanted.every(w => got.includes(w)); }",
        arg=[PICTURE, index, wanted],
    )


def _signed(x: float) -> str:
    """A score as the picture prints it (d3 '+.2~f': a true minus sign)."""
    return two(x, sign=True).replace("-", "−")


def _pick(page, name: str) -> None:
    """Choose a score function in the select box above the picture, as a learner does (open it, click the option);
    a click that lands while a rerun redraws the box is tried once more."""
    settle(page)
    box = page.locator(".st-key-s2s_picture").get_by_label(translate("en", "scoring.focus_label"), exact=True)
    option = page.get_by_role("option", name=translate("en", f"scoring.fn.{name}"), exact=True)
    for _ in range(2):
        box.click()
        try:
            option.wait_for(state="visible", timeout=10_000)
            break
        except Exception:
            settle(page)
    option.click()
    settle(page)


def _weights_line(config: ScoringConfig, name: str) -> str:
    weights = vector_text(compare(config).get(name).read.weights[0])
    return translate("en", "scoring.weights_line", weights=weights, total="1")


def test_one_function_shows_its_signed_scores_the_softmax_and_compare_all_every_function(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "scoring", "en")
    charts_drawn(page)
    assert page.locator(PICTURE).count() == 1  # one function at a time
    # additive: every score printed with its sign; the softmax row's name with the live sum, and each exp(score − max).
    read = compare(ScoringConfig()).get("additive").read
    exps, total = softmax_steps(read)
    drawn = _texts(page)
    assert [_signed(x) for x in read.scores[0].tolist()] == [t for t in drawn if t[:1] in "+−"][:5]
    assert translate("en", "scoring.chart.softmax_row", total=two(total)) in drawn
    assert all(two(e) in drawn for e in exps)
    # general scores below zero: the minus signs are drawn.
    _pick(page, "general")
    general = compare(ScoringConfig(focus="general")).get("general").read
    negative = [_signed(x) for x in general.scores[0].tolist()]
    assert all(s.startswith("−") for s in negative)
    _wait_texts(page, 0, negative)
    page.wait_for_function("() => location.search.includes('scoring_focus=general')")
    # compare all: every function's row first, each with "↓ softmax" between its scores and its weights.
    page.get_by_text(translate("en", "scoring.compare_label"), exact=True).click()
    settle(page)
    charts_drawn(page, at_least=2)
    assert page.locator(PICTURE).count() == 2
    _wait_texts(page, 0, [_signed(x) for x in compare(ScoringConfig()).get("dot").read.scores[0].tolist()])
    assert _texts(page, 0).count(translate("en", "scoring.chart.softmax_short")) == 5
    page.wait_for_function("() => location.search.includes('scoring_compare=true')")


def test_the_picked_function_drives_the_tab_and_the_wiring_draws(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "scoring", "en")
    page.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(state="visible")
    page.get_by_role("tab", name=translate("en", "scoring.tab_focus")).click()
    wait_for_text(page, _weights_line(ScoringConfig(), "additive"))
    page.wait_for_function("() => location.search.includes('scoring_tabs=focus')")  # the open tab is in the link
    _pick(page, "dot")
    wait_for_text(page, _weights_line(ScoringConfig(focus="dot"), "dot"))
    settle(page)
    assert translate("en", "scoring.keys_are_values", name=translate("en", "scoring.fn.dot")) in main_text(page)
    page.wait_for_function("() => location.search.includes('scoring_focus=dot')")
    page.get_by_role("tab", name=translate("en", "scoring.tab_flow")).click()
    page.locator('[data-testid="stGraphVizChart"] svg').first.wait_for()  # the wiring diagram drew


def test_editing_s_redraws_the_picture_and_the_slider_picks_a_position(app_server, new_page):
    """The compare picture's marks name each function's weights (aria-labels); a new s redraws them with the new
    weights, and the position slider inside the one-function picture moves the line under it with no full rerun."""
    page = new_page()
    open_page(page, app_server, "scoring", "en", "scoring_compare=true")
    charts_drawn(page, at_least=2)

    def dot_weight(config: ScoringConfig) -> str:
        return num(float(compare(config).get("dot").read.weights[0, 2]))

    def drawn(weight: str) -> bool:
        return any("dot (Luong)" in x and "s3" in x and weight in x for x in chart_labels(page, 0))

    assert drawn(dot_weight(ScoringConfig()))
    field = page.get_by_label(translate("en", "scoring.dec_label"), exact=True)
    field.fill("0.6, 0.4")
    field.press("Enter")
    settle(page)
    new = dot_weight(ScoringConfig(dec_state=(0.6, 0.4)))
    wait_for_mark(page, 0, "dot (Luong)", "s3", new)  # the redraw can land a frame after the rerun ends
    assert drawn(new)
    slider = page.locator(".st-key-scoring_pos_chart .vega-bindings input[type=range]")
    slider.evaluate("(el) => { el.value = 4; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    wait_for_text(page, "s4: score")
    page.wait_for_function("() => location.search.includes('scoring_pos=4')")
    # Reset: the defaults (one function again), and the slider back at s1 in the browser's own view.
    page.get_by_role("button", name=translate("en", "ui.reset")).click()
    settle(page)
    page.wait_for_function(f"() => document.querySelectorAll('{PICTURE}').length === 1")
    assert "scoring_" not in page.url
    page.wait_for_function(
        "() => document.querySelector('.st-key-scoring_pos_chart .vega-bindings input').value === '1'"
    )
    wait_for_text(page, "s1: score")


def test_the_window_tab_draws_signed_scores_the_window_and_the_softmax_weights(app_server, new_page):
    """Issue 25 leftovers: the Global vs local tab's picture used to be flat weight bars without numbers. It now
    speaks the main picture's language: every score printed with its sign (dashed outside the window), the window
    drawn over the rows around p, the softmax over the window written out and its weights printed, and local-p's
    Gaussian factors with the final weights they leave. Read from the drawn SVG of the tab's chart."""
    config = ScoringConfig(window="local_p")
    read = compare(config).get("additive").read
    page = new_page()
    open_page(page, app_server, "scoring", "en", "scoring_window=local_p&scoring_tabs=window")
    charts_drawn(page, at_least=2)
    chart = '[data-testid="stMain"] [data-testid="stVegaLiteChart"]'
    index = page.evaluate(  # the tab's chart: the first one outside the picture column
        "chart => [...document.querySelectorAll(chart)].findIndex(c => !c.closest('.st-key-s2s_picture'))", chart
    )
    assert index >= 1, "the window tab's chart (after the main picture) was not found"
    drawn = page.evaluate(TEXTS, [chart, index])
    # 1) The signed scores, every one (the window masks them to −∞ only inside the softmax).
    assert [_signed(x) for x in read.scores[0].tolist()] == [t for t in drawn if t[:1] in "+−"][:5]
    # 2) The softmax over the window: its row with the sum, exp(score − max) per position, its weights printed.
    exps, total = softmax_steps(read)
    assert translate("en", "scoring.chart.softmax_row", total=two(total)) in drawn
    assert all(two(e) in drawn for e in exps)
    inside = read.mask[0].tolist()
    align = [f"{a:.2f}" if keep else "0" for a, keep in zip(read.align[0].tolist(), inside, strict=True)]
    weights = [f"{w:.2f}" if keep else "0" for w, keep in zip(read.weights[0].tolist(), inside, strict=True)]
    assert all(a in drawn for a in align) and all(w in drawn for w in weights), (align, weights, drawn)
    # 3) Local-p: the Gaussian's row and each position's factor; the window's centre p under the band.
    assert translate("en", "scoring.chart.gauss_row") in drawn
    assert all("× " + two(g) in drawn for g in read.gauss[0].tolist())
    assert f"p = {two(float(read.center[0]))}" in drawn
    # 4) The window: a rectangle over the positions it keeps, and the score bars outside it dashed.
    marks = page.evaluate(
        """([chart, n]) => [...document.querySelectorAll(chart)[n].querySelectorAll('svg path[aria-label]')]
            .map(e => [e.getAttribute('aria-label'), e.getAttribute('stroke-dasharray') || ''])""",
        [chart, index],
    )
    assert any(label.startswith("p: ") for label, _ in marks), marks
    score_bars = [(label, dash) for label, dash in marks if "score: " in label and "exp(" in label]
    dashed = {label.split("; ")[0] for label, dash in score_bars if dash}
    outside = {f"source position: s{j + 1}" for j, keep in enumerate(inside) if not keep}
    assert outside and dashed == outside, (dashed, outside)
