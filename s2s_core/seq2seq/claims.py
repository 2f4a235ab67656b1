"""The encoder–decoder page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/seq2seq.py `read_inputs`): the model's own default
T when the link leaves the steps out, the default replacement word when the typed one is bad, then `parse_config`.
A claim runs the untrained model (`run`): the trained one is a server job the page waits for, never part of a
pure computation, so lesson steps that carry a claim choose `seq2seq_model = "untrained"`; a state on the trained
model does not hold (`_untrained`). Numbers are formatted as the page prints them (`brief` under the picture,
`num`, the hand-off's shapes as tuples), so `shown` is what the page draws, in either language.

Shapes: B batch (1), S source length, T steps, H_e / H_d hidden, L_e / L_d layers, K directions.
"""

from __future__ import annotations

import torch

from s2s_core.errors import InputError
from s2s_core.fmt import num, sci
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.seq2seq import Seq2SeqConfig, Seq2SeqResult, fields, parse_config, parse_replacement, run
from s2s_core.seq2seq.fields import DEFAULT_STEPS
from s2s_core.seq2seq.frames import bottleneck_summary, brief


def config_of(state: LinkState) -> Seq2SeqConfig:
    model = state.value(fields.MODEL)
    steps = DEFAULT_STEPS[model] if state.raw(fields.STEPS) is None else state.value(fields.STEPS)
    try:
        word = parse_replacement(state.value(fields.REPLACEMENT), model)
    except InputError:
        word = fields.REPLACEMENT.default  # the page measures with the default word while the typed one is bad
    return parse_config(
        state.value(fields.SOURCE),
        model=model,
        cell=state.value(fields.CELL),
        embed=state.value(fields.EMBED),
        enc_hidden=state.value(fields.ENC_HIDDEN),
        enc_layers=state.value(fields.ENC_LAYERS),
        bidirectional=state.value(fields.BIDIRECTIONAL),
        dec_hidden=state.value(fields.DEC_HIDDEN),
        dec_layers=state.value(fields.DEC_LAYERS),
        bridge=state.value(fields.BRIDGE),
        steps=steps,
        top_k=state.value(fields.TOP_K),
        seed=state.value(fields.SEED),
        replacement=word,
    )


def _untrained(state: LinkState) -> tuple[Seq2SeqConfig, Seq2SeqResult | None]:
    """The config, and the untrained model's run (None on the trained model: no claim is computed on it)."""
    config = config_of(state)
    return config, run(config) if config.model == "untrained" else None


@claim("seq2seq:handoff")
def handoff(state: LinkState) -> ClaimResult:
    """Without a bridge the decoder starts from the encoder's final state itself: h0 is h_n (and c0 is c_n), number
    for number; the first decoder step's "h before" under the picture is that state's top layer."""
    _, result = _untrained(state)
    if result is None or result.handoff is None or result.decoding is None:
        return ClaimResult(False)
    enc, given = result.encoder, result.handoff
    same = not given.bridged and torch.equal(given.h0, enc.h_n)  # (L_d, B, H_d) == (L_e·K, B, H_e)
    if enc.c_n is not None:
        same = same and given.c0 is not None and torch.equal(given.c0, enc.c_n)
    h0 = brief(result.decoding.steps[0].h_prev)  # (H_d,) the top layer, as the picture's step 1 prints it
    values = {"h0": h0, "shape": str(tuple(enc.h_n.shape)), "S": str(len(enc.tokens))}
    return ClaimResult(bool(same), values, shown=(h0,))


@claim("seq2seq:feeds_back")
def feeds_back(state: LinkState, step: int) -> ClaimResult:
    """Greedy decoding: decoder step `step` (1-based, > 1) reads the word step `step` - 1 chose."""
    _, result = _untrained(state)
    dec = None if result is None else result.decoding
    if dec is None or not 2 <= step <= len(dec.steps):
        return ClaimResult(False)
    now, before = dec.steps[step - 1], dec.steps[step - 2]
    change = num(now.change)
    values = {"word": before.chosen, "step": f"t{step}", "chosen": now.chosen, "change": change}
    values |= {"S": str(len(result.encoder.tokens)), "T": str(len(dec.words))}
    return ClaimResult(now.input_token == before.chosen, values, shown=(f"‖Δh‖ = {change}",))


@claim("seq2seq:handoff_fits")
def handoff_fits(state: LinkState, fits: bool | None = None) -> ClaimResult:
    """Can the encoder's final state be handed over as the decoder's initial state (the shapes agree, or a bridge
    makes them)? With `fits`, holds when it comes out so; as a question's answer: "runs" or "fails"."""
    config, result = _untrained(state)
    if result is None:
        return ClaimResult(False)
    enc = str(tuple(result.encoder.h_n.shape))  # (L_e·K, B, H_e)
    dec = str((config.dec_layers, 1, config.dec_hidden))  # (L_d, B, H_d)
    ok = result.handoff is not None
    holds = fits is None or ok == bool(fits)
    return ClaimResult(holds, {"enc": enc, "dec": dec}, shown=(enc, dec), answer="runs" if ok else "fails")


@claim("seq2seq:bridge")
def bridge(state: LinkState) -> ClaimResult:
    """The Linear bridge makes the decoder's initial state from all of h_n: L_d rows of H_d, whatever the encoder's
    shape; the first decoder step starts from its top layer."""
    config, result = _untrained(state)
    if result is None or result.handoff is None or result.decoding is None:
        return ClaimResult(False)
    h0 = result.handoff.h0  # (L_d, B, H_d)
    rows = config.enc_layers * config.directions
    values = {
        "flat": str(rows * config.enc_hidden),
        "out": str(config.dec_layers * config.dec_hidden),
        "dec": str(tuple(h0.shape)),
        "h0": brief(result.decoding.steps[0].h_prev),  # (H_d,)
    }
    holds = result.handoff.bridged and tuple(h0.shape) == (config.dec_layers, 1, config.dec_hidden)
    return ClaimResult(holds, values, shown=(values["h0"],))


@claim("seq2seq:bottleneck")
def bottleneck(state: LinkState, fades: bool | None = None) -> ClaimResult:
    """However long the sentence, the hand-off is the same L_e·K·H_e numbers (twice for LSTM: h_n and c_n); with
    `fades`, holds when the first word's trace in the final state shrinks with length as said. As the answer of
    the page's own question: "less", "same" or "more" (the long sentence's change against the learner's)."""
    config, result = _untrained(state)
    if result is None:
        return ClaimResult(False)
    m = bottleneck_summary(result.bottleneck)
    H = int(result.encoder.h_n.shape[-1])
    formula = f"{config.enc_layers}·{config.directions}·{H}"  # as the Bottleneck tab writes L·K·H
    values = {"size": str(m.handoff_numbers), "formula": formula, "n": str(m.n), "N": str(m.N)}
    values |= {"short": sci(m.short), "long": sci(m.long)}
    holds = m.band is not None and (fades is None or m.fades == bool(fades))
    return ClaimResult(holds, values, shown=(formula,), answer=m.band)
