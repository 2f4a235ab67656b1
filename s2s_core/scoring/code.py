"""The runnable PyTorch script for the Bahdanau-vs-Luong page's current inputs (prints what the page shows).

The score modules are modules.py itself, pasted in, so the script cannot drift from what the page ran.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path

from s2s_core.fmt import DIGITS
from s2s_core.scoring import flow, window
from s2s_core.scoring.compute import ScoringConfig

MODULES = Path(__file__).with_name("modules.py")
STEPS_NOTES = "scoring.compare_title scoring.focus_title scoring.window_title scoring.flow_title"  # main()'s parts

WINDOW_CODE = {
    "global": """    weights = scores.softmax(dim=-1)  # (1, S): global attention reads every position""",
    "local_m": """    t = local_m_center(STEP, enc.shape[1])  # local-m: p_t = t, the decoder step, clipped to S
    p = torch.full((1,), float(t), dtype=torch.float64)  # (1,)
    mask = window_mask(enc.shape[1], p, HALF_WIDTH)  # (1, S) True inside [p - D, p + D]
    weights = scores.masked_fill(~mask, float("-inf")).softmax(dim=-1)  # (1, S): 0 outside the window""",
    "local_p": """    p = locator(s, enc.shape[1])  # (1,) local-p: p_t = S·sigmoid(v_pᵀ·tanh(W_p·s)), predicted
    mask = window_mask(enc.shape[1], p, HALF_WIDTH)  # (1, S)
    align = scores.masked_fill(~mask, float("-inf")).softmax(dim=-1)  # (1, S): sums to 1 over the window
    weights = align * gaussian(enc.shape[1], p, HALF_WIDTH)  # (1, S): Luong does not renormalise""",
}

CENTRE_CODE = {  # the window's centre p, printed once (the page's window section shows it)
    "global": "",
    "local_m": """        print("window centre:", float(local_m_center(STEP, ENC.shape[1])))  # p_t = t, clipped""",
    "local_p": """        print("window centre:", round(float(locator(S_PREV, ENC.shape[1])[0]), DIGITS))""",
}

FLOW_CODE = {
    ("previous", "input"): """        _, weights, context = attend(focus, s_prev, ENC, locator)  # score with s_(t-1)
        gru_in = torch.cat([y, context], dim=-1)  # (1, E + H_e): the context joins the GRU's input
        s_t = step.gru(gru_in, s_prev)  # (1, H_d)
        logits = step.out(s_t)  # (1, V)
        tensors = dict(weights=weights, context=context, gru_in=gru_in, s_t=s_t, logits=logits)""",
    ("previous", "output"): """        _, weights, context = attend(focus, s_prev, ENC, locator)  # score with s_(t-1)
        gru_in = y  # (1, E)
        s_t = step.gru(gru_in, s_prev)  # (1, H_d)
        combined = torch.tanh(step.combine(torch.cat([context, s_t], dim=-1)))  # (1, H_d)
        logits = step.out(combined)  # (1, V)
        tensors = dict(weights=weights, context=context, gru_in=gru_in, s_t=s_t, logits=logits, combined=combined)""",
    ("current", "output"): """        gru_in = y  # (1, E)
        s_t = step.gru(gru_in, s_prev)  # (1, H_d): the GRU runs first
        _, weights, context = attend(focus, s_t, ENC, locator)  # score with the new state s_t
        combined = torch.tanh(step.combine(torch.cat([context, s_t], dim=-1)))  # (1, H_d)
        logits = step.out(combined)  # (1, V)
        tensors = dict(weights=weights, context=context, gru_in=gru_in, s_t=s_t, logits=logits, combined=combined)""",
}


@functools.cache  # the files do not change while the server runs; reading them cost ~2 ms per rerun
def _module_source() -> str:
    body = MODULES.read_text(encoding="utf-8").split('"""', 2)[2]
    return body.replace("from __future__ import annotations\n", "").strip()


def _rows(rows: tuple[tuple[float, ...], ...]) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in rows) + "]"


@functools.cache
def _pasted_sources() -> tuple[str, str]:
    """The window helpers and the decoder step class, as written in window.py and flow.py."""
    helpers = "\n\n".join(inspect.getsource(f) for f in (window.local_m_center, window.window_mask, window.gaussian))
    return helpers, inspect.getsource(flow.AttnDecoderStep)


