"""Training and evaluation: seeded batches, teacher forcing or scheduled sampling, held-out accuracy.

torch + stdlib only (the code expander copies this file). Shapes: B batch, S source, T target steps, V vocab.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from s2s_core.rng import isolated
from s2s_core.training.config import TrainConfig
from s2s_core.training.model import Seq2Seq, init_parameters
from s2s_core.training.tasks import (
    EOS_ID,
    PAD_ID,
    SOS_ID,
    make_heldout,
    sample_sources,
    source_vocab,
    target_tokens,
    target_vocab,
)

HELDOUT_PER_LEN = 40  # held-out sources per length (fewer for lengths with few possible sources)
N_EVALS = 10  # held-out evaluations over a run (the last one at the last step)
CLIP = 1.0  # gradient-norm clipping: a safety net for the early, large gradients


@dataclass(frozen=True)
class EvalPoint:
    """Held-out scores at one step: teacher-forced (true previous tokens) vs free-running (own predictions)."""

    step: int
    seconds: float  # wall-clock time since training started
    tf_loss: float  # cross-entropy with teacher forcing, PAD targets ignored
    tf_token_acc: float  # share of target tokens right when every input is the true previous token
    free_token_acc: float  # share right when the model feeds back its own argmax (greedy)
    free_exact: float  # share of whole sequences right (up to and including EOS), free-running


@dataclass(frozen=True)
class Progress:
    """What the trainer tells its caller after every step (the page turns it into a progress bar and chart)."""

    step: int
    total: int
    loss: float
    tf_ratio: float
    seconds: float
    evaluation: EvalPoint | None


class TrainingCancelled(Exception):
    """Raised by train_loop when its stop() check says so (the caller cancelled the run)."""


@dataclass(frozen=True)
class TrainRun:
    """A finished run: the trained model (eval mode, read-only) and its whole history."""

    model: Seq2Seq
    losses: tuple[tuple[int, float, float], ...]  # (step, training loss, teacher-forcing ratio used)
    evals: tuple[EvalPoint, ...]
    by_length: tuple[tuple[int, float, int], ...]  # (source length, free-running exact match, n held-out)
    steps_done: int
    seconds: float
    stopped_by: str  # "steps" or "time"
    n_heldout: int
    n_params: int


def encode_batch(task: str, sources: list[list[str]]) -> tuple[torch.Tensor, ...]:
    """Token sources -> src (B, S), lengths (B,), y_in (B, T) = SOS + target, y_out (B, T) = target + EOS."""
    src_stoi = {tok: i for i, tok in enumerate(source_vocab(task))}
    tgt_stoi = {tok: i for i, tok in enumerate(target_vocab(task))}
    targets = [[tgt_stoi[tok] for tok in target_tokens(task, s)] for s in sources]
    S = max(len(s) for s in sources)
    T = max(len(t) for t in targets) + 1
    # Rows are padded as Python lists and turned into tensors once: one call instead of one per row.
    src = torch.tensor([[src_stoi[tok] for tok in s] + [PAD_ID] * (S - len(s)) for s in sources])  # (B, S)
    y_in = torch.tensor([[SOS_ID] + t + [PAD_ID] * (T - 1 - len(t)) for t in targets])  # (B, T)
    y_out = torch.tensor([t + [EOS_ID] + [PAD_ID] * (T - 1 - len(t)) for t in targets])  # (B, T)
    lengths = torch.tensor([len(s) for s in sources])  # (B,)
    return src, lengths, y_in, y_out


@dataclass(frozen=True)
class Batches:
    """What a run trains and scores on: a fixed held-out batch, a stream of training batches drawn with the run's
    own random generator, and the two vocabularies' sizes. A task's (task_batches: generated from the seed) or a
    learner's own sentence pairs (the Translation lab's own_train module)."""

    heldout: tuple[torch.Tensor, ...]  # src (B, S), lengths (B,), y_in (B, T), y_out (B, T)
    sample: Callable[[random.Random, int], tuple[torch.Tensor, ...]]  # (rng, B) -> one batch like heldout
    vocab_sizes: tuple[int, int]  # (source V, target V)


def task_batches(config: TrainConfig) -> Batches:
    """A generated task's data: held-out sources from the seed, training sources that never repeat one of them."""
    heldout = make_heldout(config.task, config.min_len, config.max_len, HELDOUT_PER_LEN, config.seed)
    exclude = {tuple(s) for s in heldout}

    def sample(rng: random.Random, B: int) -> tuple[torch.Tensor, ...]:
        return encode_batch(config.task, sample_sources(rng, config.task, config.min_len, config.max_len, B, exclude))

    sizes = (len(source_vocab(config.task)), len(target_vocab(config.task)))
    return Batches(encode_batch(config.task, heldout), sample, sizes)


def new_model(config: TrainConfig, generator: torch.Generator, vocab_sizes: tuple[int, int] | None = None) -> Seq2Seq:
    """A fresh model for config whose every initial weight comes from generator; vocab_sizes (source V, target V)
    when the vocabularies are not the task's (a learner's own sentences)."""
    # 1) The modules. Their default initialisation draws from torch's global generator, which other sessions of
    #    the same server may be seeding at this very moment: isolated() keeps those draws apart and puts the
    #    state back. (Not the "meta" device: initialising an nn.Embedding there imports torch._dynamo and sympy,
    #    ~75 MB and a second in every process that builds a model.)
    with isolated():
        V_src, V_tgt = vocab_sizes or (len(source_vocab(config.task)), len(target_vocab(config.task)))
        model = Seq2Seq(
            V_src,
            V_tgt,
            config.embed,
            config.hidden,
            config.attention,
            config.cell,
        )
    # 2) Every number again, from the run's own generator.
    init_parameters(model, generator)
    return model


