"""The Translation lab on a learner's own sentences in real Chromium (issue 29's "a learner trains on 300 pasted
pairs and reads their map"): 300 pairs pasted into the tab's text box, a bad line named, Train on a real worker
process, the held-out exact match and the map of a held-out sentence drawn, then the map of a typed sentence."""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import charts_drawn, keep_failure_screenshot, main_text, open_page, settle, wait_for_text
from tests.own_pairs import toy_text

pytestmark = pytest.mark.browser
MAP_TEXTS = """title => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')]
    .filter(svg => svg.textContent.includes(title)).map(svg => svg.textContent)"""


def test_a_learner_trains_on_300_pasted_pairs_and_reads_their_map(app_server, new_page, tmp_path):
    page = new_page()
    open_page(page, app_server, "translation", "en", "translation_tabs=own&translation_steps=150")
    box = page.get_by_label(translate("en", "translation.own.paste"))
    box.fill(toy_text(300) + "\nthis line has no tab")
    box.press("Control+Enter")  # a text area's value reaches the server on Ctrl+Enter (or on leaving it)
    settle(page)
    wait_for_text(page, translate("en", "translation.own.read", pairs=300, lines=301, bad=1))
    page.get_by_role("button", name=translate("en", "translation.own.train")).click()
    exact = translate("en", "translation.own.exact", heldout="", right="", n="", train="", steps="").split(":")[0]
    wait_for_text(page, exact, timeout=180_000)
    settle(page)
    charts_drawn(page)
    title = translate("en", "translation.own.map_title")[:25]  # the title's first line ("Attention weights on your")
    drawn = page.evaluate(MAP_TEXTS, title)
    if not drawn:
        keep_failure_screenshot(page, "own map")
    (drawn,) = drawn
    picked = page.locator(".st-key-translation_own_pick").inner_text()
    assert any(word in drawn for word in picked.split()[-3:] if len(word) > 1)  # the sentence's words are columns
    # A typed sentence redraws the map with its own words.
    typed = page.locator(".st-key-translation_own_typed input")
    typed.fill("선생님이 학교에 가셨다")
    typed.press("Enter")
    settle(page)
    page.wait_for_function(
        "([t, w]) => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg')]"
        ".some(s => s.textContent.includes(t) && s.textContent.includes(w))",
        arg=[title, "가셨다"],
    )
    query = page.url.split("?", 1)[1]
    assert "Traceback" not in main_text(page)
    assert "translation_own" not in query and "%" not in query  # no own value, no Korean word in the link

    # The model as a file: downloaded through the browser, loaded back through the uploader, its map of a sentence.
    with page.expect_download() as download:
        page.get_by_role("button", name=translate("en", "translation.archive.download_own")).click()
    path = tmp_path / download.value.suggested_filename  # the name the app gave it: my_sentences_model.pt
    download.value.save_as(path)
    assert path.name == "my_sentences_model.pt"
    page.locator(".st-key-translation_archive_file [data-testid='stFileUploaderDropzoneInput']").set_input_files(path)
    settle(page)
    wait_for_text(
        page,
        translate("en", "translation.archive.loaded", cell="", attention="", embed="", hidden="", src="", tgt="")[:7],
    )
    sentence = page.locator(".st-key-translation_archive_typed input")
    sentence.fill("그들은 공부한다")
    sentence.press("Enter")
    settle(page)
    loaded_title = translate("en", "translation.archive.map_title")[:25]
    page.wait_for_function(
        "([t, w]) => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg')]"
        ".some(s => s.textContent.includes(t) && s.textContent.includes(w))",
        arg=[loaded_title, "공부한다"],
    )
