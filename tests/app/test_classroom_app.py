"""The classroom in AppTest: a teacher starts a class on Home, students join by link or code and follow the
teacher's steps, answer, see the reveal, explore and rejoin, are held by the lock, and see the end; a student's
link never controls the class; hostile link values, an expired class and an unreachable database are named in the
learner's language; a reopened link (a restarted server: a new session) resumes the class.

AppTest runs a fragment only within a full run, so a student's once-a-second poll is stood in for by `at.run()`
(the full run steers exactly as the poll's rerun does); the browser test (tests/browser/test_classroom_browser.py)
checks the real poll."""

from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from s2s_core.catalog import translate
from s2s_core.classroom.limits import Limits, limits_from_env
from s2s_core.errors import InputError
from s2s_core.lessons import load_lessons
from s2s_db import classes as repo
from s2s_db.engine import engine
from s2s_db.migrate import upgrade
from s2s_db.settings import database_url
from s2s_ui.classroom import store
from tests.app.conftest import ROOT, all_text, toasts

LESSON = "tour_ngram"  # 5 steps, a question at step 3
QUESTION_STEP = 3


def _button(at, key: str):
    return next(b for b in at.button if b.key == key)


def _has_button(at, key: str) -> bool:
    return any(b.key == key for b in at.button)


