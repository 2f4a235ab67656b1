"""The class repository (s2s_db/classes.py) on SQLite and PostgreSQL: a class's life, who may act, caps, races,
hostile values, a restart and expiry. Every test runs on a migrated, empty database (tests/db/conftest.py)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from s2s_core.catalog import LANGS, load_catalog
from s2s_core.classroom import codes
from s2s_core.classroom.limits import Limits
from s2s_core.classroom.state import ClassError
from s2s_core.errors import InputError
from s2s_db import classes as repo
from s2s_db.engine import make_engine
from s2s_db.migrate import upgrade
from s2s_db.tables import answers, classes, members

NOW = 1_800_000_000.0  # a fixed clock: every call is given its time, as the server gives time.time()
LIMITS = Limits()
OPTIONS = ("a", "b", "c")
LESSON = "course"
N_STEPS = 30


def refused(key: str, call: Callable[[], object]) -> None:
    with pytest.raises(ClassError) as caught:
        call()
    assert caught.value.key == key, f"refused with {caught.value.key}, expected {key}"


def snapshot(engine: sa.Engine) -> dict[str, list[tuple]]:
    """Every row of the three tables, in a fixed order: what "nothing changed" compares."""
    with engine.connect() as conn:
        return {t.name: sorted(tuple(r) for r in conn.execute(sa.select(t)).all()) for t in (classes, members, answers)}


def answer_rows(engine: sa.Engine) -> list[tuple]:
    with engine.connect() as conn:
        query = sa.select(answers.c.member_id, answers.c.lesson, answers.c.step, answers.c.option)
        return sorted(tuple(r) for r in conn.execute(query).all())


def test_a_class_from_open_to_end(db):
    """open → join (3) → move → answer (one changed, refused after the reveal) → reveal → tally → lock → end,
    each step seen by a follower with a larger version than the one before."""
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    assert len(opened.code) == 8 and codes.parse_code(opened.code) == opened.code
    assert len(opened.secret) >= 43  # 256 bits, URL-safe base64
    seen = [repo.follow(db, opened.code, NOW)]
    assert seen[0] == opened.state
    assert (seen[0].step, seen[0].revealed, seen[0].locked, seen[0].ended) == (1, False, False, False)
    # The code as a student types it, from the projector: lower case, hyphen, O for 0.
    typed = codes.show_code(opened.code).lower().replace("0", "o")
    students = [repo.join(db, typed, NOW + i, LIMITS) for i in range(3)]
    assert len(set(students)) == 3

    moved = repo.move(db, opened.code, opened.secret, 4, NOW + 10)
    seen.append(repo.follow(db, opened.code, NOW + 10))
    assert seen[-1] == moved and moved.step == 4

    assert repo.answer(db, opened.code, students[0], "a", OPTIONS, NOW + 11) == "a"
    assert repo.answer(db, opened.code, students[1], "b", OPTIONS, NOW + 11) == "b"
    assert repo.answer(db, opened.code, students[2], "a", OPTIONS, NOW + 11) == "a"
    assert repo.answer(db, opened.code, students[2], "c", OPTIONS, NOW + 12) == "c"  # changed its mind once
    before = repo.tally(db, opened.code, opened.secret, OPTIONS)
    assert before.counts == (("a", 1), ("b", 1), ("c", 1)) and before.total == 3
    assert repo.follow(db, opened.code, NOW + 12) == seen[-1]  # answers are not the class's state

    seen.append(repo.reveal(db, opened.code, opened.secret, NOW + 20))
    assert repo.follow(db, opened.code, NOW + 20) == seen[-1] and seen[-1].revealed
    rows = answer_rows(db)
    refused(repo.REVEALED, lambda: repo.answer(db, opened.code, students[2], "a", OPTIONS, NOW + 21))
    refused(repo.REVEALED, lambda: repo.answer(db, opened.code, students[0], "b", OPTIONS, NOW + 21))
    assert answer_rows(db) == rows
    assert repo.tally(db, opened.code, opened.secret, OPTIONS) == before
    assert [r[2] for r in rows] == [4, 4, 4]  # answers belong to the step they were given at

    seen.append(repo.lock(db, opened.code, opened.secret, True, NOW + 30))
    assert repo.follow(db, opened.code, NOW + 30).locked
    seen.append(repo.end(db, opened.code, opened.secret, NOW + 40))
    last = repo.follow(db, opened.code, NOW + 40)
    assert last == seen[-1] and last.ended and last.locked and last.step == 4

    versions = [s.version for s in seen]
    assert versions == sorted(set(versions)), versions  # strictly increasing: a follower polls one integer
    # Over: nobody joins, answers or moves it; its tally is still the teacher's.
    refused(repo.ENDED, lambda: repo.join(db, opened.code, NOW + 41, LIMITS))
    refused(repo.ENDED, lambda: repo.answer(db, opened.code, students[0], "a", OPTIONS, NOW + 41))
    refused(repo.ENDED, lambda: repo.move(db, opened.code, opened.secret, 5, NOW + 41))
    refused(repo.ENDED, lambda: repo.end(db, opened.code, opened.secret, NOW + 41))
    assert repo.tally(db, opened.code, opened.secret, OPTIONS) == before


def test_a_new_step_is_a_new_question(db):
    """A move hides the answer again and opens a fresh question; the earlier step's answers stay as they were."""
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student = repo.join(db, opened.code, NOW, LIMITS)
    repo.answer(db, opened.code, student, "a", OPTIONS, NOW)
    repo.reveal(db, opened.code, opened.secret, NOW)
    repo.move(db, opened.code, opened.secret, 2, NOW)
    assert not repo.follow(db, opened.code, NOW).revealed
    assert repo.tally(db, opened.code, opened.secret, OPTIONS).total == 0
    repo.answer(db, opened.code, student, "b", OPTIONS, NOW)
    repo.move(db, opened.code, opened.secret, 1, NOW)  # back to step 1: its answer and its reveal are history
    assert repo.tally(db, opened.code, opened.secret, OPTIONS).counts == (("a", 1), ("b", 0), ("c", 0))
    assert answer_rows(db) == [(1, LESSON, 1, "a"), (1, LESSON, 2, "b")]


