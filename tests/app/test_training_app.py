"""Training lab through AppTest, in both languages, with a tiny training budget (a few steps, tiny sizes)."""

from __future__ import annotations

import json

import pytest

from s2s_core.catalog import translate
from s2s_core.training import fields
from s2s_core.training.config import TrainConfig
from s2s_jobs import jobs
from s2s_jobs.snapshot import DONE
from tests.app.conftest import all_text, open_page, open_tab, toasts

# A tiny budget keeps each training run well under a second of CPU. Trained models are cached for the
# whole process, so each test picks its own seed: it then always starts from "not trained yet".
TINY = {
    "training_steps": "3",
    "training_hidden": "8",
    "training_embed": "8",
    "training_batch": "16",
    "training_max_len": "5",
}


def tiny(seed: int, lang: str = "en") -> dict[str, str]:
    return TINY | {"training_seed": str(seed + (500 if lang == "ko" else 0))}


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def train(at, key: str = "training_train"):
    """Press a train button, wait for the job (it runs beside the page, not in its run), and rerun the page,
    as the page's polling fragment does once the job has ended."""
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert jobs.runner().wait_idle(120)
    return at.run()


def _passes(at) -> list[str]:
    """The green boxes: the on-screen checks that passed (and a right answer to the quiz)."""
    return [s.value for s in at.success]


def test_train_then_map_what_if_and_bad_sources(lang):
    at = open_page("training", lang, query=tiny(1, lang))
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "training.title") in text
    assert translate(lang, "training.press_train", steps=3, seconds="30")[:15] in text
    assert translate(lang, "training.needs_model") in text  # the first tab is about a trained model: not yet
    open_tab(at, "training", "ui.tab_code", lang)
    assert "steps=3" in all_text(at)  # the code expander already carries the learner's settings

    train(at)
    assert not at.exception, [e.value for e in at.exception]
    assert translate(lang, "training.quiz_question") in all_text(at)
    assert "70931825" in all_text(at)  # beside the map: the expected reverse of the default source 52813907
    assert [tab.label for tab in at.tabs][:3] == [
        translate(lang, f"training.tab_{k}") for k in ("accuracy", "map", "bottleneck")
    ]
    open_tab(at, "training", "training.tab_map", lang)
    assert translate(lang, "training.whatif_heading") in all_text(at)
    assert any(translate(lang, "training.attn_check_what")[:20] in x for x in _passes(at))  # attention by hand
    open_tab(at, "training", "ui.tab_check", lang)
    assert any(translate(lang, "training.loss_check_what", n_real=0)[:20] in x for x in _passes(at))  # loss by hand
    open_tab(at, "training", "training.tab_bottleneck", lang)
    assert translate(lang, "training.bottleneck_heading") in all_text(at)

    # Bad sources: a clear message naming the field; the rest of the page keeps working.
    field = translate(lang, "training.field.source")
    for bad, marker in (("12a4", "a"), ("<pad> <pad>", "PAD"), ("", field)):
        at.text_input(key="training_source").set_value(bad).run()
        assert not at.exception, bad
        assert field in _errors(at) and marker in _errors(at), bad
        assert translate(lang, "training.bottleneck_heading") in all_text(at)  # the open tab needs no source
        open_tab(at, "training", "training.tab_map", lang)
        assert translate(lang, "training.fix_source") in all_text(at)  # the map tab says why it is empty
        open_tab(at, "training", "training.tab_bottleneck", lang)
    open_tab(at, "training", "training.tab_map", lang)
    at.text_input(key="training_source").set_value("321 <pad>").run()
    assert not at.exception
    assert translate(lang, "training.pad_note", n=1) in all_text(at)