def _app(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _q(at, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def start_class(lang: str = "en", lesson: str = LESSON) -> tuple[AppTest, str, str]:
    """A teacher on Home starts a class for `lesson`: (the teacher's AppTest, the code, the secret)."""
    at = _app({"lang": lang})
    at.selectbox(key="class_lesson").set_value(lesson).run()
    _button(at, "class_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _q(at, "lesson") == lesson and _q(at, "lesson_step") == "1"
    return at, _q(at, "class"), _q(at, "teacher")


def student(code: str, lang: str = "en") -> AppTest:
    at = _app({"lang": lang, "class": code})
    assert _q(at, "seat"), "a student link without a seat joins and gets one"
    assert _q(at, "teacher") is None
    return at


def step_of(at) -> int:
    return int(_q(at, "lesson_step"))


def teacher_next(at) -> None:
    _button(at, "lesson_next").click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_students_follow_answer_and_see_the_reveal_at_once():
    teacher, code, _ = start_class("en")
    alice, bora = student(code, "en"), student(code, "ko")
    assert step_of(alice) == 1 and step_of(bora) == 1  # opened at the teacher's step
    assert translate("ko", "classroom.ui.student_following", code=code[:4] + "-" + code[4:], n=1, total=5) in (
        all_text(bora)
    )
    assert not _has_button(alice, "lesson_next")  # a follower does not step on their own
    assert not _has_button(alice, "class_reveal") and not _has_button(alice, "class_end")
    for _ in range(QUESTION_STEP - 1):
        teacher_next(teacher)
    for at in (alice, bora):
        at.run()
        assert step_of(at) == QUESTION_STEP
    assert translate("en", "classroom.ui.answered", n=0, students=2) in all_text(teacher)
    radio = alice.radio(key=f"class_quiz__{code}__{LESSON}__{QUESTION_STEP}")
    first = load_lessons()[LESSON].steps[QUESTION_STEP - 1].question.options[0]  # an option id (labels are shown)
    radio.set_value(first).run()
    assert translate("en", "classroom.ui.answer_sent") in all_text(alice)
    teacher.run()
    assert translate("en", "classroom.ui.answered", n=1, students=2) in all_text(teacher)
    # Until the reveal nobody is told the answer; then everyone is, graded on the step's own state.
    assert "Right:" not in all_text(alice) and "Not quite" not in all_text(alice)
    _button(teacher, "class_reveal").click().run()
    assert not teacher.exception, [e.value for e in teacher.exception]
    title = translate("en", "classroom.ui.tally_title")
    assert any(title in chart.proto.spec for chart in teacher.get("vega_lite_chart"))
    alice.run()
    bora.run()
    assert ("Right:" in all_text(alice)) or ("Not quite" in all_text(alice)), all_text(alice)
    assert alice.radio(key=f"class_quiz__{code}__{LESSON}__{QUESTION_STEP}").disabled
    assert alice.radio(key=f"class_quiz__{code}__{LESSON}__{QUESTION_STEP}").value == first
    assert translate("ko", "classroom.ui.no_answer", correct="").split("{")[0][:8] in all_text(bora)
    _button(teacher, "class_end").click().run()


def test_a_student_explores_rejoins_and_the_lock_holds_everyone():
    teacher, code, _ = start_class("en")
    kim = student(code)
    _button(kim, "class_explore").click().run()
    assert _has_button(kim, "lesson_next")  # exploring: the learner steps on their own again
    teacher_next(teacher)
    kim.run()
    assert step_of(kim) == 1  # the teacher moved on; an explorer stays where they are
    assert "exploring on your own" in all_text(kim)
    _button(kim, "class_rejoin").click().run()
    kim.run()
    assert step_of(kim) == 2
    teacher.toggle(key=next(t.key for t in teacher.toggle if t.key.startswith("class_lock"))).set_value(True).run()
    kim.run()
    assert not _has_button(kim, "class_explore")
    assert translate("en", "classroom.ui.locked_note") in all_text(kim)
    _button(teacher, "class_end").click().run()
    kim.run()
    assert translate("en", "classroom.ui.ended", code=f"{code[:4]}-{code[4:]}") in all_text(kim)
    _button(kim, "class_close").click().run()
    assert _q(kim, "class") is None and _q(kim, "seat") is None


def test_a_reopened_link_resumes_the_class_with_its_seat():
    """A restarted server keeps no session: the teacher's and the student's links alone bring them back."""
    teacher, code, secret = start_class("en")
    kim = student(code)
    seat = _q(kim, "seat")
    teacher_next(teacher)
    again = _app({"lang": "en", "class": code, "teacher": secret})
    assert translate("en", "classroom.ui.teacher_lead", code=f"{code[:4]}-{code[4:]}", students=1, n=2, total=5) in (
        all_text(again)
    )
    back = _app({"lang": "en", "class": code, "seat": seat})
    assert _q(back, "seat") == seat and step_of(back) == 2
    _button(again, "class_end").click().run()


def test_a_student_link_never_controls_the_class():
    teacher, code, secret = start_class("en")
    kim = student(code)
    token = _q(kim, "seat")
    # The student's own token or a forged secret in the teacher's place: refused by the database, named.
    for forged in (token, secret[:-2] + ("AA" if not secret.endswith("AA") else "BB")):
        at = _app({"lang": "en", "class": code, "teacher": forged})
        assert translate("en", "classroom.errors.not_teacher") in all_text(at)
        assert _q(at, "teacher") is None and not _has_button(at, "class_reveal")
    # The class code (too short to be a secret): refused by its shape, named in a toast.
    at = _app({"lang": "en", "class": code, "teacher": code})
    assert translate("en", "classroom.field.teacher_link") in toasts(at)
    assert _q(at, "teacher") is None and not _has_button(at, "class_reveal")
    eng = engine(database_url())
    for action in (
        lambda s: repo.move(eng, code, s, 2, time.time()),
        lambda s: repo.reveal(eng, code, s, time.time()),
        lambda s: repo.lock(eng, code, s, True, time.time()),
        lambda s: repo.end(eng, code, s, time.time()),
    ):
        with pytest.raises(repo.ClassError):
            action(token)
    teacher.run()
    assert step_of(teacher) == 1
    _button(teacher, "class_end").click().run()


@pytest.mark.parametrize(
    "query",
    [
        {"class": "abc"},
        {"class": "<b>boom</b>"},
        {"class": "A" * 5000},
        {"class": "ZZZZ-ZZZZ"},  # well formed, no such class
        {"class": "ZZZZZZZZ", "teacher": "x" * 30},
        {"class": "ZZZZZZZZ", "teacher": "<script>"},
        {"class": "ZZZZZZZZ", "seat": "\u202e" * 40},
        {"class": "ZZZZZZZZ", "seat": ""},
    ],
    ids=lambda q: "&".join(f"{k}={v[:12]!r}" for k, v in q.items()),
)
def test_hostile_class_links_are_named_and_leave_the_app_working(query):
    at = _app({"lang": "ko", **query})
    shown = all_text(at) + toasts(at)
    assert "<b>" not in all_text(at) and "<script>" not in all_text(at)
    named = (
        translate("ko", "classroom.field.code"),
        translate("ko", "classroom.errors.unknown_class"),
        translate("ko", "classroom.field.teacher_link"),
        translate("ko", "classroom.field.student_link"),
    )
    assert any(n in shown for n in named), shown[-400:]
    assert _q(at, "class") is None  # out of the class: Home works as without a link
    assert _has_button(at, "class_start")


def test_an_expired_or_ended_class_is_named():
    eng = engine(database_url())
    upgrade(eng)
    old = repo.open_class(eng, LESSON, 5, time.time() - 7 * 3600, Limits())  # 6 hours' life, 7 hours ago
    at = _app({"lang": "en", "class": old.code})
    assert translate("en", "classroom.errors.expired") in all_text(at)
    ended = repo.open_class(eng, LESSON, 5, time.time(), Limits())
    repo.end(eng, ended.code, ended.secret, time.time())
    at = _app({"lang": "en", "class": ended.code})
    assert translate("en", "classroom.errors.ended") in all_text(at)


def test_a_typed_code_joins_and_a_bad_one_is_named():
    teacher, code, _ = start_class("en")
    at = _app({"lang": "en"})
    at.text_input(key="class_code").input("abc")
    at.button(key="FormSubmitter:class_join-" + translate("en", "classroom.ui.join")).click().run()
    assert translate("en", "classroom.field.code") in all_text(at)
    assert _q(at, "class") is None
    typed = f" {code[:4].lower()}-{code[4:].lower()} "  # as a student types it off the projector
    at.text_input(key="class_code").input(typed)
    at.button(key="FormSubmitter:class_join-" + translate("en", "classroom.ui.join")).click().run()
    assert _q(at, "class") == code and _q(at, "seat")
    assert step_of(at) == 1
    _button(teacher, "class_end").click().run()


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("postgresql://nobody:x@127.0.0.1:1/none", "classroom.ui.db_down"),
        ("mysql://root@localhost/db", "classroom.ui.db_bad_url"),
    ],
    ids=["unreachable", "not-a-database-url"],
)
def test_a_database_that_cannot_be_used_is_named_and_the_app_works(monkeypatch, url, key):
    monkeypatch.setenv("S2S_DATABASE_URL", url)
    at = _app({"lang": "ko"})
    _button(at, "class_start").click().run()  # the course, the default lesson
    assert not at.exception
    assert translate("ko", key) in all_text(at)
    assert _q(at, "class") is None


@pytest.mark.parametrize(
    ("name", "value"),
    [("S2S_CLASS_HOURS", "abc"), ("S2S_CLASS_HOURS", "0"), ("S2S_CLASS_MAX_STUDENTS", "1e9"),
     ("S2S_MAX_OPEN_CLASSES", "-3")],
)  # fmt: skip
def test_a_bad_class_setting_is_named_by_its_variable_and_the_app_works(monkeypatch, name, value):
    """A server started with a bad cap refuses classes with a message naming the variable, in the learner's
    language, and the rest of the app keeps working (the caps are read once per server: the cache is emptied so
    this test's server reads them)."""
    monkeypatch.setenv(name, value)
    with pytest.raises(InputError) as caught:
        limits_from_env({name: value})
    store._limits.clear()
    try:
        at = _app({"lang": "ko"})
        _button(at, "class_start").click().run()
        assert not at.exception
        field = translate("ko", caught.value.field)
        expected = translate("ko", caught.value.key, **caught.value.params, field=field)
        assert expected in all_text(at), f"no message naming {name}: {all_text(at)[:600]}"
        assert _q(at, "class") is None
        at.switch_page("pages/attention.py").run()  # the rest of the app is unaffected
        assert not at.exception
    finally:
        monkeypatch.delenv(name)
        store._limits.clear()
