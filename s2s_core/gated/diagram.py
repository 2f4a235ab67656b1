"""What the two cell diagrams (Graphviz DOT) share: safe labels and one look for nodes and edges."""

from __future__ import annotations


def dot_quote(text: str) -> str:
    """A DOT double-quoted string; labels come from our catalogs, escaped anyway."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_header(name: str) -> list[str]:
    """The opening lines of a top-to-bottom cell diagram (narrow: legible beside a chart and alone on a phone)."""
    return [
        f"digraph {name} {{",
        '  rankdir=TB; bgcolor="white"; nodesep=0.3; ranksep=0.3;',
        '  node [shape=box, style="rounded,filled", fillcolor="#f4f6fa", fontname="sans-serif", fontsize=16,',
        '        height=0.4, margin="0.12,0.04"];',
        '  edge [fontname="sans-serif", fontsize=14, arrowsize=0.8];',
    ]