def not_the_secret(opened: repo.Opened, other: repo.Opened, student: str) -> list[object]:
    """What a student (or anyone who is not the teacher) could put where the teacher's secret goes."""
    secret = opened.secret
    return [
        student,
        None,
        "",
        codes.new_secret(),  # a wrong secret
        other.secret,  # another class's teacher
        opened.code,
        codes.show_code(opened.code),
        codes.digest(secret),  # the stored digest itself
        codes.digest(student),
        secret[:-1],
        secret + "A",
        secret.upper(),
        f" {secret}\n",
        secret.encode(),
        [secret],
        {"secret": secret},
        42,
        True,
        "x" * 100_000,
    ]


def test_only_the_teachers_secret_acts_as_the_teacher(db):
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    other = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student = repo.join(db, opened.code, NOW, LIMITS)
    repo.answer(db, opened.code, student, "a", OPTIONS, NOW)
    before = snapshot(db)
    actions = {
        "move": lambda s: repo.move(db, opened.code, s, 2, NOW),
        "reveal": lambda s: repo.reveal(db, opened.code, s, NOW),
        "lock": lambda s: repo.lock(db, opened.code, s, True, NOW),
        "unlock": lambda s: repo.lock(db, opened.code, s, False, NOW),
        "end": lambda s: repo.end(db, opened.code, s, NOW),
        "tally": lambda s: repo.tally(db, opened.code, s, OPTIONS),
    }
    for pretender in not_the_secret(opened, other, student):
        for name, act in actions.items():
            with pytest.raises(ClassError) as caught:
                act(pretender)
            assert caught.value.key == repo.NOT_TEACHER, (name, repr(pretender)[:40], caught.value.key)
    assert snapshot(db) == before
    # Nor is the teacher a student: the secret is no member's token, and answers stay the students'.
    refused(repo.UNKNOWN, lambda: repo.answer(db, opened.code, opened.secret, "b", OPTIONS, NOW))
    refused(repo.UNKNOWN, lambda: repo.leave(db, opened.code, opened.secret))
    # A token works only in its own class.
    refused(repo.UNKNOWN, lambda: repo.answer(db, other.code, student, "b", OPTIONS, NOW))
    assert snapshot(db) == before
    assert repo.reveal(db, opened.code, opened.secret, NOW).revealed  # the real secret still works


