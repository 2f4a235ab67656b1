"""The tiny seq2seq: a recurrent encoder and decoder (GRU by default; RNN or LSTM for the comparison), with
Bahdanau (additive) or Luong (general / dot) attention, the syllabus's own wiring (luong_prev: Luong general
scored with the PREVIOUS decoder state, the context joined with the CURRENT cell output), or none.

Shapes: B batch, S source length, T target steps, E embedding, H hidden, V vocabulary.
torch only (the code expander copies this file). Names follow the papers: s decoder state, h encoder state.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

PAD_ID, SOS_ID, EOS_ID = 0, 1, 2
CELLS = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}  # the same sizes and training for all three

# A decoder state: (1, B, H) for an RNN or a GRU; (h, c), each (1, B, H), for an LSTM.
State = torch.Tensor | tuple[torch.Tensor, torch.Tensor]


def top(state: State) -> torch.Tensor:
    """The hidden state h (1, B, H): what attention queries and the output layer read (an LSTM's c stays inside)."""
    return state[0] if isinstance(state, tuple) else state


class Memory(NamedTuple):
    """What the decoder may look back at: computed once per source, read at every output step."""

    values: torch.Tensor  # (B, S, H) encoder outputs h_1..h_S: what the weights add up
    keys: torch.Tensor  # (B, S, H) the same states transformed for scoring (W_h h, W_a h, or h itself)
    mask: torch.Tensor  # (B, S) True at real tokens, False at PAD


class Encoder(nn.Module):
    """Embedding -> RNN / LSTM / GRU over the whole padded batch; the state handed on is the one at each
    sentence's true last token, not after its PADs."""

    def __init__(self, vocab_size: int, embed: int, hidden: int, cell: str = "gru") -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed, padding_idx=PAD_ID)
        self.rnn = CELLS[cell](embed, hidden, batch_first=True)

    def forward(self, src: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, State]:
        x = self.embedding(src)  # (B, S) -> (B, S, E)
        if isinstance(self.rnn, nn.LSTM):
            # An LSTM's cell state c is not among its outputs, so the final (h, c) at each true length comes
            # from a packed run (PAD steps are skipped; their outputs come back as zeros, masked by attention).
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            packed_out, (h_n, c_n) = self.rnn(packed)  # h_n, c_n: (1, B, H) at each sentence's last token
            outputs, _ = pad_packed_sequence(packed_out, batch_first=True, total_length=src.shape[1])  # (B, S, H)
            return outputs, (h_n, c_n)
        outputs, _ = self.rnn(x)  # (B, S, H); PAD steps run too, but attention masks them out
        # h_n would be the state after the PAD steps; the sentence really ends at length - 1.
        last = outputs[torch.arange(src.shape[0]), lengths - 1]  # (B, H)
        return outputs, last.unsqueeze(0)  # (1, B, H)