def test_what_if_and_the_bottleneck_twin(lang):
    query = tiny(2, lang) | {"training_source": "1234", "training_wi": "0,0,0,1", "training_tabs": "map"}
    at = open_page("training", lang, query=query)
    # The what-if's weights are drawn only once a model exists: until then their link value waits, unread and unblamed.
    assert not toasts(at) and at.query_params["training_wi"] == "0,0,0,1"
    assert at.text_input(key="training_source").value == "1234"
    train(at)
    assert not at.exception
    assert at.text_input(key="training_source").value == "1234" and not toasts(at)
    text = all_text(at)  # the link opened the map tab
    assert "t1 · " in text  # the what-if names the overridden step
    notes = [translate(lang, "training.whatif_same")] + [
        translate(lang, f"training.whatif_{k}", step="t1")[:12] for k in ("changed", "changed_here")
    ]
    assert any(note in text for note in notes)
    open_tab(at, "training", "training.tab_bottleneck", lang)
    train(at, "training_twin")
    assert not at.exception
    assert translate(lang, "training.model_without") in all_text(at)
    # The notes read the two curves: a 3-step model with attention is nowhere near the top, so the old line
    # ("the model with attention stays close to the top") would be false here; the line the curves choose is shown.
    from dataclasses import replace

    from s2s_core.fmt import pct
    from s2s_core.training.notes import bottleneck_reading

    config = replace(_config(query), task="reverse")
    runs = [jobs.snapshot(jobs.find(c)).result.run for c in (config, replace(config, attention="none"))]
    b = bottleneck_reading(*runs)
    assert b.with_lowest < 0.9 and b.key in ("training.notice_4_both", "training.notice_4_weak")
    open_tab(at, "training", "ui.tab_notice", lang)
    values = {"lo": b.shortest, "hi": b.longest, "first": pct(b.without_first), "last": pct(b.without_last)}
    line = translate(lang, b.key, **values, lowest=pct(b.with_lowest), at=b.with_lowest_at)
    assert line in all_text(at)
    assert translate(lang, "training.notice_4", **values, lowest="", at="")[:60] not in all_text(at)


def test_bad_what_if_weights_are_named():
    lang = "en"
    query = tiny(3) | {"training_source": "1234", "training_wi": "0,-1,0,1", "training_tabs": "map"}
    at = open_page("training", lang, query=query)
    train(at)
    assert not at.exception
    assert translate(lang, "training.field.override") in _errors(at)


def test_lengths_in_the_wrong_order():
    lang = "ko"
    at = open_page(
        "training", lang, query={"training_min_len": "9", "training_max_len": "4", "training_tabs": "notice"}
    )
    assert not at.exception
    assert translate(lang, "training.field.max_len") in _errors(at)
    assert translate(lang, "training.notice_pending") in all_text(at)  # the rest of the page still renders
    assert at.button(key="try__training__0") is not None  # and the controls column too
    open_tab(at, "training", "ui.tab_code", lang)
    assert translate(lang, "training.field.max_len") in _errors(at)  # the code needs the settings: named there too


def test_no_attention_model_has_no_map():
    lang = "en"
    at = open_page("training", lang, query=tiny(4) | {"training_attention": "none", "training_tabs": "map"})
    train(at)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "training.no_attention_map") in text
    assert translate(lang, "training.steps_heading") in text  # the map tab is open...
    assert translate(lang, "training.whatif_heading") not in text  # ...with no weights to override


def test_names_task_measures_what_survives_the_bottleneck():
    """The names task (study note §5): the source box takes a sentence with a name and a number, and the bottleneck
    tab counts, for both models, how often the name and the number come through, with the sentence the counts
    choose."""
    from dataclasses import replace

    from s2s_core.training.notes import survival_reading
    from s2s_ui.training.specs import survival

    lang = "en"
    query = tiny(12) | {"training_task": "names", "training_tabs": "bottleneck"}
    at = open_page("training", lang, query=query)
    assert at.text_input(key="training_names").value == fields.DEFAULT_SOURCES["names"]
    train(at)
    assert not at.exception
    assert "Mina 305" in all_text(at)  # the right answer beside the map: the name, then the number
    train(at, "training_twin")
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "training.survival_heading") in text
    config = replace(_config(query), task="names")
    snaps = [jobs.snapshot(jobs.find(c)) for c in (config, replace(config, attention="none"))]
    points = [survival(snap.job_id, snap.result) for snap in snaps]
    reading = survival_reading(*points)
    line = translate(lang, reading.key, lost=translate(lang, reading.lost) if reading.lost else "", **reading.numbers())
    assert line in text
    assert translate(lang, "training.chart.survival_title") in _chart_data(at)
    at.text_input(key="training_names").set_value("Mina Jun 42").run()  # two names: named, the page still works
    assert translate(lang, "training.field.source") in _errors(at) and not at.exception


