"""Script pieces both gated-cell pages' code expanders share: the input x, the seeded module, the overrides."""

from __future__ import annotations

import torch

from s2s_core.fmt import DIGITS
from s2s_core.gated.inputs import SequenceSpec, embedding_rows
from s2s_core.own_weights import OwnWeights

# The script prints numbers rounded as the page writes them (s2s_core.fmt.num: round(x, DIGITS)).
ROUNDED_DEF = f"""def rounded(m):
    if m.dim() == 2:
        return [[round(v, {DIGITS}) for v in row] for row in m.tolist()]
    return [round(v, {DIGITS}) for v in m.tolist()]
"""


def _rows(rows) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in rows) + "]"


def input_block(seq: SequenceSpec) -> str:
    """Script lines that build x (S, E): the sentence through an nn.Embedding, or the typed table."""
    if seq.source == "table":
        return f"x = torch.tensor({_rows(seq.vectors)}, dtype=torch.float64)  # (S, E) the typed vectors\n"
    vocab, table = embedding_rows(seq)
    ids = [vocab.index(tok) for tok in seq.tokens]
    return (
        f"words = {list(seq.tokens)!r}\n"
        f"vocab = {list(vocab)!r}\n"
        "# The page draws each word's row from N(0, 1) with a generator seeded by the word and the seed,\n"
        "# like an untrained nn.Embedding; the exact rows are copied here.\n"
        f"table = torch.tensor({_rows(table)}, dtype=torch.float64)  # (V, E)\n"
        "embedding = nn.Embedding.from_pretrained(table)\n"
        f"ids = torch.tensor({ids})  # (S,) one id per word\n"
        "x = embedding(ids)  # (S, E)\n"
    )


def init_block(module: str, E: int, H: int, seed: int, own: OwnWeights | None = None) -> str:
    """Script lines that build the module: with the page's seeded init U(-1/√H, 1/√H), or holding the learner's
    own weights (copied exactly: the script needs no file)."""
    head = f"E, H = {E}, {H}\ncell = nn.{module}(E, H, batch_first=True, dtype=torch.float64)\n"
    if own is not None:
        copies = "".join(
            f"    cell.{key}.copy_(torch.tensor({_values(value)}, dtype=torch.float64))  # {tuple(value.shape)}\n"
            for key, value in own.tensors().items()
        )
        lead = "# Your own weights (the file you gave the page), copied exactly.\nwith torch.no_grad():\n"
        return head + lead + copies
    return head + (
        "# PyTorch's own init range, drawn from a private generator so the numbers are reproducible.\n"
        f"gen = torch.Generator().manual_seed({seed})\n"
        "k = 1 / math.sqrt(H)\n"
        "with torch.no_grad():\n"
        "    for p in cell.parameters():  # weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0\n"
        "        p.copy_(torch.rand(*p.shape, generator=gen, dtype=torch.float64) * 2 * k - k)\n"
    )


def _values(t: torch.Tensor) -> str:
    """A tensor as an exact Python literal (repr round-trips every float64)."""
    return _rows(t.tolist()) if t.dim() == 2 else "[" + ", ".join(repr(float(v)) for v in t.tolist()) + "]"


def forces_literal(config) -> str:
    """{gate: ([0-based steps], value)} for the script."""
    return "{" + ", ".join(f"{f.gate!r}: ({list(f.steps)}, {f.value!r})" for f in config.forces) + "}"
