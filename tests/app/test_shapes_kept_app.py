"""Issue 25 §3 on the tensor-shapes page: a bad input keeps the last good picture, faded, with its message once.

The picture traces the shortest sentence through h_n, so it needs the lengths: a bad lengths field (or a bad
setting) shows its message once where the picture is, above the last good picture (faded, under the caption
ui.kept_note) drawn from that input; the question waits; a good edit draws live again, with no caption.
"""

from __future__ import annotations

import pyarrow as pa

from s2s_core.catalog import translate
from s2s_core.chartkit import lines
from s2s_core.shapes.panel import HEADING_WIDTH
from tests.app.conftest import open_page


def _picture_text(at) -> str:
    """The main picture's (the first chart's) spec and rows as one text."""
    charts = at.get("vega_lite_chart")
    assert charts, "no picture on the page"
    parts = [charts[0].proto.spec]
    parts += [pa.ipc.open_stream(d.data.data).read_all().to_pandas().to_csv() for d in charts[0].proto.datasets]
    return "\n".join(parts)


def _heading(lang: str, b: int, n: int) -> str:
    """The panel heading's first line: it names the sentence the picture follows and its length."""
    return lines(translate(lang, "shapes.picture.panel.heading", b=b, n=n, cell="LSTM"), HEADING_WIDTH)[0]


def test_a_bad_lengths_field_keeps_the_last_picture_faded_with_its_message_once(lang):
    at = open_page("shapes", lang)
    note, field = translate(lang, "ui.kept_note"), translate(lang, "shapes.field.lengths")
    # A good edit: drawn live, following sentence #2 (length 1); no caption about a kept picture.
    at.text_input(key="shapes_lengths").input("3, 1").run()
    assert not at.exception and not at.error
    assert _heading(lang, 2, 1) in _picture_text(at)
    assert note not in [c.value for c in at.caption]
    assert "shapes_predict" in [r.key for r in at.radio]
    # A bad edit: the message once (the tabs that need the lengths say it stands above), the old picture kept.
    at.text_input(key="shapes_lengths").input("0, 3").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert sum(field in e for e in errors) == 1, errors
    assert note in [c.value for c in at.caption]
    assert _heading(lang, 2, 1) in _picture_text(at)  # drawn from the last good lengths
    assert "shapes_predict" not in [r.key for r in at.radio]  # the question waits for a good input
    # A bad setting keeps it too (the projection must stay below H).
    at.number_input(key="shapes_proj_size").set_value(6).run()
    assert not at.exception and note in [c.value for c in at.caption]
    assert _heading(lang, 2, 1) in _picture_text(at)
    at.number_input(key="shapes_proj_size").set_value(0).run()
    # Good again: live from the new lengths, the caption gone.
    at.text_input(key="shapes_lengths").input("2, 3").run()
    assert not at.exception and not at.error
    assert note not in [c.value for c in at.caption]
    text = _picture_text(at)
    assert _heading(lang, 1, 2) in text and _heading(lang, 2, 1) not in text
