"""The Training lab's math: validated settings, a capped seeded training run, decoding a typed source,
the what-if override, and the on-screen checks (loss by hand, attention by hand).

Shapes: B batch, S source length, T output steps, H hidden, V vocabulary.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from typing import Any

import torch
import torch.nn.functional as F

from s2s_core.errors import InputError
from s2s_core.grammar import KO_VOCAB, MAX_WORDS, MIN_WORDS, nearest_words
from s2s_core.training import fields
from s2s_core.training.config import CELLS, TrainConfig
from s2s_core.training.fields import DEFAULT, MAX_DECODE, MAX_LEN, MAX_SOURCE, TRAIN_TASKS
from s2s_core.training.loop import (
    HELDOUT_PER_LEN,
    EvalPoint,
    Progress,
    TrainRun,
    cut_at_eos,
    encode_batch,
    new_model,
    train_loop,
)
from s2s_core.training.model import Memory, Seq2Seq
from s2s_core.training.tasks import (
    DIGITS,
    EOS,
    EOS_ID,
    FILLERS,
    KO_EN,
    NAMES,
    NAMES_MAX_DIGITS,
    NAMES_MIN_LEN,
    NAMES_TASK,
    NUM_MAX_DIGITS,
    NUM_TASKS,
    PAD,
    PAD_ID,
    SOS_ID,
    copied,
    make_heldout,
    reference,
    source_vocab,
    target_vocab,
)
from s2s_core.training.trace import MapPoint, Recorder, Trace, default_source_text
from s2s_core.validate import check_choice, check_int, check_text, parse_number

_TOKEN = re.compile(r"<pad>|\S", re.IGNORECASE)


def parse_config(
    task: Any = DEFAULT.task,
    attention: Any = DEFAULT.attention,
    embed: Any = DEFAULT.embed,
    hidden: Any = DEFAULT.hidden,
    steps: Any = DEFAULT.steps,
    batch: Any = DEFAULT.batch,
    lr: Any = DEFAULT.lr,
    tf_ratio: Any = DEFAULT.tf_ratio,
    tf_schedule: Any = DEFAULT.tf_schedule,
    min_len: Any = DEFAULT.min_len,
    max_len: Any = DEFAULT.max_len,
    seed: Any = DEFAULT.seed,
    max_seconds: Any = DEFAULT.max_seconds,
    cell: Any = DEFAULT.cell,
) -> TrainConfig:
    """Raw widget / URL values -> a validated config; the first problem raises InputError naming its field.
    Each value is checked by its field (fields.py); the Translation lab's task and cells are allowed here too."""
    task = fields.TASK.check(task, options=TRAIN_TASKS)
    attention = fields.ATTENTION.check(attention)
    tf_schedule = fields.SCHEDULE.check(tf_schedule)
    cell = check_choice(cell, "training.field.cell", CELLS)  # the Translation lab's input (its own fields.py)
    embed = fields.EMBED.check(embed)
    hidden = fields.HIDDEN.check(hidden)
    steps = fields.STEPS.check(steps)
    batch = fields.BATCH.check(batch)
    lr = fields.LR.check(lr)
    tf_ratio = fields.TF_RATIO.check(tf_ratio)
    shortest, longest = 1, NUM_MAX_DIGITS if task in NUM_TASKS else MAX_LEN
    if task == KO_EN:
        shortest, longest = MIN_WORDS, MAX_WORDS  # the toy grammar's sentences have 2..7 Korean words
    if task == NAMES_TASK:
        shortest = NAMES_MIN_LEN  # a name, a digit and a filler word
    min_len = fields.LEN_MIN.check(min_len, lo=shortest, hi=longest)
    max_len = fields.LEN_MAX.check(max_len, lo=shortest, hi=longest)
    if min_len > max_len:
        raise InputError("training.error.lengths_order", fields.LEN_MAX.label, lo=min_len, hi=max_len)
    seed = fields.SEED.check(seed)
    max_seconds = fields.TIME_LIMIT.check(max_seconds)
    values = locals()  # every argument, each validated above under its field's name
    return TrainConfig(**{f.name: values[f.name] for f in dataclass_fields(TrainConfig)})


