"""The class repository: a class's state, its anonymous members and their answers, each call one transaction.

The rules are the core's (s2s_core.classroom: codes, transitions, answers); this module keeps them in the
database so every server thread, process and restart sees one class. Time is the caller's `now` (seconds since
the epoch). Every value from a link or a form is checked before the database is touched: bad input is an
InputError, a refused action a ClassError, and in both cases nothing is written.

Concurrency: a function that checks a cap and then writes holds the lock it counts under. On SQLite
`engine.begin()` is BEGIN IMMEDIATE (s2s_db/engine.py), the file's write lock; on PostgreSQL the class's row is
locked (`FOR UPDATE`, or `FOR SHARE` for an answer, so answers do not queue behind each other but a reveal waits
for them), and opening a class takes an advisory lock, since the open-classes cap counts rows that do not exist yet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat

import sqlalchemy as sa

from s2s_core.classroom import codes
from s2s_core.classroom.answers import Tally, parse_answer
from s2s_core.classroom.answers import tally as count_answers
from s2s_core.classroom.limits import Limits
from s2s_core.classroom.state import (
    ClassError,
    ClassState,
    ended,
    is_open,
    locked,
    moved,
    new_state,
    revealed,
)
from s2s_core.errors import InputError
from s2s_db.engine import read
from s2s_db.tables import LESSON_LEN, OPTION_LEN, answers, classes, members

MAX_STEPS = 1000  # a lesson's steps (the course has 25-40): n_steps beyond this is not a lesson
MAX_OPTIONS = 26  # a question's options
OPEN_LOCK_KEY = 0x5332_5328  # pg_advisory_xact_lock's key for "open a class" (s2s_db.migrate uses ...27)
_LESSON = re.compile(rf"[A-Za-z0-9_.:-]{{1,{LESSON_LEN}}}")
_CODE_TRIES = 8  # a fresh 40-bit code collides with a live one about never; a few tries make it never

# Keys of the messages this module raises itself (the others come from the core's parse_* and transitions).
UNKNOWN = "classroom.errors.unknown_class"  # no such class, or (for a student) no longer a member of it
NOT_TEACHER = "classroom.errors.not_teacher"
EXPIRED = "classroom.errors.expired"
ENDED = "classroom.errors.ended"
REVEALED = "classroom.errors.revealed"
FULL = "classroom.errors.full"
TOO_MANY = "classroom.errors.too_many_classes"
BAD_STEP = ("classroom.errors.bad_step", "classroom.field.step")
BAD_ANSWER = ("classroom.errors.bad_answer", "classroom.field.answer")
BAD_STUDENT_LINK = ("classroom.errors.bad_secret", "classroom.field.student_link")
BAD_TEACHER_LINK = ("classroom.errors.bad_secret", "classroom.field.teacher_link")

# What follow reads: the state's columns only, found through the unique index on code.
_STATE_COLUMNS = (
    classes.c.lesson,
    classes.c.step,
    classes.c.n_steps,
    classes.c.revealed,
    classes.c.locked,
    classes.c.ended,
    classes.c.version,
    classes.c.expires_at,
)


@dataclass(frozen=True)
class TeacherView:
    """What the teacher's once-a-second poll shows: the state, the seats taken, the current question's tally."""

    state: ClassState
    students: int  # members of the class now
    tally: Tally | None  # None: the current step asks nothing (no options given)


@dataclass(frozen=True)
class Opened:
    code: str  # canonical (8 symbols); codes.show_code for people
    secret: str  # the teacher link's secret: returned once, only its digest is stored
    state: ClassState


# 1) Checks of the arguments, before any database work.


def _time(now: object) -> float:
    """The caller's clock as a float; a time that is not a finite number cannot show a class is still open."""
    if isinstance(now, bool) or not isinstance(now, int | float):
        raise ClassError(EXPIRED)
    try:
        at = float(now)
    except OverflowError:  # an int past float's range
        raise ClassError(EXPIRED) from None
    if not math.isfinite(at):
        raise ClassError(EXPIRED)
    return at


