"""The runnable PyTorch script for the shapes page's current settings (prints what the page shows)."""

from __future__ import annotations

from s2s_core.fmt import DIGITS
from s2s_core.shapes.checks import ATOL, equality_checks
from s2s_core.shapes.compute import ShapesConfig, ShapesResult
from s2s_core.shapes.model import VOCAB_SIZE


def _layer_line(c: ShapesConfig) -> str:
    proj = f", proj_size={c.proj_size}" if c.cell == "LSTM" and c.proj_size else ""
    return (
        f"rnn = nn.{c.cell}({c.E}, {c.H}, num_layers={c.num_layers}, batch_first={c.batch_first}, "
        f"bidirectional={c.bidirectional}{proj})"
    )


def script(r: ShapesResult) -> str:
    """A self-contained script: the same seeded modules, the same forward calls, the same checks."""
    c = r.config
    lstm = c.cell == "LSTM"
    ids = "[" + ", ".join("[" + ", ".join(str(int(v)) for v in row) + "]" for row in r.ids.tolist()) + "]"
    lay = "(B, S, E)" if c.batch_first else "(S, B, E)"
    state = lambda p: f"({p}h_n, {p}c_n)" if lstm else f"{p}h_n"  # noqa: E731
    swap = "" if c.batch_first else "    x = x.transpose(0, 1)  # (S, B, E): time first\n"
    one = "x[b : b + 1, :n]" if c.batch_first else "x[:n, b : b + 1]"
    gather = "padded_outputs[rows, last, :Hout]" if c.batch_first else "padded_outputs[last, rows, :Hout]"
    run = "packed" if c.packed else "padded"
    checks = "\n".join(f'print("{ch.lhs} == {ch.rhs}:", same({ch.lhs}, {ch.rhs}))' for ch in equality_checks(r))
    packed_extra = (
        ('print("packed.data:", tuple(packed.data.shape))\nprint("packed_out.data:", tuple(packed_out.data.shape))\n')
        if c.packed
        else ""
    )
    c_alone = "    c_n_alone = torch.cat([s[1] for _, s in alone], dim=1)  # (L·K, B, H)\n" if lstm else ""
    c_shape = 'print("c_n:", tuple(c_n.shape))\n' if lstm else ""
    c_err = "packed_err = torch.maximum(packed_err, (packed_c_n - c_n_alone).abs().amax(dim=(0, 2)))\n" if lstm else ""
    return f'''# %% heading="shapes.title" notes="shapes.intro"
"""Shapes of nn.{c.cell}: outputs vs h_n, batch_first, directions, layers, padding and packing."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

# %% Your settings heading="ui.notebook.inputs" notes="shapes.legend"
torch.manual_seed({c.seed})
embedding = nn.Embedding({VOCAB_SIZE}, {c.E}, padding_idx=0)  # ids 1..{VOCAB_SIZE - 1} are tokens, 0 is PAD
{_layer_line(c)}
rnn.eval()

ids = torch.tensor({ids})  # (B, S) = {tuple(r.ids.shape)}, 0 = PAD
lengths = torch.tensor({list(c.lengths)})  # (B,) true length of each sentence
K, Hout = {c.K}, {c.Hout}  # directions; size of h (proj_size if set, else hidden_size)


def same(a, b):
    """Equal shapes and values (float32 runs agree to ~1e-7)."""
    return a.shape == b.shape and torch.allclose(a, b, rtol=0.0, atol={ATOL})


def rounded(t):
    return [round(v, {DIGITS}) for v in t.tolist()]


# %% Three runs of the same layer heading="ui.tab_steps" notes="shapes.notice.n2"
with torch.no_grad():
    x = embedding(ids)  # (B, S, E)
{swap}    # 1) Straight through: every sentence runs all S steps, PAD steps included.
    padded_outputs, {state("padded_")} = rnn(x)
    # 2) Packed: each sentence stops at its true length.
    packed = pack_padded_sequence(x, lengths, batch_first={c.batch_first}, enforce_sorted=False)
    packed_out, {state("packed_")} = rnn(packed)
    packed_outputs, _ = pad_packed_sequence(packed_out, batch_first={c.batch_first}, total_length={c.S})
    outputs, {state("")} = {run}_outputs, {state(run + "_")}  # the run this page shows
    # 3) Reference: each sentence alone, cut at its true length (no PAD at all).
    alone = [rnn({one}) for b, n in enumerate(lengths.tolist())]
    h_n_alone = torch.cat([s{"[0]" if lstm else ""} for _, s in alone], dim=1)  # (L·K, B, Hout)
{c_alone}
# %% Shapes and checks heading="ui.tab_check" notes="shapes.check.intro"
print("x:", tuple(x.shape))  # {lay}
print("outputs:", tuple(outputs.shape))
print("h_n:", tuple(h_n.shape))
{c_shape}{packed_extra}print("batch_sizes:", packed.batch_sizes.tolist())
print("sorted_indices:", packed.sorted_indices.tolist())
print("unsorted_indices:", packed.unsorted_indices.tolist())
{checks}

# %% 4) Padding heading="shapes.tab_padding" notes="shapes.padding.intro shapes.padding.fixes"
# The top layer's forward state three ways, against the sentence-alone truth.
true_last = h_n_alone[-K]  # (B, Hout)
through_pad = padded_h_n[-K]  # (B, Hout): kept running over the PAD steps
rows, last = torch.arange(len(lengths)), lengths - 1  # (B,), (B,)
gathered = {gather}  # (B, Hout): read at each true last step
packed_err = (packed_h_n - h_n_alone).abs().amax(dim=(0, 2))  # (B,) every layer and direction
{c_err}print("through PAD, max |diff| per sentence:", rounded((through_pad - true_last).abs().amax(dim=1)))
print("gathered at lengths - 1, max |diff| per sentence:", rounded((gathered - true_last).abs().amax(dim=1)))
print("packed, max |diff| per sentence:", rounded(packed_err))
'''