@dataclass(frozen=True)
class SourceInput:
    """A typed source: its tokens (digits, or Korean words for ko_en), and how many PAD tokens were typed after."""

    tokens: tuple[str, ...]
    n_pad: int = 0


def _split_words(text: str) -> list[str]:
    """A Korean sentence -> its words (spaces separate them); PAD in any letter case is the PAD token."""
    # NFC: Hangul typed as separate letters (jamo) becomes the syllables the vocabulary is written in.
    return [PAD if word.lower() == PAD else unicodedata.normalize("NFC", word) for word in text.split()]


def parse_source(task: str, text: Any, field: str = "training.field.source") -> SourceInput:
    """'12345' or '1 2 3 <pad> <pad>' -> digits (+ trailing PADs); for ko_en, Korean words separated by spaces.
    Empty, all-PAD, unknown characters or words (named, with the nearest known words), PAD inside the sentence,
    too long, or (number tasks) a leading zero raise InputError."""
    text = check_text(text, field)
    if task == NAMES_TASK:
        return _names_source(text, field)
    if task == KO_EN:
        tokens = _split_words(text)
    else:
        tokens = [tok.lower() for tok in _TOKEN.findall(text)]  # spaces only separate; each digit is a token
    if all(tok == PAD for tok in tokens):
        raise InputError("errors.all_pad", field)
    if task == KO_EN:
        unknown_words = list(dict.fromkeys(tok for tok in tokens if tok != PAD and tok not in KO_VOCAB))
        if unknown_words:
            word = unknown_words[0]  # the first one named with its neighbours; the rest listed
            near = ", ".join(nearest_words(word)) or "—"
            raise InputError(
                "training.error.unknown_words", field, words=" ".join(unknown_words[:6]), word=word, near=near
            )
    unknown = sorted({tok for tok in tokens if tok != PAD and tok not in DIGITS})
    if unknown and task != KO_EN:
        raise InputError("training.error.unknown_chars", field, chars=" ".join(unknown[:8]))
    real = [tok for tok in tokens if tok != PAD]
    n_pad = len(tokens) - len(real)
    if PAD in tokens[: len(real)]:
        raise InputError("training.error.pad_inside", field)
    if len(real) > MAX_SOURCE:
        raise InputError("errors.too_many_tokens", field, count=len(real), limit=MAX_SOURCE)
    if task in NUM_TASKS:
        if len(real) > NUM_MAX_DIGITS:
            raise InputError("training.error.number_too_long", field, count=len(real), limit=NUM_MAX_DIGITS)
        if len(real) > 1 and real[0] == "0":
            raise InputError("training.error.leading_zero", field)
    if len(tokens) > MAX_SOURCE:
        raise InputError("errors.too_many_tokens", field, count=len(tokens), limit=MAX_SOURCE)
    return SourceInput(tuple(real), n_pad)


_NAMES_WORDS = {tok.lower(): tok for tok in (*NAMES, *FILLERS)}