FORGED = ["", "ABCD", "ABCD-EFG", "ABCDEFGHJ", "ABCD-EFG!", "UUUUUUUU", "ABCD EFGH; DROP TABLE classes", "A" * 10_000]


def test_forged_and_unknown_codes(db):
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student = repo.join(db, opened.code, NOW, LIMITS)
    before = snapshot(db)
    calls = {
        "join": lambda c: repo.join(db, c, NOW, LIMITS),
        "follow": lambda c: repo.follow(db, c, NOW),
        "move": lambda c: repo.move(db, c, opened.secret, 2, NOW),
        "reveal": lambda c: repo.reveal(db, c, opened.secret, NOW),
        "lock": lambda c: repo.lock(db, c, opened.secret, True, NOW),
        "end": lambda c: repo.end(db, c, opened.secret, NOW),
        "tally": lambda c: repo.tally(db, c, opened.secret, OPTIONS),
        "answer": lambda c: repo.answer(db, c, student, "a", OPTIONS, NOW),
        "leave": lambda c: repo.leave(db, c, student),
    }
    unknown = next(c for c in (codes.new_code() for _ in range(10)) if c != opened.code)
    for call in calls.values():
        for forged in [*FORGED, None, 12345678, b"ABCDEFGH", ["ABCDEFGH"]]:
            with pytest.raises(InputError) as caught:
                call(forged)
            assert (caught.value.key, caught.value.field) == ("classroom.errors.bad_code", "classroom.field.code")
        # Well formed, but no class has it: the code of the class itself with the secret still fails elsewhere.
        refused(repo.UNKNOWN, lambda call=call: call(unknown))
        refused(repo.UNKNOWN, lambda call=call: call(codes.show_code(unknown).lower()))
    assert snapshot(db) == before


def test_an_expired_class_refuses_everything(db):
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student = repo.join(db, opened.code, NOW, LIMITS)
    expires = opened.state.expires_at
    assert expires == NOW + LIMITS.lifetime_s
    before = snapshot(db)
    for late in (expires, expires + 1, expires + 10 * 365 * 86400):
        refused(repo.EXPIRED, lambda t=late: repo.follow(db, opened.code, t))
        refused(repo.EXPIRED, lambda t=late: repo.join(db, opened.code, t, LIMITS))
        refused(repo.EXPIRED, lambda t=late: repo.answer(db, opened.code, student, "a", OPTIONS, t))
        refused(repo.EXPIRED, lambda t=late: repo.move(db, opened.code, opened.secret, 2, t))
        refused(repo.EXPIRED, lambda t=late: repo.reveal(db, opened.code, opened.secret, t))
        refused(repo.EXPIRED, lambda t=late: repo.lock(db, opened.code, opened.secret, True, t))
        refused(repo.EXPIRED, lambda t=late: repo.end(db, opened.code, opened.secret, t))
    assert snapshot(db) == before
    assert repo.follow(db, opened.code, expires - 1) == opened.state  # a moment before, still open


