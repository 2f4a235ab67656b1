"""The math of the padding & masks page: one padded batch, two different PAD computations, final states.

Shapes: B batch, S source length, T target length, E embedding, H hidden, V target vocabulary.
Side by side: (a) the loss with PAD targets ignored (ignore_index) vs included; (b) attention with
PAD source positions masked (score -> -inf before softmax) vs unmasked; plus the encoder's final
state after PAD steps vs at the true last token.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from s2s_core.errors import InputError
from s2s_core.masks import fields
from s2s_core.masks.fields import DEFAULT_EMBED, DEFAULT_HIDDEN, DEFAULT_PAIRS, DEFAULT_SEED, MAX_PAIRS, PAIRS_BY_LANG
from s2s_core.masks.model import build_model
from s2s_core.vocab import PAD, PAD_ID, SPECIALS, build_vocab, pad_batch, padding_mask

MAX_WORDS = 8  # tokens in one sentence (S <= 8, T <= 9 with EOS)
ALL_PAD = "errors.all_pad"  # the reason a source that is nothing but PAD is left out


@dataclass(frozen=True)
class MasksConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    sources: tuple[tuple[str, ...], ...] = tuple(tuple(s.split()) for s, _ in DEFAULT_PAIRS)
    targets: tuple[tuple[str, ...], ...] = tuple(tuple(t.split()) for _, t in DEFAULT_PAIRS)
    rows: tuple[int, ...] = (1, 2, 3)  # 1-based row numbers as typed (a filtered row leaves a gap)
    seed: int = DEFAULT_SEED
    hidden: int = DEFAULT_HIDDEN  # H
    embed: int = DEFAULT_EMBED  # E


def default_pairs(lang: str) -> tuple[tuple[str, str], ...]:
    """The MAX_PAIRS pairs a page in `lang` starts from (the first len(DEFAULT_PAIRS) are in the batch)."""
    return PAIRS_BY_LANG.get(lang, PAIRS_BY_LANG["ko"])[:MAX_PAIRS]


def default_config(lang: str) -> MasksConfig:
    """The batch the page opens on in `lang`: its own default sentences, the default seed and sizes."""
    pairs = default_pairs(lang)[: len(DEFAULT_PAIRS)]
    return MasksConfig(
        sources=tuple(tuple(s.split()) for s, _ in pairs), targets=tuple(tuple(t.split()) for _, t in pairs)
    )


@dataclass(frozen=True)
class Screened:
    """The typed pairs after screening: the usable ones, their row numbers, and why others were dropped."""

    pairs: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    rows: tuple[int, ...]
    errors: tuple[InputError, ...]
    dropped: tuple[int, ...]  # the row number of each error, in the same order

    def all_pad(self) -> tuple[tuple[int, InputError], ...]:
        """The rows left out because their source is all PAD (the picture draws them as rejected), with why."""
        return tuple((row, err) for row, err in zip(self.dropped, self.errors, strict=True) if err.key == ALL_PAD)


@dataclass(frozen=True)
class MasksResult:
    """Every intermediate the page shows, all computed from the config."""

    src_itos: tuple[str, ...]
    tgt_itos: tuple[str, ...]
    src_ids: torch.Tensor  # (B, S) right-padded with PAD_ID
    src_lengths: torch.Tensor  # (B,) real tokens per source
    src_mask: torch.Tensor  # (B, S) True at real tokens
    dec_in: torch.Tensor  # (B, T) <sos> + target, PAD after
    dec_out: torch.Tensor  # (B, T) target + <eos>, PAD after: what the loss compares with
    tgt_mask: torch.Tensor  # (B, T) True where dec_out is a real token
    tgt_lengths: torch.Tensor  # (B,) real target tokens per row, <eos> included
    # encoder and the final state
    h_after_pad: torch.Tensor  # (B, H) h_n of the padded run: the state after the PAD steps
    h_true_last: torch.Tensor  # (B, H) the encoder output at position length-1: the true last token
    h_packed: torch.Tensor  # (B, H) h_n with pack_padded_sequence: PyTorch's own way to skip PAD
    final_gap: torch.Tensor  # (B,) |h_after_pad - h_true_last| (L2): 0 only for rows without PAD
    final_check: float  # max |h_true_last - h_packed|: the on-screen check
    # attention (Luong dot: score = decoder state · encoder state)
    scores: torch.Tensor  # (B, T, S)
    masked_scores: torch.Tensor  # (B, T, S) -inf at PAD source positions
    weights_masked: torch.Tensor  # (B, T, S) exactly 0 at PAD
    weights_unmasked: torch.Tensor  # (B, T, S) some weight leaks onto PAD
    pad_share_masked: torch.Tensor  # (B, T) total weight on PAD positions (always 0)
    pad_share_unmasked: torch.Tensor  # (B, T) total weight on PAD positions (the leak)
    leak_by_row: tuple[float, ...]  # (B,) largest unmasked PAD weight over each row's real decoder steps
    gap_by_row: tuple[float, ...]  # (B,) largest |masked - unmasked context| (L2) over each row's real decoder steps
    attention_check: float  # max |hand masked contexts - F.scaled_dot_product_attention|
    # loss (from the masked-attention model)
    logits: torch.Tensor  # (B, T, V)
    token_nll: torch.Tensor  # (B, T) -log p(target token) at every position, PAD positions too
    n_real: int  # target tokens that count (real words + <eos>)
    n_total: int  # every target position, PAD included (B * T)
    n_pad: int  # PAD target positions
    n_words: int  # target words typed by the learner (n_real minus one <eos> per sentence)
    ln_v: float  # ln V: the loss of a uniform guess over the target vocabulary
    sum_real: float  # sum of token_nll over real positions
    sum_pad: float  # sum of token_nll over PAD positions
    loss_ignore: float  # sum_real / n_real, by hand
    loss_all: float  # (sum_real + sum_pad) / n_total, by hand
    loss_check: float  # max |hand - nn.CrossEntropyLoss| over both losses (with and without ignore_index)


# --- input -----------------------------------------------------------------------------------------


def _tokens(text: object, role: str, row: int) -> tuple[str, ...]:
    """One sentence -> tokens; role is "source" or "target", row is 1-based (it names the field)."""
    spec = (fields.SOURCES if role == "source" else fields.TARGETS)[row - 1]
    field = spec.label
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"masks.error.empty_{role}", field)
    tokens = tuple(spec.check(text.strip()).split())  # the field's cap on characters
    if all(tok == PAD for tok in tokens):
        # A sentence that is all PAD gives the encoder nothing to read: it is filtered out, never run.
        raise InputError(ALL_PAD if role == "source" else "masks.error.all_pad_target", field)
    for tok in tokens:
        if tok in SPECIALS:
            raise InputError("masks.error.special_token", field, token=tok)
    if len(tokens) > MAX_WORDS:
        raise InputError("errors.too_many_tokens", field, count=len(tokens), limit=MAX_WORDS)
    return tokens


def screen_pairs(pairs: Sequence[Sequence[object]]) -> Screened:
    """Check every (source, target) pair; a bad pair is dropped with its reason, the rest go on."""
    if not isinstance(pairs, Sequence) or len(pairs) == 0:
        raise InputError("errors.empty_batch", "masks.field.pairs")
    if len(pairs) > MAX_PAIRS:
        raise InputError("errors.too_many_rows", "masks.field.pairs", count=len(pairs), limit=MAX_PAIRS)
    kept, rows, errors, dropped = [], [], [], []
    for row, pair in enumerate(pairs, start=1):
        src, tgt = (tuple(pair) + (None, None))[:2] if isinstance(pair, Sequence) else (None, None)
        try:
            kept.append((_tokens(src, "source", row), _tokens(tgt, "target", row)))
            rows.append(row)
        except InputError as err:
            errors.append(err)
            dropped.append(row)
    return Screened(pairs=tuple(kept), rows=tuple(rows), errors=tuple(errors), dropped=tuple(dropped))


def parse_config(
    pairs: Sequence[Sequence[object]], seed: object, hidden: object, embed: object, *, drop_bad: bool = False
) -> MasksConfig:
    """Validate raw widget values; a bad pair raises (or, with drop_bad, is left out of the batch)."""
    screened = screen_pairs(pairs)
    if screened.errors and not drop_bad:
        raise screened.errors[0]
    if not screened.pairs:
        raise InputError("masks.error.no_pairs", "masks.field.pairs")
    return MasksConfig(
        sources=tuple(s for s, _ in screened.pairs),
        targets=tuple(t for _, t in screened.pairs),
        rows=screened.rows,
        seed=fields.SEED.check(seed),
        hidden=fields.HIDDEN.check(hidden),
        embed=fields.EMBED.check(embed),
    )


# --- the computation --------------------------------------------------------------------------------


def _hand_mean(nll: list[list[float]], keep: list[list[bool]]) -> tuple[float, int]:
    """Sum of -log p over the kept positions and how many there are: the loss a learner writes by hand."""
    total, count = 0.0, 0
    for row_nll, row_keep in zip(nll, keep, strict=True):
        for value, k in zip(row_nll, row_keep, strict=True):
            if k:
                total, count = total + value, count + 1
    return total, count


def compute_masks(config: MasksConfig) -> MasksResult:
    """Run the padded batch through a seeded, untrained GRU encoder-decoder with Luong dot attention."""
    # 1) The batch: vocabularies from the batch itself, ids, right padding with PAD_ID.
    src_vocab, tgt_vocab = build_vocab(config.sources), build_vocab(config.targets)
    src_ids, src_lengths = pad_batch([src_vocab.encode(s) for s in config.sources], "masks.field.pairs")  # (B, S), (B,)
    dec_in, _ = pad_batch([tgt_vocab.encode(t, add_sos=True) for t in config.targets], "masks.field.pairs")  # (B, T)
    dec_out, _ = pad_batch([tgt_vocab.encode(t, add_eos=True) for t in config.targets], "masks.field.pairs")  # (B, T)
    src_mask, tgt_mask = padding_mask(src_ids), padding_mask(dec_out)  # (B, S), (B, T)
    B = src_ids.shape[0]
    model = build_model(len(src_vocab), len(tgt_vocab), config.embed, config.hidden, config.seed)

    with torch.no_grad():
        # 2) Encoder over the padded batch: the GRU keeps stepping through PAD (zero embeddings,
        #    but the bias and recurrent terms still move the state).
        src_emb = model.src_embed(src_ids)  # (B, S, E)
        enc_outputs, h_n = model.encoder(src_emb)  # (B, S, H), (1, B, H)
        h_after_pad = h_n[0]  # (B, H)
        h_true_last = enc_outputs[torch.arange(B), src_lengths - 1]  # (B, H) state at each row's last real token
        packed = pack_padded_sequence(src_emb, src_lengths, batch_first=True, enforce_sorted=False)
        _, h_packed_n = model.encoder(packed)  # (1, B, H): PyTorch stops each row at its length
        h_packed = h_packed_n[0]  # (B, H)

        # 3) Decoder with teacher forcing, started from the true last state (not the PAD-processed one).
        tgt_emb = model.tgt_embed(dec_in)  # (B, T, E)
        dec_states, _ = model.decoder(tgt_emb, h_true_last.unsqueeze(0))  # (B, T, H)

        # 4) Attention by hand: dot scores, then the same softmax with and without the PAD mask.
        scores = dec_states @ enc_outputs.transpose(1, 2)  # (B, T, H) @ (B, H, S) -> (B, T, S)
        masked_scores = scores.masked_fill(~src_mask.unsqueeze(1), float("-inf"))  # (B, T, S)
        weights_masked = torch.softmax(masked_scores, dim=-1)  # (B, T, S): exp(-inf) = 0 exactly
        weights_unmasked = torch.softmax(scores, dim=-1)  # (B, T, S)
        contexts_masked = weights_masked @ enc_outputs  # (B, T, S) @ (B, S, H) -> (B, T, H)
        contexts_unmasked = weights_unmasked @ enc_outputs  # (B, T, H)
        # PyTorch's own attention with a boolean mask (True = may attend) must give the same contexts.
        sdpa = F.scaled_dot_product_attention(
            dec_states, enc_outputs, enc_outputs, attn_mask=src_mask.unsqueeze(1), scale=1.0
        )  # (B, T, H)
        pad_cols = (~src_mask).unsqueeze(1).double()  # (B, 1, S)

        # 5) Output layer and the per-token loss: -log softmax(logits)[target] at every position.
        logits = model.out(torch.cat([dec_states, contexts_masked], dim=-1))  # (B, T, 2H) -> (B, T, V)
        log_probs = torch.log_softmax(logits, dim=-1)  # (B, T, V)
        token_nll = -log_probs.gather(-1, dec_out.unsqueeze(-1)).squeeze(-1)  # (B, T)

        # 6) The two means by hand, and PyTorch's CrossEntropyLoss with and without ignore_index.
        nll = token_nll.tolist()
        sum_real, n_real = _hand_mean(nll, tgt_mask.tolist())
        sum_pad, n_pad = _hand_mean(nll, (~tgt_mask).tolist())
        flat_logits, flat_targets = logits.reshape(-1, logits.shape[-1]), dec_out.reshape(-1)  # (B*T, V), (B*T,)
        loss_ignore_torch = nn.CrossEntropyLoss(ignore_index=PAD_ID)(flat_logits, flat_targets).item()
        loss_all_torch = nn.CrossEntropyLoss()(flat_logits, flat_targets).item()

    loss_ignore, loss_all = sum_real / n_real, (sum_real + sum_pad) / (n_real + n_pad)
    pad_share_unmasked = (weights_unmasked * pad_cols).sum(-1)  # (B, T)
    context_gap = (contexts_masked - contexts_unmasked).norm(dim=-1)  # (B, T)
    # Steps whose target is PAD are not trained on, so the "worst leak" is taken over real steps only.
    on_real = lambda x: tuple(float(x[b][tgt_mask[b]].max()) for b in range(B))  # noqa: E731
    return MasksResult(
        src_itos=src_vocab.itos,
        tgt_itos=tgt_vocab.itos,
        src_ids=src_ids,
        src_lengths=src_lengths,
        src_mask=src_mask,
        dec_in=dec_in,
        dec_out=dec_out,
        tgt_mask=tgt_mask,
        tgt_lengths=tgt_mask.sum(dim=1),  # (B,)
        h_after_pad=h_after_pad,
        h_true_last=h_true_last,
        h_packed=h_packed,
        final_gap=(h_after_pad - h_true_last).norm(dim=-1),  # (B,)
        final_check=(h_true_last - h_packed).abs().max().item(),
        scores=scores,
        masked_scores=masked_scores,
        weights_masked=weights_masked,
        weights_unmasked=weights_unmasked,
        pad_share_masked=(weights_masked * pad_cols).sum(-1),  # (B, T)
        pad_share_unmasked=pad_share_unmasked,
        leak_by_row=on_real(pad_share_unmasked),
        gap_by_row=on_real(context_gap),
        attention_check=(contexts_masked - sdpa).abs().max().item(),
        logits=logits,
        token_nll=token_nll,
        n_real=n_real,
        n_total=n_real + n_pad,
        n_pad=n_pad,
        n_words=n_real - B,
        ln_v=math.log(len(tgt_vocab)),
        sum_real=sum_real,
        sum_pad=sum_pad,
        loss_ignore=loss_ignore,
        loss_all=loss_all,
        loss_check=max(abs(loss_ignore - loss_ignore_torch), abs(loss_all - loss_all_torch)),
    )


# --- what the page picks and asks from a result -----------------------------------------------------------


def most_pad(config: MasksConfig) -> int:
    """The sentence (0-based) with the shortest source, so the most PAD: where the leak shows most clearly."""
    return min(range(len(config.rows)), key=lambda b: len(config.sources[b]))


def worst_leak(result: MasksResult) -> int:
    """The sentence (0-based) whose unmasked attention puts the most weight on PAD at some real step."""
    return max(range(len(result.leak_by_row)), key=lambda b: result.leak_by_row[b])


def has_pad(result: MasksResult, b: int) -> bool:
    """Does sentence b's source carry PAD (is it shorter than the longest)?"""
    return not bool(result.src_mask[b].all())


def quiz_choices(result: MasksResult) -> tuple[tuple[str, ...], str]:
    """The question "the loss with ignore_index divides by how many positions?": its choices (the words typed,
    the real targets, every position) and its answer, the real targets (words plus one <eos> per sentence)."""
    return tuple(str(n) for n in sorted({result.n_words, result.n_real, result.n_total})), str(result.n_real)