def _names_source(text: str, field: str) -> SourceInput:
    """The names task's source: words separated by spaces (names in any letter case), a number written as digits
    ('42' or '4 2': one token per digit), trailing <pad>s. Exactly one name and one number of at most
    NAMES_MAX_DIGITS digits, as in training."""
    tokens: list[str] = []
    for word in text.split():
        low = word.lower()
        if low == PAD:
            tokens.append(PAD)
        elif word.isascii() and word.isdigit():
            tokens += list(word)
        else:
            tokens.append(_NAMES_WORDS.get(low, word))
    if all(tok == PAD for tok in tokens):
        raise InputError("errors.all_pad", field)
    known = set(source_vocab(NAMES_TASK))
    unknown = list(dict.fromkeys(tok for tok in tokens if tok not in known))
    if unknown:
        raise InputError(
            "training.error.unknown_names_words",
            field,
            words=" ".join(unknown[:6]),
            names=", ".join(NAMES),
            fillers=", ".join(FILLERS),
        )
    real = [tok for tok in tokens if tok != PAD]
    if PAD in tokens[: len(real)]:
        raise InputError("training.error.pad_inside", field)
    if len(tokens) > MAX_SOURCE:
        raise InputError("errors.too_many_tokens", field, count=len(tokens), limit=MAX_SOURCE)
    runs = "".join("d" if tok in DIGITS else " " for tok in real).split()  # the runs of digits
    quantity = copied(real)[1]
    if sum(tok in NAMES for tok in real) != 1 or len(runs) != 1:
        raise InputError("training.error.names_one_each", field, names=", ".join(NAMES), limit=NAMES_MAX_DIGITS)
    if len(quantity) > NAMES_MAX_DIGITS:
        raise InputError("training.error.number_too_long", field, count=len(quantity), limit=NAMES_MAX_DIGITS)
    if len(quantity) > 1 and quantity[0] == "0":
        raise InputError("training.error.leading_zero", field)
    return SourceInput(tuple(real), len(tokens) - len(real))


@dataclass(frozen=True)
class LossCheck:
    """The training loss written out: mean of -log p(target) over real tokens only, vs PyTorch's ignore_index."""

    torch_ignore: float  # F.cross_entropy(..., ignore_index=PAD_ID)
    with_pad: float  # what the mean would be if PAD targets were counted as tokens to predict
    n_real: int
    n_total: int
    max_abs_diff: float  # |by hand (sum of -log p over non-PAD targets / their count) - torch_ignore|


@dataclass(frozen=True)
class TrainResult:
    """A finished training run and what the page shows about it (held read-only in the cache)."""

    config: TrainConfig
    run: TrainRun
    final: EvalPoint
    loss_check: LossCheck
    trace: Trace | None = None  # when each step ended and the checkpoint maps: what a replay draws


def twin_config(config: TrainConfig) -> TrainConfig:
    """The bottleneck comparison: the same task, sizes, budget and seed, with attention switched."""
    return replace(config, attention="none" if config.attention != "none" else "bahdanau")


QUIZ_OPTIONS = ("tf", "free", "equal")  # training.quiz_*: on held-out sources, which token accuracy is higher?
QUIZ_TIE = 0.005  # less than half a percentage point apart: "about the same"


def quiz_answer(final: EvalPoint) -> str:
    """The page's question graded by the run itself: teacher-forced vs free-running token accuracy."""
    gap = final.tf_token_acc - final.free_token_acc
    if abs(gap) < QUIZ_TIE:
        return "equal"
    return "tf" if gap > 0 else "free"


def loss_check(run: TrainRun, config: TrainConfig) -> LossCheck:
    """Teacher-forced held-out loss: by hand over non-PAD tokens vs ignore_index vs PAD counted."""
    heldout = make_heldout(config.task, config.min_len, config.max_len, HELDOUT_PER_LEN, config.seed)
    return batch_loss_check(run.model, encode_batch(config.task, heldout))


def batch_loss_check(model: Seq2Seq, batch: tuple[torch.Tensor, ...]) -> LossCheck:
    """loss_check on any encoded batch (src, lengths, y_in, y_out): a task's held-out set, or a learner's."""
    src, lengths, y_in, y_out = batch
    with torch.no_grad():
        logits = model(src, lengths, y_in)  # (B, T, V)
        nll = -logits.log_softmax(dim=-1).gather(-1, y_out.unsqueeze(-1)).squeeze(-1)  # (B, T) -log p(target)
        real = y_out != PAD_ID  # (B, T)
        by_hand = (nll * real).sum() / real.sum()  # the mean over real tokens
        torch_ignore = F.cross_entropy(logits.transpose(1, 2), y_out, ignore_index=PAD_ID)
        with_pad = F.cross_entropy(logits.transpose(1, 2), y_out)  # PAD counted as a class to predict
    return LossCheck(
        float(torch_ignore), float(with_pad), int(real.sum()), real.numel(), abs(float(by_hand) - float(torch_ignore))
    )


