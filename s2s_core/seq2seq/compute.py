"""The math of the encoder–decoder page's untrained model: encode, hand the final state over (through a bridge if
needed), decode greedily from <sos> one step at a time (the trained model's: s2s_core/seq2seq/trained.py).

Shapes: B batch (1 here), S source length, T decoding steps, E embedding, H_e / H_d hidden sizes,
L_e / L_d layers, K encoder directions, V vocabulary (the source's words plus the special tokens).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import torch

from s2s_core.errors import InputError
from s2s_core.grammar import KO_VOCAB, nearest_words
from s2s_core.rng import isolated
from s2s_core.seq2seq import fields
from s2s_core.seq2seq.fields import (  # noqa: F401 (the fields' caps and defaults, kept importable from here)
    BRIDGES,
    CELLS,
    DEFAULT_REPLACEMENT,
    DEFAULT_SOURCE,
    DEFAULT_STEPS,
    MAX_SOURCE_TOKENS,
    MAX_STEPS,
    MAX_TOP_K,
    MAX_WORD_CHARS,
)
from s2s_core.seq2seq.modules import Bridge, Decoder, Encoder
from s2s_core.vocab import EOS, SOS, build_vocab, tokenize

ErrorParts = tuple[str, str, tuple[tuple[str, Any], ...]]  # an InputError that can be cached (pickled)


@dataclass(frozen=True)
class Seq2SeqConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key). model: which model decodes, the
    trained one (its sizes are the Translation lab's; cell … seed are then the untrained model's, kept for a
    switch back) or the untrained one."""

    source: tuple[str, ...] = tuple(DEFAULT_SOURCE.split())
    model: str = fields.MODEL.default
    cell: str = fields.CELL.default
    embed: int = fields.EMBED.default  # E
    enc_hidden: int = fields.ENC_HIDDEN.default  # H_e
    enc_layers: int = fields.ENC_LAYERS.default  # L_e
    bidirectional: bool = fields.BIDIRECTIONAL.default
    dec_hidden: int = fields.DEC_HIDDEN.default  # H_d
    dec_layers: int = fields.DEC_LAYERS.default  # L_d
    bridge: str = fields.BRIDGE.default
    steps: int = fields.STEPS.default  # T: at most this many output words
    top_k: int = fields.TOP_K.default
    seed: int = fields.SEED.default
    replacement: str = DEFAULT_REPLACEMENT  # the word swapped in for the bottleneck measurement

    @property
    def directions(self) -> int:
        return 2 if self.bidirectional else 1

    @property
    def itos(self) -> list[str]:
        """Source and target share one toy vocabulary: specials, then the words in order."""
        return list(build_vocab([self.source, (self.replacement,)]).itos)


def default_config(lang: str = "en", model: str = fields.MODEL.default) -> Seq2SeqConfig:
    """The page's opening state (the same Korean sentence in every language) with `model` decoding it."""
    return Seq2SeqConfig(model=model, steps=DEFAULT_STEPS[model])


def known_words(tokens: list[str], field: str) -> None:
    """The trained model reads only the toy grammar's Korean words: an unknown one raises InputError naming the
    field, with the nearest known words (the Translation lab's message)."""
    unknown = list(dict.fromkeys(tok for tok in tokens if tok not in KO_VOCAB))
    if unknown:
        near = ", ".join(nearest_words(unknown[0])) or "—"
        raise InputError("seq2seq.error.unknown_words", field, words=" ".join(unknown[:6]), word=unknown[0], near=near)


def _flag(value: Any) -> Any:
    """A link's "true" / "false" as a bool; anything else is left for the field's check to name."""
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def parse_replacement(word: Any, model: str = "untrained") -> str:
    """The bottleneck's swap for the first word: one word within its cap, and one the trained model knows when it
    is the one measured (raises InputError naming the field)."""
    field = fields.REPLACEMENT
    text = field.check(word).strip()  # the cap
    if not text:
        raise InputError("errors.empty_text", field.label)
    if len(text.split()) != 1:
        raise InputError("seq2seq.error.one_word", field.label)
    if model == "trained":
        text = unicodedata.normalize("NFC", text)
        known_words([text], field.label)
    return text


