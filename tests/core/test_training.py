"""Training lab core: tasks, the model's three attentions vs the formula, loss over real tokens, PAD masking,
determinism (also with two trainings at once), free-running feedback, the what-if override, time caps, bad input,
and the shared jobs (submit / snapshot / cancel)."""

from __future__ import annotations

import itertools
import threading
from dataclasses import replace

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.utils.rnn import pack_padded_sequence

from s2s_core import vocab
from s2s_core.errors import InputError
from s2s_core.training import (
    SourceInput,
    TrainConfig,
    decode,
    parse_config,
    parse_override,
    parse_source,
    train,
    twin_config,
    what_if,
)
from s2s_core.training.charts import LABELS, accuracy_chart, attention_heatmap, bottleneck_chart, loss_chart
from s2s_core.training.compute import decode_model, hand_attention, untrained_map
from s2s_core.training.frames import (
    METRICS,
    attention_frame,
    bottleneck_frame,
    eval_frame,
    join_tokens,
    loss_frame,
    steps_frame,
)
from s2s_core.training.loop import Progress, TrainingCancelled, encode_batch, new_model, teacher_ratio, train_loop
from s2s_core.training.model import Seq2Seq
from s2s_core.training.notes import checkpoint_keys
from s2s_core.training.tasks import (
    EOS_ID,
    PAD_ID,
    SOS_ID,
    english_number,
    korean_number,
    make_heldout,
    sample_sources,
    source_vocab,
    target_tokens,
    target_vocab,
)
from s2s_core.training.trace import (
    MIN_REPLAY_SECONDS,
    MapPoint,
    default_source_text,
    duration,
    replay_clock,
    replay_frame,
)
from s2s_jobs import settings as job_settings
from s2s_jobs.runner import Runner
from s2s_jobs.snapshot import CANCELLED, DONE, FAILED, FAILED_KEY, QUEUED, RUNNING
from s2s_jobs.trainer import pack, unpack
from tests.waiting import pace, wait_until

KINDS = ("bahdanau", "luong_general", "luong_dot", "none")
TINY = TrainConfig(embed=8, hidden=16, steps=12, batch=16, max_len=6, lr=0.01)


@pytest.fixture(scope="module")
def tiny() -> dict:
    """One tiny trained model per attention kind (a few steps: enough to have real, non-uniform weights)."""
    return {kind: train(replace(TINY, attention=kind)) for kind in KINDS}


def _fixed_model(kind: str, seed: int = 3) -> Seq2Seq:
    torch.manual_seed(seed)
    return Seq2Seq(len(source_vocab("reverse")), len(target_vocab("reverse")), 8, 16, kind).eval()


def _padded_batch() -> tuple[torch.Tensor, ...]:
    return encode_batch("reverse", [list("12345"), list("907"), list("4411")])


# --- tasks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, ko, en",
    [
        (0, "영", "zero"),
        (7, "칠", "seven"),
        (10, "십", "ten"),
        (11, "십일", "eleven"),
        (20, "이십", "twenty"),
        (101, "백일", "one hundred one"),
        (342, "삼백사십이", "three hundred forty two"),
        (1000, "천", "one thousand"),
        (3017, "삼천십칠", "three thousand seventeen"),
        (10000, "만", "ten thousand"),
        (12345, "만이천삼백사십오", "twelve thousand three hundred forty five"),
        (200500, "이십만오백", "two hundred thousand five hundred"),
    ],
)
def test_number_readings(n, ko, en):
    assert "".join(korean_number(n)) == ko
    assert " ".join(english_number(n)) == en


def test_targets_and_vocabularies():
    src = list("3141")
    assert target_tokens("reverse", src) == list("1413")
    assert target_tokens("copy", src) == src
    assert target_tokens("sort", src) == list("1134")
    assert target_tokens("num_ko", src) == ["삼", "천", "백", "사", "십", "일"]
    for task in ("reverse", "num_ko", "num_en"):
        # The same special ids as the shared vocabulary module, so PAD means the same everywhere.
        assert target_vocab(task)[:4] == vocab.SPECIALS
    assert (PAD_ID, SOS_ID, EOS_ID) == (vocab.PAD_ID, vocab.SOS_ID, vocab.EOS_ID)


def test_heldout_is_never_trained_on():
    import random

    heldout = make_heldout("reverse", 1, 4, 40, seed=0)
    exclude = {tuple(s) for s in heldout}
    assert len(exclude) == len(heldout)
    assert sum(len(s) == 1 for s in heldout) == 2  # a fifth of the 10 one-digit sources at most
    drawn = sample_sources(random.Random(0), "reverse", 1, 4, 2000, exclude)
    assert not any(tuple(s) in exclude for s in drawn)


def test_encode_batch_pads_and_shifts():
    src, lengths, y_in, y_out = _padded_batch()
    assert src.shape == (3, 5) and lengths.tolist() == [5, 3, 4]
    assert src[1, 3:].tolist() == [PAD_ID, PAD_ID]
    assert y_in[:, 0].tolist() == [SOS_ID] * 3
    assert y_in[0, 1:].tolist() == y_out[0, :-1].tolist()  # decoder input = target shifted right
    assert y_out[1, 3] == EOS_ID and y_out[1, 4] == PAD_ID


# --- model: the computations the page explains ------------------------------------------------


def test_loss_ignore_index_is_the_mean_over_real_tokens():
    torch.manual_seed(0)
    _, _, _, y_out = _padded_batch()
    logits = torch.randn(*y_out.shape, len(target_vocab("reverse")))  # (B, T, V)
    nll = -logits.log_softmax(-1).gather(-1, y_out.unsqueeze(-1)).squeeze(-1)  # (B, T)
    real = y_out != PAD_ID
    by_hand = sum(nll[b, t] for b, t in itertools.product(range(3), range(y_out.shape[1])) if real[b, t]) / real.sum()
    torch_loss = F.cross_entropy(logits.transpose(1, 2), y_out, ignore_index=PAD_ID)
    assert torch.allclose(by_hand, torch_loss)
    assert not torch.allclose(F.cross_entropy(logits.transpose(1, 2), y_out), torch_loss)


def test_loss_check_of_a_trained_model(tiny):
    check = tiny["bahdanau"].loss_check
    assert check.max_abs_diff < 1e-5
    assert check.n_real < check.n_total
    assert check.with_pad != pytest.approx(check.torch_ignore)


@pytest.mark.parametrize("kind", KINDS[:3])
def test_masked_attention_puts_exactly_zero_on_pad(kind):
    model = _fixed_model(kind)
    src, lengths, _, _ = _padded_batch()
    with torch.no_grad():
        weights = model.greedy(src, lengths, max_steps=6)["weights"]  # (B, T, S)
    pad = (src == PAD_ID).unsqueeze(1).expand_as(weights)  # (B, T, S)
    assert torch.all(weights[pad] == 0.0)
    assert torch.allclose(weights.sum(-1), torch.ones(weights.shape[:2]))


