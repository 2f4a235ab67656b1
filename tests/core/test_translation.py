"""Translation lab core: typed Korean rejected with the word named, the ko_en task's batches, the
held-out split, hand attention == module for every attention and cell, the alignment score against a count
written here, the recurrence demo, the three-cell comparison and the lab's settings.

Models are tiny (E 8, H 16) and trained for a few steps: enough for real, non-uniform weights, not for good
translations (quality is scripts/bench_translation.py's job)."""

from __future__ import annotations

import random
import tomllib
import unicodedata
from dataclasses import fields, replace
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.errors import InputError
from s2s_core.grammar import KO_VOCAB, MAX_WORDS, MIN_WORDS, parse_korean, translate
from s2s_core.training import SourceInput, decode, parse_source, train
from s2s_core.training.loop import HELDOUT_PER_LEN, encode_batch
from s2s_core.training.tasks import (
    EOS,
    KO_EN,
    SOS_ID,
    make_heldout,
    sample_sources,
    source_vocab,
    target_tokens,
    target_vocab,
)
from s2s_core.translation import lab

FIELD = "training.field.source"
LOCALES = Path(__file__).resolve().parents[2] / "locales"
SENTENCE = "나는 도서관에서 책을 읽었다"  # the example: the verb moves from last to second
# (attention, cell): each attention on a GRU, and each other cell under Luong general.
MODELS = (
    ("luong_general", "gru"),
    ("luong_dot", "gru"),
    ("bahdanau", "gru"),
    ("luong_general", "rnn"),
    ("luong_general", "lstm"),
    ("none", "gru"),
)


@pytest.fixture(scope="module")
def trained() -> dict:
    """One tiny ko_en model per (attention, cell); 3 steps, so 3 held-out evaluations each."""
    return {
        (att, cell): train(lab.lab_config(embed=8, hidden=16, steps=3, batch=16, attention=att, cell=cell))
        for att, cell in MODELS
    }


# --- typed Korean ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, key",
    [
        ("", "errors.empty_text"),
        ("   ", "errors.empty_text"),
        ("<pad> <PAD>", "errors.all_pad"),
        ("나는 <pad> 읽었다", "training.error.pad_inside"),
        (" ".join(["나는"] * 21), "errors.too_many_tokens"),
    ],
)
def test_bad_korean_raises_the_right_key_on_the_source_field(text, key):
    with pytest.raises(InputError) as err:
        parse_source(KO_EN, text)
    assert (err.value.key, err.value.field) == (key, FIELD)
    if key == "errors.too_many_tokens":
        assert err.value.params == {"count": 21, "limit": 20}


def test_unknown_words_are_named_with_the_nearest_known_words():
    with pytest.raises(InputError) as err:
        parse_source(KO_EN, "나는 책을 읽다 밥을")
    assert (err.value.key, err.value.field) == ("training.error.unknown_words", FIELD)
    assert err.value.params["word"] == "읽다"  # the first unknown word gets the suggestions
    assert err.value.params["words"] == "읽다 밥을"  # every unknown word is listed, in typed order
    near = err.value.params["near"].split(", ")
    assert {"읽는다", "읽었다"} & set(near), near


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_unknown_word_message_shows_the_word_and_its_neighbours(lang):
    with pytest.raises(InputError) as err:
        parse_source(KO_EN, "나는 책 읽었다")
    catalog = tomllib.loads((LOCALES / lang / "training.toml").read_text(encoding="utf-8"))
    message = catalog["error"]["unknown_words"].format(field="F", **err.value.params)
    assert "책" in message and "책을" in message  # 책 alone lacks its particle: 책을 is suggested


# Known words, near misses, PAD in any case, a word typed as separate letters (NFD), spaces and newlines.
WORDS = st.sampled_from(
    [*KO_VOCAB[:12], "읽었다", "책", "book", "<pad>", "<PAD>", unicodedata.normalize("NFD", "책을")]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, max_size=24), st.sampled_from([" ", "  ", "\n"]))
def test_any_korean_text_gives_a_source_or_an_input_error(words, sep):
    try:
        source = parse_source(KO_EN, sep.join(words))
    except InputError as err:
        assert err.field == FIELD
        return
    assert 1 <= len(source.tokens) <= 20 and set(source.tokens) <= set(KO_VOCAB)


def test_good_korean_with_trailing_pads():
    assert parse_source(KO_EN, f" {SENTENCE} <pad> ") == SourceInput(tuple(SENTENCE.split()), 1)


def test_a_sentence_outside_the_grammar_decodes_without_a_reference(trained):
    source = parse_source(KO_EN, "책을 나는 읽었다")  # known words, Korean order the grammar never makes
    assert parse_korean(source.tokens) is None
    out = decode(trained[("luong_general", "gru")], source)
    assert out.expected == ()
    assert out.exact is False
    assert len(out.output) >= 1


# --- the task's data ------------------------------------------------------------------------------------------