def script(config: ScoringConfig) -> str:
    H_d, H_e = len(config.dec_state), len(config.enc_states[0])
    helpers, step_class = _pasted_sources()
    wiring = (config.query_from, config.context_into)
    dot_focus = config.focus in ("dot", "scaled_dot") and H_d != H_e
    if wiring not in FLOW_CODE:
        flow_body = """        print("flow: impossible: s_t cannot score before the GRU has the context it needs")"""
    elif dot_focus:
        flow_body = f"""        print("flow: {config.focus} needs H_d == H_e")"""
    else:
        step_args = f"{flow.FLOW_EMBED}, H_D, H_E, {flow.FLOW_VOCAB}, {config.context_into!r}"
        flow_body = f"""        step = init_uniform(AttnDecoderStep({step_args}), SEED + 10)
        gen = torch.Generator().manual_seed(SEED + 11)
        y = torch.randn(1, {flow.FLOW_EMBED}, generator=gen, dtype=torch.float64)  # (1, E)
{FLOW_CODE[wiring]}
        print("flow shapes:", {{name: tuple(t.shape) for name, t in tensors.items()}})
        print("flow weights:", rounded(weights[0]))
        # Still recurrent with attention on top: the same GRU input without s_(t-1) gives another s_t.
        s_t_from_zero = step.gru(gru_in, torch.zeros_like(s_prev))  # (1, H_d)
        print("flow carried:", round(float((s_t - s_t_from_zero).norm()), DIGITS))"""
    return f'''# %% heading="scoring.title" notes="scoring.intro"
"""Bahdanau vs Luong: every score function on the same decoder state and encoder states."""
from __future__ import annotations

# %% The score modules (s2s_core/scoring/modules.py, window.py, flow.py) heading="ui.notebook.model"
{_module_source()}


{helpers}

{step_class}

# %% Your numbers heading="ui.notebook.inputs" notes="scoring.formulas_caption scoring.qkv_caption"
S_PREV = torch.tensor([{list(config.dec_state)!r}], dtype=torch.float64)  # (1, H_d) the decoder state
ENC = torch.tensor([{_rows(config.enc_states)}], dtype=torch.float64)  # (1, S, H_e) encoder states = the values
H_D, H_E, A = {H_d}, {H_e}, {config.attn_size}
SEED, SCALE = {config.seed}, {config.scale!r}  # untrained weights drawn from ±SCALE/√fan_in
FOCUS = {config.focus!r}
STEP, HALF_WIDTH = {config.step}, {config.half_width}  # window: {config.window}; STEP = the decoder step t
DIGITS = {DIGITS}


# %% Every score function, the window and the decoder step heading="ui.tab_steps" notes="{STEPS_NOTES}"
def rounded(t):
    return [round(x, DIGITS) for x in t.tolist()]


def attend(scorer, s, enc, locator):
    """scores -> window -> softmax -> context = weights @ values (the original encoder states)."""
    scores = scorer(s, enc)  # (1, S)
{WINDOW_CODE[config.window]}
    context = torch.bmm(weights.unsqueeze(1), enc).squeeze(1)  # (1, 1, S) @ (1, S, H_e) -> (1, H_e)
    return scores, weights, context


def main():
    scorers = build_scorers(H_D, H_E, A, SEED, SCALE)
    locator = init_uniform(LocalPosition(H_D, A), SEED + 3, SCALE)
    with torch.no_grad():
{CENTRE_CODE[config.window]}
        for name, scorer in scorers.items():
            if name in ("dot", "scaled_dot") and H_D != H_E:
                print(f"{{name}}: needs H_d == H_e, got {{H_D}} and {{H_E}}")
                continue
            scores, weights, context = attend(scorer, S_PREV, ENC, locator)
            print(f"{{name}} scores:", rounded(scores[0]))
            print(f"{{name}} weights:", rounded(weights[0]))
            print(f"{{name}} context:", rounded(context[0]))
        if not (FOCUS in ("dot", "scaled_dot") and H_D != H_E):
            # Keys are what the query is compared with; values (the encoder states) are what is summed.
            print("keys vs values:", tuple(scorers[FOCUS].keys(ENC).shape), tuple(ENC.shape))
        focus = scorers[FOCUS]
        s_prev = S_PREV
{flow_body}


if __name__ == "__main__":
    main()
'''
