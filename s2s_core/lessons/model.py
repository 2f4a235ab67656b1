"""Lessons as data: lessons/<id>.toml read into typed steps, and the checks every lesson passes at start-up.

    kind = "tour"                 # "course" (across pages) or "tour" (one page's "do this -> see this")
    page = "attention"            # a tour's page; a course names the page of each step
    minutes = 5                   # about how long it takes

    [[step]]
    id = "one_source"             # stable: the narration is "lesson_<lesson id>.<step id>.text" in the catalogs
    params = { att_steps = "0,0,1;1,0,0", att_step = "1" }   # the page's link values (raw text), as in a URL
    claim = { name = "attention:context", step = 1, equals = [6.0, 2.0] }   # checked by the tests
    [step.question]               # optional: predict, then reveal, graded on the live computation
    options = ["grows", "shrinks", "same"]
    answer = { name = "attention:pad_weight_zero" }  # a claim whose `answer` is the right option on this state

The course (lessons/course.toml, kind = "course") is told in parts, one per page: `order = ["ngram", ...]` lists
the pages; lessons/parts/course_<ns>.toml holds that page's steps, whose texts are lesson_course_<ns>.<step id>.

A step's state is everything the learner can set on its page (every `Field`: inputs, the picture's step, a picked
element, the open tab); a field the step leaves out is at its default. Pure Python: no streamlit.
"""

from __future__ import annotations

import importlib
import importlib.util
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from s2s_core.errors import InputError
from s2s_core.fields import Field
from s2s_core.lessons.claims import LinkState, registered

LESSONS_DIR = Path(__file__).resolve().parent.parent.parent / "lessons"
COURSE = "course"
MAX_STEPS = 60  # a lesson longer than this is not read (the course is 25-40 steps)
Kind = Literal["course", "tour"]


class LessonError(ValueError):
    """A lesson file that cannot be read as a lesson (its name and what is wrong)."""


@dataclass(frozen=True)
class ClaimRef:
    """A registered claim's name and its arguments (TOML values)."""

    name: str
    args: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.args)


@dataclass(frozen=True)
class Question:
    """Predict, then reveal: option ids (labels "lesson_<id>.<step>.option_<option>") and the claim that grades."""

    options: tuple[str, ...]
    answer: ClaimRef


@dataclass(frozen=True)
class Step:
    lesson: str
    n: int  # 1-based position in the lesson
    id: str
    page: str
    params: tuple[tuple[str, str], ...]
    claim: ClaimRef | None = None
    question: Question | None = None
    texts: str = ""  # the catalog namespace of its texts: "lesson_<lesson id>", or the course part's

    @property
    def state(self) -> dict[str, str]:
        return dict(self.params)

    def key(self, part: str) -> str:
        """The catalog key of one of this step's texts ("text", "question", "option_up", "explain")."""
        return f"{self.texts or 'lesson_' + self.lesson}.{self.id}.{part}"

    def where(self) -> str:
        return f"lesson {self.lesson}, step {self.n} ({self.id})"


@dataclass(frozen=True)
class Lesson:
    id: str
    kind: Kind
    steps: tuple[Step, ...]
    page: str | None = None  # a tour's page
    minutes: int = 5

    @property
    def title_key(self) -> str:
        return f"lesson_{self.id}.title"


def _claim(raw: Any, where: str) -> ClaimRef:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise LessonError(f"{where}: a claim is a table with a name")
    return ClaimRef(raw["name"], tuple((k, _frozen(v)) for k, v in raw.items() if k != "name"))