def test_targets_and_batches_are_the_grammars_english():
    sources = [SENTENCE.split(), ["그녀는", "안", "잔다"], ["학생이", "어제", "사과를", "먹었다"]]
    english = [list(translate(s).en) for s in sources]
    assert english[0] == ["i", "read", "a", "book", "in", "the", "library"]
    assert english[1] == ["she", "does", "not", "sleep"]
    assert [target_tokens(KO_EN, s) for s in sources] == english
    src, lengths, y_in, y_out = encode_batch(KO_EN, sources)
    itos, ko = target_vocab(KO_EN), source_vocab(KO_EN)
    assert lengths.tolist() == [4, 3, 4]
    for b, (source, words) in enumerate(zip(sources, english, strict=True)):
        assert [ko[i] for i in src[b, : len(source)].tolist()] == source
        assert [itos[i] for i in y_out[b, : len(words) + 1].tolist()] == [*words, EOS]
        assert y_in[b, 0] == SOS_ID
        assert [itos[i] for i in y_in[b, 1 : len(words) + 1].tolist()] == words


def test_heldout_sentences_are_never_drawn_for_training():
    heldout = make_heldout(KO_EN, MIN_WORDS, MAX_WORDS, HELDOUT_PER_LEN, seed=0)
    exclude = {tuple(s) for s in heldout}
    held_meanings = {parse_korean(s) for s in heldout}
    assert None not in held_meanings and len(held_meanings) == len(heldout)  # each one a distinct combination
    rng = random.Random(1)
    drawn = sample_sources(rng, KO_EN, MIN_WORDS, MAX_WORDS, 3000, exclude)
    drawn += sample_sources(rng, KO_EN, 2, 2, 1000, exclude)  # 2 words: an eighth of them held out
    assert not {parse_korean(s) for s in drawn} & held_meanings
    # The same draws without the exclusion do hit held-out sentences: the check above can fail.
    free = sample_sources(random.Random(1), KO_EN, 2, 2, 1000, set())
    assert {tuple(s) for s in free} & exclude


# --- hand attention, alignment, recurrence --------------------------------------------------------------------


@pytest.mark.parametrize("model", [m for m in MODELS if m[0] != "none"], ids="-".join)
def test_hand_attention_equals_the_module(model, trained):
    out = decode(trained[model], parse_source(KO_EN, f"{SENTENCE} <pad>"))
    assert out.weights is not None and out.weights.shape == (len(out.output), 5)
    assert float(out.weights[:, -1].abs().max()) == 0.0  # the PAD column
    assert out.max_abs_diff < 1e-5


def _direct_hits(result) -> tuple[int, int, int]:
    """(hits, counted words, target tokens incl. <eos>), one sentence at a time with no padding: each step fed
    the true previous English word, its largest weight compared with the grammar's source word."""
    model, config = result.run.model, result.config
    ko = {w: i for i, w in enumerate(source_vocab(KO_EN))}
    en = {w: i for i, w in enumerate(target_vocab(KO_EN))}
    hits = counted = tokens = 0
    with torch.no_grad():
        for source in make_heldout(KO_EN, config.min_len, config.max_len, HELDOUT_PER_LEN, config.seed):
            pair = translate(source)
            memory, state = model.encode(torch.tensor([[ko[w] for w in source]]), torch.tensor([len(source)]))
            fed = [SOS_ID] + [en[w] for w in pair.en]  # (T,) the true previous words
            for word_id, true_source in zip(fed, [*pair.align, None], strict=True):
                _, state, weights, _ = model.decoder.step(torch.tensor([word_id]), state, memory)  # weights (1, S)
                tokens += 1
                if true_source is not None:
                    counted += 1
                    hits += int(weights[0].argmax()) == true_source
    return hits, counted, tokens


@pytest.mark.parametrize("model", [("luong_general", "gru"), ("bahdanau", "gru"), ("luong_general", "lstm")])
def test_alignment_counts_every_heldout_content_word(model, trained):
    score = lab.alignment_score(trained[model])
    hits, counted, tokens = _direct_hits(trained[model])
    assert score.n_words == counted
    assert score.n_words + score.n_function == tokens
    assert score.hits == hits
    assert score.accuracy == pytest.approx(hits / counted)
    assert score.n_sentences == trained[model].run.n_heldout
    assert set(score.function_words) == {"a", "an", "the"}  # all three occur in 240 held-out sentences
    assert sum(n for _, _, n in score.per_word) == counted


def test_no_alignment_without_attention(trained):
    assert lab.alignment_score(trained[("none", "gru")]) is None