def test_number_task_in_korean():
    at = open_page("training", "ko", query=tiny(5) | {"training_task": "num_ko", "training_num_max": "3"})
    train(at)
    assert not at.exception
    assert "삼천십칠" in all_text(at)  # 3017, the default number
    at.text_input(key="training_number").set_value("0123").run()
    assert translate("ko", "training.error.leading_zero", field=translate("ko", "training.field.source")) in _errors(at)


def test_a_run_cut_by_the_time_limit_says_so_and_can_be_retried():
    """A visitor's run that the time limit stopped says so where its result is shown: the picture's title, the
    figures of the accuracy tab, and the notes (a link would not reproduce it elsewhere)."""
    lang = "en"
    at = open_page("training", lang, query=tiny(6) | {"training_steps": "3000", "training_max_seconds": "1"})
    train(at)
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert translate(lang, "training.stopped_time", seconds="1", steps="", total=3000)[:30] in warnings
    from dataclasses import replace

    run = jobs.snapshot(jobs.find(replace(_config(tiny(6)), steps=3000, max_seconds=1.0))).result.run
    assert run.stopped_by == "time" and run.steps_done < 3000
    cut = {"steps": run.steps_done, "total": 3000}
    assert _map_specs(at, "training.trained_map_title_cut") and not _map_specs(at, "training.trained_map_title")
    assert translate(lang, "training.cut_note", **cut) in warnings  # the accuracy tab (open first) says so too
    open_tab(at, "training", "ui.tab_notice", lang)
    text = all_text(at)
    assert translate(lang, "training.notice_5_cut", **cut) in text and translate(lang, "training.notice_5") not in text
    train(at, "training_again")
    assert not at.exception
    assert translate(lang, "training.quiz_question") in all_text(at)


def test_a_full_queue_tells_the_visitor_the_wait_and_keeps_the_button(monkeypatch):
    """Shedding: with one trainer busy and the queue at its cap, another visitor's Train is refused with how many
    wait, the cap and when a place frees, in their language, above the button they can press again; nothing queued."""
    monkeypatch.setattr(jobs.runner(), "max_running", 1)
    monkeypatch.setattr(jobs.runner(), "queue_cap", 1)
    long = {"training_steps": "3000", "training_max_seconds": "60"}
    first = open_page("training", "en", query=tiny(21) | long)
    first.button(key="training_train").click().run()
    second = open_page("training", "en", query=tiny(22) | long)
    second.button(key="training_train").click().run()
    assert second.get("progress") and jobs.runner()._queue  # running one, waiting one: full
    third = open_page("training", "ko", query=tiny(23))
    third.button(key="training_train").click().run()
    assert not third.exception
    warning = " ".join(w.value for w in third.warning)
    head = translate("ko", "training.queue_full", waiting=1, cap=1, wait="").split("약")[0]
    assert head in warning and "초 뒤에" in warning
    assert not third.get("progress") and "training_train" in [b.key for b in third.button]
    assert len(jobs.runner()._queue) == 1 and jobs.find(_config(tiny(23))) is None
    for at in (second, first):
        at.button(key="training_train_cancel").click().run()
    assert jobs.runner().wait_idle(120)
    third.button(key="training_train").click().run()  # a place is free again: this visitor trains now
    assert not third.exception and head not in " ".join(w.value for w in third.warning)
    assert jobs.find(_config(tiny(23))) is not None
    assert jobs.runner().wait_idle(120)


