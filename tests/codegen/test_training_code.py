"""The Training lab's code expander: the generated script trains the same model and prints the page's numbers."""

from __future__ import annotations

import ast

from s2s_core.training import TrainConfig, decode, parse_source, train
from s2s_core.training.code import script
from tests.codegen.run import run_script


def _parse(stdout: str) -> dict[str, str]:
    return dict(
        line.split(": ", 1) for line in stdout.strip().splitlines() if ": " in line and not line.startswith("step ")
    )


def test_script_reproduces_the_core_run_and_decode():
    config = TrainConfig(
        attention="bahdanau",
        embed=8,
        hidden=16,
        steps=8,
        batch=16,
        max_len=6,
        tf_ratio=0.5,
        tf_schedule="linear",
        seed=7,
    )
    source = parse_source("reverse", "4071 <pad>")
    result = train(config)
    out = decode(result, source)
    printed = _parse(run_script(script(config, source)))
    final = result.final
    assert printed["held-out teacher-forced loss"] == str(round(final.tf_loss, 4))
    assert printed["held-out free-running token accuracy"] == str(round(final.free_token_acc, 4))
    assert printed["held-out exact match"] == str(round(final.free_exact, 4))
    assert printed["exact match by length"] == str({n: round(acc, 4) for n, acc, _ in result.run.by_length})
    assert ast.literal_eval(printed["output"]) == list(out.output)
    assert ast.literal_eval(printed["expected"]) == ["1", "7", "0", "4", "<eos>"]
    assert ast.literal_eval(printed["attention"]) == [[round(w, 4) for w in row] for row in out.weights.tolist()]


def test_number_task_script_without_attention_runs():
    config = TrainConfig(task="num_en", attention="none", embed=8, hidden=8, steps=3, batch=8, min_len=1, max_len=3)
    source = parse_source("num_en", "305")
    result = train(config)
    printed = _parse(run_script(script(config, source)))
    assert ast.literal_eval(printed["expected"]) == ["three", "hundred", "five", "<eos>"]
    assert ast.literal_eval(printed["output"]) == list(decode(result, source).output)
    assert "attention" not in printed
    assert printed["steps done"].startswith("3")