@pytest.mark.parametrize("model", [m for m in MODELS if m[1] == "gru"], ids="-".join)
def test_attention_does_not_remove_recurrence(model, trained):
    source = parse_source(KO_EN, SENTENCE)
    rec = lab.recurrence(trained[model], source)
    assert rec.chained
    assert rec.inputs[0] == "<sos>" and rec.inputs[1:] == rec.outputs[:-1]
    assert rec.first_changed is None or rec.first_changed >= rec.swap_step
    assert rec.tf_loss == pytest.approx(rec.tf_loss_steps, abs=1e-5)
    T = len(translate(source.tokens).en) + 1  # the English words and <eos>
    assert rec.tf_calls == (T if model[0] == "bahdanau" else 1)
    assert rec.free_calls == len(rec.outputs)


# --- the lab's settings and the comparison --------------------------------------------------------------------


def test_comparison_configs_differ_only_in_cell():
    config = lab.lab_config(steps=50, seed=4, attention="bahdanau")
    configs = lab.comparison_configs(config)
    assert [c.cell for c in configs] == ["rnn", "lstm", "gru"]
    for c in configs:
        assert replace(c, cell=config.cell) == config
        assert [f.name for f in fields(c) if getattr(c, f.name) != getattr(config, f.name)] in ([], ["cell"])


@pytest.mark.parametrize(
    "raw, field",
    [({"cell": "transformer"}, "cell"), ({"attention": "magic"}, "attention"), ({"steps": 0}, "steps")],
)
def test_lab_config_rejects_bad_settings_naming_the_field(raw, field):
    with pytest.raises(InputError) as err:
        lab.lab_config(**raw)
    assert err.value.field == f"training.field.{field}"


def test_lab_config_is_always_the_translation_task():
    assert lab.lab_config() == lab.DEFAULT
    assert lab.lab_config(task="reverse").task == KO_EN


def test_parameter_count_equals_a_trained_runs(trained):
    for result in trained.values():
        assert lab.n_parameters(result.config) == result.run.n_params


def test_truth_cells_mark_each_right_words_true_source_only():
    from s2s_core.training.charts import LABELS
    from s2s_core.training.trace import MapPoint
    from s2s_core.translation.charts import TRUTH_LABELS, truth_cells, truth_map

    ko = ("나는", "도서관에서", "책을", "읽었다")
    en = ("i", "read", "a", "book", "in", "the", "library", "<eos>")
    uniform = tuple((0.25,) * 4 for _ in en)
    right = MapPoint(300, ko, en, uniform, True)
    # i <- 나는, read <- 읽었다 (the crossing), book <- 책을, in / library <- 도서관에서; a, the and <eos> unmarked
    assert truth_cells(right) == ((0, 0), (1, 3), (3, 2), (4, 1), (6, 1))
    wrong = MapPoint(300, ko, ("i", "ate", "a", "book", "<eos>"), uniform[:5], False)
    assert truth_cells(wrong) == ((0, 0), (3, 2))  # a wrong word's row is left unmarked
    outside = MapPoint(300, ("책을", "나는", "읽었다"), ("i", "<eos>"), uniform[:2], False)
    assert truth_cells(outside) == ()
    labels = {k: k for k in (*LABELS, *TRUTH_LABELS)}  # the Training lab's map words and the truth's own
    spec = truth_map(right, labels).to_dict()
    assert "layer" in spec  # the heatmap plus the dashed frames


def test_the_three_cells_charts_take_exactly_their_words(trained):
    from s2s_core.translation.charts import CELLS_LABELS, cells_charts

    cells = ("rnn", "lstm", "gru")
    runs = [trained[("luong_general", cell)].run for cell in cells]
    charts = cells_charts(cells, runs, {k: k for k in CELLS_LABELS})  # a missing word would raise KeyError
    assert set(charts) == {"loss", "exact"} and all(chart.to_dict() for chart in charts.values())


def test_the_labs_fields_share_the_training_labs_caps_and_default_to_the_labs_settings():
    from s2s_core.training import fields as training
    from s2s_core.translation import fields as page

    assert lab.DEFAULT is page.DEFAULT and page.SOURCE.default == SENTENCE
    inputs = (page.ATTENTION, page.CELL, page.STEPS, page.SEED, page.HIDDEN)
    assert lab.lab_config(**{f.key.removeprefix("translation_"): f.default for f in inputs}) == lab.DEFAULT
    shared = ((page.STEPS, training.STEPS), (page.HIDDEN, training.HIDDEN), (page.SEED, training.SEED))
    assert all((mine.lo, mine.hi) == (theirs.lo, theirs.hi) for mine, theirs in shared)
    assert set(page.ATTENTIONS) <= set(training.ATTENTION.options)


def test_the_question_is_graded_by_the_running_model(trained):
    rec = lab.recurrence(trained[("bahdanau", "gru")], parse_source(KO_EN, SENTENCE))
    assert lab.quiz_answer(rec) == ("no" if rec.chained else "yes")
    assert lab.quiz_answer(replace(rec, chained=False)) == "yes" and lab.quiz_answer(rec) in lab.QUIZ_OPTIONS
    assert lab.quiz_word(rec) == rec.outputs[1 if len(rec.outputs) > 1 else 0]
