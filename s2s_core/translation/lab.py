"""The Translation lab's math beyond training itself: its settings, the alignment score (does the largest weight
fall on the Korean word an English word translates?), the three-cell comparison's settings, and the proof that
attention leaves the decoder recurrent.

Training, decoding and the attention map are the Training lab's own code (s2s_core/training) run on the task
"ko_en"; this module only reads the trained model. Shapes: B batch, S source words, T output steps, V vocabulary.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import torch

from s2s_core.grammar import FUNCTION_WORDS, translate
from s2s_core.training.compute import SourceInput, TrainResult, hand_attention, parse_config
from s2s_core.training.config import CELLS, MODEL_ATTENTIONS, NOTE_ATTENTION, TrainConfig
from s2s_core.training.loop import HELDOUT_PER_LEN, TrainRun, encode_batch, new_model
from s2s_core.training.model import Seq2Seq
from s2s_core.training.tasks import EOS_ID, KO_EN, PAD_ID, SOS_ID, make_heldout, source_vocab, target_vocab
from s2s_core.training.trace import MapPoint
from s2s_core.translation import fields
from s2s_core.translation.fields import DEFAULT


def lab_config(**raw: Any) -> TrainConfig:
    """Raw widget / URL values for the settings the page offers -> a validated ko_en config (the rest from
    DEFAULT). The attention is checked against every wiring the model builds (the lab offers the syllabus's,
    luong_prev, which the Training lab does not); parse_config checks each other value with the Training
    lab's fields (the caps this lab's fields share); the first bad value raises InputError naming its field."""
    values = {name: getattr(DEFAULT, name) for name in DEFAULT.__dataclass_fields__}
    values.update(raw)
    values["task"] = KO_EN  # the page trains nothing else
    attention = fields.ATTENTION.check(values["attention"], options=MODEL_ATTENTIONS)
    values["attention"] = DEFAULT.attention  # checked above; parse_config knows the Training lab's choices only
    return replace(parse_config(**values), attention=attention)


def comparison_configs(config: TrainConfig) -> tuple[TrainConfig, ...]:
    """The same data, seed, sizes, steps and time limit, one config per recurrent cell (RNN, LSTM, GRU)."""
    return tuple(replace(config, cell=cell) for cell in ("rnn", "lstm", "gru") if cell in CELLS)


def run_line(run: TrainRun) -> str:
    """translation.<key> for the line under a trained model: "trained_line" when it ran all its steps,
    "trained_line_time" when the time cap stopped it (then it names the steps done out of the steps asked)."""
    return "trained_line_time" if run.stopped_by == "time" else "trained_line"


def cells_outcome(runs: tuple[TrainRun, ...]) -> str:
    """translation.<key> over the three cells' finished runs: "cells_same_steps" only when every run finished the
    same number of steps (none cut by the time cap), else "cells_cut_short" (the table's steps column differs)."""
    same = len({run.steps_done for run in runs}) == 1 and all(run.stopped_by == "steps" for run in runs)
    return "cells_same_steps" if same else "cells_cut_short"


def cut_cells(configs: tuple[TrainConfig, ...], runs: tuple[TrainRun, ...]) -> tuple[str, ...]:
    """The cells (config.cell) whose run the time cap stopped before its last step."""
    return tuple(c.cell for c, run in zip(configs, runs, strict=True) if run.stopped_by == "time")


def n_parameters(config: TrainConfig) -> int:
    """The model's parameter count for config, without training it (a fresh untrained model is counted)."""
    return sum(p.numel() for p in new_model(config, torch.Generator()).parameters())


# --- alignment -----------------------------------------------------------------------------------------------


@torch.no_grad()
def teacher_forced_weights(model: Seq2Seq, src: torch.Tensor, lengths: torch.Tensor, y_in: torch.Tensor):
    """Attention weights (B, T, S) with the TRUE previous word fed at every step: row t is where the model looked
    while predicting target word t. Step by step, so it serves Bahdanau (whose steps chain) as well as Luong."""
    memory, state = model.encode(src, lengths)
    rows = []
    for t in range(y_in.shape[1]):
        _, state, weights, _ = model.decoder.step(y_in[:, t], state, memory)  # weights: (B, S)
        rows.append(weights)
    return torch.stack(rows, dim=1)  # T x (B, S) -> (B, T, S)


@dataclass(frozen=True)
class Alignment:
    """Over the held-out sentences: how often an English word's largest attention weight is on its source word."""

    accuracy: float  # hits / n_words
    hits: int
    n_words: int  # English words that have a source word (counted)
    n_function: int  # English tokens without a source (left out: articles and the like), and <eos>
    function_words: tuple[str, ...]  # which of FUNCTION_WORDS occurred (named on the page)
    per_word: tuple[tuple[str, float, int], ...]  # (English word, its accuracy, how often it occurred), worst first
    n_sentences: int
    verb_hits: int = 0  # held-out sentences whose main verb's row has its largest weight on the Korean verb
    verb_second: int = 0  # held-out sentences whose main verb is the 2nd English word (row 2)
    row2_hits: int = 0  # held-out sentences whose row 2 has its largest weight on the LAST Korean word

    @property
    def verb_share(self) -> float:
        """Share of held-out sentences where the main verb's row looks most at the Korean word it translates."""
        return self.verb_hits / self.n_sentences if self.n_sentences else 0.0


VERB_CROSSES = 0.5  # at least this share of held-out verb rows on their Korean verb: the page says the map crosses


def verb_notice(score: Alignment | None) -> str:
    """translation.<key> for the notice about the crossing: "notice_2_none" without a trained map,
    "notice_2" when the main verb's row looks most at the Korean verb in at least VERB_CROSSES of the held-out
    sentences, "notice_2_not_yet" when it does not."""
    if score is None:
        return "notice_2_none"
    return "notice_2" if score.verb_share >= VERB_CROSSES else "notice_2_not_yet"


def alignment_score(result: TrainResult) -> Alignment | None:
    """The alignment score of a trained ko_en model on its held-out set (None without attention)."""
    config = result.config
    if config.attention == "none":
        return None
    heldout = make_heldout(config.task, config.min_len, config.max_len, HELDOUT_PER_LEN, config.seed)
    src, lengths, y_in, _ = encode_batch(config.task, heldout)
    weights = teacher_forced_weights(result.run.model, src, lengths, y_in)  # (B, T, S)
    looked = weights.argmax(dim=-1).tolist()  # (B, T) the source position with the largest weight
    hits, counted, left_out = 0, 0, 0
    verb_hits, verb_second, row2_hits = 0, 0, 0
    seen_function: set[str] = set()
    by_word: dict[str, list[int]] = defaultdict(list)
    for b, source in enumerate(heldout):
        pair = translate(source)
        verb_hits += int(looked[b][pair.verb_row] == pair.align[pair.verb_row])
        verb_second += int(pair.verb_row == 1)
        row2_hits += int(len(pair.en) > 1 and looked[b][1] == len(pair.ko) - 1)  # the old claim: row 2 -> last word
        for t, (word, true_source) in enumerate(zip(pair.en, pair.align, strict=True)):
            if true_source is None:
                left_out += 1
                seen_function.add(word)
                continue
            hit = int(looked[b][t] == true_source)
            hits += hit
            counted += 1
            by_word[word].append(hit)
        left_out += 1  # <eos>: the end of the sentence has no source word either
    per_word = sorted(((w, sum(h) / len(h), len(h)) for w, h in by_word.items()), key=lambda x: (x[1], x[0]))
    return Alignment(
        accuracy=hits / counted if counted else 0.0,
        hits=hits,
        n_words=counted,
        n_function=left_out,
        function_words=tuple(w for w in FUNCTION_WORDS if w in seen_function),
        per_word=tuple(per_word),
        n_sentences=len(heldout),
        verb_hits=verb_hits,
        verb_second=verb_second,
        row2_hits=row2_hits,
    )


@dataclass(frozen=True)
class VerbRow:
    """The main verb's row on one sentence's map (the grammar's Pair.verb_row) and where its largest weight is."""

    row: int  # 0-based output step of the main verb
    word: str  # the English main verb the reference has there
    source: int  # index of the Korean word it translates (the Korean verb, or a split 하다 verb's noun: 공부)
    source_word: str
    output: str | None  # the word the model wrote at that row (None: the output is shorter)
    looked: int | None  # the source position with the row's largest weight (None when the model wrote another word)
    last: bool  # the Korean word it translates is the sentence's last

    @property
    def key(self) -> str:
        """translation.<key>: "verb_row_holds" (its largest weight on its Korean word, the last one),
        "verb_row_holds_noun" (on its Korean word, a 하다 verb's noun before 안), "verb_row_elsewhere" (on another
        word), "verb_row_wrong" (the model wrote another word in that row, so the row is not the verb's)."""
        if self.looked is None:
            return "verb_row_wrong"
        if self.looked != self.source:
            return "verb_row_elsewhere"
        return "verb_row_holds" if self.last else "verb_row_holds_noun"


def verb_row(point: MapPoint) -> VerbRow | None:
    """The main verb's row of a decoded sentence the grammar knows, with a map; None otherwise."""
    pair = translate(list(point.source))
    if pair is None or point.weights is None:
        return None
    row = pair.verb_row
    output = point.output[row] if row < len(point.output) else None
    weights = point.weights[row] if output == pair.en[row] else None
    looked = None if weights is None else max(range(len(weights)), key=lambda s: weights[s])
    source = pair.align[row]
    return VerbRow(row, pair.en[row], source, pair.ko[source], output, looked, source == len(pair.ko) - 1)


def true_sources(source: SourceInput) -> tuple[int | None, ...] | None:
    """For a typed sentence the grammar knows: per English word, the index of its Korean source word (None for a
    function word); the page marks these cells on the map. None outside the grammar."""
    pair = translate(list(source.tokens))
    return None if pair is None else pair.align


# --- attention does not remove recurrence ---------------------------------------------------------------------


@dataclass(frozen=True)
class Recurrence:
    """The decoder, free-running, fed its own previous word; and what changes when one fed word is swapped."""

    inputs: tuple[str, ...]  # the word fed at each step: <sos>, then the previous step's OUTPUT
    outputs: tuple[str, ...]  # the word chosen at each step (up to <eos>)
    chained: bool  # inputs[t] == outputs[t-1] for every t >= 1: step t needs step t-1 first
    swap_step: int  # 0-based step whose fed word is swapped (the first step after <sos>)
    swap_word: str  # the word fed there instead
    swapped_outputs: tuple[str, ...]  # outputs of the same model with that one input swapped
    first_changed: int | None  # first step whose output differs (never before swap_step)
    tf_loss: float  # the teacher-forced loss of the reference, ALL steps in ONE call of the model
    tf_loss_steps: float  # the same loss computed step by step (equal: the inputs were known in advance)
    tf_calls: int  # decoder calls for the teacher-forced loss: 1 (Luong / none) or T (Bahdanau chains steps)
    free_calls: int  # decoder calls for free-running decoding: always T


def tf_line_key(rec: Recurrence) -> str:
    """translation.<key> for the teacher-forcing line: "tf_line_one" when the teacher-forced pass is one decoder
    call, "tf_line_steps" when it took one call per step (Bahdanau: the context enters the cell)."""
    return "tf_line_one" if rec.tf_calls == 1 else "tf_line_steps"


def recurrence_key(attention: str, rec: Recurrence) -> str:
    """translation.<key> for why the teacher-forced pass took rec.tf_calls calls with this attention."""
    if rec.tf_calls > 1:
        return "recurrence_bahdanau"
    return "recurrence_prev" if attention == NOTE_ATTENTION else "recurrence_parallel"


QUIZ_OPTIONS = ("yes", "no", "short")  # translation.quiz_*: with attention, can step 3 come before step 2?


def quiz_answer(rec: Recurrence) -> str:
    """The page's question graded by the running model: "no" while every step is fed the previous step's output."""
    return "no" if rec.chained else "yes"


def quiz_word(rec: Recurrence) -> str:
    """The word the answer names: the second English word (the first, for a one-word output), which step 3 needs."""
    return rec.outputs[1] if len(rec.outputs) > 1 else rec.outputs[0]


@torch.no_grad()
def _free_run(model: Seq2Seq, src, lengths, max_steps: int, swap: tuple[int, int] | None = None) -> tuple[list, list]:
    """Greedy decoding; swap=(k, id) feeds word id at step k instead of the previous output. -> (inputs, outputs)."""
    memory, state = model.encode(src, lengths)
    y = torch.tensor([SOS_ID])  # (1,)
    inputs, outputs = [], []
    for t in range(max_steps):
        if swap is not None and t == swap[0]:
            y = torch.tensor([swap[1]])  # (1,) the swapped input
        logits, state, _, _ = model.decoder.step(y, state, memory)  # (1, V)
        inputs.append(int(y))
        y = logits.argmax(dim=-1)  # (1,) fed back at the next step
        outputs.append(int(y))
        if int(y) == EOS_ID:
            break
    return inputs, outputs


@torch.no_grad()
def recurrence(result: TrainResult, source: SourceInput) -> Recurrence:
    """Free-running vs teacher-forced on one typed sentence (its PADs dropped). The swapped word is the first
    English word of the vocabulary that differs from the model's own first output."""
    config, model = result.config, result.run.model
    src_ids = [source_vocab(config.task).index(w) for w in source.tokens]
    src, lengths = torch.tensor([src_ids]), torch.tensor([len(src_ids)])  # (1, S), (1,)
    itos = target_vocab(config.task)
    pair = translate(list(source.tokens))
    # As decode() does: room for the reference and 3 more, or (outside the grammar) twice the Korean words and 3.
    max_steps = (len(pair.en) if pair is not None else 2 * len(src_ids)) + 3
    inputs, outputs = _free_run(model, src, lengths, max_steps)
    # Swap the word fed at step 1 (the model's first output): the first vocabulary word (in order) that changes
    # what comes after shows that each step waits on the one before; attention often repairs a swap, so the
    # search is needed, and when no word changes anything the page says that too.
    k = 1 if len(outputs) > 1 else 0
    swap_id, swapped, changed = 4, outputs, []
    for candidate in range(4, len(itos)):  # ids 0..3 are the specials
        if candidate == inputs[k]:
            continue
        _, trial = _free_run(model, src, lengths, max_steps, (k, candidate))
        diff = [t for t, (a, b) in enumerate(zip(outputs, trial, strict=False)) if a != b]
        if not diff and len(outputs) != len(trial):
            diff = [min(len(outputs), len(trial))]
        if diff or candidate == 4:
            swap_id, swapped, changed = candidate, trial, diff
        if diff:
            break
    # Teacher forcing on the reference (or, outside the grammar, on the model's own output): every input known.
    stoi = {w: i for i, w in enumerate(itos)}
    target = [stoi[w] for w in pair.en] if pair is not None else [i for i in outputs if i != EOS_ID]
    y_in = torch.tensor([[SOS_ID, *target]])  # (1, T)
    y_out = torch.tensor([[*target, EOS_ID]])  # (1, T)
    logits = model(src, lengths, y_in)  # (1, T, V): one call over every step
    tf_loss = torch.nn.functional.cross_entropy(logits.transpose(1, 2), y_out, ignore_index=PAD_ID)
    memory, state = model.encode(src, lengths)
    step_losses = []
    for t in range(y_in.shape[1]):
        step_logits, state, _, _ = model.decoder.step(y_in[:, t], state, memory)  # (1, V)
        step_losses.append(torch.nn.functional.cross_entropy(step_logits, y_out[:, t]))
    return Recurrence(
        inputs=tuple(itos[i] for i in inputs),
        outputs=tuple(itos[i] for i in outputs),
        chained=all(inputs[t] == outputs[t - 1] for t in range(1, len(inputs))),
        swap_step=k,
        swap_word=itos[swap_id],
        swapped_outputs=tuple(itos[i] for i in swapped),
        first_changed=changed[0] if changed else None,
        tf_loss=float(tf_loss),
        tf_loss_steps=float(torch.stack(step_losses).mean()),
        tf_calls=1 if model.decoder.parallel else y_in.shape[1],
        free_calls=len(outputs),
    )


# --- the check: attention from the score formula == the module ------------------------------------------------
SCORE_OF = {NOTE_ATTENTION: "luong_general"}  # luong_prev scores as Luong general does, with s_(t-1) as the query


@torch.no_grad()
def hand_check(result: TrainResult, source: SourceInput) -> float | None:
    """max |weights by the formula - the module's weights| over the free-running decoding of one typed sentence
    (PADs dropped); None without attention. The queries are the ones each step scored with (s_t for Luong,
    s_(t-1) for Bahdanau and luong_prev), as the decoder returns them."""
    config, model = result.config, result.run.model
    if config.attention == "none":
        return None
    src_ids = [source_vocab(config.task).index(w) for w in source.tokens]
    src, lengths = torch.tensor([src_ids]), torch.tensor([len(src_ids)])  # (1, S), (1,)
    pair = translate(list(source.tokens))
    max_steps = (len(pair.en) if pair is not None else 2 * len(src_ids)) + 3
    trace = model.greedy(src, lengths, max_steps)
    preds = trace["preds"][0].tolist()
    T = preds.index(EOS_ID) + 1 if EOS_ID in preds else len(preds)
    weights = trace["weights"][0, :T]  # (T, S)
    kind = SCORE_OF.get(config.attention, config.attention)
    hand = hand_attention(kind, model.decoder.attention, trace["queries"][0, :T], trace["memory"])  # (T, S)
    return float((hand - weights).abs().max())