def _lesson(lesson: object, n_steps: object) -> tuple[str, int]:
    """The lesson a class follows (the app's own id and step count, never typed by a learner). The catalog has
    no message for a bad lesson id, so both say the lesson's steps are out of range."""
    if not isinstance(lesson, str) or not _LESSON.fullmatch(lesson):
        raise InputError(*BAD_STEP, lo=1, hi=MAX_STEPS)
    if isinstance(n_steps, bool) or not isinstance(n_steps, int) or not 1 <= n_steps <= MAX_STEPS:
        raise InputError(*BAD_STEP, lo=1, hi=MAX_STEPS)
    return lesson, n_steps


def _options(options: object) -> tuple[str, ...]:
    """A question's option ids (the app's own, from the lesson step), checked like everything else."""
    if isinstance(options, str | bytes) or not isinstance(options, Sequence) or not 1 <= len(options) <= MAX_OPTIONS:
        raise InputError(*BAD_ANSWER)
    if not all(isinstance(o, str) and 0 < len(o) <= OPTION_LEN for o in options):
        raise InputError(*BAD_ANSWER)
    return tuple(options)


def _token(token: object) -> str:
    """A student's token in the shape new_token makes; its digest is what is looked up."""
    return codes.parse_secret(token, BAD_STUDENT_LINK[1])


# 2) Reads and writes inside a transaction.


def _state(row: sa.Row) -> ClassState:
    return ClassState(
        lesson=row.lesson,
        step=int(row.step),
        n_steps=int(row.n_steps),
        revealed=bool(row.revealed),
        locked=bool(row.locked),
        ended=bool(row.ended),
        version=int(row.version),
        expires_at=float(row.expires_at),
    )


def _class_row(conn: sa.Connection, code: str, lock: str | None = None) -> sa.Row:
    """The class's row by code; `lock` ("update" or "share") holds it on PostgreSQL until the commit."""
    query = sa.select(classes.c.id, classes.c.teacher_digest, *_STATE_COLUMNS).where(classes.c.code == code)
    if lock:
        query = query.with_for_update(read=lock == "share")
    row = conn.execute(query).first()
    if row is None:
        raise ClassError(UNKNOWN)
    return row


def _require_open(state: ClassState, now: float) -> None:
    if state.ended:
        raise ClassError(ENDED)
    if not is_open(state, now):
        raise ClassError(EXPIRED)


def _find_member(conn: sa.Connection, class_id: int, token: str) -> int | None:
    found = conn.execute(
        sa.select(members.c.id).where(members.c.token_digest == codes.digest(token), members.c.class_id == class_id)
    ).scalar()
    return None if found is None else int(found)


def _member_id(conn: sa.Connection, class_id: int, token: str) -> int:
    found = _find_member(conn, class_id, token)
    if found is None:
        raise ClassError(UNKNOWN)
    return found


def _open_classes(conn: sa.Connection, now: float) -> int:
    query = sa.select(sa.func.count()).select_from(classes)
    return int(conn.execute(query.where(sa.not_(classes.c.ended), classes.c.expires_at > now)).scalar_one())


def _fresh_code(conn: sa.Connection) -> str:
    for _ in range(_CODE_TRIES):
        code = codes.new_code()
        if conn.execute(sa.select(classes.c.id).where(classes.c.code == code)).first() is None:
            return code
    raise ClassError(TOO_MANY)


# 3) The repository.


def open_class(engine: sa.Engine, lesson: str, n_steps: int, now: float, limits: Limits) -> Opened:
    """A new class at the lesson's first step; refused when the server already has `max_open_classes` open."""
    lesson, n_steps = _lesson(lesson, n_steps)
    at = _time(now)
    state = new_state(lesson, n_steps, at, limits.lifetime_s)
    secret = codes.new_secret()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(OPEN_LOCK_KEY)))
        if _open_classes(conn, at) >= limits.max_open_classes:
            raise ClassError(TOO_MANY)
        code = _fresh_code(conn)
        conn.execute(
            classes.insert().values(
                code=code,
                teacher_digest=codes.digest(secret),
                lesson=state.lesson,
                step=state.step,
                n_steps=state.n_steps,
                revealed=state.revealed,
                locked=state.locked,
                ended=state.ended,
                version=state.version,
                created_at=at,
                expires_at=state.expires_at,
            )
        )
    return Opened(code, secret, state)