@pytest.mark.parametrize("cell", ["gru", "rnn", "lstm"])
def test_true_last_state_equals_packed_h_n(cell):
    torch.manual_seed(0)
    model = Seq2Seq(len(source_vocab("reverse")), len(target_vocab("reverse")), 8, 16, "none", cell).eval()
    src, lengths, _, _ = _padded_batch()
    with torch.no_grad():
        _, state = model.encoder(src, lengths)  # (1, B, H), or (h, c) for an LSTM
        packed = pack_padded_sequence(model.encoder.embedding(src), lengths, batch_first=True, enforce_sorted=False)
        _, final = model.encoder.rnn(packed)  # (1, B, H), or (h_n, c_n)
        _, after_pad = model.encoder.rnn(model.encoder.embedding(src))
    last, h_n, h_after_pad = (x[0] if cell == "lstm" else x for x in (state, final, after_pad))
    assert torch.allclose(last, h_n, atol=1e-6)
    if cell == "lstm":
        assert torch.allclose(state[1], final[1], atol=1e-6)  # the cell state c too, at the true last token
    assert not torch.allclose(last[0, 1], h_after_pad[0, 1])  # row 2 has PAD steps after its end


@pytest.mark.parametrize("kind", KINDS[:3])
def test_hand_attention_equals_the_module(kind, tiny):
    result = decode(tiny[kind], parse_source("reverse", "52813 <pad>"))
    assert result.hand_weights is not None and result.weights is not None
    assert torch.allclose(result.hand_weights, result.weights, atol=1e-6)
    assert result.max_abs_diff < 1e-5
    # and straight against the module for a fixed model
    model = _fixed_model(kind)
    src, lengths, _, _ = _padded_batch()
    with torch.no_grad():
        trace = model.greedy(src, lengths, max_steps=4)
        memory = trace["memory"]
        one = type(memory)(memory.values[1:2], memory.keys[1:2], memory.mask[1:2])
        hand = hand_attention(kind, model.decoder.attention, trace["queries"][1], one)
    assert torch.allclose(hand, trace["weights"][1], atol=1e-6)


def test_hand_attention_equals_the_module_for_the_study_notes_wiring():
    """luong_prev (the Translation lab's option) scores with s_(t-1): the Map tab's hand check reads the same
    queries, so hand == module there too (the check badge showed a false mismatch of ~0.16 before)."""
    model = _fixed_model("luong_prev")
    src, lengths, _, _ = _padded_batch()
    with torch.no_grad():
        trace = model.greedy(src, lengths, max_steps=4)
        memory = trace["memory"]
        one = type(memory)(memory.values[1:2], memory.keys[1:2], memory.mask[1:2])
        hand = hand_attention("luong_prev", model.decoder.attention, trace["queries"][1], one)
    assert torch.allclose(hand, trace["weights"][1], atol=1e-6)
    result = decode_model(replace(TINY, attention="luong_prev"), model, parse_source("reverse", "52813 <pad>"))
    assert result.hand_weights is not None and result.max_abs_diff < 1e-5


