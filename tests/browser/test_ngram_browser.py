"""Next-token page in real Chromium (Korean): a line typed into the corpus (committed with Ctrl+Enter) changes
the counts in the text and the picture's candidate bars; clicking a candidate's bar extends the prefix.

The window network's tab redraws its prediction after a corpus edit. The product, smoothing, the quiz and bad input
are tested through AppTest (tests/app/test_ngram_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import prob
from s2s_core.ngram.compute import parse_corpus
from s2s_core.ngram.examples import EXAMPLES
from s2s_core.ngram.window import WindowConfig, train, window_view
from tests.browser.harness import chart_labels, charts_drawn, next_frame, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def _drawn_probability(page, word: str) -> float:
    """The picture's candidate bar for `word`, as drawn: its aria-label reads "<word>: w; <p>: count/c = p"."""
    labels = chart_labels(page, 0)
    for label in labels:
        fields = dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)
        if fields.get(translate("ko", "ngram.picture.word")) == word and translate("ko", "ngram.picture.p") in fields:
            return float(fields[translate("ko", "ngram.picture.p")].rsplit("= ", 1)[-1])
    raise AssertionError(f"no bar for {word!r} in {labels}")


def test_adding_a_corpus_line_changes_the_counts_and_the_bars(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "ngram", "ko")
    wait_for_text(page, "“오늘 점심에”은(는) 4번 나옵니다")  # 김밥을 2, 라면을 1, 친구를 1
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    assert _drawn_probability(page, "김밥을") == pytest.approx(2 / 4)
    area = page.get_by_role("textbox", name=translate("ko", "ngram.field.corpus"), exact=True)
    area.click()
    area.press("Control+End")
    area.type("\n오늘 점심에 김밥을 먹었다")
    area.press("Control+Enter")
    wait_for_text(page, "“오늘 점심에”은(는) 5번 나옵니다")  # one more 김밥을 after 오늘 점심에: 3/5
    settle(page)
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    for _ in range(100):  # Vega may still be swapping in the new data after the script run ended
        if _drawn_probability(page, "김밥을") == pytest.approx(3 / 5):
            break
        next_frame(page)
    assert _drawn_probability(page, "김밥을") == pytest.approx(3 / 5)
    assert "ngram_corpus=" in page.url  # the one corpus key, whatever the language


def test_clicking_a_candidate_extends_the_prefix(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "ngram", "ko")
    charts_drawn(page, 1)
    bar = page.locator(".st-key-ngram_pick_chart svg [aria-label*='라면을'][aria-label*='1/4']").first
    bar.click()
    settle(page)
    box = page.get_by_role("textbox", name=translate("ko", "ngram.field.prefix"), exact=True)
    page.wait_for_function(
        "(name) => [...document.querySelectorAll('input')].some(i => i.value === '점심에 라면을')", arg="x"
    )
    assert box.input_value() == "점심에 라면을"  # the window (n - 1 = 2 words) slides along
    wait_for_text(page, "“점심에 라면을”")  # the candidates now follow the new history (먹었다, 끓였다)
    assert "먹었다" in [label.split("; ")[0].split(": ")[-1] for label in chart_labels(page, 0)]


def _network_top(corpus: str) -> str:
    """The window network's metric as the page writes it, computed here from the core for the same corpus."""
    view = window_view(train(WindowConfig(parse_corpus(corpus), 2)), ("오늘", "점심에"), None)
    word, p = view.forward.top[0]
    return f"{word} ({prob(p)})"


def _metric(page, label: str) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text=label).first
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_editing_the_corpus_redraws_the_window_networks_prediction(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "ngram", "ko", "ngram_tabs=network")
    label = translate("ko", "ngram.net.metric_net")
    before = _network_top(EXAMPLES["ko"].corpus)
    assert before.startswith("김밥을 ")  # 김밥을 2, 라면을 1, 친구를 1 after 오늘 점심에
    wait_for_text(page, before)
    assert _metric(page, label) == before
    charts_drawn(page, 2)  # the picture and the network's bars beside counting's
    edited = EXAMPLES["ko"].corpus + "\n오늘 점심에 친구를 만났다" * 3  # 친구를 4 of 7 now
    after = _network_top(edited)
    assert after.startswith("친구를 ")
    area = page.get_by_role("textbox", name=translate("ko", "ngram.field.corpus"), exact=True)
    area.click()
    area.press("Control+End")
    area.type("\n오늘 점심에 친구를 만났다" * 3)
    area.press("Control+Enter")
    wait_for_text(page, after)
    settle(page)
    assert _metric(page, label) == after
    assert translate("ko", "ngram.net.metric_count") in page.locator('[data-testid="stMain"]').inner_text()
    assert "친구를 (4/7)" in page.locator('[data-testid="stMain"]').inner_text()  # counting beside it


