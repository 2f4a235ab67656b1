"""The Translation lab's "Your sentences" tab through AppTest: 300 pasted pairs with bad lines among them, each bad
line named; training with the lab's settings on the OWN trainer; exact match on the held-out pairs as the core
computes it; the map of a held-out and of a typed sentence; nothing of the text in the link or the model store."""

from __future__ import annotations

import json

from s2s_core.catalog import translate
from s2s_core.fmt import pct
from s2s_core.translation.archive import export_archive
from s2s_core.translation.lab import lab_config
from s2s_core.translation.own_data import read_pairs
from s2s_core.translation.own_train import OwnConfig, own_data
from s2s_jobs import jobs
from tests.app.conftest import all_text, open_page, open_tab
from tests.own_pairs import toy_text

BAD = "no tab on this line\n나는\t\n\u200b그는 간다\the goes\n"  # no tab, empty target, a zero-width space


def test_three_hundred_pasted_pairs_train_and_show_their_map(lang):
    text = toy_text(300) + "\n" + BAD
    at = open_page("translation", lang, {"translation_steps": "120"})
    open_tab(at, "translation", "translation.tab_own", lang)
    assert translate(lang, "translation.own.empty") in all_text(at)
    at.text_area(key="translation_own_text").input(text).run(timeout=60)
    assert not at.exception
    shown = all_text(at)
    assert translate(lang, "translation.own.read", pairs=300, lines=303, bad=3) in shown
    for line, key, params in ((301, "columns", {"count": 1}), (302, "empty_side", {}), (303, "invisible", {})):
        message = translate(lang, f"translation.own.{key}", line=line, char="U+200B", **params)
        assert message.split(":")[0] in str(at.dataframe[0].value.to_dict()), key  # "Line 301", each named
    data = own_data(read_pairs(text), seed=0)
    assert translate(lang, "translation.own.split", train=len(data.train), heldout=len(data.heldout)) in shown
    at.button(key="translation_own_train").click().run(timeout=60)
    assert not at.exception
    assert jobs.runner().wait_idle(120)
    at.run(timeout=60)
    config = OwnConfig(lab_config(steps=120), data)
    job = jobs.find(config)
    assert job is not None and job._trainer.name == "own-pairs"  # shared by identical data (and settings)
    result = jobs.snapshot(job).result
    text_now = all_text(at)
    exact = result.final.free_exact  # the held-out exact match the run measured
    assert pct(exact) in text_now, text_now[-500:]
    assert len(at.dataframe[-1].value) == len(data.heldout)
    # The map of the picked held-out sentence: its rows are the model's output, its columns the sentence's words.
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    assert any(translate(lang, "translation.own.map_title") in json.dumps(s, ensure_ascii=False) for s in specs)
    # A typed sentence: its own map and output; an over-long one is named, the page keeps working.
    at.text_input(key="translation_own_typed").input("나는 책을 읽는다").run(timeout=60)
    assert not at.exception and "읽는다" in json.dumps(
        [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")], ensure_ascii=False
    )
    at.text_input(key="translation_own_typed").input(" ".join(["책을"] * 13)).run(timeout=60)
    field = translate(lang, "translation.own.sentence_field")
    assert any(field in e.value for e in at.error) and not at.exception
    # Models as files: the download is offered; the file it holds loads back and maps a typed sentence.
    assert translate(lang, "translation.archive.download_own") in [b.label for b in at.get("download_button")]
    raw = export_archive(config.settings, data.src_vocab, data.tgt_vocab, result.run.model)
    at.file_uploader(key="translation_archive_file").upload("mine.pt", raw).run(timeout=60)
    assert not at.exception and any(
        translate(lang, "translation.archive.loaded", cell="", attention="", embed="", hidden="", src="", tgt="")[:6]
        in s.value
        for s in at.success
    )
    at.text_input(key="translation_archive_typed").input("나는 책을 읽는다").run(timeout=60)
    charts = json.dumps([json.loads(c.proto.spec) for c in at.get("vega_lite_chart")], ensure_ascii=False)
    assert translate(lang, "translation.archive.map_title") in charts and not at.exception
    at.text_input(key="translation_archive_typed").input(" ".join(["책을"] * 13)).run(timeout=60)  # too long
    assert any(e.value.startswith(translate(lang, "translation.own.sentence_field")) for e in at.error)
    assert not at.exception
    at.file_uploader(key="translation_archive_file").set_value(("bad.pt", b"not a model", "application/octet-stream"))
    at.run(timeout=60)
    assert any(e.value.startswith(translate(lang, "translation.archive.field")) for e in at.error) and not at.exception
    # Nothing of the text in the link; the model store holds no own-pairs row.
    assert not any("own" in k for k in at.query_params) and "읽는다" not in json.dumps(dict(at.query_params))
    store = jobs.runner().store
    if store is not None:
        assert job._key is None


def test_unreadable_text_is_refused_by_name_and_the_lab_keeps_working(lang):
    at = open_page("translation", lang)
    open_tab(at, "translation", "translation.tab_own", lang)
    at.text_area(key="translation_own_text").input("just one\tline\n").run(timeout=60)
    assert not at.exception
    field = translate(lang, "translation.own.field")
    assert any(e.value.startswith(field) for e in at.error)
    assert at.text_area(key="translation_own_text").value.startswith("just one")  # kept, to be fixed
    assert "translation_own_train" not in [b.key for b in at.button]  # nothing to train on yet
    assert at.get("vega_lite_chart")  # the lab's own picture above is still drawn