def test_a_token_after_leave_is_refused(db):
    small = Limits(max_students=2)
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, small)
    leaving = repo.join(db, opened.code, NOW, small)
    staying = repo.join(db, opened.code, NOW, small)
    repo.answer(db, opened.code, leaving, "a", OPTIONS, NOW)
    repo.answer(db, opened.code, staying, "b", OPTIONS, NOW)
    refused(repo.FULL, lambda: repo.join(db, opened.code, NOW, small))
    repo.leave(db, opened.code, leaving)
    after_leave = snapshot(db)
    assert len(after_leave["members"]) == 1 and [r[-2] for r in after_leave["answers"]] == ["b"]  # nothing stays
    refused(repo.UNKNOWN, lambda: repo.answer(db, opened.code, leaving, "c", OPTIONS, NOW))
    refused(repo.UNKNOWN, lambda: repo.leave(db, opened.code, leaving))
    refused(repo.NOT_TEACHER, lambda: repo.move(db, opened.code, leaving, 2, NOW))
    assert snapshot(db) == after_leave
    assert repo.tally(db, opened.code, opened.secret, OPTIONS).total == 1
    rejoined = repo.join(db, opened.code, NOW, small)  # the seat is free again; a new token, a new member
    assert rejoined != leaving
    assert repo.answer(db, opened.code, rejoined, "c", OPTIONS, NOW) == "c"
    assert repo.follow(db, opened.code, NOW) == opened.state


def test_the_201st_student_is_refused(db):
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    tokens = [repo.join(db, opened.code, NOW, LIMITS) for _ in range(LIMITS.max_students)]
    assert LIMITS.max_students == 200 and len(set(tokens)) == 200
    before = snapshot(db)
    refused(repo.FULL, lambda: repo.join(db, opened.code, NOW, LIMITS))
    assert snapshot(db) == before
    # Every one of them a working member; digests only in the table.
    assert repo.answer(db, opened.code, tokens[-1], "a", OPTIONS, NOW) == "a"
    stored = {r[2] for r in before["members"]}
    assert not stored & set(tokens) and {codes.digest(t) for t in tokens} == stored


def test_the_open_classes_cap(db):
    cap = Limits(max_open_classes=3)
    first = [repo.open_class(db, LESSON, N_STEPS, NOW, cap) for _ in range(3)]
    before = snapshot(db)
    refused(repo.TOO_MANY, lambda: repo.open_class(db, LESSON, N_STEPS, NOW, cap))
    assert snapshot(db) == before
    repo.end(db, first[0].code, first[0].secret, NOW)  # an ended class no longer counts ...
    repo.open_class(db, LESSON, N_STEPS, NOW, cap)
    refused(repo.TOO_MANY, lambda: repo.open_class(db, LESSON, N_STEPS, NOW, cap))
    later = NOW + cap.lifetime_s  # ... nor an expired one, before expire() has removed it
    assert len({o.code for o in [repo.open_class(db, LESSON, N_STEPS, later, cap) for _ in range(3)]}) == 3
    refused(repo.TOO_MANY, lambda: repo.open_class(db, LESSON, N_STEPS, later, cap))


