"""The shapes page's code expander prints exactly the shapes, checks and padding errors the page shows."""

from __future__ import annotations

import subprocess
import sys

from s2s_core.shapes import parse_config, run_shapes
from s2s_core.shapes.checks import equality_checks
from s2s_core.shapes.code import script
from s2s_core.shapes.compute import ShapesResult
from s2s_core.shapes.padding import padding_view
from tests.codegen.run import PageCase

SEP = "=====8<====="
CONFIGS = [
    {},  # the study note's §8 example
    {
        "cell": "GRU",
        "B": 3,
        "S": 4,
        "num_layers": 2,
        "bidirectional": True,
        "batch_first": False,
        "lengths": "2 4 1",
        "packed": True,
    },
    {"cell": "LSTM", "B": 3, "S": 5, "H": 5, "proj_size": 2, "num_layers": 2, "lengths": "5 1 3"},
    {"cell": "RNN", "B": 2, "S": 4, "bidirectional": True, "lengths": "2", "seed": 9},
]


def _run_all(sources: list[str]) -> list[dict[str, str]]:
    """Every script in ONE fresh interpreter (torch is imported once), each in its own namespace."""
    runner = "\n".join(
        f"exec(compile({src!r}, 'example.py', 'exec'), {{'__name__': '__main__'}})\nprint({SEP!r})" for src in sources
    )
    done = subprocess.run([sys.executable, "-c", runner], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    chunks = done.stdout.split(SEP + "\n")[: len(sources)]
    return [_parse(chunk) for chunk in chunks]


def _rounded(values) -> str:
    return str([round(v, 4) for v in values])


def check(r: ShapesResult, out: dict[str, str]) -> None:
    for s in r.shapes:
        if s.name == "batch_sizes":
            assert out["batch_sizes"] == str(list(r.batch_sizes))
        elif s.name != "ids":
            assert out[s.name] == str(s.shape), s.name
    assert out["sorted_indices"] == str(list(r.sorted_indices))
    assert out["unsorted_indices"] == str(list(r.unsorted_indices))
    for ch in equality_checks(r):
        assert out[f"{ch.lhs} == {ch.rhs}"] == str(ch.equal), ch
    p = padding_view(r)
    assert out["through PAD, max |diff| per sentence"] == _rounded(p.through_pad_err)
    assert out["gathered at lengths - 1, max |diff| per sentence"] == _rounded(p.gathered_err)
    assert out["packed, max |diff| per sentence"] == _rounded(p.packed_err)


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def page_case() -> PageCase:
    """Packed, time first, two layers in both directions: every part of the script at work."""
    r = run_shapes(parse_config(**CONFIGS[1]))
    return PageCase("shapes", script(r), lambda stdout: check(r, _parse(stdout)))


def test_scripts_print_what_the_page_shows():
    results = [run_shapes(parse_config(**kw)) for kw in CONFIGS]
    outputs = _run_all([script(r) for r in results])
    # The default is the study note's §8 run: same shapes, and the last output equals h_n.
    first = outputs[0]
    assert (first["x"], first["outputs"], first["h_n"], first["c_n"]) == (
        "(2, 3, 4)",
        "(2, 3, 6)",
        "(1, 2, 6)",
        "(1, 2, 6)",
    )
    assert first["outputs[:, -1] == h_n[-1]"] == "True"
    for r, out in zip(results, outputs, strict=True):
        check(r, out)
