"""The runnable PyTorch script for the encoder–decoder page's current inputs (prints what the page shows).

The model code is modules.py itself, pasted in, so the script cannot drift from what the page ran.
"""

from __future__ import annotations

import functools
from pathlib import Path

from s2s_core.fmt import DIGITS
from s2s_core.seq2seq.bottleneck import MAX_LENGTH
from s2s_core.seq2seq.compute import Seq2SeqConfig

MODULES = Path(__file__).with_name("modules.py")
STEPS_NOTES = "seq2seq.enc_title seq2seq.handoff_title seq2seq.dec_title seq2seq.bn_title"  # main()'s four parts


@functools.cache  # the file does not change while the server runs
def model_source() -> str:
    """modules.py without its own docstring and __future__ line (the script has its own header)."""
    text = MODULES.read_text(encoding="utf-8")
    body = text.split('"""', 2)[2]
    return body.replace("from __future__ import annotations\n", "").strip()


def script(config: Seq2SeqConfig) -> str:
    K = config.directions
    settings = f"""SOURCE = {list(config.source)!r}
REPLACEMENT = {config.replacement!r}  # swapped in for the first word in the bottleneck measurement
ITOS = {config.itos!r}  # one toy vocabulary for both sides
CELL, SEED = {config.cell!r}, {config.seed}
E, H_E, L_E, BIDIRECTIONAL = {config.embed}, {config.enc_hidden}, {config.enc_layers}, {config.bidirectional}
H_D, L_D, BRIDGE = {config.dec_hidden}, {config.dec_layers}, {config.bridge!r}
STEPS, TOP_K, MAX_LENGTH = {config.steps}, {config.top_k}, {MAX_LENGTH}
K = {K}  # directions"""
    return f'''# %% heading="seq2seq.title" notes="seq2seq.intro"
"""Encoder -> hand-off (bridge) -> greedy decoder (tiny, seeded, untrained); then the bottleneck."""
from __future__ import annotations

# %% The model code (s2s_core/seq2seq/modules.py) heading="ui.notebook.model" notes="seq2seq.notice_1"
{model_source()}


# %% Your numbers heading="ui.notebook.inputs" notes="seq2seq.untrained"
{settings}


# %% Encode, hand off, decode, measure heading="ui.tab_steps" notes="{STEPS_NOTES}"

def rounded(t):
    return [round(x, {DIGITS}) for x in t.tolist()]


def last_state(encoder, words, stoi):
    """The top layer's final h for one sentence, per direction: (K, H_E)."""
    _, state = encoder(torch.tensor([[stoi[w] for w in words]]))
    h_n = state[0] if CELL == "lstm" else state  # (L_E*K, 1, H_E)
    return h_n[-K:, 0]  # (K, H_E)


def main():
    stoi = {{tok: i for i, tok in enumerate(ITOS)}}
    encoder = Encoder(ITOS, CELL, E, H_E, L_E, BIDIRECTIONAL, SEED)
    ids = torch.tensor([[stoi[w] for w in SOURCE]])  # (1, S)
    with torch.no_grad():
        # 1) Encoder: an output for every position, and the final state of every layer/direction.
        outputs, state = encoder(ids)  # (1, S, K*H_E); h_n (L_E*K, 1, H_E)
        h_n = state[0] if CELL == "lstm" else state
        print("outputs shape:", tuple(outputs.shape))
        print("h_n shape:", tuple(h_n.shape))
        print("encoder summary:", rounded(h_n[-1, 0]))

        # 2) Hand-off: the final state becomes the decoder's initial state, through a bridge if asked.
        if BRIDGE == "linear":
            dec_state = Bridge(CELL, L_E * K * H_E, L_D, H_D, SEED)(state)
        else:
            dec_state = state
        decoder = Decoder(ITOS, CELL, E, H_D, L_D, SEED)
        h0 = dec_state[0] if CELL == "lstm" else dec_state
        print("decoder h0 shape:", tuple(h0.shape))
        try:
            # 3) Greedy decoding from <sos>: the chosen word is the next input.
            token, words = stoi["<sos>"], []
            for t in range(STEPS):
                logits, out, dec_state = decoder(torch.tensor([[token]]), dec_state)  # (1, 1, V)
                probs = logits[0, 0].softmax(dim=-1)  # (V,)
                top_p, top_i = probs.topk(min(TOP_K, len(ITOS) - 2))
                token = int(top_i[0])
                words.append(ITOS[token])
                top = [(ITOS[i], round(p, {DIGITS})) for p, i in zip(top_p.tolist(), top_i.tolist(), strict=True)]
                print(f"step {{t + 1}}:", top)
                if ITOS[token] == "<eos>":
                    break
            print("output:", " ".join(words))
        except RuntimeError as err:  # no bridge and the shapes differ: PyTorch's own message
            print("PyTorch refuses the hand-off:", str(err).splitlines()[0])

        # 4) Bottleneck: the hand-off has the same size at every length (h_n, and c_n for an LSTM) ...
        print("hand-off numbers:", h_n.numel() * (2 if CELL == "lstm" else 1))
        # ... while the first word's trace in the untrained encoder fades (forgetting): replace it and measure.
        changes = {{}}
        for n in sorted({{len(SOURCE), MAX_LENGTH}}):
            words = [SOURCE[i % len(SOURCE)] for i in range(n)]
            edited = last_state(encoder, [REPLACEMENT] + words[1:], stoi)
            delta = (edited - last_state(encoder, words, stoi)).norm(dim=-1)  # (K,)
            changes[n] = float(delta[0])
            print(f"first-word change at length {{n}}:", [f"{{d:.4e}}" for d in delta.tolist()])
        short, long = changes[len(SOURCE)], changes[MAX_LENGTH]
        if short > 0 and MAX_LENGTH > len(SOURCE):  # the average factor per further word
            print("per-word factor:", round((long / short) ** (1 / (MAX_LENGTH - len(SOURCE))), {DIGITS}))


if __name__ == "__main__":
    main()
'''