@pytest.mark.parametrize("kind", ("luong_general", "luong_dot", "none"))
def test_parallel_teacher_forcing_equals_the_step_loop(kind):
    """Luong and no-attention run all teacher-forced steps in one GRU call; it must equal stepping."""
    model = _fixed_model(kind)
    src, lengths, y_in, _ = _padded_batch()
    with torch.no_grad():
        parallel = model(src, lengths, y_in, tf_ratio=1.0)  # (B, T, V)
        memory, state = model.encode(src, lengths)
        stepped = []
        for t in range(y_in.shape[1]):
            logits, state, _, _ = model.decoder.step(y_in[:, t], state, memory)
            stepped.append(logits)
    assert torch.allclose(parallel, torch.stack(stepped, 1), atol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_free_running_feeds_back_its_own_argmax(kind):
    model = _fixed_model(kind)
    seen: list[torch.Tensor] = []
    hook = model.decoder.embedding.register_forward_hook(lambda mod, args, out: seen.append(args[0].clone()))
    src, lengths, _, _ = _padded_batch()
    with torch.no_grad():
        trace = model.greedy(src, lengths, max_steps=7)
    hook.remove()
    fed = torch.stack(seen, 1)  # (B, T) what the decoder's embedding actually received
    assert torch.equal(fed[:, 0], torch.full((3,), SOS_ID))
    assert torch.equal(fed[:, 1:], trace["logits"].argmax(-1)[:, :-1])  # input t = argmax at t-1
    assert torch.equal(fed, trace["inputs"])


def test_tf_ratio_zero_is_free_running():
    model = _fixed_model("bahdanau")
    src, lengths, y_in, _ = _padded_batch()
    with torch.no_grad():
        sampled = model(src, lengths, y_in, tf_ratio=0.0, generator=torch.Generator().manual_seed(0))
        free = model.greedy(src, lengths, max_steps=y_in.shape[1])["logits"]
    # greedy may stop early once every row has said EOS; compare the steps both ran
    T = free.shape[1]
    assert torch.allclose(sampled[:, :T], free, atol=1e-6)


def test_schedules():
    config = TrainConfig(steps=11, tf_ratio=0.8)
    assert teacher_ratio(config, 1) == teacher_ratio(config, 11) == 0.8
    linear = replace(config, tf_schedule="linear")
    assert teacher_ratio(linear, 1) == pytest.approx(0.8)
    assert teacher_ratio(linear, 6) == pytest.approx(0.4)
    assert teacher_ratio(linear, 11) == pytest.approx(0.0)


# --- training ----------------------------------------------------------------------------------


def test_training_is_deterministic_for_a_seed():
    config = replace(TINY, steps=6, attention="bahdanau", tf_ratio=0.5)
    a, b = train_loop(config), train_loop(config)
    assert a.losses == b.losses and a.evals[-1].free_exact == b.evals[-1].free_exact
    for p, q in zip(a.model.parameters(), b.model.parameters(), strict=False):
        assert torch.equal(p, q)
    c = train_loop(replace(config, seed=1))
    assert c.losses != a.losses


def test_a_short_run_drops_the_loss():
    run = train_loop(replace(TINY, steps=40, task="copy", max_len=5))
    first = sum(loss for _, loss, _ in run.losses[:5]) / 5
    last = sum(loss for _, loss, _ in run.losses[-5:]) / 5
    assert last < 0.8 * first
    assert run.evals[-1].tf_loss < run.losses[0][1]


def test_the_time_cap_stops_training_and_says_so():
    ticks = itertools.count()
    progress = []
    run = train_loop(
        replace(TINY, steps=50, max_seconds=3.0), on_progress=progress.append, clock=lambda: float(next(ticks))
    )
    assert run.stopped_by == "time" and run.steps_done < 50
    assert [p.step for p in progress] == list(range(1, run.steps_done + 1))
    assert progress[-1].evaluation is not None  # a stopped run still gets its final held-out check


def test_progress_reports_every_step_and_evaluations(tiny):
    progress = []
    train_loop(replace(TINY, steps=5), on_progress=progress.append)
    assert [p.step for p in progress] == [1, 2, 3, 4, 5]
    assert all(p.total == 5 for p in progress)
    assert progress[-1].evaluation is not None
    run = tiny["luong_general"].run
    assert [n for n, _, _ in run.by_length] == list(range(TINY.min_len, TINY.max_len + 1))
    assert run.stopped_by == "steps" and run.steps_done == TINY.steps


def test_number_task_trains_and_decodes():
    result = train(replace(TINY, task="num_ko", min_len=1, max_len=3, steps=4))
    out = decode(result, parse_source("num_ko", "305"))
    assert out.expected == ("삼", "백", "오")
    assert len(out.tf_preds) == 4 and len(out.tf_nll) == 4


# --- decoding a typed source, the what-if -------------------------------------------------------


def test_decode_of_a_typed_source(tiny):
    out = decode(tiny["bahdanau"], parse_source("reverse", "3 1 4 <pad> <pad>"))
    assert out.src_tokens == ("3", "1", "4", "<pad>", "<pad>")
    assert out.expected == ("4", "1", "3")
    assert out.inputs[0] == "<sos>"
    assert out.inputs[1:] == out.output[:-1]
    assert out.weights.shape == (len(out.output), 5)
    assert torch.all(out.weights[:, 3:] == 0)
    assert out.exact == (out.output == ("4", "1", "3", "<eos>"))


@pytest.mark.parametrize("kind", KINDS[:3])
def test_what_if_changes_only_the_steps_after_it(kind, tiny):
    source = parse_source("reverse", "52813")
    base = decode(tiny[kind], source)
    k = min(1, len(base.output) - 1)
    for s in range(5):
        row = ["0"] * 5
        row[s] = "1"
        step, weights = parse_override(base, k + 1, row)
        new = what_if(tiny[kind], source, base, (step, weights))
        assert new.output[:k] == base.output[:k]
        assert torch.equal(new.weights[:k], base.weights[:k])
        assert new.weights[k].tolist() == list(weights)
        assert new.first_changed is None or new.first_changed >= k


def test_override_validation(tiny):
    base = decode(tiny["bahdanau"], parse_source("reverse", "123<pad>"))
    assert parse_override(base, 1, ["1", "1", "2", "0"]) == (0, (0.25, 0.25, 0.5, 0.0))
    cases = [
        (1, ["-1", "1", "1", "0"], "training.error.negative_weight"),
        (1, ["1", "1", "1", "1"], "training.error.weight_on_pad"),
        (1, ["0", "0", "0", "0"], "training.error.zero_weights"),
        (1, ["1", "x", "1", "0"], "errors.not_a_number"),
        (1, ["1", "1"], "errors.wrong_cols"),
        (99, ["1", "1", "1", "0"], "errors.out_of_range"),
    ]
    for step, row, key in cases:
        with pytest.raises(InputError) as err:
            parse_override(base, step, row)
        assert err.value.key == key
    with pytest.raises(InputError) as err:
        parse_override(decode(tiny["none"], parse_source("reverse", "12")), 1, ["1", "1"])
    assert err.value.key == "training.error.no_attention"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "task, text, key",
    [
        ("reverse", "", "errors.empty_text"),
        ("reverse", "   ", "errors.empty_text"),
        ("reverse", "<pad> <pad>", "errors.all_pad"),
        ("reverse", "<PAD>", "errors.all_pad"),
        ("reverse", "12a4", "training.error.unknown_chars"),
        ("reverse", "나는 책을", "training.error.unknown_chars"),
        ("reverse", "1 <pad> 2", "training.error.pad_inside"),
        ("reverse", "1" * 21, "errors.too_many_tokens"),
        ("num_ko", "0123", "training.error.leading_zero"),
        ("num_en", "1234567", "training.error.number_too_long"),
    ],
)
def test_bad_sources_get_a_named_message(task, text, key):
    with pytest.raises(InputError) as err:
        parse_source(task, text)
    assert err.value.key == key
    assert err.value.field == "training.field.source"


def test_unknown_characters_are_named():
    with pytest.raises(InputError) as err:
        parse_source("reverse", "1x2y")
    assert err.value.params["chars"] == "x y"


def test_good_sources():
    assert parse_source("reverse", " 1 2 3 ") == SourceInput(("1", "2", "3"), 0)
    assert parse_source("sort", "907<pad><pad>") == SourceInput(("9", "0", "7"), 2)
    assert parse_source("num_en", "0") == SourceInput(("0",), 0)


@pytest.mark.parametrize(
    "kwargs, key, field",
    [
        ({"steps": 3001}, "errors.out_of_range", "steps"),
        ({"steps": 0}, "errors.out_of_range", "steps"),
        ({"steps": "many"}, "errors.not_an_integer", "steps"),
        ({"hidden": 4096}, "errors.out_of_range", "hidden"),
        ({"batch": 10_000}, "errors.out_of_range", "batch"),
        ({"max_seconds": 3600}, "errors.out_of_range", "max_seconds"),
        ({"lr": "nan"}, "errors.nan", "lr"),
        ({"tf_ratio": 1.5}, "errors.out_of_range", "tf_ratio"),
        ({"max_len": 17}, "errors.out_of_range", "max_len"),
        ({"task": "num_ko", "max_len": 7}, "errors.out_of_range", "max_len"),
        ({"min_len": 8, "max_len": 4}, "training.error.lengths_order", "max_len"),
        ({"task": "translate"}, "errors.bad_choice", "task"),
        ({"attention": "magic"}, "errors.bad_choice", "attention"),
        ({"tf_schedule": "cosine"}, "errors.bad_choice", "tf_schedule"),
        ({"seed": -1}, "errors.out_of_range", "seed"),
    ],
)
def test_settings_over_the_caps_are_rejected(kwargs, key, field):
    with pytest.raises(InputError) as err:
        parse_config(**kwargs)
    assert err.value.key == key
    assert err.value.field == f"training.field.{field}"


def test_defaults_parse_and_twin_switches_attention():
    config = parse_config()
    assert config == TrainConfig()
    assert hash(config) == hash(TrainConfig())
    assert twin_config(config).attention == "none"
    assert twin_config(replace(config, attention="none")).attention == "bahdanau"
    assert replace(twin_config(config), attention=config.attention) == config


raw = st.one_of(
    st.integers(-10, 10_000), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5), st.none()
)


@settings(max_examples=50, deadline=None)
@given(
    task=st.sampled_from(["reverse", "num_ko", "x"]),
    steps=raw,
    hidden=raw,
    lr=raw,
    tf_ratio=raw,
    min_len=raw,
    max_len=raw,
    max_seconds=raw,
)
def test_any_settings_give_a_config_or_an_input_error(task, steps, hidden, lr, tf_ratio, min_len, max_len, max_seconds):
    try:
        config = parse_config(
            task=task,
            steps=steps,
            hidden=hidden,
            lr=lr,
            tf_ratio=tf_ratio,
            min_len=min_len,
            max_len=max_len,
            max_seconds=max_seconds,
        )
    except InputError:
        return
    assert 1 <= config.steps <= 3000 and 1 <= config.min_len <= config.max_len <= 16
    assert 0 <= config.tf_ratio <= 1 and config.max_seconds <= 60


