"""The lessons the app offers: every lessons/*.toml that passes its checks, read once per server.

A lesson with a problem (an unknown page, field, value or claim; a text missing in one language) is left out
and named in the server log, so one broken file never takes the app down; tests/core/test_lessons.py fails on
any problem, naming the lesson and the step.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import streamlit as st

from s2s_core.catalog import LANGS, load_catalog
from s2s_core.lessons import Lesson, Step, page_fields, validate
from s2s_core.lessons.model import LESSONS_DIR, LessonError, read_lesson

log = logging.getLogger(__name__)


def step_text_keys(step: Step) -> list[str]:
    """Every catalog key a step shows: its narration, and a question's text, options and explanation."""
    keys = [step.key("text")]
    if step.question is not None:
        keys += [step.key("question"), step.key("explain"), *(step.key(f"option_{o}") for o in step.question.options)]
    return keys


def missing_texts(lessons: Mapping[str, Lesson]) -> list[str]:
    """Each lesson title or step text that a language's catalog lacks."""
    problems = []
    for lang in LANGS:
        catalog = load_catalog(lang)
        for lesson in lessons.values():
            if lesson.title_key not in catalog:
                problems.append(f"lesson {lesson.id}: no {lang} title ({lesson.title_key})")
            for step in lesson.steps:
                problems += [f"{step.where()}: no {lang} text {k}" for k in step_text_keys(step) if k not in catalog]
    return problems


def problems_by_lesson(lessons: Mapping[str, Lesson]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for problem in validate(lessons, page_fields()) + missing_texts(lessons):
        lesson = problem.split(",", 1)[0].split(":", 1)[0].removeprefix("lesson ").strip()
        found.setdefault(lesson, []).append(problem)
    return found


@st.cache_resource
def lessons() -> dict[str, Lesson]:
    """The lessons that load, by id (the course first). Checked once per server process."""
    every: dict[str, Lesson] = {}
    for path in sorted(LESSONS_DIR.glob("*.toml")):
        try:
            every[path.stem] = read_lesson(path)
        except (LessonError, OSError, ValueError) as err:  # tomllib's TOMLDecodeError is a ValueError
            log.error("lesson file %s is left out: %s", path.name, err)
    every = dict(sorted(every.items(), key=lambda kv: (kv[1].kind != "course", kv[0])))
    bad = problems_by_lesson(every)
    for lesson, problems in bad.items():
        log.error("lesson %s is left out: %s", lesson, "; ".join(problems))
    return {k: v for k, v in every.items() if k not in bad}


def tour_of(ns: str) -> Lesson | None:
    return next((x for x in lessons().values() if x.kind == "tour" and x.page == ns), None)