def train(
    config: TrainConfig, on_progress: Callable[[Progress], None] | None = None, stop: Callable[[], bool] | None = None
) -> TrainResult:
    """One capped, seeded training run (the config was validated by parse_config); stop() -> True cancels it.
    The run's trace is recorded with it, so a later visitor can watch it train again without training."""
    source = parse_source(config.task, default_source_text(config.task))
    recorder = Recorder(on_progress, lambda model, step: map_point(config, model, source, step))
    run = train_loop(config, recorder.progress, stop=stop, on_eval=recorder.checkpoint)
    return TrainResult(
        config=config, run=run, final=run.evals[-1], loss_check=loss_check(run, config), trace=recorder.trace()
    )


@dataclass(frozen=True)
class Survival:
    """The names task at one source length: how often the name and the quantity came through the model intact."""

    length: int  # source tokens
    name: float  # share of held-out sources whose output starts with their name
    quantity: float  # share whose quantity's digits follow it exactly, then <eos>
    n: int  # held-out sources of this length


def survival_by_length(sources: list[list[str]], outputs: list[list[str]]) -> tuple[Survival, ...]:
    """Per source length: the share of outputs that carry the source's name (first token) and its quantity (the
    digits after the name, exactly, and then <eos>). outputs are free-running token lists, cut after <eos>."""
    counts: dict[int, list[int]] = {}
    for source, output in zip(sources, outputs, strict=True):
        name, quantity = copied(source)
        row = counts.setdefault(len(source), [0, 0, 0])
        row[0] += output[:1] == [name]
        row[1] += tuple(output[1:]) == (*quantity, EOS)
        row[2] += 1
    return tuple(Survival(n, name / total, qty / total, total) for n, (name, qty, total) in sorted(counts.items()))


def copy_survival(config: TrainConfig, model: Seq2Seq) -> tuple[Survival, ...]:
    """The names task's bottleneck, measured: the trained model free-running on the run's own held-out sources
    (the ones by_length scores), and how often each copied item survives, by length."""
    heldout = make_heldout(config.task, config.min_len, config.max_len, HELDOUT_PER_LEN, config.seed)
    src, lengths, _, y_out = encode_batch(config.task, heldout)
    itos = target_vocab(config.task)
    with torch.no_grad():
        preds = model.greedy(src, lengths, max_steps=y_out.shape[1])["preds"]  # (B, T)
    outputs = [[itos[i] for i in cut_at_eos(row)] for row in preds.tolist()]
    return survival_by_length(heldout, outputs)


def map_point(config: TrainConfig, model: Seq2Seq, source: SourceInput, step: int) -> MapPoint:
    """The source decoded by the model as it is now: a checkpoint of the trace (plain numbers, no tensors)."""
    out = decode_model(config, model, source)
    weights = None if out.weights is None else tuple(tuple(float(w) for w in row) for row in out.weights.tolist())
    return MapPoint(step, out.src_tokens, out.output, weights, out.exact)


def untrained_map(config: TrainConfig, source: SourceInput | None = None) -> MapPoint:
    """The model before its first step (the same seeded initial weights train() starts from) on a source
    (the task's default): near-uniform weights and a wrong output, the picture training will change."""
    model = new_model(config, torch.Generator().manual_seed(config.seed))  # train_loop's own first draw
    model.eval()
    return map_point(config, model, source or parse_source(config.task, default_source_text(config.task)), 0)