def test_live_progress_a_shared_job_the_queue_and_stop(monkeypatch):
    """The page watches a job instead of training in its own run: live progress and a Stop button for the
    visitor who started it, the same job (and a note) for a visitor with the same settings, a place in the
    queue for settings that must wait for a free trainer."""
    monkeypatch.setattr(jobs.runner(), "max_running", 1)
    lang = "en"
    long = tiny(7) | {"training_steps": "3000", "training_max_seconds": "60"}
    at = open_page("training", lang, query=long)
    at.button(key="training_train").click().run()
    assert not at.exception
    assert at.get("progress") and translate(lang, "training.busy") not in all_text(at)
    assert "training_train_cancel" in [b.key for b in at.button]

    same = open_page("training", lang, query=long)  # another visitor, same settings: the same job, no Stop
    assert translate(lang, "training.busy") in all_text(same)
    assert same.get("progress") and "training_train_cancel" not in [b.key for b in same.button]

    queued = open_page("training", "ko", query=tiny(8))  # other settings wait for the one trainer
    queued.button(key="training_train").click().run()
    waiting = queued.get("progress")[0].proto.text  # its place and an estimate, and a way out
    assert translate("ko", "training.queued", place=1, wait="").split("{")[0][:20] in waiting
    assert "대기열 1번째" in waiting
    assert translate("ko", "training.queue_note", slots=1) in all_text(queued)
    assert [b.label for b in queued.button if b.key == "training_train_cancel"] == [
        translate("ko", "training.leave_queue")
    ]

    at.button(key="training_train_cancel").click().run()  # Stop waits for the loop to end, then says so
    assert not at.exception
    text = all_text(at)  # stopped after some steps, or (on a slow machine) before the first one
    assert (
        translate(lang, "training.cancelled", step=0, total=3000)[:25] in text
        or translate(lang, "training.cancelled_before") in text
    )
    assert "training_train" in [b.key for b in at.button]  # and it can be started again
    assert jobs.runner().wait_idle(120)
    queued.run()
    assert translate("ko", "training.quiz_question") in all_text(queued)


def test_a_visitor_cannot_stop_a_default_model(monkeypatch, tmp_path):
    """Train on the default settings joins the server's default model (trained once, to its step count, for
    everyone: s2s_jobs/jobs.py WARM): the page says it is the server's and offers no Stop."""
    monkeypatch.setenv("S2S_DATA_DIR", str(tmp_path))  # an empty store, and a fresh runner: the default is not there
    monkeypatch.setattr(jobs, "_RUNNER", None)
    at = open_page("training", "en")
    at.button(key="training_train").click().run()
    assert not at.exception
    snap = jobs.snapshot(jobs.find(TrainConfig()))
    assert snap.warm and snap.state != DONE  # the default (pinned) job, still training
    assert translate("en", "training.warming") in all_text(at)
    assert "training_train_cancel" not in [b.key for b in at.button]
    assert jobs.default_result(TrainConfig(), timeout=300) is not None  # and it trains to the end
    assert jobs.runner().wait_idle(60)


def _chart_data(at) -> str:
    """The page's charts as text: their specs (with inline data) and their Arrow datasets' rows."""
    import pyarrow as pa

    parts = []
    for chart in at.get("vega_lite_chart"):
        parts.append(chart.proto.spec)
        for dataset in chart.proto.datasets:
            parts.append(str(pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()))
    return " ".join(parts)


def test_the_accuracies_are_hidden_until_the_quiz_is_answered():
    """Teacher-forced vs free-running accuracy is the question's answer: no metric, sentence or curve shows it
    until the learner answers; then the metrics, the curves and the gap sentence appear."""
    from s2s_core.fmt import pct
    from s2s_core.training.frames import METRICS

    lang = "en"
    at = open_page("training", lang, query=tiny(9))
    train(at)
    from s2s_core.training.compute import quiz_answer

    final = jobs.snapshot(jobs.find(_config(tiny(9)))).result.final
    tf, free = pct(final.tf_token_acc), pct(final.free_token_acc)
    key = f"training.gap_text_{quiz_answer(final)}"  # the sentence for what this run measured
    gap = translate(lang, key, tf=tf, free=free, exact=pct(final.free_exact))
    assert gap not in all_text(at) and len(at.metric) == 1  # the loss only
    assert translate(lang, "training.accuracy_hidden") in all_text(at)
    curves = [translate(lang, f"training.chart.m_{m}") for m in METRICS]  # the accuracy curves' names
    assert "loss" in _chart_data(at) and not any(name in _chart_data(at) for name in curves)
    at.radio(key="training_quiz").set_value(translate(lang, "training.quiz_tf")).run()
    assert not at.exception
    assert gap in all_text(at) and [m.value for m in at.metric][1:3] == [tf, free]
    assert all(name in _chart_data(at) for name in curves)  # the accuracy curves joined the loss curve