@settings(max_examples=50, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("0123456789 ax<>pad\n가")), max_size=30),
    st.sampled_from(["reverse", "num_en"]),
)
def test_any_text_gives_a_source_or_an_input_error(text, task):
    try:
        source = parse_source(task, text)
    except InputError:
        return
    assert 1 <= len(source.tokens) <= 20 and all(d.isdigit() for d in source.tokens)


# --- frames, charts, code -----------------------------------------------------------------------


def test_frames_and_charts_build(tiny):
    result = tiny["bahdanau"]
    run = result.run
    names = {m: m for m in METRICS}
    labels = {k: k for k in LABELS}  # every word the builders take (s2s_core/training/charts.py)
    out = decode(result, parse_source("reverse", "123<pad>"))
    frame = attention_frame(out)
    assert len(frame) == len(out.output) * 4
    assert frame.loc[frame["pad"], "weight"].eq(0).all()
    assert eval_frame(run.evals, names)["metric"].nunique() == 3
    cols = {k: k for k in ("step", "free_in", "free_out", "tf_in", "tf_out", "nll")}
    assert len(steps_frame(out, cols)) == max(len(out.output), 4)
    both = bottleneck_frame({"with": run, "without": tiny["none"].run})
    assert set(both["model"]) == {"with", "without"}
    for chart in (
        loss_chart(loss_frame(run.losses), labels),
        accuracy_chart(eval_frame(run.evals, names), labels),
        attention_heatmap(frame, labels),
        bottleneck_chart(both, labels),
    ):
        assert chart.to_dict()
    spec = attention_heatmap(frame, labels).to_dict()
    params = {p["name"]: p["select"]["fields"] for p in spec["params"]}
    assert params == {"hover_row": ["step"], "hover_col": ["position"]}  # hovering lights up a row and a column
    # Both axes carry their reading order, whatever order the frame's rows come in (issue 24 §1).
    shuffled = attention_heatmap(frame.sample(frac=1, random_state=1), labels).to_dict()
    enc = shuffled["layer"][0]["encoding"]  # the cells (the labels' layer shares the same axes)
    assert enc["x"]["sort"] == [f"s{s + 1} · {tok}" for s, tok in enumerate(out.src_tokens)]
    assert enc["y"]["sort"] == [f"t{t + 1} · {tok}" for t, tok in enumerate(out.output)]
    shuffled = bottleneck_chart(both.sample(frac=1, random_state=1), labels).to_dict()
    assert {str(layer["encoding"]["x"]["sort"]) for layer in shuffled["layer"]} == {str(sorted(set(both["length"])))}
    # Two models that both reach 100 % stay two lines: each layer is one model, drawn a few pixels off its value.
    offsets = [(layer["transform"][0]["filter"], layer["mark"]["yOffset"]) for layer in shuffled["layer"]]
    assert len(offsets) == 2 and len({dy for _, dy in offsets}) == 2 and "with" in str(offsets[0][0])
    assert join_tokens("num_en", ["three", "hundred", "<eos>"]) == "three hundred"
    assert join_tokens("num_ko", ["삼", "백", "<eos>"]) == "삼백"


def test_generated_script_is_valid_python_with_the_settings():
    import ast

    from s2s_core.training.code import script

    config = replace(TINY, task="sort", tf_ratio=0.25)
    source = script(config, SourceInput(("9", "1"), 1))
    ast.parse(source)
    assert "tf_ratio=0.25" in source and "task='sort'" in source and "['9', '1'], 1" in source
    assert "s2s_core" not in source  # self-contained


# --- random streams: each run has its own ---------------------------------------------------------


@pytest.fixture
def one_thread():
    """The app trains on one torch thread (app.py); the same here, so thread counts cannot move the numbers."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("kind", KINDS)
def test_init_from_the_runs_generator_equals_pytorchs_default_init(kind):
    """Our generator-driven init draws the same numbers, in the same order, as PyTorch's own constructors
    under torch.manual_seed: same distributions, same seed, same weights, without the global generator."""
    config = replace(TINY, attention=kind, seed=11)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed)
        reference = Seq2Seq(
            len(source_vocab("reverse")), len(target_vocab("reverse")), config.embed, config.hidden, kind
        )
    before = torch.get_rng_state()
    ours = new_model(config, torch.Generator().manual_seed(config.seed))
    assert torch.equal(torch.get_rng_state(), before)  # nothing drawn from the process-wide generator
    for (name, a), (_, b) in zip(reference.state_dict().items(), ours.state_dict().items(), strict=True):
        assert torch.equal(a, b), name


def test_another_session_seeding_mid_init_changes_nothing(monkeypatch):
    """Deterministic form of the race: the process-wide generator is reseeded in the middle of building."""
    config = replace(TINY, attention="bahdanau", seed=12)
    calm = new_model(config, torch.Generator().manual_seed(config.seed)).state_dict()
    original = torch.nn.Linear.reset_parameters

    def meddling(self):
        torch.manual_seed(12345)  # someone else's page, right now
        original(self)

    monkeypatch.setattr(torch.nn.Linear, "reset_parameters", meddling)
    meddled = new_model(config, torch.Generator().manual_seed(config.seed)).state_dict()
    assert all(torch.equal(calm[k], meddled[k]) for k in calm)


def test_training_never_touches_the_global_generator():
    before = torch.get_rng_state()
    for kind, ratio, schedule in (
        ("bahdanau", 1.0, "constant"),
        ("bahdanau", 0.5, "linear"),
        ("luong_dot", 0.3, "constant"),
    ):
        train(replace(TINY, steps=4, attention=kind, tf_ratio=ratio, tf_schedule=schedule))
    assert torch.equal(torch.get_rng_state(), before)


def _fingerprint(run) -> tuple:
    """Losses, held-out scores (without their wall-clock times) and the final weights of a run."""
    evals = tuple(replace(e, seconds=0.0) for e in run.evals)
    return run.losses, evals, {k: v.clone() for k, v in run.model.state_dict().items()}


def _same(a: tuple, b: tuple) -> bool:
    return (
        a[0] == b[0]
        and a[1] == b[1]
        and a[2].keys() == b[2].keys()
        and all(torch.equal(a[2][k], b[2][k]) for k in a[2])
    )


@pytest.fixture
def slow_constructors(monkeypatch):
    """Every Linear / GRU constructor pauses mid-way, so another thread surely runs in the middle of building
    a model (where a run seeded by torch.manual_seed would let another session reseed it)."""
    for cls in (torch.nn.Linear, torch.nn.GRU):
        original = cls.reset_parameters

        def paused(self, _original=original):
            pace(0.002)
            _original(self)

        monkeypatch.setattr(cls, "reset_parameters", paused)


def test_two_trainings_at_once_each_equal_their_single_threaded_run(one_thread, slow_constructors):
    """Two sessions training different settings at the same moment (and a third thread seeding torch's global
    generator over and over, as other pages may) must not change each other's weights, batches or coins."""
    configs = (
        replace(TINY, steps=30, attention="bahdanau", tf_ratio=0.5, tf_schedule="linear", seed=21),
        replace(TINY, steps=30, attention="luong_general", tf_ratio=0.7, seed=22, task="sort"),
    )
    alone = [_fingerprint(train_loop(c)) for c in configs]
    together: list = [None, None]
    start = threading.Barrier(3)
    done = threading.Event()

    def session(i: int) -> None:
        start.wait()
        together[i] = _fingerprint(train_loop(configs[i]))

    def neighbour() -> None:
        start.wait()
        n = 0
        while not done.is_set():
            torch.manual_seed(n)  # what a page that seeds the global generator does
            torch.rand(8)
            n += 1

    threads = [threading.Thread(target=session, args=(i,)) for i in range(2)] + [threading.Thread(target=neighbour)]
    for th in threads:
        th.start()
    threads[0].join(120)
    threads[1].join(120)
    done.set()
    threads[2].join(10)
    assert together[0] is not None and together[1] is not None
    assert _same(together[0], alone[0]) and _same(together[1], alone[1])
    assert not _same(alone[0], alone[1])


