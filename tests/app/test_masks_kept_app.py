"""Issue 25 §3 on the padding & masks page: a batch that does not run keeps the last picture that did, faded.

A bad pair alone is left out and the rest still runs live (its message under the fields). When no pair is left,
the message "no batch to run" stands once, where the picture is, above the last good batch's picture (faded,
under the caption ui.kept_note), drawn from that batch; a good edit then draws live again, with no caption.
"""

from __future__ import annotations

import pyarrow as pa

from s2s_core.catalog import translate
from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks, default_config
from tests.app.conftest import open_page

EN = default_config("en")


def _picture_tokens(at) -> set[str]:
    """The tokens in the main picture's cells (the first chart on the page)."""
    charts = at.get("vega_lite_chart")
    assert charts, "no picture on the page"
    rows = []
    for dataset in charts[0].proto.datasets:
        rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return {r["token"] for r in rows if r.get("side") in ("source", "target")}


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_a_batch_that_does_not_run_keeps_the_last_picture_faded_with_its_message_once(lang):
    at = open_page("masks", lang, query={"masks_rows": "1"})
    note = translate(lang, "ui.kept_note")
    no_batch = translate(lang, "masks.error.no_pairs", field=translate(lang, "masks.field.pairs"))
    # A good edit: the picture draws it live, with no caption about a kept picture.
    at.text_input(key="masks_src_1").set_value("i read a long book").run()
    assert not at.exception and not at.error
    assert {"long", "book"} <= _picture_tokens(at)
    assert note not in _captions(at)
    # A bad edit: the only pair is all PAD, so no batch runs.
    at.text_input(key="masks_src_1").set_value("<pad>").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors.count(no_batch) == 1, errors  # once, where the picture is
    assert note in _captions(at)
    assert {"long", "book"} <= _picture_tokens(at)  # the kept picture is the last good batch's
    assert "masks_quiz" not in [r.key for r in at.radio]  # the question waits for a batch that runs
    # Good again: drawn live from the new batch, the caption gone.
    at.text_input(key="masks_src_1").set_value("i read a short story").run()
    assert not at.exception and not at.error
    tokens = _picture_tokens(at)
    assert {"short", "story"} <= tokens and "long" not in tokens
    assert note not in _captions(at)
    live = compute_masks(MasksConfig(sources=(("i", "read", "a", "short", "story"),), targets=EN.targets[:1]))
    assert at.metric[0].value == fmt(live.loss_ignore)  # the loss tab follows the live batch too


def test_a_first_bad_batch_with_no_picture_yet_shows_the_message_alone(lang):
    at = open_page("masks", lang, query={"masks_rows": "1", "masks_src_1": "<pad>"})
    assert not at.exception
    assert translate(lang, "ui.kept_note") not in _captions(at)
    assert not at.get("vega_lite_chart") or all("masks_overlay" not in c.proto.spec for c in at.get("vega_lite_chart"))