def parse_config(
    source: Any,
    *,
    model: Any = "untrained",  # callers outside the page (the scoring page's encoder states) use the seeded model
    cell: Any = fields.CELL.default,
    embed: Any = fields.EMBED.default,
    enc_hidden: Any = fields.ENC_HIDDEN.default,
    enc_layers: Any = fields.ENC_LAYERS.default,
    bidirectional: Any = fields.BIDIRECTIONAL.default,
    dec_hidden: Any = fields.DEC_HIDDEN.default,
    dec_layers: Any = fields.DEC_LAYERS.default,
    bridge: Any = fields.BRIDGE.default,
    steps: Any = None,
    top_k: Any = fields.TOP_K.default,
    seed: Any = fields.SEED.default,
    replacement: Any = DEFAULT_REPLACEMENT,
) -> Seq2SeqConfig:
    """Validate raw widget / URL values against their fields; the first problem raises InputError naming it.
    steps: None gives the model's own default T."""
    model = fields.MODEL.check(model)
    tokens = tokenize(fields.SOURCE.check(source), fields.SOURCE.label, max_tokens=MAX_SOURCE_TOKENS)
    if model == "trained":
        # NFC: Hangul typed as separate letters (jamo) becomes the syllables the vocabulary is written in.
        tokens = [unicodedata.normalize("NFC", tok) for tok in tokens]
        known_words(tokens, fields.SOURCE.label)
    word = parse_replacement(replacement, model)
    return Seq2SeqConfig(
        source=tuple(tokens),
        model=model,
        cell=fields.CELL.check(cell),
        embed=fields.EMBED.check(embed),
        enc_hidden=fields.ENC_HIDDEN.check(enc_hidden),
        enc_layers=fields.ENC_LAYERS.check(enc_layers),
        bidirectional=fields.BIDIRECTIONAL.check(_flag(bidirectional)),
        dec_hidden=fields.DEC_HIDDEN.check(dec_hidden),
        dec_layers=fields.DEC_LAYERS.check(dec_layers),
        bridge=fields.BRIDGE.check(bridge),
        steps=fields.STEPS.check(DEFAULT_STEPS[model] if steps is None else steps),
        top_k=fields.TOP_K.check(top_k),
        seed=fields.SEED.check(seed),
        replacement=word,
    )


def build_encoder(config: Seq2SeqConfig) -> Encoder:
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        return Encoder(
            config.itos,
            config.cell,
            config.embed,
            config.enc_hidden,
            config.enc_layers,
            config.bidirectional,
            config.seed,
        )


@dataclass(frozen=True)
class EncoderResult:
    tokens: tuple[str, ...]
    ids: torch.Tensor  # (B, S)
    embedded: torch.Tensor  # (B, S, E)
    outputs: torch.Tensor  # (B, S, K*H_e): the top layer at every position
    h_n: torch.Tensor  # (L_e*K, B, H_e): every layer's (and direction's) last state
    c_n: torch.Tensor | None  # (L_e*K, B, H_e) LSTM only: the cell state

    @property
    def state(self):
        return self.h_n if self.c_n is None else (self.h_n, self.c_n)


def encode(config: Seq2SeqConfig) -> EncoderResult:
    encoder = build_encoder(config)
    stoi = {tok: i for i, tok in enumerate(config.itos)}
    ids = torch.tensor([[stoi[tok] for tok in config.source]], dtype=torch.long)  # (B, S)
    with torch.no_grad():
        embedded = encoder.embedding(ids)  # (B, S, E)
        outputs, state = encoder(ids)  # (B, S, K*H_e); (L_e*K, B, H_e)
    h_n, c_n = state if config.cell == "lstm" else (state, None)
    return EncoderResult(tuple(config.source), ids, embedded, outputs, h_n, c_n)


@dataclass(frozen=True)
class HandOff:
    """The decoder's initial state, made from the encoder's final state (as is, or through the bridge)."""

    dec_shape: tuple[int, ...]  # (L_d, B, H_d) what the decoder's nn.LSTM / nn.GRU expects
    bridged: bool  # True when a Linear bridge made the state
    h0: torch.Tensor  # (L_d, B, H_d)
    c0: torch.Tensor | None  # (L_d, B, H_d) LSTM only
    directions_as_layers: bool  # shapes fit only because K directions line up with L_d layers

    @property
    def state(self):
        return self.h0 if self.c0 is None else (self.h0, self.c0)


def state_rows(layers: int, directions: int) -> tuple[tuple[int, int], ...]:
    """(layer, direction) of each row of h_n, 1-based layers, direction 0 = →, 1 = ←: PyTorch's order.

    Handed over as is, decoder layer i starts from row i, so this is also what each decoder layer receives.
    """
    return tuple((layer + 1, k) for layer in range(layers) for k in range(directions))


def no_bridge_error(config: Seq2SeqConfig, enc_shape: tuple[int, ...], dec_shape: tuple[int, ...]) -> InputError:
    """Why the state cannot pass, with the fixes that give a meaningful hand-off for this encoder.

    One direction: the decoder takes the encoder's own shape (L_e layers of H_e). Two directions: the bridge,
    a one-direction encoder with that shape, or each layer's two directions joined into 2·H_e numbers. Matching
    L_d to L_e·K is not advised: it runs, but feeds whole directions into decoder layers (directions_as_layers).
    """
    key = "seq2seq.error.no_bridge_bidir" if config.directions == 2 else "seq2seq.error.no_bridge"
    return InputError(
        key,
        "seq2seq.field.bridge",
        enc=str(enc_shape),
        dec=str(dec_shape),
        layers=config.enc_layers,
        hidden=config.enc_hidden,
        joined=config.directions * config.enc_hidden,
    )