@dataclass(frozen=True)
class DecodeResult:
    """One typed source through the trained model: free-running and teacher-forced, step by step."""

    source: tuple[str, ...]  # the tokens typed (digits, or Korean words)
    src_tokens: tuple[str, ...]  # with the typed PADs: the columns of the attention map
    expected: tuple[str, ...]  # the task's right answer; () for a Korean sentence outside the toy grammar
    output: tuple[str, ...]  # free-running output tokens up to and including <eos> (if it came)
    inputs: tuple[str, ...]  # the token fed at each output step: <sos>, then the previous OUTPUT
    weights: torch.Tensor | None  # (T, S) attention weights per output step; None without attention
    exact: bool  # output == expected + <eos>
    tf_preds: tuple[str, ...]  # argmax at each step when fed the EXPECTED previous token (teacher forcing)
    tf_nll: tuple[float, ...]  # -log p(expected token) at each teacher-forced step
    hand_weights: torch.Tensor | None  # (T, S) the same weights from the score formula, position by position
    max_abs_diff: float  # |hand - module| over all weights (0 without attention)
    first_changed: int | None = None  # what-if: first output step whose token differs from the original


def _source_tensors(task: str, source: SourceInput) -> tuple[torch.Tensor, torch.Tensor, tuple[str, ...]]:
    stoi = {tok: i for i, tok in enumerate(source_vocab(task))}
    tokens = source.tokens + (PAD,) * source.n_pad
    src = torch.tensor([[stoi[tok] for tok in tokens]])  # (1, S)
    return src, torch.tensor([len(source.tokens)]), tokens  # lengths (1,)


def hand_attention(kind: str, attention: torch.nn.Module, queries: torch.Tensor, memory: Memory) -> torch.Tensor:
    """Attention weights from the paper's formula, one (step, position) at a time with the module's own
    weights; PAD gets weight 0 by leaving it out of the sum. queries (T, H) -> weights (T, S)."""
    values = memory.values[0]  # (S, H)
    real = memory.mask[0].tolist()  # (S,)
    rows = []
    for q in queries:  # q: (H,)
        scores = []
        for _s, h in enumerate(values):  # h: (H,)
            if kind == "bahdanau":  # vᵀ tanh(W_s s + W_h h + b)
                a = attention.W_s.weight @ q + attention.W_h.weight @ h + attention.W_h.bias  # (H,)
                scores.append(float(attention.v.weight[0] @ torch.tanh(a)))
            elif kind in ("luong_general", "luong_prev"):  # sᵀ W_a h (luong_prev: s = s_(t-1))
                scores.append(float(q @ (attention.W_a.weight @ h)))
            else:  # dot: sᵀ h
                scores.append(float(q @ h))
        top = max(sc for sc, r in zip(scores, real, strict=False) if r)  # subtract the max: exp never overflows
        exps = [torch.exp(torch.tensor(sc - top)).item() if r else 0.0 for sc, r in zip(scores, real, strict=False)]
        rows.append([e / sum(exps) for e in exps])
    return torch.tensor(rows)  # (T, S)


def decode(
    result: TrainResult, source: SourceInput, override: tuple[int, tuple[float, ...]] | None = None
) -> DecodeResult:
    """Greedy decoding of one source (override=(step k 0-based, weights) replaces step k's attention)."""
    return decode_model(result.config, result.run.model, source, override)


