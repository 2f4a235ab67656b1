"""'Predict the shape': a random configuration, one tensor to name, graded against a real forward pass."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from s2s_core.errors import InputError
from s2s_core.shapes.compute import ShapesConfig, run_shapes

MAX_ANSWER_CHARS = 60


@dataclass(frozen=True)
class ShapeQuestion:
    config: ShapesConfig  # no padding; the learner sees every setting
    tensor: str  # "x" | "outputs" | "h_n" | "c_n"
    answer: tuple[int, ...]  # the shape of that tensor in a real forward pass


@dataclass(frozen=True)
class Grade:
    correct: bool
    given: tuple[int, ...]
    expected: tuple[int, ...]
    hint: str  # catalog: shapes.quiz.hint.<hint>


def make_question(number: int, salt: int = 0) -> ShapeQuestion:
    """Question `number`, the same in every session (a link can name it; salt picks another series of
    questions); sizes are distinct so mix-ups show."""
    rng = random.Random(f"shapes-quiz:{salt}:{number}")
    cell = rng.choice(("RNN", "LSTM", "GRU"))
    sizes = dict(zip("BSEH", rng.sample(range(2, 8), 4), strict=True))  # four distinct sizes
    B, S, H = sizes["B"], sizes["S"], sizes["H"]
    proj = rng.choice((0, 0, rng.randint(1, H - 1))) if cell == "LSTM" else 0
    bidirectional = rng.random() < 0.5
    K = 2 if bidirectional else 1
    # Keep L·K apart from B, so an answer with h_n's axes swapped is visibly wrong.
    layers = rng.choice([n for n in (1, 2, 3) if n * K != B])
    config = ShapesConfig(
        **sizes,
        cell=cell,
        num_layers=layers,
        bidirectional=bidirectional,
        batch_first=rng.random() < 0.5,
        proj_size=proj,
        lengths=(S,) * B,
        seed=number,
    )
    names = ("x", "outputs", "outputs", "h_n", "h_n") + (("c_n", "c_n") if cell == "LSTM" else ())
    tensor = rng.choice(names)
    shape = next(s.shape for s in run_shapes(config).shapes if s.name == tensor)
    return ShapeQuestion(config, tensor, shape)


def parse_shape(text: object) -> tuple[int, ...]:
    """ "(2, 3, 6)", "2 3 6", "torch.Size([2, 3, 6])" -> (2, 3, 6)."""
    field = "shapes.field.quiz_answer"
    raw = "" if text is None else str(text)
    if len(raw) > MAX_ANSWER_CHARS:
        raise InputError("errors.text_too_long", field, count=len(raw), limit=MAX_ANSWER_CHARS)
    numbers = re.findall(r"\d+", raw)
    if not numbers:
        raise InputError("shapes.error.quiz_unparsed", field)
    if len(numbers) > 6:
        raise InputError("errors.too_many_values", field, count=len(numbers), limit=6)
    return tuple(int(n) for n in numbers)


def _hint(q: ShapeQuestion, given: tuple[int, ...]) -> str:
    """The most likely mix-up behind a wrong answer, so the feedback teaches the rule it broke."""
    c, want = q.config, q.answer
    if len(given) != len(want):
        return "rank"
    if q.tensor in ("x", "outputs") and given[:2] == want[1::-1] and given[2:] == want[2:]:
        return "batch_first"
    if q.tensor in ("h_n", "c_n"):
        if given[1:] == want[1:] and given[0] == c.num_layers and c.K == 2:
            return "stack_k"
        if given[0] == c.B and given[1] == want[0]:
            return "state_batch_first"
        if q.tensor == "c_n" and c.proj_size and given[2] == c.proj_size:
            return "cell_keeps_h"
        if q.tensor == "h_n" and c.proj_size and given[2] == c.H:
            return "proj"
    if q.tensor == "outputs":
        if given[2] == c.Hout and c.K == 2:
            return "feature_k"
        if c.proj_size and given[2] in (c.H, c.K * c.H):
            return "proj"
    return "generic"


def grade(q: ShapeQuestion, text: object) -> Grade:
    """Compare the typed shape with the real one; raises InputError when nothing shape-like was typed."""
    given = parse_shape(text)
    correct = given == q.answer
    return Grade(correct, given, q.answer, "right" if correct else _hint(q, given))


def first_tries(first: Mapping[int, bool], number: int, g: Grade) -> dict[int, bool]:
    """The session's record, question number -> right at the first try, with this grade: only the first answer
    to a question counts (trying again after the feedback does not raise the score)."""
    return {**first, number: first.get(number, g.correct)}


def score(first: Mapping[int, bool]) -> tuple[int, int]:
    """(questions right at the first try, questions answered)."""
    return sum(first.values()), len(first)


def question_code(q: ShapeQuestion) -> str:
    """The construction and call the question is about (B, S, E are stated beside it, in words)."""
    c = q.config
    proj = f", proj_size={c.proj_size}" if c.proj_size else ""
    state = "(h_n, c_n)" if c.cell == "LSTM" else "h_n"
    # Asking for x's own shape? Then its layout must stay hidden; otherwise it is part of the setup.
    layout = "" if q.tensor == "x" else "  # x: (B, S, E)" if c.batch_first else "  # x: (S, B, E)"
    return (
        f"rnn = nn.{c.cell}({c.E}, {c.H}, num_layers={c.num_layers}, "
        f"bidirectional={c.bidirectional}, batch_first={c.batch_first}{proj})\n"
        f"outputs, {state} = rnn(x){layout}"
    )
