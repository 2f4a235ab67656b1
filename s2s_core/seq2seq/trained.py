"""The encoder–decoder page on a trained model: the Translation lab's default (s2s_core/training/model.py) read from
its config and state_dict, its decoder stepped by hand from <sos>, and the same results as the untrained model's
(encoder, hand-off, decoding, bottleneck), so the page draws both alike.

A decoder step by hand: the embedding of the previous word, the recurrent cell's own equations (PyTorch's gate
order), attention (Luong: the new state scores the keys; Bahdanau: the previous state does, and the context joins
the cell's input), the output layer. It equals the module's own `decoder.step` (tests/core/test_seq2seq.py).
Shapes: B batch (1), S source length, T steps, E embedding, H hidden (H_e = H_d), V target vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.grammar import translate
from s2s_core.seq2seq.bottleneck import measure
from s2s_core.seq2seq.compute import DecodeStep, Decoding, EncoderResult, HandOff, Seq2SeqConfig
from s2s_core.seq2seq.run import Seq2SeqResult
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import new_model
from s2s_core.training.model import EOS_ID, PAD_ID, SOS_ID, Memory, Seq2Seq, State, top
from s2s_core.training.tasks import KO_EN, source_vocab, target_tokens, target_vocab


def load_model(train_config: TrainConfig, state_dict: Mapping[str, torch.Tensor]) -> Seq2Seq:
    """The trained model rebuilt from its config and weights (a private copy: the page never changes a job's)."""
    model = new_model(train_config, torch.Generator())  # the initial weights are overwritten just below
    model.load_state_dict(dict(state_dict))
    return model.eval()


# --- one decoder step, by hand ---------------------------------------------------------------------------------


def cell_step(rnn: nn.RNNBase, x: torch.Tensor, state: State) -> State:
    """One step of a one-layer nn.RNN / nn.GRU / nn.LSTM written out: x (B, In), state (1, B, H) or (h, c)."""
    W_ih, W_hh, b_ih, b_hh = rnn.weight_ih_l0, rnn.weight_hh_l0, rnn.bias_ih_l0, rnn.bias_hh_l0
    h = top(state)[0]  # (B, H)
    gi = x @ W_ih.T + b_ih  # (B, In) @ (In, G*H) -> (B, G*H)
    gh = h @ W_hh.T + b_hh  # (B, H) @ (H, G*H) -> (B, G*H)
    if isinstance(rnn, nn.GRU):
        i_r, i_z, i_n = gi.chunk(3, dim=-1)  # (B, H) each: PyTorch's order r, z, n
        h_r, h_z, h_n = gh.chunk(3, dim=-1)
        r = torch.sigmoid(i_r + h_r)  # reset gate
        z = torch.sigmoid(i_z + h_z)  # update gate
        n = torch.tanh(i_n + r * h_n)  # candidate
        return ((1 - z) * n + z * h).unsqueeze(0)  # (1, B, H)
    if isinstance(rnn, nn.LSTM):
        i, f, g, o = (gi + gh).chunk(4, dim=-1)  # (B, H) each: PyTorch's order i, f, g, o
        c = torch.sigmoid(f) * state[1][0] + torch.sigmoid(i) * torch.tanh(g)  # (B, H)
        return (torch.sigmoid(o) * torch.tanh(c)).unsqueeze(0), c.unsqueeze(0)
    act = torch.tanh if rnn.nonlinearity == "tanh" else torch.relu
    return act(gi + gh).unsqueeze(0)  # (1, B, H)


def attend_by_hand(attention: nn.Module, query: torch.Tensor, memory: Memory) -> tuple[torch.Tensor, torch.Tensor]:
    """query (B, H) -> context (B, H) and weights (B, S): scores, PAD to -inf, softmax, weighted sum."""
    if hasattr(attention, "v"):  # Bahdanau: vᵀ tanh(W_s s + W_h h), the keys already hold W_h h
        scores = attention.v(torch.tanh(attention.W_s(query).unsqueeze(1) + memory.keys)).squeeze(-1)  # (B, S)
    else:  # Luong general / dot: sᵀ (W_a h), the keys already hold W_a h (or h)
        scores = (memory.keys @ query.unsqueeze(-1)).squeeze(-1)  # (B, S, H) @ (B, H, 1) -> (B, S)
    scores = scores.masked_fill(~memory.mask, float("-inf"))
    weights = scores.softmax(dim=-1)  # (B, S)
    context = (weights.unsqueeze(-1) * memory.values).sum(dim=1)  # (B, S, 1) * (B, S, H) -> (B, H)
    return context, weights


@dataclass(frozen=True)
class HandStep:
    logits: torch.Tensor  # (B, V) the word scores
    state: State  # the state after the step, (1, B, H) or (h, c)
    weights: torch.Tensor | None  # (B, S) attention (None without)


def hand_step(model: Seq2Seq, y_prev: torch.Tensor, state: State, memory: Memory) -> HandStep:
    """One decoder step written out: y_prev (B,) the previous word, state before the step -> scores, state."""
    dec = model.decoder
    x = dec.embedding.weight[y_prev]  # (B,) -> (B, E)
    if dec.kind == "bahdanau":
        context, weights = attend_by_hand(dec.attention, top(state)[0], memory)  # the query is s_(t-1)
        new = cell_step(dec.rnn, torch.cat([x, context], dim=-1), state)  # (B, E+H) -> (1, B, H)
        logits = dec.out(torch.cat([top(new)[0], context], dim=-1))  # (B, 2H) -> (B, V)
        return HandStep(logits, new, weights)
    new = cell_step(dec.rnn, x, state)  # s_t, the state after the step
    s = top(new)[0]  # (B, H)
    if dec.attention is None:
        return HandStep(dec.out(s), new, None)  # (B, H) -> (B, V)
    context, weights = attend_by_hand(dec.attention, s, memory)  # the query is s_t
    mixed = torch.tanh(dec.W_c(torch.cat([context, s], dim=-1)))  # (B, 2H) -> (B, H)
    return HandStep(dec.out(mixed), new, weights)  # (B, V)


def _diff(a: State, b: State) -> float:
    pairs = zip(a, b, strict=True) if isinstance(a, tuple) else ((a, b),)
    return max(float((x - y).abs().max()) for x, y in pairs)


# --- the page's results for the trained model -----------------------------------------------------------------


@torch.no_grad()
def encode_trained(model: Seq2Seq, tokens: tuple[str, ...]) -> tuple[EncoderResult, Memory, State]:
    stoi = {tok: i for i, tok in enumerate(source_vocab(KO_EN))}
    ids = torch.tensor([[stoi[tok] for tok in tokens]], dtype=torch.long)  # (B, S)
    memory, state = model.encode(ids, torch.tensor([len(tokens)]))  # values (B, S, H); (1, B, H) or (h, c)
    h_n, c_n = state if isinstance(state, tuple) else (state, None)
    enc = EncoderResult(tokens, ids, model.encoder.embedding(ids), memory.values, h_n, c_n)  # (B, S, E), (B, S, H)
    return enc, memory, state


@torch.no_grad()
def decode_trained(model: Seq2Seq, config: Seq2SeqConfig, memory: Memory, state: State) -> Decoding:
    """Greedy decoding from <sos> by hand, each step checked against the module's own decoder.step."""
    itos = target_vocab(KO_EN)
    k = min(config.top_k, len(itos))
    h0 = top(state)[-1]  # (B, H)
    token = torch.tensor([SOS_ID])  # (B,)
    steps, worst = [], 0.0
    for _ in range(config.steps):
        # 1) By hand, and the module's own step from the same state: they must agree.
        mine = hand_step(model, token, state, memory)
        logits, own_state, own_weights, _ = model.decoder.step(token, state, memory)  # (B, V)
        worst = max(worst, float((mine.logits - logits).abs().max()), _diff(mine.state, own_state))
        if own_weights is not None:
            worst = max(worst, float((mine.weights - own_weights).abs().max()))
        probs = torch.softmax(mine.logits[0], dim=-1)  # (V,)
        top_p, top_i = probs.topk(k)  # (k,)
        chosen = int(mine.logits[0].argmax())  # greedy, as Seq2Seq.greedy
        h_prev, h_new = top(state)[-1, 0], top(mine.state)[-1, 0]  # (H,) each
        steps.append(
            DecodeStep(
                input_token=itos[int(token)],
                h_prev=h_prev,
                h_new=h_new,
                c_new=mine.state[1][-1, 0] if isinstance(mine.state, tuple) else None,
                change=float((h_new - h_prev).norm()),
                probs=probs,
                top=tuple((itos[i], float(p)) for p, i in zip(top_p.tolist(), top_i.tolist(), strict=True)),
                chosen=itos[chosen],
                weights=None if mine.weights is None else mine.weights[0],  # (S,)
            )
        )
        # 2) Greedy: the chosen word is fed back; <eos> ends the sentence.
        state, token = mine.state, torch.tensor([chosen])
        if chosen == EOS_ID:
            break
    states = torch.cat([h0, torch.stack([s.h_new for s in steps])], dim=0)  # (1, H) + (T, H) -> (T+1, H)
    return Decoding(
        steps=tuple(steps),
        output=tuple(s.chosen for s in steps),
        states=states,
        one_call_diff=worst,
        check="by_hand",
    )


def run_trained(
    config: Seq2SeqConfig, train_config: TrainConfig, state_dict: Mapping[str, torch.Tensor]
) -> Seq2SeqResult:
    """The page on the trained model: config gives the Korean source (words the model knows: parse_config with
    model="trained" checks them), T, k and the replacement word; the sizes are the model's own."""
    model = load_model(train_config, state_dict)
    enc, memory, state = encode_trained(model, config.source)
    handoff = HandOff((1, 1, train_config.hidden), False, enc.h_n, enc.c_n, False)

    def final(ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        _, last = model.encoder(ids, lengths)  # the state at each sentence's true last word
        return top(last)  # (1, 3N, H): one direction

    stoi = {tok: i for i, tok in enumerate(source_vocab(KO_EN))}
    numbers = train_config.hidden * (2 if enc.c_n is not None else 1)
    with torch.no_grad():
        bottleneck = measure(config, final, stoi, PAD_ID, numbers)
    pair = translate(list(config.source))
    return Seq2SeqResult(
        enc,
        handoff,
        decode_trained(model, config, memory, state),
        None,
        bottleneck,
        model="trained",
        attention=train_config.attention,
        reference=None if pair is None else tuple(target_tokens(KO_EN, list(config.source))),
    )
