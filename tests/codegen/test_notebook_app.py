"""AppTest: the Code tab offers the notebook beside the .py, labelled in the learner's language, as plain data built
in the run (cached by script and language). Its content is downloaded in Chromium
(tests/browser/test_notebook_browser.py) and executed for every page (test_notebook_code.py)."""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.app.conftest import open_page, open_tab


@pytest.mark.parametrize(("page", "lang"), [("attention", "ko"), ("masks", "en")])
def test_the_code_tab_has_a_notebook_button_beside_the_script(page, lang):
    at = open_tab(open_page(page, lang), page, "ui.tab_code", lang)
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    script, nb = buttons[translate(lang, "ui.code_download")], buttons[translate(lang, "ui.notebook.download")]
    assert script.url and not script.HasField("deferred_file_id")  # the .py is the text shown above it
    # The notebook is made in the run (cached), as plain data like the .py: Streamlit's deferred download (a
    # callable made on the click) was seen never to deliver the file in Chromium (s2s_ui/widgets.code_expander).
    assert nb.url and not nb.HasField("deferred_file_id")
    assert nb.help == translate(lang, "ui.notebook.download_help") and nb.ignore_rerun
    labels = list(buttons)
    assert labels.index(translate(lang, "ui.notebook.download")) == labels.index(script.label) + 1  # next to it