def _frozen(value: Any) -> Any:
    """TOML lists as tuples, so a step (and its claim) is hashable and cannot be changed by a caller."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _step(lesson: str, n: int, raw: Any, default_page: str | None, texts: str = "") -> Step:
    where = f"lesson {lesson}, step {n}"
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise LessonError(f"{where}: a step is a table with an id")
    page = raw.get("page", default_page)
    if not isinstance(page, str):
        raise LessonError(f"{where}: no page")
    params = raw.get("params", {})
    if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
        raise LessonError(f"{where}: params are link values, written as strings")
    question = None
    if "question" in raw:
        q = raw["question"]
        if not isinstance(q, dict) or not isinstance(q.get("options"), list) or len(q["options"]) < 2:
            raise LessonError(f"{where}: a question has two or more options and an answer")
        question = Question(tuple(map(str, q["options"])), _claim(q.get("answer"), where))
    claim = _claim(raw["claim"], where) if "claim" in raw else None
    return Step(lesson, n, raw["id"], page, tuple(sorted(params.items())), claim, question, texts)


def read_lesson(path: Path) -> Lesson:
    """One lesson file (its stem is the lesson's id)."""
    with path.open("rb") as fh:
        raw = tomllib.load(fh)
    lesson = path.stem
    kind = raw.get("kind")
    if kind not in ("course", "tour"):
        raise LessonError(f"lesson {lesson}: kind is 'course' or 'tour'")
    page = raw.get("page")
    if kind == "tour" and not isinstance(page, str):
        raise LessonError(f"lesson {lesson}: a tour names its page")
    # The course is told in parts, one per page, in the order it lists (the study note's):
    # lessons/parts/course_<ns>.toml, texts in locales/<lang>/lesson_course_<ns>.toml. Each page's part is authored
    # and reviewed with that page; a page without a part yet is passed over (tests/core/test_lessons.py wants all).
    raws = [(s, "") for s in raw.get("step", [])]
    for ns in raw.get("order", []):
        part = path.parent / "parts" / f"course_{ns}.toml"
        if part.is_file():
            with part.open("rb") as fh:
                raws += [({"page": ns, **s}, f"lesson_course_{ns}") for s in tomllib.load(fh).get("step", [])]
    if not 1 <= len(raws) <= MAX_STEPS:
        raise LessonError(f"lesson {lesson}: 1 to {MAX_STEPS} steps")
    read = tuple(_step(lesson, n, s, page, texts) for n, (s, texts) in enumerate(raws, start=1))
    return Lesson(lesson, kind, read, page, int(raw.get("minutes", 5)))


def load_lessons(folder: Path = LESSONS_DIR) -> dict[str, Lesson]:
    """Every lesson, the course first, then the tours in file order."""
    lessons = [read_lesson(p) for p in sorted(folder.glob("*.toml"))]
    return {x.id: x for x in sorted(lessons, key=lambda x: (x.kind != "course", x.id))}


def page_fields() -> dict[str, tuple[Field, ...]]:
    """Every page's field registry, `s2s_core/<ns>/fields.py` FIELDS, by namespace."""
    out: dict[str, tuple[Field, ...]] = {}
    import s2s_core  # pylint: disable=import-outside-toplevel

    for path in sorted(Path(s2s_core.__file__).parent.glob("*/fields.py")):
        ns = path.parent.name
        module = importlib.import_module(f"s2s_core.{ns}.fields")
        if hasattr(module, "FIELDS"):
            out[ns] = tuple(module.FIELDS)
    return out


def _owner(fields: tuple[Field, ...], name: str) -> Field | None:
    base = name.split("__", 1)[0]
    return next((f for f in fields if f.owns(base)), None)


def step_problems(step: Step, pages: Mapping[str, tuple[Field, ...]], claims: Mapping[str, Any]) -> list[str]:
    """What is wrong with one step: an unknown page, a parameter no field of the page owns, a value its field
    does not read, an unknown claim (a claim that is known but does not hold is the tests' to find)."""
    if step.page not in pages:
        return [f"{step.where()}: unknown page {step.page!r}"]
    fields = pages[step.page]
    problems = []
    state = LinkState(fields, step.state)
    for name, raw in step.params:
        f = _owner(fields, name)
        if f is None:
            problems.append(f"{step.where()}: page {step.page} has no field {name!r}")
            continue
        if f.key != name:
            continue  # a family member (a weight table of one shape): its page reads it
        try:
            state.value(f)
        except (InputError, ValueError) as err:
            problems.append(f"{step.where()}: {name}={raw!r} is not a value of that field ({err})")
    refs = [r for r in (step.claim, step.question.answer if step.question else None) if r is not None]
    problems += [f"{step.where()}: unknown claim {r.name!r}" for r in refs if r.name not in claims]
    return problems


def validate(lessons: Mapping[str, Lesson], pages: Mapping[str, tuple[Field, ...]]) -> list[str]:
    """Every problem of every lesson (empty: all lessons load). The app checks this at start-up."""
    claims = registered()
    problems = []
    if COURSE not in lessons:
        problems.append("no course (lessons/course.toml)")
    for lesson in lessons.values():
        if lesson.kind == "tour" and lesson.page not in pages:
            problems.append(f"lesson {lesson.id}: unknown page {lesson.page!r}")
        ids = [(s.texts, s.id) for s in lesson.steps]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        problems += [f"lesson {lesson.id}: step id {i!r} twice" for _, i in twice]
        for step in lesson.steps:
            problems += step_problems(step, pages, claims)
    return problems


def _comparable(f: Field, state: LinkState) -> Any:
    """A field's value as two states compare it: tables by their numbers, everything else as the field reads it;
    a value the field does not read counts as its raw text (it differs from every good state)."""
    try:
        value = state.value(f)
    except (InputError, ValueError):
        return ("bad", state.raw(f))
    if f.kind == "table":
        if value is None:  # a family's table (one per shape) has no default of its own: its members compare below
            return None
        return tuple(tuple(float(c) if str(c).strip() else None for c in row) for row in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def same_state(fields: tuple[Field, ...], a: Mapping[str, str], b: Mapping[str, str], lang: str) -> bool:
    """Do two link states show the same page state? A value left out equals its default written out, and a
    family member (one weight table of one shape) must match as raw text."""
    left, right = LinkState(fields, dict(a), lang), LinkState(fields, dict(b), lang)
    if any(_comparable(f, left) != _comparable(f, right) for f in fields):
        return False
    members = {n for n in (*a, *b) if (f := _owner(fields, n)) is not None and f.key != n and n not in f.aliases}
    return all(a.get(n) == b.get(n) for n in members)
