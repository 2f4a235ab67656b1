"""The Translation lab on the learner's own sentence pairs: vocabularies from the data, the Training lab's loop and
model on it, the held-out exact match, and the attention map of any sentence.

    data = own_data(read_pairs(text), seed=0)     # OwnData: train / held-out pairs (split by distinct target), vocabs
    config = OwnConfig(settings, data)            # settings: the lab's TrainConfig (cell, attention, sizes, steps...)
    result = train_own(config)                    # a TrainResult, like the lab's (curves, final scores, loss check)
    point = own_map(config, result.run.model, ("나는", "책을", "읽는다"))   # MapPoint: output and weights (T, S)

Everything lives in memory: the pairs travel to a worker process with the job (s2s_jobs/trainer.OWN, never written
to the model store) and back as the trained result. An OwnConfig compares and hashes by its settings and a digest
of its pairs, so identical data (and settings) share one job; its repr names no sentence (logs never hold them).
"""

from __future__ import annotations

import hashlib
import json
import random
import unicodedata
from dataclasses import astuple, dataclass
from typing import ClassVar

import torch

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.training.compute import TrainResult, batch_loss_check
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import Batches, cut_at_eos, train_loop
from s2s_core.training.model import Seq2Seq
from s2s_core.training.trace import MapPoint, Recorder
from s2s_core.translation.own_data import MAX_PAIR_TOKENS, split_heldout, tokens_of
from s2s_core.translation.own_data import OwnData as ReadPairs
from s2s_core.vocab import EOS, EOS_ID, PAD_ID, SOS_ID, SPECIALS, UNK_ID

SENTENCE_FIELD = "translation.own.sentence_field"  # the sentence typed to see its map
Tokens = tuple[str, ...]
Pair = tuple[Tokens, Tokens]  # (source tokens, target tokens)


@dataclass(frozen=True, eq=False)
class OwnData:
    """The learner's pairs ready to train on: the split and both vocabularies (the specials first, then every
    token of the training pairs in first-seen order; a held-out token the model never saw reads as <unk>)."""

    train: tuple[Pair, ...]
    heldout: tuple[Pair, ...]  # every pair whose target is a held-out target
    src_vocab: Tokens
    tgt_vocab: Tokens
    digest: str  # sha256 of the pairs and the split: the identity of the data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnData) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:  # never the sentences themselves
        return f"OwnData({len(self.train)} train, {len(self.heldout)} held out, {self.digest[:12]})"


@dataclass(frozen=True)
class OwnConfig:
    """One training of the lab on the learner's data: equal settings and equal data are one job."""

    settings: TrainConfig  # the lab's (its task field is unused: the data is the task)
    data: OwnData
    memory_only: ClassVar[bool] = True  # the job system never writes it to the model store (s2s_jobs/runner.py)

    @property
    def steps(self) -> int:  # what the job system reads of a config (s2s_jobs/snapshot.py, estimate.py)
        return self.settings.steps

    @property
    def max_seconds(self) -> float:
        return self.settings.max_seconds

    def __repr__(self) -> str:
        return f"OwnConfig({self.settings}, {self.data!r})"


def _vocab(sides: list[Tokens]) -> Tokens:
    seen = dict.fromkeys(SPECIALS)
    for tokens in sides:
        seen.update(dict.fromkeys(tokens))
    return tuple(seen)


def own_data(read: ReadPairs, seed: int) -> OwnData:
    """read_pairs' usable pairs, split by distinct target (s2s_core/translation/own_data.split_heldout)."""
    split = split_heldout(read.pairs, seed=seed)
    train = tuple((p.source, p.target) for p in split.train)
    heldout = tuple((p.source, p.target) for p in split.heldout)
    plain = json.dumps([train, heldout], ensure_ascii=False).encode("utf-8")
    digest = hashlib.sha256(plain).hexdigest()
    return OwnData(train, heldout, _vocab([s for s, _ in train]), _vocab([t for _, t in train]), digest)


def _ids(tokens: Tokens, stoi: dict[str, int]) -> list[int]:
    return [stoi.get(tok, UNK_ID) for tok in tokens]


def encode_pairs(data: OwnData, pairs: list[Pair] | tuple[Pair, ...]) -> tuple[torch.Tensor, ...]:
    """Pairs -> src (B, S), lengths (B,), y_in (B, T) = SOS + target, y_out (B, T) = target + EOS (as the
    Training lab's encode_batch)."""
    src_stoi = {tok: i for i, tok in enumerate(data.src_vocab)}
    tgt_stoi = {tok: i for i, tok in enumerate(data.tgt_vocab)}
    sources = [_ids(s, src_stoi) for s, _ in pairs]
    targets = [_ids(t, tgt_stoi) for _, t in pairs]
    S = max(len(s) for s in sources)
    T = max(len(t) for t in targets) + 1
    src = torch.tensor([s + [PAD_ID] * (S - len(s)) for s in sources])  # (B, S)
    y_in = torch.tensor([[SOS_ID] + t + [PAD_ID] * (T - 1 - len(t)) for t in targets])  # (B, T)
    y_out = torch.tensor([t + [EOS_ID] + [PAD_ID] * (T - 1 - len(t)) for t in targets])  # (B, T)
    lengths = torch.tensor([len(s) for s in sources])  # (B,)
    return src, lengths, y_in, y_out


