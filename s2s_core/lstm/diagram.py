"""Graphviz (DOT) picture of one LSTM step: the c path (carried) and the h path (output and next input)."""

from __future__ import annotations

from s2s_core.gated.diagram import dot_header, dot_quote

WORDS = ("gates", "output", "next_c", "next_h", "carry", "expose")  # lstm.diagram.*: the words of lstm_cell_dot
C_PATH, H_PATH = "#0F8B8D", "#e07b00"  # the c path (the cell state's teal on every page) and the h path
# The words the sentence beside the diagram names them by (ui.colour.* keys, {c_colour} and {h_colour}).
LEGEND = {"c_colour": "ui.colour.teal", "h_colour": "ui.colour.orange"}


def lstm_cell_dot(labels: dict[str, str]) -> str:
    """labels: the translated WORDS; symbols stay as in the formulas.

    Top to bottom, so it stays narrow: legible beside the heatmaps on a desktop and alone on a phone.
    """
    c_edge = f'color="{C_PATH}", penwidth=3.5, fontcolor="{C_PATH}"'
    h_edge = f'color="{H_PATH}", penwidth=2.5, fontcolor="{H_PATH}"'
    return "\n".join(
        [
            *dot_header("lstm"),
            '  c_prev [label="c_(t-1)", fillcolor="#d3eded"]; h_prev [label="h_(t-1)", fillcolor="#fde7cc"];',
            '  x [label="x_t"];',
            f"  gates [label={dot_quote(labels['gates'] + chr(10) + 'i f o = σ(…)   g = tanh(…)')}];",
            '  mul_f [label="⊙ f", shape=circle, width=0.55, fixedsize=true];',
            '  add [label="+ i⊙g", shape=circle, width=0.8, fixedsize=true];',
            '  tanh [label="tanh", shape=ellipse]; mul_o [label="⊙ o", shape=circle, width=0.55, fixedsize=true];',
            '  c_t [label="c_t", fillcolor="#d3eded"]; h_t [label="h_t", fillcolor="#fde7cc"];',
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
