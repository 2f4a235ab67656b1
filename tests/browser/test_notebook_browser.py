"""The Code tab's notebook in real Chromium: after an edit, "Download as notebook" saves a valid .ipynb holding the
page's current numbers, in the learner's language, with the learner's sentence as a Python literal; the .py beside
it holds the same code.

What the notebooks print is tested by executing every page's notebook in tests/codegen/test_notebook_code.py.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from s2s_core.catalog import translate
from s2s_core.notebook import notebook
from s2s_core.rnn import parse_config
from s2s_core.rnn.code import script
from tests.browser.harness import charts_drawn, keep_failure_screenshot, open_page, open_tab, settle

pytestmark = pytest.mark.browser
SENTENCE = '그는 "책\'을" 읽는다'  # both quote characters: the notebook must hold them as an escaped literal


def _download(page, label: str, tmp_path: Path) -> tuple[str, str]:
    """Click the download button and save what arrives. A clean-clone CI run once waited 180 s for a click's
    download that never came, on a loaded 2-worker machine (the server answered the rest of the test); a learner
    would click again, and so does this, once, after 30 s: a button that never delivers still fails."""
    button = page.get_by_role("button", name=label)
    try:
        with page.expect_download(timeout=30_000) as info:
            button.click()
        download = info.value
    except PlaywrightTimeout:
        keep_failure_screenshot(page, f"the first download of {label!r}")
        settle(page)
        with page.expect_download(timeout=120_000) as info:
            button.click()
        download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    return download.suggested_filename, path.read_text(encoding="utf-8")


def test_the_notebook_download_holds_the_pages_current_numbers(app_server, new_page, tmp_path):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "rnn", "ko")
    charts_drawn(page)
    # 1) The learner edits the sentence; the page reruns on it.
    box = page.get_by_label(translate("ko", "rnn.field.sentence"), exact=True)
    box.fill(SENTENCE)
    box.press("Enter")
    page.wait_for_function("() => location.search.includes('rnn_sentence=')")  # the rerun took the new sentence
    settle(page)
    # 2) The Code tab, opened as a learner does, has both buttons side by side.
    open_tab(page, translate("ko", "ui.tab_code"))
    expander = page.get_by_text(translate("ko", "ui.code_title"))
    expander.click()
    notebook_button = page.get_by_role("button", name=translate("ko", "ui.notebook.download"))
    notebook_button.wait_for(state="visible")
    py_box = page.get_by_role("button", name=translate("ko", "ui.code_download")).bounding_box()
    nb_box = notebook_button.bounding_box()
    assert abs(py_box["y"] - nb_box["y"]) < 4 and nb_box["x"] > py_box["x"], "the two buttons sit side by side"
    # 3) Both downloads: the notebook is built on the click, from the same script as the .py.
    config = parse_config(SENTENCE, 3, 4, 0)  # the page's defaults with the edited sentence
    expected = script(config)
    py_name, py_text = _download(page, translate("ko", "ui.code_download"), tmp_path)
    assert (py_name, py_text) == ("rnn_unroll.py", expected)
    nb_name, nb_text = _download(page, translate("ko", "ui.notebook.download"), tmp_path)
    assert nb_name == "rnn_unroll.ipynb"
    nb = nbformat.reads(nb_text, as_version=4)
    nbformat.validate(nb)
    assert nb_text == notebook(expected, partial(translate, "ko"))  # the page's current numbers, in Korean
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# " + translate("ko", "rnn.title"))
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "tokens = ['그는', '\"책\\'을\"', '읽는다']" in code  # the sentence as a Python literal, escaped
