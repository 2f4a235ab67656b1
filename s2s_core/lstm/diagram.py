"""Graphviz (DOT) picture of one LSTM step: the c path (carried) and the h path (output and next input)."""

from __future__ import annotations


def _q(text: str) -> str:
    """A DOT double-quoted string; labels come from our catalogs, escaped anyway."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lstm_cell_dot(labels: dict[str, str]) -> str:
    """labels: translated {"gates", "output", "next_c", "next_h", "carry", "expose"}; symbols stay as in the formulas."""
    c_edge = 'color="#2f6fd6", penwidth=3, fontcolor="#2f6fd6"'
    h_edge = 'color="#e07b00", penwidth=2.2, fontcolor="#e07b00"'
    return "\n".join([
        "digraph lstm {",
        '  rankdir=LR; bgcolor="white"; nodesep=0.35; ranksep=0.45;',
        '  node [shape=box, style="rounded,filled", fillcolor="#f4f6fa", fontname="sans-serif", fontsize=12];',
        '  edge [fontname="sans-serif", fontsize=10];',
        '  c_prev [label="c_(t-1)", fillcolor="#dbe6fb"]; h_prev [label="h_(t-1)", fillcolor="#fde7cc"];',
        '  x [label="x_t"];',
        f'  gates [label={_q(labels["gates"] + chr(10) + "i f o = σ(…)   g = tanh(…)")}];',
        '  mul_f [label="⊙ f", shape=circle]; add [label="+ i⊙g", shape=circle];',
        '  tanh [label="tanh", shape=ellipse]; mul_o [label="⊙ o", shape=circle];',
        '  c_t [label="c_t", fillcolor="#dbe6fb"]; h_t [label="h_t", fillcolor="#fde7cc"];',
        f'  out [label={_q(labels["output"])}, shape=plaintext, style=""];',
        f'  next_c [label={_q(labels["next_c"])}, shape=plaintext, style=""];',
        f'  next_h [label={_q(labels["next_h"])}, shape=plaintext, style=""];',
        '  { rank=same; c_prev; h_prev; x; }',
        f'  c_prev -> mul_f -> add -> c_t [{c_edge}];',
        f'  c_t -> next_c [{c_edge}, label={_q(labels["carry"])}];',
        f'  c_t -> tanh -> mul_o -> h_t [{h_edge}];',
        f'  h_t -> out [{h_edge}, label={_q(labels["expose"])}]; h_t -> next_h [{h_edge}];',
        '  h_prev -> gates; x -> gates;',
        '  gates -> mul_f [style=dashed, label="f"]; gates -> add [style=dashed, label="i, g"];',
        '  gates -> mul_o [style=dashed, label="o"];',
        "}",
    ])