def _config(params: dict[str, str]):
    from s2s_core.training import TrainConfig

    return TrainConfig(
        steps=int(params["training_steps"]),
        hidden=int(params["training_hidden"]),
        embed=int(params["training_embed"]),
        batch=int(params["training_batch"]),
        max_len=int(params["training_max_len"]),
        seed=int(params["training_seed"]),
    )


def test_a_try_this_case_loads_its_settings_and_reset_forgets_it():
    at = open_page("training", "en")
    at.button(key="try__training__0").click().run()  # no attention
    assert not at.exception
    assert at.selectbox(key="training_attention").value == "none"
    assert dict(at.query_params) == {"lang": "en", "training_attention": "none"}
    at.button(key="reset__training").click().run()
    assert at.selectbox(key="training_attention").value == fields.DEFAULT.attention
    assert set(at.query_params) <= {"lang"}


def test_reset_forgets_every_field_of_the_page_folded_or_not_drawn():
    """A link that sets every field: the choices, the numbers in the folded expander, the number task's lengths (not
    drawn for a digit task), the source, the what-if (drawn only for a trained model) and the open tab. Reset gives
    the defaults back and leaves no parameter of the page in the link."""
    lang = "en"
    query = {
        "training_task": "sort",
        "training_attention": "bahdanau",
        "training_tf": "0.5",
        "training_schedule": "linear",
        "training_steps": "7",
        "training_seed": "42",
        "training_hidden": "10",
        "training_embed": "6",
        "training_batch": "8",
        "training_lr": "0.02",
        "training_min_len": "2",
        "training_max_len": "5",
        "training_num_min": "2",
        "training_num_max": "3",
        "training_max_seconds": "12",
        "training_source": "4321",
        "training_number": "42",
        "training_names": "Jun saw 7 pears",
        "training_wi_step": "2",
        "training_wi": "0,1,0,0",
        "training_tabs": "notice",
    }
    assert {f.key for f in fields.FIELDS} == set(query)  # every field of the page is in this link
    at = open_page("training", lang, query=query)
    assert not at.exception and not toasts(at)
    assert at.number_input(key="training_embed").value == 6 and at.number_input(key="training_lr").value == 0.02
    assert at.slider(key="training_tf").value == 0.5
    assert translate(lang, "training.notice_pending") in all_text(at)  # the link opened the notes (no model yet)
    at.button(key="reset__training").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    assert at.selectbox(key="training_task").value == fields.DEFAULT.task
    assert at.number_input(key="training_embed").value == fields.DEFAULT.embed
    assert at.number_input(key="training_max_seconds").value == fields.DEFAULT.max_seconds
    assert at.text_input(key="training_source").value == fields.DEFAULT_SOURCES["digits"]
    assert translate(lang, "training.needs_model") in all_text(at)  # back on the first tab


def test_the_code_tab_decodes_the_typed_source_before_training_too():
    """The code tab's script decodes the source the learner typed. It used to read that source from a holder that
    only the trained picture filled, so before training the served script decoded nothing."""
    at = open_page("training", "en", query=tiny(11) | {"training_source": "4321", "training_tabs": "code"})
    assert not at.exception
    code = " ".join(c.value for c in at.code)
    assert "words, n_pad = ['4', '3', '2', '1'], 0" in code


def _map_specs(at, title_key: str, lang: str = "en") -> list:
    """The drawn maps whose title is the catalog's title_key (their vega_lite_chart elements)."""
    title = translate(lang, title_key).split("{")[0]
    return [c for c in at.get("vega_lite_chart") if title in c.proto.spec]


def _rows(chart) -> list[dict]:
    import pyarrow as pa

    return [row for d in chart.proto.datasets for row in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]


