"""Tensor shapes page in real Chromium: toggles redraw the shapes, a quiz answer is graded, bad lengths explained."""

from __future__ import annotations

import re

import pytest

from s2s_core.shapes import ShapesConfig, run_shapes
from tests.browser.harness import main_text, wait_for_text, wait_idle

pytestmark = pytest.mark.browser
SLOW = 120_000  # ms: a shared 2-core CI box can take a while to draw this page the first time


def _open(page, base_url: str, lang: str) -> None:
    """Like conftest.open_page, with a longer first-draw allowance (this page builds several charts)."""
    page.goto(f"{base_url}/shapes?lang={lang}")
    wait_idle(page, SLOW)
    page.wait_for_timeout(300)
    wait_idle(page, SLOW)


def _toggle(page, label: str) -> None:
    page.locator('[data-testid="stCheckbox"]').filter(has_text=label).locator("label").first.click()
    page.wait_for_timeout(200)
    wait_idle(page, SLOW)


def _row(text: str, tensor: str) -> str:
    """The shapes table's row for one tensor, as the browser shows it."""
    return next(line for line in text.splitlines() if line.startswith(tensor + "\t"))


def test_batch_first_and_bidirectional_redraw_the_shapes(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    text = main_text(page)
    assert "(2, 3, 6)" in _row(text, "outputs") and "(1, 2, 6)" in _row(text, "h_n")
    _toggle(page, "batch_first")
    wait_for_text(page, "(3, 2, 6)", SLOW)
    text = main_text(page)
    assert "(S, B, K·H)" in _row(text, "outputs") and "(3, 2, 6)" in _row(text, "outputs")
    assert "(L·K, B, H)" in _row(text, "h_n") and "(1, 2, 6)" in _row(text, "h_n")  # batch_first never reaches h_n
    assert "shapes_batch_first=false" in page.url  # the setting is in the shareable link
    _toggle(page, "Bidirectional")
    wait_for_text(page, "(3, 2, 12)", SLOW)
    text = main_text(page)
    assert "(2, 2, 6)" in _row(text, "h_n") and "(2, 2, 6)" in _row(text, "c_n")
    assert "outputs[0, :, 6:]" in text  # the backward half at position 0 is compared with h_n[-1]
    assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 2


def _expected_from_question(text: str) -> tuple[int, ...]:
    """Rebuild the quiz's layer from what the page shows and run it: the answer a learner should give."""
    quiz = text[text.index("Predict the shape"):]
    B, S, E = (int(v) for v in re.search(r"B = (\d+) sentences, S = (\d+) tokens each, embedded with E = (\d+)",
                                           quiz).groups())
    m = re.search(r"nn\.(RNN|LSTM|GRU)\((\d+), (\d+), num_layers=(\d+), bidirectional=(True|False), "
                  r"batch_first=(True|False)(?:, proj_size=(\d+))?\)", quiz)
    cell, _, H, L, bi, bf, proj = m.groups()
    tensor = re.search(r"What is the shape of (x|outputs|h_n|c_n)", quiz).group(1)
    config = ShapesConfig(cell=cell, B=B, S=S, E=E, H=int(H), num_layers=int(L), bidirectional=bi == "True",
                          batch_first=bf == "True", proj_size=int(proj or 0), lengths=(S,) * B)
    return next(s.shape for s in run_shapes(config).shapes if s.name == tensor)


def test_quiz_answer_is_graded_and_scored(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    expected = _expected_from_question(main_text(page))
    answer = page.get_by_role("textbox", name="Your shape")
    answer.fill(", ".join(str(n) for n in expected))
    page.get_by_role("button", name="Check").click()
    wait_for_text(page, "Score this session: 1 of 1", SLOW)
    assert f"Right: {expected}" in main_text(page).replace("`", "")


def test_bad_lengths_are_explained_in_korean(app_server, new_page):
    page = new_page(locale="ko-KR")
    _open(page, app_server, "ko")
    box = page.get_by_role("textbox", name="문장별 길이")
    box.fill("3, 0")
    box.press("Enter")
    page.wait_for_timeout(200)
    wait_idle(page, SLOW)
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="문장별 길이")
    assert alert.count() >= 1 and "2번째 문장의 길이가 0" in alert.first.inner_text()
    assert "형태 맞히기" in main_text(page)  # the quiz below still works
    box.fill("3, 1")
    box.press("Enter")
    wait_for_text(page, "[2, 1, 1]", SLOW)
    assert page.locator('[data-testid="stAlert"]').filter(has_text="문장별 길이").count() == 0
    assert "[2, 1, 1]" in main_text(page)  # batch_sizes of the packed batch
