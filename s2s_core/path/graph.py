"""The course as a graph in the syllabus's order, laid out in rows (top to bottom) and lanes (the fork)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The syllabus's order: next-token -> RNN -> BPTT -> LSTM / GRU (two ways to keep a memory, both read from
# BPTT's problem and both lead to the shapes) -> shapes -> encoder-decoder -> attention -> Bahdanau vs Luong
# -> masks -> training (-> translation, once that page exists).
ORDER: tuple[str, ...] = (
    "ngram",
    "rnn",
    "bptt",
    "lstm",
    "gru",
    "shapes",
    "seq2seq",
    "attention",
    "scoring",
    "masks",
    "training",
    "translation",
)
EDGES: tuple[tuple[str, str], ...] = (
    ("ngram", "rnn"),
    ("rnn", "bptt"),
    ("bptt", "lstm"),
    ("bptt", "gru"),
    ("lstm", "shapes"),
    ("gru", "shapes"),
    ("shapes", "seq2seq"),
    ("seq2seq", "attention"),
    ("attention", "scoring"),
    ("scoring", "masks"),
    ("masks", "training"),
    ("training", "translation"),
)
FORK: tuple[str, str] = ("lstm", "gru")  # drawn side by side in lanes -1 and +1 when both exist

# The role colours (s2s_ui/charts.py, docs/ARCHITECTURE.md): a page's box takes the colour of what it is about
# (state and encoder blue, LSTM's cell state teal, decoder vermillion, attention purple, PAD grey).
ROLE_COLOR = {
    "ngram": "#2C7FB8",
    "rnn": "#2C7FB8",
    "bptt": "#2C7FB8",
    "lstm": "#0F8B8D",
    "gru": "#2C7FB8",
    "shapes": "#2C7FB8",
    "seq2seq": "#D55E00",
    "attention": "#B8588F",
    "scoring": "#B8588F",
    "masks": "#8A8A8A",
    "training": "#D55E00",
    "translation": "#D55E00",
}


@dataclass(frozen=True)
class Node:
    ns: str
    row: int  # 0 at the top
    lane: int  # 0 the main line; -1 / +1 the two sides of the fork


@dataclass(frozen=True)
class Course:
    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]  # between drawn nodes only


def course(existing: Iterable[str]) -> Course:
    """The path over the pages that exist: a missing page is not drawn, and its arrows are joined across it
    (a missing BPTT page leaves RNN -> LSTM and RNN -> GRU); names outside the course are ignored."""
    present = set(existing)
    drawn = [ns for ns in ORDER if ns in present]
    fork = all(ns in present for ns in FORK)
    nodes = tuple(
        Node(ns, row, (-1 if ns == FORK[0] else 1) if fork and ns in FORK else 0) for row, ns in enumerate(drawn)
    )
    return Course(nodes, _joined_edges(set(drawn)))


def _joined_edges(drawn: set[str]) -> tuple[tuple[str, str], ...]:
    """Edges between drawn nodes; a path through missing nodes becomes one edge."""
    after: dict[str, list[str]] = {}
    for a, b in EDGES:
        after.setdefault(a, []).append(b)
    out: list[tuple[str, str]] = []
    for start in (ns for ns in ORDER if ns in drawn):
        seen: set[str] = set()
        todo = list(after.get(start, []))
        while todo:
            nxt = todo.pop(0)
            if nxt in seen:
                continue
            seen.add(nxt)
            if nxt in drawn:
                if (start, nxt) not in out:
                    out.append((start, nxt))
            else:
                todo.extend(after.get(nxt, []))
    return tuple(out)