def test_the_stop_check_cancels_the_loop():
    seen = []
    with pytest.raises(TrainingCancelled):
        train_loop(replace(TINY, steps=50), on_progress=seen.append, stop=lambda: len(seen) >= 3)
    assert [p.step for p in seen] == [1, 2, 3]


# --- shared jobs: submit / snapshot / cancel ------------------------------------------------------


def fake_trainer(steps_delay: float = 0.005, fail_at: int | None = None):
    """A stand-in trainer with the real one's contract: progress every step, stop() checked before each."""
    calls = []

    def trainer(config, on_progress, stop):
        calls.append(config)
        for step in range(1, config.steps + 1):
            if stop():
                raise TrainingCancelled(step)
            if fail_at == step:
                raise RuntimeError("boom")
            pace(steps_delay)
            on_progress(Progress(step, config.steps, 1.0 / step, 1.0, step * steps_delay, None))
        return f"result of seed {config.seed}"

    trainer.calls = calls
    return trainer


def test_identical_settings_share_one_job_and_a_finished_result_is_served():
    trainer = fake_trainer()
    runner = Runner(trainer, max_running=2)
    config = replace(TINY, steps=5, seed=1)
    first = runner.submit(config)
    assert runner.submit(config) is first and runner.find(config) is first
    assert first.wait(10)
    snap = runner.snapshot(first)
    assert snap.state == DONE and snap.result == "result of seed 1" and snap.error is None
    assert runner.submit(config) is first  # served, not trained again
    assert trainer.calls == [config]
    # "Train again": a new job; the old result is what find() serves until the new one is done.
    again = runner.submit(config, again=True)
    assert again is not first
    assert again.wait(10) and runner.find(config) is again and len(trainer.calls) == 2


def test_real_training_through_a_job_equals_a_direct_run():
    runner = Runner(max_running=1)
    config = replace(TINY, steps=6, seed=31)
    job = runner.submit(config)
    assert job.wait(60)
    snap = runner.snapshot(job)
    assert snap.state == DONE and snap.step == snap.total == 6
    direct = train(config)
    assert snap.result.run.losses == direct.run.losses == snap.losses
    assert snap.evals == snap.result.run.evals
    assert [replace(e, seconds=0) for e in snap.evals] == [replace(e, seconds=0) for e in direct.run.evals]


def test_snapshots_progress_monotonically():
    runner = Runner(fake_trainer(0.004), max_running=1)
    job = runner.submit(replace(TINY, steps=60, seed=2))
    snaps = []
    while not job.wait(0.01):
        snaps.append(runner.snapshot(job))
    snaps.append(runner.snapshot(job))
    steps = [s.step for s in snaps]
    assert steps == sorted(steps) and steps[-1] == 60
    assert len(set(steps)) > 3  # we saw it move, not just start and end
    for a, b in itertools.pairwise(snaps):
        assert b.losses[: len(a.losses)] == a.losses  # the curve only grows
        assert b.seconds >= a.seconds
    states = [s.state for s in snaps]
    assert set(states) <= {RUNNING, DONE} and states[-1] == DONE
    assert states.index(DONE) == len(states) - states[::-1].count(DONE)  # never back to running


def test_cancel_really_stops_the_training_loop():
    runner = Runner(max_running=1)
    config = replace(TINY, steps=3000, max_seconds=60.0, seed=41)  # would run for many seconds
    job = runner.submit(config)
    wait_until(lambda: runner.snapshot(job).step >= 3, what="three training steps")
    runner.cancel(job)
    assert job.wait(10)
    snap = runner.snapshot(job)
    assert snap.state == CANCELLED and snap.result is None and snap.step < 3000
    assert runner.wait_idle(10)  # the training thread has ended, so no step can come after the snapshot
    assert runner.snapshot(job).step == snap.step  # nothing runs on
    assert runner.find(config) is job  # the page can say it was stopped
    assert runner.submit(config) is not job  # and pressing Train starts afresh
    runner.cancel(runner.find(config))
    assert runner.wait_idle(10)


def test_the_queue_bounds_running_jobs_and_cancelling_a_queued_job():
    runner = Runner(fake_trainer(0.01), max_running=1)
    a, b, c = (runner.submit(replace(TINY, steps=30, seed=s)) for s in (51, 52, 53))
    sa, sb, sc = (runner.snapshot(j) for j in (a, b, c))
    assert (sa.state, sb.state, sc.state) == (RUNNING, QUEUED, QUEUED)
    assert (sb.ahead, sc.ahead) == (0, 1)
    runner.cancel(b)
    assert runner.snapshot(b).state == CANCELLED and b.wait(0)  # left the queue at once
    assert runner.snapshot(c).ahead == 0
    assert runner.wait_idle(30)
    assert [runner.snapshot(j).state for j in (a, b, c)] == [DONE, CANCELLED, DONE]


def test_a_crash_gives_the_failed_state_and_frees_the_slot():
    runner = Runner(fake_trainer(0.001, fail_at=3), max_running=1)
    config = replace(TINY, steps=10, seed=61)
    job = runner.submit(config)
    assert job.wait(10)
    snap = runner.snapshot(job)
    assert snap.state == FAILED and snap.error == FAILED_KEY and snap.result is None and snap.step == 2
    assert runner.find(config) is job
    retry = runner.submit(config)  # a failure is not a result: pressing Train tries again
    assert retry is not job and retry.wait(10)
    assert runner.wait_idle(5)


