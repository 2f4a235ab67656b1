"""Issue 25 §3 on the next-token page: a bad corpus, window or prefix keeps the last picture, faded.

The message stands once, where the picture is, above the last good picture (under the caption ui.kept_note),
drawn from the input that was good; a good edit then draws live again, with no caption. A bad sentence alone
leaves the picture live (the prefix and its candidates), without the sentence's factors.
"""

from __future__ import annotations

import pyarrow as pa

from s2s_core.catalog import translate
from s2s_core.ngram.examples import EXAMPLES
from tests.app.conftest import open_page


def _rows(at) -> list[dict]:
    charts = at.get("vega_lite_chart")
    assert charts, "no picture on the page"
    return [r for d in charts[0].proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]


def _prefix_drawn(at) -> list[str]:
    """The prefix's words as the picture draws them (its word boxes: the rows with a `read` flag)."""
    return [r["word"] for r in _rows(at) if "read" in r]


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_a_bad_prefix_keeps_the_last_picture_faded_with_its_message_once(lang):
    at = open_page("ngram", lang)
    note = translate(lang, "ui.kept_note")
    field = translate(lang, "ngram.field.prefix")
    good = EXAMPLES[lang].prefix.split()[-1]  # one word: a lower-order but good prefix
    at.text_input(key="ngram_prefix").set_value(good).run()
    assert not at.exception and not at.error
    assert _prefix_drawn(at) == [good]
    assert note not in _captions(at)
    at.text_input(key="ngram_prefix").set_value("a b c d e").run()  # longer than the window (n = 3)
    assert not at.exception
    assert " ".join(e.value for e in at.error).count(field) == 1  # once, above the kept picture
    assert note in _captions(at)
    assert _prefix_drawn(at) == [good]  # drawn from the last good prefix
    at.text_input(key="ngram_prefix").set_value("").run()  # good again: the unigram table, live
    assert not at.exception and not at.error
    assert _prefix_drawn(at) == []
    assert note not in _captions(at)


def test_a_bad_sentence_alone_leaves_the_picture_live_without_its_factors(lang):
    at = open_page("ngram", lang)
    assert any("y_top" in r for r in _rows(at))  # the sentence's factor columns
    at.text_input(key="ngram_sentence").set_value("").run()
    assert not at.exception
    assert translate(lang, "ngram.field.sentence") in " ".join(e.value for e in at.error)
    assert translate(lang, "ui.kept_note") not in _captions(at)
    rows = _rows(at)
    assert any("count" in r and "p" in r for r in rows) and not any("y_top" in r for r in rows)