# --- issue 25: the factors' labels on a phone, no empty mark group ------------------------------------------------

X_LABELS = """([c, title]) => {
    const axis = [...c.querySelectorAll('g.role-axis')].find(g => g.getAttribute('aria-label') === title);
    const svg = c.querySelector('svg').getBoundingClientRect();
    return [...axis.querySelectorAll('g.role-axis-label text')].map(e => {
        const r = e.getBoundingClientRect();
        return {text: e.textContent, opacity: parseFloat(getComputedStyle(e).opacity),
                attr: e.getAttribute('opacity'), px: parseFloat(getComputedStyle(e).fontSize),
                inside: r.left >= svg.left - 1 && r.right <= svg.right + 1 && r.bottom <= svg.bottom + 1,
                transform: e.getAttribute('transform') || ''};
    });
}"""
EMPTY_MARK_GROUPS = """() => document.querySelectorAll(
    '[data-testid="stVegaLiteChart"] g.role-mark[role="graphics-symbol"]:empty').length"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_factor_charts_labels_all_show_on_a_phone(app_server, new_page, lang):
    """At 390 px the sentence tab's factor chart keeps every position's label, in the chart and at 11 px or more
    (Vega dropped every other one where they overlapped: "1. yesterday", "3. lunch", ...); they turn instead."""
    from tests.browser.harness import PHONE

    ex = EXAMPLES[lang]
    page = new_page(PHONE)
    open_page(page, app_server, "ngram", lang, "ngram_tabs=sentence")
    charts_drawn(page, 2)  # the picture and the factor chart
    chart = page.locator('[data-testid="stVegaLiteChart"]').nth(1)
    labels = page.evaluate(X_LABELS, [chart.element_handle(), translate(lang, "ngram.chart.position")])
    words = [*ex.sentence.split(), "<eos>"]
    assert [lab["text"] for lab in labels] == [f"{i}. {w}" for i, w in enumerate(words, start=1)], labels
    hidden = [lab["text"] for lab in labels if lab["opacity"] == 0 or lab["attr"] == "0"]
    assert not hidden, hidden
    assert all(lab["px"] >= 11 for lab in labels), labels
    assert all(lab["inside"] for lab in labels), labels
    assert all("rotate(-45" in lab["transform"] for lab in labels), labels  # 7 bands of ~44 px: slanted


def test_an_unseen_prefix_leaves_no_empty_mark_group(app_server, new_page):
    """axe svg-img-alt: with a prefix the corpus never saw, the candidates' bar layer draws nothing; its mark group
    is hidden from screen readers instead of standing empty with a role and no name."""
    page = new_page()
    open_page(page, app_server, "ngram", "en", "ngram_prefix=at%20breakfast")
    charts_drawn(page, 1)
    assert translate("en", "ngram.picture.empty") in page.locator('[data-testid="stVegaLiteChart"]').first.evaluate(
        "c => [...c.querySelectorAll('svg text')].map(e => e.textContent).join(' ')"
    )
    assert page.evaluate(EMPTY_MARK_GROUPS) == 0
    open_page(page, app_server, "ngram", "en")  # the default picture and its candidates
    charts_drawn(page, 1)
    assert page.evaluate(EMPTY_MARK_GROUPS) == 0


def test_a_long_sentences_factors_stand_in_sentence_order_upright_on_a_phone(app_server, new_page):
    """25 factors at 390 px: every label shows, upright, in the sentence's order (they were sorted as text:
    "1. …", "10. …", "11. …"), and the count ratios, with no room above their bars, are left to the tooltip."""
    from urllib.parse import quote

    from tests.browser.harness import PHONE

    words = ("today at lunch we ate noodles and rice and then I met a friend at dinner today " * 2).split()[:24]
    page = new_page(PHONE)
    open_page(page, app_server, "ngram", "en", "ngram_tabs=sentence&ngram_sentence=" + quote(" ".join(words)))
    charts_drawn(page, 2)
    chart = page.locator('[data-testid="stVegaLiteChart"]').nth(1)
    labels = page.evaluate(X_LABELS, [chart.element_handle(), translate("en", "ngram.chart.position")])
    assert [lab["text"] for lab in labels] == [f"{i}. {w}" for i, w in enumerate([*words, "<eos>"], start=1)]
    assert not [lab["text"] for lab in labels if lab["opacity"] == 0 or lab["attr"] == "0"]
    assert all("rotate(-90" in lab["transform"] and lab["px"] >= 11 for lab in labels), labels[:3]
    drawn = chart.evaluate("c => [...c.querySelectorAll('svg text')].map(e => e.textContent)")
    assert not any("/" in d for d in drawn), drawn  # no count ratio squeezed over a 12 px bar