def test_untrained_map_first_then_the_trained_map_then_a_replay_without_a_new_job():
    from s2s_core.training.compute import untrained_map

    lang = "en"
    params = tiny(10)
    at = open_page("training", lang, query=params)
    # 1) Before training: the seeded untrained model's map of the default source, its (wrong) output beside it.
    from s2s_core.fmt import num
    from s2s_core.training.notes import untrained_keys, untrained_reading

    point = untrained_map(_config(params))
    reading = untrained_reading(point)
    keys = untrained_keys(reading)
    assert reading.even and keys["output"] == "training.untrained_output_wrong"  # this seed's untrained model
    (chart,) = _map_specs(at, keys["title"])
    weights = [row["weight"] for row in _rows(chart)]
    assert weights == pytest.approx([w for row in point.weights for w in row])
    assert max(weights) < 0.5  # near-uniform over eight digits, nothing like a trained model's peak
    weights_line = translate(lang, keys["weights"], largest=num(reading.largest), uniform=num(reading.uniform))
    note = translate(lang, "training.untrained_note", output=translate(lang, keys["output"]), weights=weights_line)
    assert note in all_text(at)
    assert "70931825" in all_text(at)  # the right answer beside the map

    # 2) After training: the trained map of the learner's source is the picture; the untrained one is gone.
    train(at)
    assert _map_specs(at, "training.trained_map_title") and not _map_specs(at, "training.untrained_map_title")
    job = jobs.find(_config(params))

    # 3) Watch it train: the recorded run replays in the polling fragment; no job is submitted.
    at.button(key="training_replay").click().run()
    assert not at.exception
    assert translate(lang, "training.replay_note") in all_text(at) and at.get("progress")
    assert jobs.find(_config(params)) is job and jobs.runner().wait_idle(1)
    at.session_state["_training_replay"] = (_config(params), -1e9)  # the replay's time has run out
    at.run()
    assert not at.exception
    assert translate(lang, "training.replay_note") not in all_text(at)
    assert _map_specs(at, "training.trained_map_title")


def test_while_it_trains_the_map_is_its_latest_checkpoint_not_the_untrained_one():
    """Training lab item: while a run trains, the picture is its latest checkpoint's map, titled with its step, beside
    the loss so far; the untrained map is gone once the first checkpoint has arrived."""
    import re

    from tests.waiting import wait_until

    lang = "en"
    from dataclasses import replace

    long = tiny(11) | {"training_steps": "3000", "training_max_seconds": "60"}
    at = open_page("training", lang, query=long)
    at.button(key="training_train").click().run()
    assert not at.exception
    job = jobs.find(replace(_config(long), max_seconds=60.0))
    wait_until(lambda: (jobs.snapshot(job).checkpoint or _Step0).step > 0, timeout=90, what="a checkpoint")
    at.run()
    assert not at.exception
    titles = [json.loads(c.proto.spec).get("title") for c in at.get("vega_lite_chart")]
    drawn = [re.search(r"After step (\d+) of 3000", json.dumps(title)) for title in titles]
    steps = [int(m.group(1)) for m in drawn if m]
    assert steps and steps[0] > 0 and steps[0] % 300 == 0, titles  # a checkpoint (every 3000 // 10 steps)
    assert not any(_map_specs(at, f"training.untrained_map_title{kind}") for kind in ("", "_uneven"))
    assert _map_specs(at, "training.replay_loss_title")  # the curve so far, beside the map
    at.button(key="training_train_cancel").click().run()
    assert jobs.runner().wait_idle(60)


class _Step0:
    step = 0


def _kept(at) -> bool:
    return translate("en", "ui.kept_note") in [c.value for c in at.caption]


def test_a_bad_source_keeps_the_last_good_map_faded_under_its_message():
    """A source the task cannot read is named once, above the last good source's trained map (faded, with the
    caption saying so); a good source again draws the live map without the caption."""
    lang = "en"
    at = open_page("training", lang, query=tiny(12))
    train(at)
    at.text_input(key="training_source").set_value("4321").run()
    title = "training.trained_map_title"
    columns = {r["position"] for r in _rows(_map_specs(at, title)[0])}
    assert columns == {"s1 · 4", "s2 · 3", "s3 · 2", "s4 · 1"} and not _kept(at)
    at.text_input(key="training_source").set_value("12a4").run()
    assert not at.exception
    assert len(at.error) == 1 and "a" in at.error[0].value  # the message once
    assert _kept(at) and {r["position"] for r in _rows(_map_specs(at, title)[0])} == columns  # 4321's map, kept
    at.text_input(key="training_source").set_value("987").run()
    assert not at.exception and not at.error and not _kept(at)
    assert {r["position"] for r in _rows(_map_specs(at, title)[0])} == {"s1 · 9", "s2 · 8", "s3 · 7"}