def run_at_once(calls: list[Callable[[], object]]) -> list[object]:
    """Each call in its own thread (its own connection from the pool), released together; results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as error:  # handed back to the test, which names what it expects
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a concurrent call never returned"
    return results


def test_concurrent_answers_and_joins_keep_the_caps(db):
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student, other = (repo.join(db, opened.code, NOW, LIMITS) for _ in range(2))
    for round_ in range(5):
        # The same student's two answers at once (a double click, two tabs): one row, holding one of them.
        results = run_at_once(
            [
                lambda t=NOW + round_: repo.answer(db, opened.code, student, "a", OPTIONS, t),
                lambda t=NOW + round_: repo.answer(db, opened.code, student, "b", OPTIONS, t),
                lambda t=NOW + round_: repo.answer(db, opened.code, other, "c", OPTIONS, t),
            ]
        )
        assert results == ["a", "b", "c"], results
        rows = answer_rows(db)
        assert len(rows) == 2 and rows[0][-1] in ("a", "b") and rows[1][-1] == "c", rows
        assert repo.tally(db, opened.code, opened.secret, OPTIONS).total == 2
    # Joins racing for the last seats: exactly the cap gets in.
    small = Limits(max_students=4)
    crowded = repo.open_class(db, LESSON, N_STEPS, NOW, small)
    results = run_at_once([lambda: repo.join(db, crowded.code, NOW, small) for _ in range(8)])
    joined = [r for r in results if isinstance(r, str)]
    assert len(joined) == 4, results
    assert all(isinstance(r, ClassError) and r.key == repo.FULL for r in results if not isinstance(r, str))
    # Opens racing for the last open classes of the server (a time when every class above has expired).
    later = NOW + 2 * LIMITS.lifetime_s
    cap = Limits(max_open_classes=2)
    results = run_at_once([lambda: repo.open_class(db, LESSON, N_STEPS, later, cap) for _ in range(5)])
    assert sum(isinstance(r, repo.Opened) for r in results) == 2, results
    assert all(isinstance(r, ClassError) and r.key == repo.TOO_MANY for r in results if not isinstance(r, repo.Opened))


HOSTILE = [None, True, -1, 0, 1.5, float("nan"), float("inf"), 10**100, "", " ", "\x00", "x" * 100_000]
HOSTILE += ["'; DROP TABLE classes; --", "<script>alert(1)</script>", "한국어", b"bytes", [], {}, object()]
BAD_TIME = [None, True, "1800000000", float("nan"), float("inf"), -float("inf"), 10**400, b"0", [NOW]]


def test_hostile_values_in_every_argument(db):
    """Each argument in turn replaced by junk: InputError or ClassError, never another exception, nothing written."""
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    student = repo.join(db, opened.code, NOW, LIMITS)
    repo.answer(db, opened.code, student, "a", OPTIONS, NOW)
    code, secret = opened.code, opened.secret
    good = {
        "open_class": (repo.open_class, dict(lesson=LESSON, n_steps=N_STEPS, now=NOW, limits=LIMITS)),
        "join": (repo.join, dict(code=code, now=NOW, limits=LIMITS)),
        "follow": (repo.follow, dict(code=code, now=NOW)),
        "move": (repo.move, dict(code=code, secret=secret, step=2, now=NOW)),
        "reveal": (repo.reveal, dict(code=code, secret=secret, now=NOW)),
        "lock": (repo.lock, dict(code=code, secret=secret, on=True, now=NOW)),
        "end": (repo.end, dict(code=code, secret=secret, now=NOW)),
        "tally": (repo.tally, dict(code=code, secret=secret, options=OPTIONS)),
        "answer": (repo.answer, dict(code=code, token=student, option="b", options=OPTIONS, now=NOW)),
        "leave": (repo.leave, dict(code=code, token=student)),
        "expire": (repo.expire, dict(now=NOW)),
    }
    special = {
        "now": BAD_TIME,
        "on": [*(v for v in HOSTILE if v is not True), 1, "true", "false"],
        "step": [*HOSTILE, N_STEPS + 1, "2", 2.0],
        "n_steps": [*HOSTILE, repo.MAX_STEPS + 1, "3"],
        "lesson": [*HOSTILE, "a" * 65, "a b", "../course"],
        "option": [*HOSTILE, "d", "A", "a" * 33, ["a"]],
        "options": [*HOSTILE, "abc", [1, 2], ["a" * 33], ["a"] * 27, ("a", None), {"a": 1}],
        "token": [*HOSTILE, codes.new_token(), code, codes.digest(student), student[:-1], student + "x"],
    }
    before = snapshot(db)
    tried = 0
    for name, (call, kwargs) in good.items():
        for arg in kwargs:
            if arg == "limits":
                continue  # the server's own settings object, not a value from a link or a form
            for value in special.get(arg, HOSTILE):
                with pytest.raises((InputError, ClassError)):
                    call(db, **{**kwargs, arg: value})
                tried += 1
            assert snapshot(db) == before, (name, arg)
    assert tried > 400


def test_a_restart_resumes_the_class(db, db_url):
    """A server restart is a new engine (and a migration run that finds nothing to do) on the same URL."""
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    tokens = [repo.join(db, opened.code, NOW, LIMITS) for _ in range(3)]
    repo.move(db, opened.code, opened.secret, 5, NOW)
    for token, option in zip(tokens, OPTIONS, strict=True):
        repo.answer(db, opened.code, token, option, OPTIONS, NOW)
    state = repo.lock(db, opened.code, opened.secret, True, NOW)
    before = snapshot(db)
    db.dispose()

    restarted = make_engine(db_url)
    try:
        upgrade(restarted)
        assert snapshot(restarted) == before
        assert repo.follow(restarted, opened.code, NOW + 60) == state
        assert repo.tally(restarted, opened.code, opened.secret, OPTIONS).counts == (("a", 1), ("b", 1), ("c", 1))
        assert repo.answer(restarted, opened.code, tokens[0], "c", OPTIONS, NOW + 61) == "c"  # tokens still work
        assert repo.reveal(restarted, opened.code, opened.secret, NOW + 62).version == state.version + 1
    finally:
        restarted.dispose()


def test_expire_removes_only_ended_and_expired_classes(db):
    def populated(now: float) -> repo.Opened:
        opened = repo.open_class(db, LESSON, N_STEPS, now, LIMITS)
        for option in OPTIONS[:2]:
            repo.answer(db, opened.code, repo.join(db, opened.code, now, LIMITS), option, OPTIONS, now)
        return opened

    live = populated(NOW)
    ended = populated(NOW)
    repo.end(db, ended.code, ended.secret, NOW)
    old = populated(NOW - LIMITS.lifetime_s - 1)  # opened earlier: expired by NOW
    with db.connect() as conn:
        ids = dict(conn.execute(sa.select(classes.c.code, classes.c.id)).all())
    assert repo.expire(db, NOW) == 2
    after = snapshot(db)
    assert [r[1] for r in after["classes"]] == [live.code]
    assert {r[1] for r in after["members"]} == {ids[live.code]} and len(after["members"]) == 2
    assert {r[0] for r in after["answers"]} == {ids[live.code]} and len(after["answers"]) == 2
    refused(repo.UNKNOWN, lambda: repo.follow(db, ended.code, NOW))
    refused(repo.UNKNOWN, lambda: repo.follow(db, old.code, NOW))
    assert repo.expire(db, NOW) == 0 and snapshot(db) == after
    assert repo.follow(db, live.code, NOW) == live.state
    assert repo.expire(db, live.state.expires_at) == 1 and snapshot(db) == {"classes": [], "members": [], "answers": []}


def test_follow_is_one_select(db):
    """A follower's poll costs one statement (plus its transaction's begin and end), whatever the class holds."""
    opened = repo.open_class(db, LESSON, N_STEPS, NOW, LIMITS)
    for _ in range(3):
        repo.answer(db, opened.code, repo.join(db, opened.code, NOW, LIMITS), "a", OPTIONS, NOW)
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    sa.event.listen(db, "before_cursor_execute", seen)
    try:
        repo.follow(db, opened.code, NOW)
    finally:
        sa.event.remove(db, "before_cursor_execute", seen)
    queries = [s for s in statements if not s.strip().upper().startswith(("BEGIN", "COMMIT", "ROLLBACK"))]
    assert len(queries) == 1 and queries[0].lstrip().upper().startswith("SELECT"), statements
    assert "FROM classes" in queries[0] and "members" not in queries[0] and "answers" not in queries[0]


def test_the_messages_raised_exist_in_both_languages():
    """Every catalog key named in s2s_db/classes.py is in both classroom catalogs (tests/test_catalogs.py reads
    the core and the UI, not s2s_db); the core's own keys are checked there."""
    keys = set(re.findall(r"""["'](classroom\.[a-z_]+\.[a-z_]+)["']""", Path(repo.__file__).read_text("utf-8")))
    assert len(keys) >= 10, keys
    for lang in LANGS:
        assert sorted(keys - load_catalog(lang).keys()) == [], lang