def test_finished_results_are_bounded():
    runner = Runner(fake_trainer(0.0), max_running=2, cache_size=2)
    configs = [replace(TINY, steps=2, seed=s) for s in (71, 72, 73)]
    for config in configs:
        assert runner.submit(config).wait(10)
    assert runner.find(configs[0]) is None
    assert runner.find(configs[1]) is not None and runner.find(configs[2]) is not None


def test_a_failed_retry_never_hides_the_finished_result():
    trainer = fake_trainer(0.2)  # slow enough that the cancel below always lands while the retry still runs
    runner = Runner(trainer, max_running=1)
    config = replace(TINY, steps=3, seed=81)
    done = runner.submit(config)
    assert done.wait(10)
    again = runner.submit(config, again=True)
    runner.cancel(again)
    assert again.wait(10)
    assert runner.find(config) is done


def test_workers_setting(monkeypatch):
    monkeypatch.setenv(job_settings.WORKERS_ENV, "3")
    assert job_settings.default_workers() == 3
    monkeypatch.setenv(job_settings.WORKERS_ENV, "0")
    assert job_settings.default_workers() == 1
    monkeypatch.setenv(job_settings.WORKERS_ENV, "lots")
    assert 1 <= job_settings.default_workers() <= job_settings.MAX_WORKERS


def test_a_result_survives_the_trip_through_bytes(tiny):
    """What a worker process will send back: the model is rebuilt from config + state_dict."""
    result = tiny["bahdanau"]
    back = unpack(pack(result))
    assert back.config == result.config and back.final == result.final and back.loss_check == result.loss_check
    assert back.run.losses == result.run.losses and back.run.by_length == result.run.by_length
    source = parse_source("reverse", "52813 <pad>")
    a, b = decode(result, source), decode(back, source)
    assert a.output == b.output and torch.equal(a.weights, b.weights)


# --- the trace a run records, and its replay (watch it train) --------------------------------------


def test_the_trace_recorded_equals_the_runs_history():
    progress = []
    result = train(TINY, on_progress=progress.append)
    run, trace = result.run, result.trace
    # 1) One time per step, the progress's own clock; a map before training and at every evaluation.
    assert trace.times == tuple(p.seconds for p in progress)
    assert len(trace.times) == len(run.losses) == run.steps_done
    assert [m.step for m in trace.maps] == [0, *(e.step for e in run.evals)]
    # 2) The step-0 map is the untrained model the page shows before any training: same seeded weights.
    assert trace.maps[0] == untrained_map(TINY)
    untrained = trace.maps[0]
    assert untrained.source == tuple(default_source_text(TINY.task))
    assert all(abs(sum(row) - 1) < 1e-5 for row in untrained.weights)
    # 3) The last map is the trained model's own decode of that source.
    last = decode(result, parse_source(TINY.task, default_source_text(TINY.task)))
    assert trace.maps[-1].output == last.output
    assert torch.allclose(torch.tensor(trace.maps[-1].weights), last.weights)
    # 4) The trace travels with the model from a worker process.
    assert unpack(pack(result)).trace == trace


def test_each_checkpoint_map_rides_on_the_next_progress_report():
    """A live watcher draws the run's latest checkpoint map: the step-0 map comes with step 1, then the map of every
    held-out evaluation with that step's report, each exactly the trace's map; other steps carry none."""
    progress = []
    result = train(replace(TINY, attention="bahdanau", steps=40), on_progress=progress.append)  # evaluates every 4
    carried = [(p.step, p.checkpoint) for p in progress if getattr(p, "checkpoint", None) is not None]
    assert [point for _, point in carried] == list(result.trace.maps)
    assert [step for step, _ in carried] == [1, *(e.step for e in result.run.evals)]
    assert carried[0][1].step == 0 and carried[-1][1].step == result.run.steps_done


def test_a_checkpoint_map_is_titled_by_its_step_and_says_when_it_is_not_the_typed_source():
    point = untrained_map(replace(TINY, attention="bahdanau"))  # the checkpoint source, step 0
    typed = parse_source(TINY.task, default_source_text(TINY.task))
    assert checkpoint_keys(point, typed) == {"title": "training.checkpoint_map_title_start", "note": None}
    later = replace(point, step=40)
    assert checkpoint_keys(later, typed)["title"] == "training.checkpoint_map_title"
    assert checkpoint_keys(later, parse_source(TINY.task, "4321"))["note"] == "training.checkpoint_source_note"
    padded = parse_source(TINY.task, default_source_text(TINY.task) + " <pad>")
    assert checkpoint_keys(later, padded)["note"] == "training.checkpoint_source_note"
    assert checkpoint_keys(later, None)["note"] is None  # a bad typed source: its own message says what is wrong


def test_a_live_jobs_snapshot_holds_its_latest_checkpoint_map():
    """The in-process backend: while the job trains, its snapshot's map is the latest checkpoint's (never one from
    the future), and the finished job's is the trace's last map."""
    runner = Runner(max_running=1)
    config = replace(TINY, steps=40, attention="bahdanau", seed=77)
    job = runner.submit(config)
    seen = []
    while not job.wait(0.01):
        snap = runner.snapshot(job)
        if snap.checkpoint is not None:
            seen.append((snap.step, snap.checkpoint.step))
    assert all(map_step <= step for step, map_step in seen)
    final = runner.snapshot(job)
    assert final.checkpoint == final.result.trace.maps[-1]


def test_replay_gives_the_frames_the_live_run_showed():
    progress = []
    result = train(replace(TINY, attention="bahdanau"), on_progress=progress.append)
    run, trace = result.run, result.trace
    losses, evals = [], []
    for p in progress:  # what a live watcher had seen at p.seconds
        losses.append((p.step, p.loss, p.tf_ratio))
        if p.evaluation is not None:
            evals.append(p.evaluation)
        frame = replay_frame(run, trace, TINY.steps, p.seconds)
        assert frame.step == p.step
        assert frame.losses == tuple(losses) and frame.evals == tuple(evals)
        assert frame.map.step == max(m.step for m in trace.maps if m.step <= p.step)
    assert replay_frame(run, trace, TINY.steps, -1.0).step == 0
    assert replay_frame(run, trace, TINY.steps, -1.0).map.step == 0
    assert replay_frame(run, trace, TINY.steps, duration(trace)).ended
    # A short run is replayed stretched to MIN_REPLAY_SECONDS (so a watcher sees it move), a long one at its pace.
    stretched = max(duration(trace), MIN_REPLAY_SECONDS)
    assert abs(replay_clock(trace, stretched) - duration(trace)) < 1e-9
    assert replay_clock(trace, 0.0) == 0.0
    assert not replay_frame(run, trace, TINY.steps, progress[0].seconds).ended


def test_untrained_map_without_attention_has_no_weights():
    point = untrained_map(replace(TINY, attention="none"))
    assert point.weights is None and point.output


