"""Graphviz (DOT) picture of one GRU step: one state h, mixed by z between the old h and the candidate n."""

from __future__ import annotations

from s2s_core.gated.diagram import dot_header, dot_quote

WORDS = ("gates", "candidate", "output", "next_h", "keep", "take")  # gru.diagram.*: the words of gru_cell_dot
H_PATH, N_PATH = "#e07b00", "#2e9e5b"  # the h path and the candidate's
LEGEND = {"h_colour": "ui.colour.orange"}  # the word the sentence beside the diagram names the h path by ({h_colour})


def gru_cell_dot(labels: dict[str, str]) -> str:
    """labels: the translated WORDS.

    Drawn top to bottom, so it stays narrow."""
    h_edge = f'color="{H_PATH}", penwidth=3.5, fontcolor="{H_PATH}"'
    n_edge = f'color="{N_PATH}", penwidth=2.5, fontcolor="{N_PATH}"'
    return "\n".join(
        [
            *dot_header("gru"),
            '  h_prev [label="h_(t-1)", fillcolor="#fde7cc"]; x [label="x_t"];',
            f"  gates [label={dot_quote(labels['gates'] + chr(10) + 'r, z = σ(…)')}];",
            f'  cand [label={dot_quote(labels["candidate"] + chr(10) + "n = tanh(… + r⊙(…))")}, fillcolor="#dcf3e5"];',
            '  mul_z [label="⊙ z", shape=circle, width=0.55, fixedsize=true];',
            '  mul_1z [label="⊙ (1−z)", shape=circle, width=0.9, fixedsize=true];',
            '  add [label="+", shape=circle, width=0.45, fixedsize=true];',
            '  h_t [label="h_t", fillcolor="#fde7cc"];',
            f'  out [label={dot_quote(labels["output"])}, shape=plaintext, style=""];',
            f'  next_h [label={dot_quote(labels["next_h"])}, shape=plaintext, style=""];',
            "  { rank=same; h_prev; x; }",
            f"  h_prev -> mul_z [{h_edge}, label={dot_quote(labels['keep'])}]; mul_z -> add -> h_t [{h_edge}];",
            f"  h_t -> out [{h_edge}]; h_t -> next_h [{h_edge}];",
            f"  cand -> mul_1z [{n_edge}, label={dot_quote(labels['take'])}]; mul_1z -> add [{n_edge}];",
            '  h_prev -> gates; x -> gates; x -> cand; h_prev -> cand [style=dashed, label="r⊙"];',
            '  gates -> cand [style=dashed, label="r"]; gates -> mul_z [style=dashed, label="z"];',
            '  gates -> mul_1z [style=dashed, label="z"];',
            "}",
        ]
    )
