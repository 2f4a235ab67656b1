"""The runnable PyTorch script for the masks page's current inputs (prints what the page shows)."""

from __future__ import annotations

from s2s_core.fmt import DIGITS
from s2s_core.masks.compute import MasksConfig


def _sentences(rows: tuple[tuple[str, ...], ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(tok) for tok in row) + "]" for row in rows) + "]"


def script(config: MasksConfig) -> str:
    """A self-contained script: pad a batch, then the loss with/without PAD, attention with/without mask."""
    H, E = config.hidden, config.embed
    padded = len({len(s) for s in config.sources}) > 1  # some source is shorter: PAD in the source
    final = "masks.final_caption masks.notice_5" if padded else "masks.notice_5_no_pad"
    return f'''# %% heading="masks.title" notes="masks.intro"
"""Padding & masks: PAD left out of the loss (ignore_index) vs PAD masked out of attention."""
import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

# %% Your numbers heading="ui.notebook.inputs"
PAD_ID, SOS_ID, EOS_ID = 0, 1, 2
SPECIALS = ["<pad>", "<sos>", "<eos>", "<unk>"]
sources = {_sentences(config.sources)}
targets = {_sentences(config.targets)}
H, E, SEED = {H}, {E}, {config.seed}


def vocab(sentences):
    """Specials first, then words in order of first appearance."""
    itos = list(SPECIALS)
    for words in sentences:
        itos += [w for w in words if w not in itos]
    return {{w: i for i, w in enumerate(itos)}}


def pad(rows):
    """Right-pad id lists with PAD_ID -> (B, longest)."""
    width = max(len(r) for r in rows)
    return torch.tensor([r + [PAD_ID] * (width - len(r)) for r in rows])


# %% 1) The padded batch. heading="masks.tab_batch" notes="masks.notice_2"
src_stoi, tgt_stoi = vocab(sources), vocab(targets)
src_ids = pad([[src_stoi[w] for w in s] for s in sources])  # (B, S)
src_lengths = torch.tensor([len(s) for s in sources])  # (B,)
dec_in = pad([[SOS_ID] + [tgt_stoi[w] for w in t] for t in targets])  # (B, T) teacher forcing input
dec_out = pad([[tgt_stoi[w] for w in t] + [EOS_ID] for t in targets])  # (B, T) what the loss compares with
src_mask = src_ids != PAD_ID  # (B, S) True at real tokens
B = src_ids.shape[0]

# %% 2) A tiny untrained GRU encoder-decoder, filled from one seeded generator (float64).
modules = [
    nn.Embedding(len(src_stoi), E, padding_idx=PAD_ID).double(),
    nn.GRU(E, H, batch_first=True).double(),
    nn.Embedding(len(tgt_stoi), E, padding_idx=PAD_ID).double(),
    nn.GRU(E, H, batch_first=True).double(),
    nn.Linear(2 * H, len(tgt_stoi)).double(),
]
gen = torch.Generator().manual_seed(SEED)
with torch.no_grad():
    for module in modules:
        for _, param in module.named_parameters():
            if isinstance(module, nn.Embedding):
                param.normal_(0.0, 1.0, generator=gen)
                param[PAD_ID] = 0.0  # padding_idx: PAD's embedding is zero
            else:
                bound = 1 / math.sqrt(H if isinstance(module, nn.GRU) else 2 * H)
                param.uniform_(-bound, bound, generator=gen)
src_embed, encoder, tgt_embed, decoder, out = modules

# %% 3) Encoder heading="masks.tab_final" notes="{final}"
# The padded run steps through PAD; the true last state is at position length-1.
with torch.no_grad():
    src_emb = src_embed(src_ids)  # (B, S, E)
    enc_outputs, h_n = encoder(src_emb)  # (B, S, H), (1, B, H)
    h_true_last = enc_outputs[torch.arange(B), src_lengths - 1]  # (B, H)
    packed = pack_padded_sequence(src_emb, src_lengths, batch_first=True, enforce_sorted=False)
    _, h_packed = encoder(packed)  # (1, B, H): stops at each row's length

# %% 4) Decoder and attention heading="masks.tab_attention" notes="masks.compare_attention"
# The decoder runs with teacher forcing; dot attention with and without the PAD mask.
with torch.no_grad():
    dec_states, _ = decoder(tgt_embed(dec_in), h_true_last.unsqueeze(0))  # (B, T, H)
    scores = dec_states @ enc_outputs.transpose(1, 2)  # (B, T, S)
    weights_masked = scores.masked_fill(~src_mask.unsqueeze(1), float("-inf")).softmax(dim=-1)  # (B, T, S)
    weights_unmasked = scores.softmax(dim=-1)  # (B, T, S)
    contexts = weights_masked @ enc_outputs  # (B, T, H)
    pad_cols = (~src_mask).unsqueeze(1).double()  # (B, 1, S)

# %% 5) The loss heading="masks.tab_loss" notes="masks.compare_loss"
# PAD targets ignored vs counted as a class to predict.
with torch.no_grad():
    logits = out(torch.cat([dec_states, contexts], dim=-1))  # (B, T, V)
    flat_logits, flat_targets = logits.reshape(-1, logits.shape[-1]), dec_out.reshape(-1)
    loss_ignore = nn.CrossEntropyLoss(ignore_index=PAD_ID)(flat_logits, flat_targets)
    loss_all = nn.CrossEntropyLoss()(flat_logits, flat_targets)
    nll = F.cross_entropy(flat_logits, flat_targets, reduction="none")  # (B*T,)
    real = flat_targets != PAD_ID
    by_hand = nll[real].sum() / real.sum()  # the mean over real tokens only

# %% What the page shows
print("src_ids:", src_ids.tolist())
print("dec_out:", dec_out.tolist())
print("real target tokens:", int(real.sum()), "of", real.numel())
print("loss ignore_index:", round(loss_ignore.item(), {DIGITS}))
print("loss by hand over real tokens:", round(by_hand.item(), {DIGITS}))
print("loss with PAD included:", round(loss_all.item(), {DIGITS}))
print("max weight on PAD, masked:", (weights_masked * pad_cols).sum(-1).max().item())
pad_weight = (weights_unmasked * pad_cols).sum(-1).tolist()
print("weight on PAD, unmasked:", [[round(x, {DIGITS}) for x in row] for row in pad_weight])
gap = (h_n[0] - h_true_last).norm(dim=-1).tolist()
print("final state gap |after PAD - true last|:", [round(x, {DIGITS}) for x in gap])
print("true last == packed h_n:", torch.allclose(h_true_last, h_packed[0]))
'''
