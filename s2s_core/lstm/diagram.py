"""Graphviz (DOT) picture of one LSTM step: the c path (carried) and the h path (output and next input)."""

from __future__ import annotations

from s2s_core.gated.diagram import dot_header, dot_quote

WORDS = ("gates", "output", "next_c", "next_h", "carry", "expose")  # lstm.diagram.*: the words of lstm_cell_dot


def lstm_cell_dot(labels: dict[str, str]) -> str:
    """labels: the translated WORDS; symbols stay as in the formulas.

    Top to bottom, so it stays narrow: legible beside the heatmaps on a desktop and alone on a phone.
    """
    c_edge = 'color="#2f6fd6", penwidth=3.5, fontcolor="#2f6fd6"'
    h_edge = 'color="#e07b00", penwidth=2.5, fontcolor="#e07b00"'
    return "\n".join(
        [
            *dot_header("lstm"),
            '  c_prev [label="c_(t-1)", fillcolor="#dbe6fb"]; h_prev [label="h_(t-1)", fillcolor="#fde7cc"];',
            '  x [label="x_t"];',
            f"  gates [label={dot_quote(labels['gates'] + chr(10) + 'i f o = σ(…)   g = tanh(…)')}];",
            '  mul_f [label="⊙ f", shape=circle, width=0.55, fixedsize=true];',
            '  add [label="+ i⊙g", shape=circle, width=0.8, fixedsize=true];',
            '  tanh [label="tanh", shape=ellipse]; mul_o [label="⊙ o", shape=circle, width=0.55, fixedsize=true];',
            '  c_t [label="c_t", fillcolor="#dbe6fb"]; h_t [label="h_t", fillcolor="#fde7cc"];',
            f'  out [label={dot_quote(labels["output"])}, shape=plaintext, style=""];',
            f'  next_c [label={dot_quote(labels["next_c"])}, shape=plaintext, style=""];',
            f'  next_h [label={dot_quote(labels["next_h"])}, shape=plaintext, style=""];',
            "  { rank=same; c_prev; h_prev; x; }",
            "  { rank=same; c_t; next_c; }",
            f"  c_prev -> mul_f -> add -> c_t [{c_edge}];",
            f"  c_t -> next_c [{c_edge}, label={dot_quote(labels['carry'])}];",
            f"  c_t -> tanh -> mul_o -> h_t [{h_edge}];",
            f"  h_t -> out [{h_edge}, label={dot_quote(labels['expose'])}]; h_t -> next_h [{h_edge}];",
            "  h_prev -> gates; x -> gates;",
            '  gates -> mul_f [style=dashed, label="f"]; gates -> add [style=dashed, label="i, g"];',
            '  gates -> mul_o [style=dashed, label="o"];',
            "}",
        ]
    )