def test_building_and_running_a_model_does_not_import_torch_compile_machinery():
    """The server builds models (to load a worker's weights) and runs them, but never trains: in a fresh process
    that does the same, torch._dynamo and sympy stay unimported. Building on the "meta" device imported both
    through nn.Embedding's init (~75 MB and a second per process, for nothing the app uses). Training does import
    them (torch.optim's constructor does), in the training workers only."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, torch\n"
        "from s2s_core.training.config import TrainConfig\n"
        "from s2s_core.training.loop import new_model\n"
        "model = new_model(TrainConfig(embed=4, hidden=4), torch.Generator())\n"
        "with torch.no_grad():\n"
        "    model.greedy(torch.tensor([[4, 5, 6]]), torch.tensor([3]), max_steps=4)\n"
        "print(sorted(m for m in ('torch._dynamo', 'sympy') if m in sys.modules))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "[]"


# --- the page's fields and the question, graded by the core ------------------------------------------------


def test_the_fields_defaults_are_the_default_settings_and_their_ranges_the_cores():
    from s2s_core.training import fields

    by_name = {
        "task": fields.TASK,
        "attention": fields.ATTENTION,
        "tf_ratio": fields.TF_RATIO,
        "tf_schedule": fields.SCHEDULE,
        "steps": fields.STEPS,
        "seed": fields.SEED,
        "hidden": fields.HIDDEN,
        "embed": fields.EMBED,
        "batch": fields.BATCH,
        "lr": fields.LR,
        "min_len": fields.LEN_MIN,
        "max_len": fields.LEN_MAX,
        "max_seconds": fields.TIME_LIMIT,
    }
    assert parse_config(**{name: f.default for name, f in by_name.items()}) == TrainConfig()
    for name, f in by_name.items():
        if f.hi is not None:  # one past the field's range is the core's error, naming that field
            with pytest.raises(InputError) as err:
                parse_config(**{name: f.hi + 1})
            assert (err.value.key, err.value.field) == ("errors.out_of_range", f.label)
    # The number tasks' lengths: their own defaults, and parse_config narrows the shared range to 6 digits.
    assert parse_config(task="num_en", min_len=fields.NUM_MIN.default, max_len=fields.NUM_MAX.default).max_len == 4
    with pytest.raises(InputError):
        parse_config(task="num_en", max_len=fields.NUM_MAX.hi + 1)


@pytest.mark.parametrize(("tf", "free", "answer"), [(0.9, 0.6, "tf"), (0.6, 0.9, "free"), (0.8, 0.797, "equal")])
def test_the_question_is_graded_by_the_run(tf, free, answer):
    from s2s_core.training.compute import QUIZ_OPTIONS, quiz_answer
    from s2s_core.training.loop import EvalPoint

    assert quiz_answer(EvalPoint(10, 1.0, 0.5, tf, free, 0.5)) == answer and answer in QUIZ_OPTIONS


# --- sentences chosen by what the run measured (issue 24 §2, §3, §6) ------------------------------------------


def _runs_by_length(*rows):
    """Stand-ins for TrainRun with only the per-length exact match the bottleneck notes read."""
    from types import SimpleNamespace

    return [SimpleNamespace(by_length=tuple((n, acc, 40) for n, acc in r)) for r in rows]


@pytest.mark.parametrize(
    ("with_att", "without", "key"),
    [
        ([(3, 1.0), (10, 0.95)], [(3, 1.0), (10, 0.3)], "training.notice_4"),
        ([(3, 1.0), (10, 0.95)], [(3, 1.0), (10, 0.9)], "training.notice_4_flat"),
        # The old sentence ("the model with attention stays close to the top") was shown here too, and is false:
        ([(3, 1.0), (10, 0.4)], [(3, 1.0), (10, 0.1)], "training.notice_4_both"),
        ([(3, 0.2), (10, 0.1)], [(3, 0.2), (10, 0.1)], "training.notice_4_weak"),
    ],
)
def test_the_bottleneck_note_is_chosen_by_the_two_curves(with_att, without, key):
    from s2s_core.training.notes import bottleneck_reading

    reading = bottleneck_reading(*_runs_by_length(with_att, without))
    assert reading.key == key
    assert (reading.shortest, reading.longest) == (3, 10)
    assert reading.with_lowest == min(acc for _, acc in with_att)


def test_survival_is_counted_per_length_on_known_predictions():
    """The names task's figure from a prediction set worked out by hand: the name survives when the output starts
    with it, the number when exactly its digits follow and then <eos>."""
    from s2s_core.training.compute import survival_by_length

    sources = [
        ["Mina", "sold", "4", "2"],  # length 4
        ["a", "Jun", "7", "the"],  # length 4
        ["the", "old", "Sora", "saw", "3", "0", "5"],  # length 7
        ["Tom", "1", "2", "3", "at", "market", "red"],  # length 7
    ]
    outputs = [
        ["Mina", "4", "2", "<eos>"],  # both right
        ["Jun", "1", "<eos>"],  # name right, number wrong
        ["Leo", "3", "0", "5", "<eos>"],  # name wrong, number right
        ["Tom", "1", "2", "<eos>"],  # a digit lost: the number did not survive
    ]
    got = survival_by_length(sources, outputs)
    assert [(p.length, p.name, p.quantity, p.n) for p in got] == [(4, 1.0, 0.5, 2), (7, 0.5, 0.5, 2)]
    # an extra digit after the number is not the number either
    assert survival_by_length([sources[0]], [["Mina", "4", "2", "2", "<eos>"]])[0].quantity == 0.0


def test_the_survival_chart_draws_four_lines_apart_even_when_all_are_at_100_percent():
    """Screenshot review: with both models copying both items every time, the four lines lay on one another. Each
    (model, item) is its own layer, a few pixels off its value, all four offsets different."""
    from s2s_core.training.charts import survival_chart
    from s2s_core.training.compute import Survival
    from s2s_core.training.frames import survival_frame

    perfect = tuple(Survival(n, 1.0, 1.0, 10) for n in (4, 5, 6))
    frame = survival_frame({"with": perfect, "without": perfect}, {"name": "name", "quantity": "number"})
    spec = survival_chart(frame, {k: k for k in LABELS}).to_dict()
    layers = spec["layer"]
    assert len(layers) == 4
    assert len({layer["mark"]["yOffset"] for layer in layers}) == 4  # four different heights
    assert all(layer["mark"]["point"]["yOffset"] == layer["mark"]["yOffset"] for layer in layers)  # points follow
    filters = [str(layer["transform"][0]["filter"]) for layer in layers]
    assert len(set(filters)) == 4 and all("model" in f and "item" in f for f in filters)


def test_copy_survival_of_a_trained_model_counts_its_own_decodes():
    """A small names model: copy_survival (one batched greedy pass over the held-out set) equals counting each
    held-out source decoded on its own (decode(), the page's path), by hand."""
    from s2s_core.training.compute import SourceInput, copy_survival
    from s2s_core.training.loop import HELDOUT_PER_LEN
    from s2s_core.training.tasks import copied

    config = TrainConfig(task="names", embed=8, hidden=16, steps=25, batch=32, min_len=3, max_len=6, lr=0.02)
    result = train(config)
    points = copy_survival(config, result.run.model)
    heldout = make_heldout("names", 3, 6, HELDOUT_PER_LEN, config.seed)
    assert [p.length for p in points] == [3, 4, 5, 6] and sum(p.n for p in points) == len(heldout)
    for point in points:
        rows = [s for s in heldout if len(s) == point.length]
        names = quantities = 0
        for source in rows:
            out = decode(result, SourceInput(tuple(source))).output
            name, quantity = copied(source)
            names += out[:1] == (name,)
            quantities += out[1:] == (*quantity, "<eos>")
        assert (point.name, point.quantity) == (names / len(rows), quantities / len(rows))


@pytest.mark.parametrize(
    ("with_last", "without_first", "without_last", "key", "lost"),
    [
        ((1.0, 0.98), (1.0, 1.0), (1.0, 0.5), "training.survival_lost", "training.item_quantity"),
        ((1.0, 0.6), (1.0, 1.0), (0.7, 0.5), "training.survival_both", "training.item_both"),
        ((1.0, 1.0), (1.0, 1.0), (1.0, 0.9), "training.survival_kept", ""),
        # No fall with length, but low at every length (a names run seen at 10 tokens: 32.5 % and 0 %).
        ((1.0, 1.0), (0.4, 0.05), (0.325, 0.0), "training.survival_low", ""),
        ((1.0, 1.0), (1.0, 0.5), (1.0, 0.5), "training.survival_low", ""),
    ],
)
def test_the_survival_sentence_is_chosen_by_the_rates(with_last, without_first, without_last, key, lost):
    from s2s_core.training.compute import Survival
    from s2s_core.training.notes import survival_reading

    with_att = [Survival(3, 1.0, 1.0, 40), Survival(10, *with_last, 40)]
    without = [Survival(3, *without_first, 40), Survival(10, *without_last, 40)]
    reading = survival_reading(with_att, without)
    assert (reading.key, reading.lost) == (key, lost)
    assert reading.without == (without[0], without[-1]) and reading.with_att == with_att[-1]


def test_the_names_task():
    import random

    from s2s_core.training.tasks import NAMES, names_source

    rng = random.Random(5)
    for length in (3, 6, 12):
        source = names_source(rng, length)
        target = target_tokens("names", source)
        assert len(source) == length and sum(tok in NAMES for tok in source) == 1
        assert target[0] in NAMES and all(tok.isdigit() for tok in target[1:]) and 1 <= len(target) - 1 <= 6
        assert all(tok in source_vocab("names") for tok in source)
        assert all(tok in target_vocab("names") for tok in target)
    assert target_tokens("names", ["the", "Mina", "sold", "3", "0", "5"]) == ["Mina", "3", "0", "5"]
    assert parse_source("names", "today MINA sold 305 apples <pad>").tokens == (
        "today", "Mina", "sold", "3", "0", "5", "apples",
    )  # fmt: skip
    for bad, key in (
        ("Mina Jun 42", "training.error.names_one_each"),
        ("Mina 4 the 2", "training.error.names_one_each"),
        ("Mina 42 zebra", "training.error.unknown_names_words"),
        ("Mina 042", "training.error.leading_zero"),
        ("Mina 1234567", "training.error.number_too_long"),
    ):
        with pytest.raises(InputError) as err:
            parse_source("names", bad)
        assert err.value.key == key, bad
    assert join_tokens("names", ["Mina", "3", "0", "5", "<eos>"]) == "Mina 305"


def _point(source, output, weights):
    from s2s_core.training.trace import MapPoint

    return MapPoint(1, tuple(source), tuple(output), weights, False)


def test_the_map_note_reads_where_each_step_looks():
    from s2s_core.training.notes import map_notice, map_reading

    anti = ((0.1, 0.1, 0.8), (0.1, 0.8, 0.1), (0.8, 0.1, 0.1), (0.3, 0.3, 0.4))
    reading = map_reading("reverse", _point("123", ("3", "2", "1", "<eos>"), anti))
    assert map_notice(reading) == "training.notice_2_anti"
    diag = ((0.8, 0.1, 0.1, 0.0), (0.1, 0.8, 0.1, 0.0), (0.1, 0.1, 0.8, 0.0))
    assert map_notice(map_reading("copy", _point(["1", "2", "3", "<pad>"], "123", diag))) == "training.notice_2_diag"
    # The old line ("the reverse task's map runs along the anti-diagonal") for a map that does not:
    half = map_reading("reverse", _point("123", ("3", "2", "1", "<eos>"), diag[:3] + ((1, 0, 0, 0),)))
    assert (map_notice(half), half.on_copied, half.steps) == ("training.notice_2_partly", 1, 3)
    assert map_reading("reverse", _point("123", ("3",), None)) is None  # no attention: no line about the map
    assert map_reading("num_en", _point("12", ("twelve", "<eos>"), ((0.5, 0.5), (0.5, 0.5)))) is None


def test_the_untrained_note_reads_the_untrained_map():
    from s2s_core.training.notes import untrained_keys, untrained_reading

    even = untrained_reading(_point("1234", "0000", ((0.25, 0.26, 0.24, 0.25),)))
    assert even.even and untrained_keys(even)["title"] == "training.untrained_map_title"
    uneven = untrained_reading(_point("1234", "0000", ((0.7, 0.1, 0.1, 0.1),)))
    # The old title ("attention spread evenly") for weights that are not:
    assert not uneven.even and untrained_keys(uneven)["title"] == "training.untrained_map_title_uneven"
    # Typed PAD positions are masked to 0: the even share is over the real ones (1/4 here, not 1/6).
    source = ("1", "2", "3", "4", "<pad>", "<pad>")
    padded = untrained_reading(_point(source, "0000", ((0.25, 0.26, 0.24, 0.25, 0, 0),)))
    assert padded.even and padded.uniform == 0.25
    right = untrained_reading(MapPoint(0, ("1",), ("1", "<eos>"), None, True))
    assert untrained_keys(right) == {
        "title": "training.untrained_map_title_uneven",
        "weights": "training.untrained_weights_none",
        "output": "training.untrained_output_right",
    }


def test_a_long_map_title_is_drawn_on_lines_a_phone_holds_in_both_languages(tiny):
    """A time-limited run's title ("Trained 1469 of 2000 steps (time limit): where each step looks", 62 characters)
    was cut by Vega to "… where each step …" at the map's width; every training chart's title is lines now."""
    from s2s_core.catalog import translate
    from s2s_core.chartkit import TITLE_WIDTH, text_width

    frame = attention_frame(decode(tiny["bahdanau"], parse_source("reverse", "123<pad>")))
    for lang in ("en", "ko"):
        title = translate(lang, "training.trained_map_title_cut", steps=1469, total=2000)
        spec = attention_heatmap(frame, {k: k for k in LABELS} | {"map_title": title}).to_dict()
        drawn = spec["title"]["text"]
        assert isinstance(drawn, list) and len(drawn) == 2, drawn
        assert " ".join(drawn) == title and all(text_width(line) <= TITLE_WIDTH for line in drawn), drawn
