"""The Training lab's code expander: the generated script trains the same model and prints the page's numbers.

The Translation lab's code is the same script for its ko_en task (s2s_ui/training/specs.code_for), so its case is
here too.
"""

from __future__ import annotations

import ast

from s2s_core.training import TrainConfig, decode, parse_source, train
from s2s_core.training.code import script
from s2s_core.training.compute import SourceInput
from tests.codegen.run import PageCase, run_script

# Small runs: the comparison needs the same numbers, not a good model.
REVERSE = TrainConfig(
    attention="bahdanau", embed=8, hidden=16, steps=8, batch=16, max_len=6, tf_ratio=0.5, tf_schedule="linear", seed=7
)
KO_EN = TrainConfig(task="ko_en", attention="luong_prev", embed=8, hidden=16, steps=6, batch=8, max_len=5, seed=3)


def _parse(stdout: str) -> dict[str, str]:
    return dict(
        line.split(": ", 1) for line in stdout.strip().splitlines() if ": " in line and not line.startswith("step ")
    )


def check(config: TrainConfig, source: SourceInput, stdout: str) -> None:
    """The held-out scores of the same training run, and the same free-running decode of the source."""
    printed = _parse(stdout)
    result = train(config)
    out = decode(result, source)
    final = result.final
    assert printed["held-out teacher-forced loss"] == str(round(final.tf_loss, 4))
    assert printed["held-out free-running token accuracy"] == str(round(final.free_token_acc, 4))
    assert printed["held-out exact match"] == str(round(final.free_exact, 4))
    assert printed["exact match by length"] == str({n: round(acc, 4) for n, acc, _ in result.run.by_length})
    assert ast.literal_eval(printed["output"]) == list(out.output)
    assert ast.literal_eval(printed["expected"]) == [*out.expected, "<eos>"]
    if out.weights is None:
        assert "attention" not in printed
    else:
        assert ast.literal_eval(printed["attention"]) == [[round(w, 4) for w in row] for row in out.weights.tolist()]


def page_cases() -> tuple[PageCase, PageCase]:
    """The Training lab (digits) and the Translation lab (a Korean sentence, in the script as a literal)."""
    reverse, korean = parse_source("reverse", "4071 <pad>"), parse_source("ko_en", "나는 책을 읽는다")
    return (
        PageCase("training", script(REVERSE, reverse), lambda stdout: check(REVERSE, reverse, stdout)),
        PageCase("translation", script(KO_EN, korean), lambda stdout: check(KO_EN, korean, stdout)),
    )


def test_script_reproduces_the_core_run_and_decode():
    source = parse_source("reverse", "4071 <pad>")
    stdout = run_script(script(REVERSE, source))
    check(REVERSE, source, stdout)
    assert ast.literal_eval(_parse(stdout)["expected"]) == ["1", "7", "0", "4", "<eos>"]


def test_number_task_script_without_attention_runs():
    config = TrainConfig(task="num_en", attention="none", embed=8, hidden=8, steps=3, batch=8, min_len=1, max_len=3)
    source = parse_source("num_en", "305")
    stdout = run_script(script(config, source))
    check(config, source, stdout)
    printed = _parse(stdout)
    assert ast.literal_eval(printed["expected"]) == ["three", "hundred", "five", "<eos>"]
    assert printed["steps done"].startswith("3")