def teacher_ratio(config: TrainConfig, step: int) -> float:
    """Teacher-forcing chance at a step (1-based); "linear" scheduled sampling falls to 0 by the last step."""
    if config.tf_schedule == "linear":
        return config.tf_ratio * (1 - (step - 1) / max(1, config.steps - 1))
    return config.tf_ratio


def cut_at_eos(ids: list[int]) -> list[int]:
    """A decoded row up to and including its first EOS (the rest is never read)."""
    return ids[: ids.index(EOS_ID) + 1] if EOS_ID in ids else ids


@torch.no_grad()
def evaluate(model: Seq2Seq, batch: tuple[torch.Tensor, ...], step: int, seconds: float):
    """Teacher-forced loss and accuracy vs free-running accuracy on the held-out batch; exact match per row."""
    src, lengths, y_in, y_out = batch
    real = y_out != PAD_ID  # (B, T) the targets that count (EOS included, PAD not)
    # 1) Teacher forcing: every input is the true previous token.
    logits = model(src, lengths, y_in)  # (B, T, V)
    tf_loss = F.cross_entropy(logits.transpose(1, 2), y_out, ignore_index=PAD_ID).item()
    tf_right = (logits.argmax(-1) == y_out) & real  # (B, T)
    # 2) Free-running: every input is the model's own previous argmax, as when it is used for real.
    preds = model.greedy(src, lengths, max_steps=y_out.shape[1])["preds"]  # (B, T')
    preds = F.pad(preds, (0, y_out.shape[1] - preds.shape[1]), value=PAD_ID)  # (B, T)
    free_right = (preds == y_out) & real  # (B, T)
    exact = (free_right | ~real).all(dim=1)  # (B,) every target token right, EOS included
    point = EvalPoint(
        step=step,
        seconds=seconds,
        tf_loss=tf_loss,
        tf_token_acc=(tf_right.sum() / real.sum()).item(),
        free_token_acc=(free_right.sum() / real.sum()).item(),
        free_exact=exact.float().mean().item(),
    )
    return point, exact


def train_loop(
    config: TrainConfig,
    on_progress: Callable[[Progress], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    stop: Callable[[], bool] | None = None,
    on_eval: Callable[[Seq2Seq, int], None] | None = None,
    data: Batches | None = None,
) -> TrainRun:
    """Train one model from config.seed; stops at config.steps or config.max_seconds, whichever comes first.
    stop() is asked before every step; when it says True the run raises TrainingCancelled. on_eval(model, step)
    sees the model (eval mode) before step 1 and at every held-out evaluation: a caller can record checkpoints.
    data: what to train on (the config's task by default)."""
    # 1) Data: a fixed held-out set, and a training stream that never draws a held-out source. Every random
    #    number of the run comes from its own seeded generators (Python's for the batches, torch's for the
    #    weights and the teacher-forcing coins), never from a process-wide one: runs at once cannot mix.
    rng = random.Random(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    data = data or task_batches(config)
    heldout_batch = data.heldout
    # 2) Model, optimiser, a learning rate that decays linearly to 0 (late, small steps settle the weights).
    model = new_model(config, generator, data.vocab_sizes)
    params = list(model.parameters())
    optimizer = torch.optim.Adam(params, lr=config.lr)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda i: 1 - i / config.steps)
    every = max(1, config.steps // N_EVALS)
    if on_eval is not None:
        model.eval()
        on_eval(model, 0)  # the untrained model: the picture training will change
    losses: list[tuple[int, float, float]] = []
    evals: list[EvalPoint] = []
    start = clock()
    stopped_by, step, exact = "steps", 0, None
    for step in range(1, config.steps + 1):
        if stop is not None and stop():
            raise TrainingCancelled(f"cancelled before step {step}")
        # 3) One batch: forward (teacher-forced or scheduled sampling), loss over real tokens, update.
        model.train()
        ratio = teacher_ratio(config, step)
        src, lengths, y_in, y_out = data.sample(rng, config.batch)  # (B, S), (B,), (B, T), (B, T)
        logits = model(src, lengths, y_in, ratio, generator)  # (B, T, V)
        loss = F.cross_entropy(logits.transpose(1, 2), y_out, ignore_index=PAD_ID)  # mean over non-PAD targets
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(params, CLIP)
        optimizer.step()
        schedule.step()
        losses.append((step, loss.item(), ratio))
        # 4) Held-out check now and then, and always at the end.
        out_of_time = clock() - start >= config.max_seconds
        point = None
        if step % every == 0 or step == config.steps or out_of_time:
            model.eval()
            point, exact = evaluate(model, heldout_batch, step, clock() - start)
            evals.append(point)
            if on_eval is not None:
                on_eval(model, step)
        if on_progress is not None:
            on_progress(Progress(step, config.steps, loss.item(), ratio, clock() - start, point))
        if out_of_time and step < config.steps:
            stopped_by = "time"
            break
    model.eval()
    # 5) Exact match per source length: the bottleneck shows up as a fall with length.
    lengths_list = heldout_batch[1].tolist()
    by_length = []
    for n in sorted(set(lengths_list)):  # every source length the held-out set has
        rows = [i for i, L in enumerate(lengths_list) if n == L]
        by_length.append((n, sum(bool(exact[i]) for i in rows) / len(rows), len(rows)))
    return TrainRun(
        model=model,
        losses=tuple(losses),
        evals=tuple(evals),
        by_length=tuple(by_length),
        steps_done=step,
        seconds=clock() - start,
        stopped_by=stopped_by,
        n_heldout=len(lengths_list),
        n_params=sum(p.numel() for p in params),
    )
