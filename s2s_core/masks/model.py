"""The tiny untrained GRU encoder-decoder the masks page runs, with a thread-safe seeded init.

Shapes: B batch, S source length, T target length, E embedding, H hidden, V vocabulary.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch
from torch import nn

from s2s_core.rng import isolated
from s2s_core.vocab import PAD_ID


class TinySeq2Seq(NamedTuple):
    """Five plain PyTorch modules; the forward pass lives in compute.py so every step is visible."""

    src_embed: nn.Embedding  # V_src -> E
    encoder: nn.GRU  # E -> H
    tgt_embed: nn.Embedding  # V_tgt -> E
    decoder: nn.GRU  # E -> H
    out: nn.Linear  # [decoder state; context] (2H) -> V_tgt


def build_model(n_src: int, n_tgt: int, embed: int, hidden: int, seed: int) -> TinySeq2Seq:
    """Create the modules in float64 and fill them from one torch.Generator.

    A private generator (not torch.manual_seed) keeps the init identical for a seed even when
    several sessions build models at the same time; the generated script repeats it line for line.
    """
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        model = TinySeq2Seq(
            nn.Embedding(n_src, embed, padding_idx=PAD_ID).double(),
            nn.GRU(embed, hidden, batch_first=True).double(),
            nn.Embedding(n_tgt, embed, padding_idx=PAD_ID).double(),
            nn.GRU(embed, hidden, batch_first=True).double(),
            nn.Linear(2 * hidden, n_tgt).double(),
        )
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for module in model:
            for _, param in module.named_parameters():
                if isinstance(module, nn.Embedding):
                    param.normal_(0.0, 1.0, generator=gen)  # PyTorch's default for embeddings
                    param[PAD_ID] = 0.0  # padding_idx: the PAD embedding is the zero vector
                else:
                    bound = 1 / math.sqrt(hidden if isinstance(module, nn.GRU) else 2 * hidden)
                    param.uniform_(-bound, bound, generator=gen)  # PyTorch's default range
    return model
