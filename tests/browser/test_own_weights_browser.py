"""A learner's own weights in real Chromium: a practitioner's nn.LSTM state_dict uploaded through the page's file
input redraws the cell picture on those weights with the check passing under it; a hostile file on the RNN page is
named and the seeded picture stays; Reset drops the file. The server path is the real one (Streamlit's upload
route, under server.maxUploadSize)."""

from __future__ import annotations

import io

import pytest
import torch
from torch import nn

from s2s_core.catalog import translate
from tests.browser.harness import charts_drawn, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser

TEXTS = """() => [...document.querySelectorAll('.st-key-lstm_step_chart svg text')].map(t => t.textContent)"""


def upload(page, label: str, path) -> None:
    page.locator('[data-testid="stExpander"] summary', has_text=label).click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    settle(page)


def test_own_lstm_weights_redraw_the_picture_with_the_check(app_server, new_page, tmp_path):
    torch.manual_seed(4)
    mine = nn.LSTM(5, 6)  # a practitioner's module: float32, seq-first
    path = tmp_path / "practitioner_lstm.pt"
    torch.save(mine.state_dict(), path)
    page = new_page()
    open_page(page, app_server, "lstm", "en")
    charts_drawn(page)
    before = main_text(page)
    assert "h4" in page.evaluate(TEXTS) and "h6" not in page.evaluate(TEXTS)  # the seeded H = 4: rows h1…h4
    assert translate("en", "lstm.untrained", lo="", hi="")[:20] in before
    upload(page, translate("en", "own.heading"), path)
    wait_for_text(page, translate("en", "own.loaded", name="practitioner_lstm.pt", E=5, H=6))  # (sizes: folded)
    charts_drawn(page)
    text = main_text(page)
    assert "practitioner_lstm.pt" in text and translate("en", "own.gates_range", lo="", hi="").split(":")[0] in text
    check = translate("en", "ui.check_pass", what=translate("en", "lstm.check_what"), diff="{}", tol="1e-09")
    assert check.split("{}")[0] in text and check.split("{}")[1] in text  # the badge under the picture passes
    assert "h6" in page.evaluate(TEXTS)  # the strip's rows are the file's H = 6 components
    assert "lstm_own" not in page.url and "own_file" not in page.url  # the file never goes into the link

    # Reset: the seeded module and its sizes again, the uploader empty.
    page.get_by_role("button", name=translate("en", "ui.reset")).click()
    settle(page)
    wait_for_text(page, translate("en", "lstm.untrained", lo="", hi="")[:20])
    assert "practitioner_lstm.pt" not in main_text(page)


def test_a_hostile_file_is_named_and_the_seeded_picture_stays(app_server, new_page, tmp_path):
    path = tmp_path / "weights.pt"
    buf = io.BytesIO()
    torch.save({"weight_ih_l0": torch.full((4, 3), float("inf"))}, buf)  # too few keys, and infinite
    path.write_bytes(buf.getvalue())
    page = new_page()
    open_page(page, app_server, "rnn", "ko")
    charts_drawn(page)
    upload(page, translate("ko", "own.heading"), path)
    wait_for_text(page, translate("ko", "own.seeded_meanwhile"))
    text = main_text(page)
    assert translate("ko", "errors.own_weights.field") in text
    assert "Traceback" not in text and page.locator('[data-testid="stException"]').count() == 0
    charts_drawn(page)  # the seeded chain is still drawn