def hand_off(config: Seq2SeqConfig, enc: EncoderResult) -> HandOff:
    """The encoder's final state becomes the decoder's initial state: as is, or through the bridge."""
    enc_shape = tuple(enc.h_n.shape)  # (L_e*K, B, H_e)
    dec_shape = (config.dec_layers, 1, config.dec_hidden)  # (L_d, B, H_d)
    if config.bridge == "none":
        # nn.LSTM / nn.GRU check only the shape, so the state passes only when the shapes agree exactly.
        if enc_shape != dec_shape:
            raise no_bridge_error(config, enc_shape, dec_shape)
        return HandOff(dec_shape, False, enc.h_n, enc.c_n, config.directions == 2)
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        bridge = Bridge(
            config.cell,
            config.enc_layers * config.directions * config.enc_hidden,
            config.dec_layers,
            config.dec_hidden,
            config.seed,
        )
    with torch.no_grad():
        state = bridge(enc.state)
    h0, c0 = state if config.cell == "lstm" else (state, None)
    return HandOff(dec_shape, True, h0, c0, False)


@dataclass(frozen=True)
class DecodeStep:
    input_token: str
    h_prev: torch.Tensor  # (H_d,) top layer before this step
    h_new: torch.Tensor  # (H_d,) top layer after it
    c_new: torch.Tensor | None  # (H_d,) LSTM only: top layer's cell state after it
    change: float  # ||h_new - h_prev||
    probs: torch.Tensor  # (V,) softmax of the word scores
    top: tuple[tuple[str, float], ...]  # the k most likely next words
    chosen: str  # greedy: the most likely word, fed back as the next input
    weights: torch.Tensor | None = None  # (S,) attention over the source at this step (a model with attention)

    @property
    def looked(self) -> int | None:
        """0-based source position with the largest attention weight at this step (None without attention)."""
        return None if self.weights is None else int(self.weights.argmax())


@dataclass(frozen=True)
class Decoding:
    steps: tuple[DecodeStep, ...]
    output: tuple[str, ...]  # the chosen words (ends with <eos> if it was chosen)
    states: torch.Tensor  # (T+1, H_d) top layer: h0 (the hand-off) then after each step
    one_call_diff: float  # the check: step-by-step loop vs one nn.LSTM/GRU call (untrained) or hand vs module step
    check: str = "one_call"  # which check one_call_diff measures: "one_call" or "by_hand" (the trained model's)

    @property
    def words(self) -> tuple[str, ...]:
        """The output sentence: the chosen words without the closing <eos>."""
        return tuple(w for w in self.output if w != EOS)

    @property
    def ended(self) -> bool:
        """True when the decoder chose <eos> (False: it stopped at the step limit T)."""
        return bool(self.output) and self.output[-1] == EOS


def decode(config: Seq2SeqConfig, handoff: HandOff) -> Decoding:
    """Greedy decoding from <sos>: each step's chosen word is the next step's input."""
    itos = config.itos
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        decoder = Decoder(itos, config.cell, config.embed, config.dec_hidden, config.dec_layers, config.seed)
    k = min(config.top_k, len(itos) - len(decoder.never))
    state = handoff.state
    token = itos.index(SOS)
    steps, outputs, inputs = [], [], []
    with torch.no_grad():
        for _ in range(config.steps):
            h_prev = (state if config.cell == "gru" else state[0])[-1, 0]  # (H_d,) top layer
            # 1) One step: the previous word and the previous state give the new state and word scores.
            logits, out, state = decoder(torch.tensor([[token]]), state)  # (B, 1, V), (B, 1, H_d)
            probs = torch.softmax(logits[0, 0], dim=-1)  # (V,)
            top_p, top_i = probs.topk(k)  # (k,)
            chosen = int(top_i[0])
            h_new = (state if config.cell == "gru" else state[0])[-1, 0]  # (H_d,)
            steps.append(
                DecodeStep(
                    input_token=itos[token],
                    h_prev=h_prev,
                    h_new=h_new,
                    c_new=None if config.cell == "gru" else state[1][-1, 0],
                    change=float((h_new - h_prev).norm()),
                    probs=probs,
                    top=tuple((itos[i], float(p)) for p, i in zip(top_p.tolist(), top_i.tolist(), strict=True)),
                    chosen=itos[chosen],
                )
            )
            inputs.append(token)
            outputs.append(out[0, 0])
            # 2) Greedy: the chosen word is fed back; <eos> ends the sentence.
            token = chosen
            if itos[chosen] == EOS:
                break
        # 3) The check: the same inputs in one call give the same top-layer outputs.
        _, all_out, _ = decoder(torch.tensor([inputs]), handoff.state)  # (B, T, H_d)
    looped = torch.stack(outputs)  # (T, H_d)
    states = torch.cat([handoff.h0[-1], looped], dim=0)  # (1, H_d) + (T, H_d) -> (T+1, H_d)
    return Decoding(
        steps=tuple(steps),
        output=tuple(s.chosen for s in steps),
        states=states,
        one_call_diff=float((all_out[0] - looped).abs().max()),
    )