def decode_model(
    config: TrainConfig, model: Seq2Seq, source: SourceInput, override: tuple[int, tuple[float, ...]] | None = None
) -> DecodeResult:
    """decode() for any model of config's shape: the trained one, or one at a checkpoint of its training."""
    itos = target_vocab(config.task)
    tgt_stoi = {tok: i for i, tok in enumerate(itos)}
    src, lengths, src_tokens = _source_tensors(config.task, source)
    known = reference(config.task, list(source.tokens))  # None: a Korean sentence outside the toy grammar
    expected = tuple(known) if known is not None else ()
    # Without a reference (outside the grammar), room for an English sentence about twice the Korean's length.
    max_steps = min(MAX_DECODE, (len(expected) if known is not None else 2 * len(source.tokens)) + 3)
    w_override = None
    if override is not None:
        w_override = (override[0], torch.tensor([override[1]], dtype=torch.float32))  # (1, S)
    with torch.no_grad():
        # 1) Free-running: each step's input is the previous step's argmax.
        trace = model.greedy(src, lengths, max_steps, override=w_override)
        out_ids = cut_at_eos(trace["preds"][0].tolist())
        T = len(out_ids)
        weights = trace["weights"][0, :T] if trace["weights"] is not None else None  # (T, S)
        queries = trace["queries"][0, :T]  # (T, H)
        # 2) Teacher forcing on the expected answer: each input is the TRUE previous token.
        y_in = torch.tensor([[SOS_ID] + [tgt_stoi[tok] for tok in expected]])  # (1, T*)
        y_out = torch.tensor([[tgt_stoi[tok] for tok in expected] + [EOS_ID]])  # (1, T*)
        tf_logits = model(src, lengths, y_in)[0]  # (T*, V)
        tf_nll = -tf_logits.log_softmax(-1).gather(-1, y_out[0].unsqueeze(-1)).squeeze(-1)  # (T*,)
        # 3) The weights again, from the formula: the on-screen check against the module.
        hand, diff = None, 0.0
        if weights is not None:
            hand = hand_attention(config.attention, model.decoder.attention, queries, trace["memory"])
            if override is not None and override[0] < T:
                hand[override[0]] = weights[override[0]]  # that row was typed, not computed
            diff = float((hand - weights).abs().max())
    return DecodeResult(
        source=source.tokens,
        src_tokens=src_tokens,
        expected=expected,
        output=tuple(itos[i] for i in out_ids),
        inputs=tuple(itos[i] for i in trace["inputs"][0, :T].tolist()),
        weights=weights,
        exact=known is not None and out_ids == [tgt_stoi[tok] for tok in expected] + [EOS_ID],
        tf_preds=tuple(itos[i] for i in tf_logits.argmax(-1).tolist()),
        tf_nll=tuple(float(x) for x in tf_nll),
        hand_weights=hand,
        max_abs_diff=diff,
    )


def parse_override(base: DecodeResult, step: Any, row: list[Any] | tuple[Any, ...]) -> tuple[int, tuple[float, ...]]:
    """What-if input: a 1-based output step and one weight per source position -> (step 0-based, weights
    normalised to sum 1). Negative weights, weight on PAD, an all-zero row, or a bad step raise InputError."""
    if base.weights is None:
        raise InputError("training.error.no_attention", "training.field.override")
    k = check_int(step, "training.field.override_step", 1, len(base.output)) - 1
    field = "training.field.override"
    S = len(base.src_tokens)
    if len(row) != S:
        raise InputError("errors.wrong_cols", field, count=len(row), expected=S)
    weights = [parse_number(v, field, row=1, col=c) for c, v in enumerate(row, start=1)]
    for c, (w, tok) in enumerate(zip(weights, base.src_tokens, strict=False), start=1):
        if w < 0:
            raise InputError("training.error.negative_weight", field, col=c)
        if tok == PAD and w != 0:
            raise InputError("training.error.weight_on_pad", field, col=c)
    total = sum(weights)
    if total <= 0:
        raise InputError("training.error.zero_weights", field)
    return k, tuple(w / total for w in weights)


def what_if(
    result: TrainResult, source: SourceInput, base: DecodeResult, override: tuple[int, tuple[float, ...]]
) -> DecodeResult:
    """Re-decode with step k's weights replaced; steps before k are untouched by construction."""
    new = decode(result, source, override)
    changed = [t for t, (a, b) in enumerate(zip(base.output, new.output, strict=False)) if a != b]
    if not changed and len(base.output) != len(new.output):
        changed = [min(len(base.output), len(new.output))]
    return replace(new, first_changed=changed[0] if changed else None)
