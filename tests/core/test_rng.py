"""s2s_core.rng: draws from torch's global generator are serialised and leave no trace.

Pages that leave the generator as they found it: tests/app/test_rng_app.py."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import torch
from torch import nn

from s2s_core.rng import RNG_LOCK, isolated, seeded

CORE = Path(__file__).resolve().parents[2] / "s2s_core"


def test_isolated_puts_the_state_back_and_holds_the_lock():
    torch.manual_seed(7)
    before = torch.get_rng_state()
    with isolated():
        assert RNG_LOCK._is_owned()  # RLock has no public "held by this thread"
        torch.manual_seed(99)
        torch.rand(3)
        with isolated():  # re-entrant: code inside may isolate its own draws
            nn.Linear(3, 3)
    assert torch.equal(torch.get_rng_state(), before)


def test_seeded_equals_manual_seed_even_while_another_thread_builds_modules():
    """A seeded build (the shapes page, whose script says torch.manual_seed) gets the same weights while other
    threads keep building modules whose default init draws from the global generator, inside isolated()."""

    def build():
        return nn.Embedding(12, 4).weight.detach().clone(), nn.LSTM(4, 6).weight_hh_l0.detach().clone()

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(42)
        expected = build()
    stop = threading.Event()

    def neighbour() -> None:
        while not stop.is_set():
            with isolated():
                nn.GRU(8, 8)

    threads = [threading.Thread(target=neighbour) for _ in range(2)]
    for th in threads:
        th.start()
    try:
        for _ in range(30):
            got = seeded(42, build)
            assert all(torch.equal(a, b) for a, b in zip(got, expected, strict=True))
    finally:
        stop.set()
        for th in threads:
            th.join(10)


def test_only_rng_py_seeds_or_forks_the_global_generator():
    """torch.manual_seed and fork_rng calls in s2s_core live in rng.py (generated scripts' text aside), so every
    seeded block takes RNG_LOCK."""
    found = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "rng.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            seeds = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("manual_seed", "fork_rng", "seed")
                and ast.unparse(node.func.value) in ("torch", "torch.random")
            )
            if seeds:
                found.append(f"{path.relative_to(CORE)}:{node.lineno}")
    assert found == []