def join(engine: sa.Engine, code: str, now: float, limits: Limits) -> str:
    """A new member of the open class: its anonymous token (only the digest is stored). Refused when full."""
    canonical = codes.parse_code(code)
    at = _time(now)
    token = codes.new_token()
    with engine.begin() as conn:
        row = _class_row(conn, canonical, lock="update")  # joins to one class queue here: the count holds
        _require_open(_state(row), at)
        seated = conn.execute(
            sa.select(sa.func.count()).select_from(members).where(members.c.class_id == row.id)
        ).scalar_one()
        if seated >= limits.max_students:
            raise ClassError(FULL)
        conn.execute(
            members.insert().values(class_id=row.id, token_digest=codes.digest(token), joined_at=at, last_seen=at)
        )
    return token


def follow_query(code: str) -> sa.Select:
    """The follow read: a class's state by its canonical code (tests/db/test_schema.py EXPLAINs it)."""
    return sa.select(*_STATE_COLUMNS).where(classes.c.code == code)


def tally_query(class_id: int, lesson: str, step: int) -> sa.Select:
    """The tally read: answers per option to one question, a range of the answers' primary key."""
    return (
        sa.select(answers.c.option, sa.func.count())
        .where(answers.c.class_id == class_id, answers.c.lesson == lesson, answers.c.step == step)
        .group_by(answers.c.option)
    )


def follow(engine: sa.Engine, code: str, now: float) -> ClassState:
    """The class's state, for a follower's once-a-second poll: one SELECT through the unique index on code.

    An ended class is still returned (its followers are told it ended); an expired one is refused."""
    canonical = codes.parse_code(code)
    at = _time(now)
    with read(engine) as conn:
        row = conn.execute(follow_query(canonical)).first()
    if row is None:
        raise ClassError(UNKNOWN)
    state = _state(row)
    if not state.ended and not is_open(state, at):
        raise ClassError(EXPIRED)
    return state


def _as_teacher(
    engine: sa.Engine, code: object, secret: object, now: object, change: Callable[[ClassState], ClassState]
) -> ClassState:
    """Apply `change` to the class's state if `secret` is its teacher's; the new state is written and returned.

    Anything that is not the teacher's secret (a student's token, the code, the stored digest, junk of any
    type) is the same refusal, checked before the class's state is looked at."""
    canonical = codes.parse_code(code)
    at = _time(now)
    with engine.begin() as conn:
        row = _class_row(conn, canonical, lock="update")
        if not codes.matches(secret, row.teacher_digest):
            raise ClassError(NOT_TEACHER)
        state = _state(row)
        _require_open(state, at)
        new = change(state)
        conn.execute(
            classes.update()
            .where(classes.c.id == row.id)
            .values(step=new.step, revealed=new.revealed, locked=new.locked, ended=new.ended, version=new.version)
        )
    return new


def move(engine: sa.Engine, code: str, secret: str, step: int, now: float) -> ClassState:
    """The class to `step` (1..n_steps); the new step's answer is hidden."""
    return _as_teacher(engine, code, secret, now, lambda s: moved(s, step))


def reveal(engine: sa.Engine, code: str, secret: str, now: float) -> ClassState:
    """The current step's answer shown to every student; answers to it are final from now on."""
    return _as_teacher(engine, code, secret, now, revealed)


def lock(engine: sa.Engine, code: str, secret: str, on: bool, now: float) -> ClassState:
    """Hold the students at the teacher's step (on) or let them explore (off)."""
    if not isinstance(on, bool):  # locked() would read "no" as on: a damaged teacher page's request
        raise InputError(*BAD_TEACHER_LINK)
    return _as_teacher(engine, code, secret, now, lambda s: locked(s, on))


def end(engine: sa.Engine, code: str, secret: str, now: float) -> ClassState:
    """End the class: its followers see it ended; joins, answers and teacher actions are refused."""
    return _as_teacher(engine, code, secret, now, ended)


def tally(engine: sa.Engine, code: str, secret: str, options: Sequence[str]) -> Tally:
    """How the class answered the current step's question (options: its option ids, in their order).

    For the teacher only; also after the class ended or expired, until `expire` removes it."""
    wanted = _options(options)  # refused here, even where the class is not found
    view = teacher_view(engine, code, secret, lambda _state: wanted)
    assert view.tally is not None
    return view.tally