class BahdanauAttention(nn.Module):
    """Additive: score(s, h) = vᵀ tanh(W_s s + W_h h); the query is the decoder's previous state."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.W_s = nn.Linear(hidden, hidden, bias=False)
        self.W_h = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)

    def keys(self, values: torch.Tensor) -> torch.Tensor:
        return self.W_h(values)  # (B, S, H): W_h h does not depend on the step, so it is computed once

    def scores(self, queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        mixed = torch.tanh(
            self.W_s(queries).unsqueeze(2) + keys.unsqueeze(1)
        )  # (B, T, 1, H) + (B, 1, S, H) -> (B, T, S, H)
        return self.v(mixed).squeeze(-1)  # (B, T, S, 1) -> (B, T, S)


class LuongAttention(nn.Module):
    """Multiplicative: general sᵀ W_a h, or dot sᵀ h; the query is the decoder's current state."""

    def __init__(self, hidden: int, score: str) -> None:
        super().__init__()
        self.W_a = nn.Linear(hidden, hidden, bias=False) if score == "general" else None

    def keys(self, values: torch.Tensor) -> torch.Tensor:
        # sᵀ (W_a h) = sᵀ W_a h, so W_a is applied to the source once instead of at every step.
        return self.W_a(values) if self.W_a is not None else values  # (B, S, H)

    def scores(self, queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        return torch.bmm(queries, keys.transpose(1, 2))  # (B, T, H) @ (B, H, S) -> (B, T, S)


def attend(
    attention: nn.Module, queries: torch.Tensor, memory: Memory, override: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """scores -> PAD to -inf -> softmax over source positions -> weights @ values = context."""
    if override is None:
        scores = attention.scores(queries, memory.keys)  # (B, T, S)
        scores = scores.masked_fill(~memory.mask.unsqueeze(1), float("-inf"))  # PAD: exp(-inf) = 0 weight
        weights = scores.softmax(dim=-1)  # (B, T, S)
    else:
        weights = override  # (B, T, S): the what-if replaces this step's weights
    context = torch.bmm(weights, memory.values)  # (B, T, S) @ (B, S, H) -> (B, T, H)
    return context, weights


class Decoder(nn.Module):
    """Recurrent decoder (the same cell as the encoder). Bahdanau: context from s_(t-1) goes INTO the cell's
    input and to the output layer. Luong: the cell runs first; context from s_t is combined with it:
    s~ = tanh(W_c [context; s_t]). luong_prev (the syllabus §7's translator): the context is scored with s_(t-1),
    as Bahdanau's, but stays out of the cell; it is joined with the cell's current output s_t as Luong's:
    s~ = tanh(W_c [context(s_(t-1)); s_t]).
    """

    def __init__(self, vocab_size: int, embed: int, hidden: int, attention: str, cell: str = "gru") -> None:
        super().__init__()
        self.kind = attention
        self.embedding = nn.Embedding(vocab_size, embed, padding_idx=PAD_ID)
        if attention == "bahdanau":
            self.attention = BahdanauAttention(hidden)
            self.rnn = CELLS[cell](embed + hidden, hidden, batch_first=True)
            self.out = nn.Linear(2 * hidden, vocab_size)
        elif attention in ("luong_general", "luong_dot", "luong_prev"):
            self.attention = LuongAttention(hidden, "dot" if attention == "luong_dot" else "general")
            self.rnn = CELLS[cell](embed, hidden, batch_first=True)
            self.W_c = nn.Linear(2 * hidden, hidden)
            self.out = nn.Linear(hidden, vocab_size)
        else:
            self.attention = None
            self.rnn = CELLS[cell](embed, hidden, batch_first=True)
            self.out = nn.Linear(hidden, vocab_size)

    @property
    def parallel(self) -> bool:
        """With every input known (full teacher forcing), can all steps run in one recurrent call?
        Luong, luong_prev and no-attention: yes (the context never enters the cell). Bahdanau: no, each step's
        input needs the context of the step before."""
        return self.kind != "bahdanau"

    @property
    def previous_query(self) -> bool:
        """Does attention score with the state BEFORE the step (s_(t-1): Bahdanau, luong_prev)?"""
        return self.kind in ("bahdanau", "luong_prev")

    def readout(
        self,
        states: torch.Tensor,
        memory: Memory,
        override: torch.Tensor | None = None,
        queries: torch.Tensor | None = None,
    ):
        """Luong / luong_prev / none: the cell's outputs (B, T, H) -> logits (B, T, V), weights (B, T, S) or None.
        queries (B, T, H) score the source (default: the outputs themselves, Luong's s_t; luong_prev passes s_(t-1))."""
        if self.attention is None:
            return self.out(states), None  # (B, T, V)
        queries = states if queries is None else queries
        context, weights = attend(self.attention, queries, memory, override)  # (B, T, H), (B, T, S)
        mixed = torch.tanh(self.W_c(torch.cat([context, states], dim=-1)))  # (B, T, 2H) -> (B, T, H)
        return self.out(mixed), weights  # (B, T, V), (B, T, S)

    def step(self, y_prev: torch.Tensor, state: State, memory: Memory, override: torch.Tensor | None = None):
        """One output step: y_prev (B,), state (1, B, H) or (h, c) -> logits (B, V), new state, weights (B, S),
        query (B, H)."""
        x = self.embedding(y_prev).unsqueeze(1)  # (B,) -> (B, 1, E)
        if self.kind == "bahdanau":
            query = top(state).transpose(0, 1)  # (1, B, H) -> (B, 1, H): s_(t-1), the state BEFORE this step
            context, weights = attend(self.attention, query, memory, override)  # (B, 1, H), (B, 1, S)
            output, state = self.rnn(torch.cat([x, context], dim=-1), state)  # (B, 1, E+H) -> (B, 1, H)
            logits = self.out(torch.cat([output, context], dim=-1))  # (B, 1, 2H) -> (B, 1, V)
        elif self.kind == "luong_prev":
            query = top(state).transpose(0, 1)  # (1, B, H) -> (B, 1, H): s_(t-1), before the cell runs
            output, state = self.rnn(x, state)  # (B, 1, H): s_t, joined with the context below
            logits, weights = self.readout(output, memory, override, query)  # (B, 1, V), (B, 1, S)
        else:
            output, state = self.rnn(x, state)  # (B, 1, H): s_t, the state AFTER this step
            query = output
            logits, weights = self.readout(output, memory, override)  # (B, 1, V), (B, 1, S) or None
        return logits.squeeze(1), state, None if weights is None else weights.squeeze(1), query.squeeze(1)


class Seq2Seq(nn.Module):
    """Encoder + decoder; the encoder's true last state starts the decoder (the one-vector bridge; for an LSTM
    the pair h, c)."""

    def __init__(
        self, src_vocab: int, tgt_vocab: int, embed: int, hidden: int, attention: str, cell: str = "gru"
    ) -> None:
        super().__init__()
        self.encoder = Encoder(src_vocab, embed, hidden, cell)
        self.decoder = Decoder(tgt_vocab, embed, hidden, attention, cell)

    def encode(self, src: torch.Tensor, lengths: torch.Tensor) -> tuple[Memory, State]:
        values, state = self.encoder(src, lengths)  # (B, S, H), (1, B, H) or (h, c)
        attention = self.decoder.attention
        keys = attention.keys(values) if attention is not None else values  # (B, S, H)
        return Memory(values, keys, src != PAD_ID), state

    def forward(
        self,
        src: torch.Tensor,
        lengths: torch.Tensor,
        y_in: torch.Tensor,
        tf_ratio: float = 1.0,
        generator: torch.Generator | None = None,
    ) -> torch.Tensor:
        """Training pass: logits (B, T, V). Input t is the true token y_in[:, t] with chance tf_ratio,
        else the model's own argmax from step t-1 (scheduled sampling); y_in[:, 0] is always SOS."""
        memory, state = self.encode(src, lengths)
        if tf_ratio >= 1.0 and self.decoder.parallel:
            # 1) Every input is known: one recurrent call over all T steps, attention for all steps in one bmm.
            states, _ = self.decoder.rnn(self.decoder.embedding(y_in), state)  # (B, T, E) -> (B, T, H)
            queries = None
            if self.decoder.kind == "luong_prev":  # s_(t-1): the encoder's state, then every output but the last
                queries = torch.cat([top(state).transpose(0, 1), states[:, :-1]], dim=1)  # (B, 1+T-1, H)
            return self.decoder.readout(states, memory, queries=queries)[0]  # (B, T, V)
        # 2) Otherwise step by step: an input may be the model's own previous prediction.
        y = y_in[:, 0]  # (B,) SOS
        logits = []
        for t in range(y_in.shape[1]):
            step_logits, state, _, _ = self.decoder.step(y, state, memory)  # (B, V)
            logits.append(step_logits)
            if t + 1 < y_in.shape[1]:
                teacher = y_in[:, t + 1]  # (B,) the true previous token
                own = step_logits.argmax(dim=-1)  # (B,) what the model just predicted
                if tf_ratio >= 1.0 or tf_ratio <= 0.0:
                    y = teacher if tf_ratio >= 1.0 else own  # a sure outcome: no coin is drawn
                else:
                    if generator is None:  # the process-wide generator is shared by every session of a server
                        raise ValueError("a teacher-forcing ratio between 0 and 1 needs the run's own generator")
                    coin = torch.rand(y.shape[0], generator=generator) < tf_ratio  # (B,) one draw per row and step
                    y = torch.where(coin, teacher, own)
        return torch.stack(logits, dim=1)  # T x (B, V) -> (B, T, V)

    @torch.no_grad()
    def greedy(
        self, src: torch.Tensor, lengths: torch.Tensor, max_steps: int, override: tuple[int, torch.Tensor] | None = None
    ) -> dict[str, torch.Tensor]:
        """Free-running decoding: the input at step t is the argmax of step t-1. override=(k, weights (B, S))
        replaces step k's attention weights (the what-if). Returns every step's inputs, predictions,
        logits, weights and queries; a row keeps going after its EOS (callers cut there)."""
        memory, state = self.encode(src, lengths)
        y = torch.full((src.shape[0],), SOS_ID, dtype=torch.long)  # (B,)
        inputs, preds, logits, weights, queries = [], [], [], [], []
        for t in range(max_steps):
            w_over = override[1].unsqueeze(1) if override is not None and override[0] == t else None  # (B, 1, S)
            step_logits, state, w, query = self.decoder.step(y, state, memory, w_over)
            inputs.append(y)
            y = step_logits.argmax(dim=-1)  # (B,) fed back as the next input
            preds.append(y)
            logits.append(step_logits)
            queries.append(query)
            if w is not None:
                weights.append(w)
            if bool((torch.stack(preds, 1) == EOS_ID).any(dim=1).all()):
                break
        return {
            "inputs": torch.stack(inputs, 1),  # (B, T)
            "preds": torch.stack(preds, 1),  # (B, T)
            "logits": torch.stack(logits, 1),  # (B, T, V)
            "weights": torch.stack(weights, 1) if weights else None,  # (B, T, S)
            "queries": torch.stack(queries, 1),  # (B, T, H)
            "memory": memory,
        }


def init_parameters(model: nn.Module, generator: torch.Generator) -> None:
    """PyTorch's default initialisation, every number drawn from `generator`: the run's own random stream,
    not the process-wide one that every session of a server shares. Embeddings N(0, 1) with a zero PAD row;
    Linear and recurrent weights and biases U(-1/√fan_in, 1/√fan_in), where a recurrent layer's fan_in is its
    hidden size."""
    with torch.no_grad():
        for module in model.modules():  # a fixed order: the same generator state gives the same weights
            if isinstance(module, nn.Embedding):
                module.weight.normal_(0.0, 1.0, generator=generator)
                if module.padding_idx is not None:
                    module.weight[module.padding_idx].zero_()
            elif isinstance(module, (nn.Linear, nn.RNNBase)):  # RNNBase: nn.RNN, nn.LSTM, nn.GRU
                fan_in = module.in_features if isinstance(module, nn.Linear) else module.hidden_size
                bound = 1 / math.sqrt(fan_in)
                for param in module.parameters(recurse=False):
                    param.uniform_(-bound, bound, generator=generator)