def own_batches(data: OwnData) -> Batches:
    """The training loop's data: the held-out pairs scored, batches drawn from the training pairs (with repeats)."""

    def sample(rng: random.Random, B: int) -> tuple[torch.Tensor, ...]:
        return encode_pairs(data, rng.choices(data.train, k=B))

    return Batches(encode_pairs(data, data.heldout), sample, (len(data.src_vocab), len(data.tgt_vocab)))


def parse_sentence(text: object, chars: bool) -> Tokens:
    """A sentence the learner types to see its map: tokens as their data's source side (words or characters),
    1 to MAX_PAIR_TOKENS of them; InputError naming the field otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("errors.empty_value", SENTENCE_FIELD)
    tokens = tokens_of(unicodedata.normalize("NFC", text[: caps.MAX_TEXT_CHARS]), chars)
    if len(tokens) > MAX_PAIR_TOKENS:
        raise InputError("errors.too_many_tokens", SENTENCE_FIELD, count=len(tokens), limit=MAX_PAIR_TOKENS)
    return tokens


def reference(data: OwnData, source: Tokens) -> Tokens | None:
    """The learner's own target for a source they gave (the first pair that has it), else None."""
    return next((t for s, t in (*data.train, *data.heldout) if s == source), None)


@torch.no_grad()
def own_map(config: OwnConfig, model: Seq2Seq, source: Tokens, step: int = 0) -> MapPoint:
    """A source (the learner's tokens; unknown ones read as <unk>) decoded free-running: output up to <eos>, the
    attention weights (T, S) of those steps, and whether it equals the learner's own target for it."""
    data = config.data
    src = torch.tensor([_ids(source, {tok: i for i, tok in enumerate(data.src_vocab)})])  # (1, S)
    lengths = torch.tensor([len(source)])  # (1,)
    out = model.greedy(src, lengths, max_steps=MAX_PAIR_TOKENS + 1)
    ids = cut_at_eos(out["preds"][0].tolist())  # (T,) up to and including <eos>
    output = tuple(data.tgt_vocab[i] for i in ids)
    w = out.get("weights")
    weights = None
    if w is not None and config.settings.attention != "none":
        weights = tuple(tuple(float(v) for v in row) for row in w[0, : len(ids)].tolist())  # (T, S)
    expected = reference(data, source)
    exact = expected is not None and output == (*expected, EOS)
    return MapPoint(step, source, output, weights, exact)


def train_own(config: OwnConfig, on_progress=None, stop=None) -> TrainResult:
    """The lab's training on the learner's pairs; the checkpoint maps decode the first held-out source."""
    data = config.data
    first = data.heldout[0][0] if data.heldout else data.train[0][0]
    recorder = Recorder(on_progress, lambda model, step: own_map(config, model, first, step))
    run = train_loop(config.settings, recorder.progress, stop=stop, on_eval=recorder.checkpoint, data=own_batches(data))
    check = batch_loss_check(run.model, encode_pairs(data, data.heldout))
    return TrainResult(config=config, run=run, final=run.evals[-1], loss_check=check, trace=recorder.trace())


@torch.no_grad()
def exact_rows(config: OwnConfig, model: Seq2Seq, pairs: tuple[Pair, ...]) -> tuple[tuple[Pair, Tokens, bool], ...]:
    """Each pair with the model's free-running output (without <eos>) and whether it is exactly the target: the
    pairs decoded as one batch (2,000 pairs one by one cost seconds in a page run)."""
    if not pairs:
        return ()
    src, lengths, _, _ = encode_pairs(config.data, pairs)  # (B, S), (B,)
    preds = model.greedy(src, lengths, max_steps=MAX_PAIR_TOKENS + 1)["preds"]  # (B, T)
    rows = []
    for (source, target), row in zip(pairs, preds.tolist(), strict=True):
        output = tuple(config.data.tgt_vocab[i] for i in cut_at_eos(row))  # up to and including <eos>
        words = output[:-1] if output[-1:] == (EOS,) else output
        rows.append(((source, target), words, output == (*target, EOS)))
    return tuple(rows)


def plain_config(config: OwnConfig) -> tuple:
    """The config as plain tuples (what travels back from a worker with the model: s2s_jobs/trainer.py)."""
    d = config.data
    return astuple(config.settings), d.train, d.heldout, d.src_vocab, d.tgt_vocab, d.digest


def _pairs(rows) -> tuple[Pair, ...]:
    return tuple((tuple(s), tuple(t)) for s, t in rows)


def from_plain(plain: tuple) -> OwnConfig:
    settings, train, heldout, src_vocab, tgt_vocab, digest = plain
    data = OwnData(_pairs(train), _pairs(heldout), tuple(src_vocab), tuple(tgt_vocab), digest)
    return OwnConfig(TrainConfig(*settings), data)