def teacher_view(
    engine: sa.Engine, code: str, secret: str, options_of: Callable[[ClassState], Sequence[str] | None] | None = None
) -> TeacherView:
    """The teacher's poll in one read: the class's state, how many students it holds, and the tally of their
    answers to the current step's question (options_of(state): its option ids, or None where the step asks
    nothing). Refused for anything but the teacher's secret; an ended or expired class is still shown (its teacher
    sees the final tally) until `expire` removes it."""
    canonical = codes.parse_code(code)
    with read(engine) as conn:
        row = _class_row(conn, canonical)
        if not codes.matches(secret, row.teacher_digest):
            raise ClassError(NOT_TEACHER)
        state = _state(row)
        students = conn.execute(
            sa.select(sa.func.count()).select_from(members).where(members.c.class_id == row.id)
        ).scalar_one()
        asked = None if options_of is None else options_of(state)
        wanted = None if asked is None else _options(asked)
        counted = [] if wanted is None else conn.execute(tally_query(row.id, row.lesson, row.step)).all()
    result = None if wanted is None else count_answers(chain.from_iterable(repeat(o, n) for o, n in counted), wanted)
    return TeacherView(state, int(students), result)


def is_member(engine: sa.Engine, code: str, token: str) -> bool:
    """Whether `token` is a seat of the class `code` (a reopened student link: keep the seat, or join anew)."""
    canonical = codes.parse_code(code)
    student = _token(token)
    with read(engine) as conn:
        row = conn.execute(sa.select(classes.c.id).where(classes.c.code == canonical)).first()
        return row is not None and _find_member(conn, row.id, student) is not None


def _upsert(dialect: str):
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert  # pylint: disable=import-outside-toplevel
    else:
        from sqlalchemy.dialects.sqlite import insert  # pylint: disable=import-outside-toplevel
    return insert


def answer(engine: sa.Engine, code: str, token: str, option: str, options: Sequence[str], now: float) -> str:
    """The student's answer to the current step's question (one of `options`), stored or changed; refused once
    the teacher has revealed it. Returns the option stored. One row per student per question, even when the
    same student's two answers arrive at once: the second replaces the first."""
    canonical = codes.parse_code(code)
    chosen = parse_answer(option, _options(options))
    student = _token(token)
    at = _time(now)
    with engine.begin() as conn:
        row = _class_row(conn, canonical, lock="share")  # a reveal waits for answers under way, not the reverse
        state = _state(row)
        _require_open(state, at)
        member = _member_id(conn, row.id, student)
        if state.revealed:
            raise ClassError(REVEALED)
        insert = _upsert(conn.dialect.name)
        stmt = insert(answers).values(
            class_id=row.id, member_id=member, lesson=state.lesson, step=state.step, option=chosen, answered_at=at
        )
        conn.execute(
            stmt.on_conflict_do_update(
                index_elements=[answers.c.class_id, answers.c.lesson, answers.c.step, answers.c.member_id],
                set_={"option": stmt.excluded.option, "answered_at": stmt.excluded.answered_at},
            )
        )
        conn.execute(members.update().where(members.c.id == member).values(last_seen=at))
    return chosen


def leave(engine: sa.Engine, code: str, token: str) -> None:
    """The student leaves the class: the token stops working (a replay is refused), the seat is free again,
    and nothing of the student stays (their answers go with them)."""
    canonical = codes.parse_code(code)
    student = _token(token)
    with engine.begin() as conn:
        row = _class_row(conn, canonical, lock="update")
        member = _member_id(conn, row.id, student)
        conn.execute(answers.delete().where(answers.c.member_id == member))
        conn.execute(members.delete().where(members.c.id == member))


def expire(engine: sa.Engine, now: float) -> int:
    """Remove every ended or expired class with its members and answers; how many classes went."""
    at = _time(now)
    with engine.begin() as conn:
        gone = (
            conn.execute(
                sa.select(classes.c.id)
                .where(sa.or_(classes.c.ended, classes.c.expires_at <= at))
                .with_for_update()  # PostgreSQL: no join or answer slips in between the deletes
            )
            .scalars()
            .all()
        )
        if not gone:
            return 0
        # Children first, by hand: the foreign keys' ON DELETE CASCADE would do it, but SQLite honours it only
        # with foreign_keys=ON, and an expiry must not depend on a connection setting.
        conn.execute(answers.delete().where(answers.c.class_id.in_(gone)))
        conn.execute(members.delete().where(members.c.class_id.in_(gone)))
        conn.execute(classes.delete().where(classes.c.id.in_(gone)))
    return len(gone)
