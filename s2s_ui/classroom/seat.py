"""This session's place in a class, kept in the session and in the link (?class=, and ?teacher= or ?seat=).

    seat = class_seat()   # app.py, before the lesson bar: the link read (a student link joins), or None

The teacher's link carries the class code and the teacher's secret; a student's, the code and, once joined, the
student's own anonymous token (?seat=), so a reloaded page or a restarted server keeps the seat and its answers.
Like presentation mode (s2s_ui/present.py), the values are read through the link's primitives when the link
changes (a bad value is named in the learner's language and ignored), kept in the session, and written back on
every run: st.navigation starts a page with an empty link, and a copied link must still be the class's.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from s2s_core.classroom import codes
from s2s_core.classroom.state import ClassError
from s2s_db import classes as repo
from s2s_ui.classroom.store import ClassroomDown, db_call, join_limiter, limits
from s2s_ui.i18n import t
from s2s_ui.link import from_link, link_raw, to_link

CLASS_KEY, TEACHER_KEY, SEAT_KEY = "class", "teacher", "seat"  # the link's parameters
_SEAT = "_class_seat"  # session: the Seat, or None
_READ = "_class_read"  # session: the link's (class, teacher, seat) as last read or written
_SESSION_ID = "_class_session"  # session: a random id the join limiter counts this session's joins under
FOLLOWING = "_class_following"  # session: a student follows the teacher (False: exploring on their own)
NOTICE = "_class_notice"  # session: (message key, params) of a refusal, shown once where the class panel is

Role = Literal["teacher", "student"]


@dataclass(frozen=True)
class Seat:
    code: str  # canonical class code
    role: Role
    secret: str  # the teacher's secret, or the student's token


def seat() -> Seat | None:
    """This session's seat (no database work: the link was read by class_seat earlier in this run)."""
    found = st.session_state.get(_SEAT)
    return found if isinstance(found, Seat) else None


def role() -> Role | None:
    found = seat()
    return found.role if found else None


def following() -> bool:
    """A student who follows the teacher's steps (a teacher, or no class: False)."""
    return role() == "student" and bool(st.session_state.get(FOLLOWING, True))


def _session_id() -> str:
    if _SESSION_ID not in st.session_state:
        st.session_state[_SESSION_ID] = secrets.token_hex(8)
    return st.session_state[_SESSION_ID]


def _linked() -> tuple[str | None, str | None, str | None]:
    return link_raw(CLASS_KEY), link_raw(TEACHER_KEY), link_raw(SEAT_KEY)


def take(found: Seat | None) -> None:
    """Keep `found` as this session's seat (None: out of the class) and write it into the link."""
    st.session_state[_SEAT] = found
    st.session_state[FOLLOWING] = True
    _write(found)


def _write(found: Seat | None) -> None:
    to_link(CLASS_KEY, found.code if found else None)
    to_link(TEACHER_KEY, found.secret if found and found.role == "teacher" else None)
    to_link(SEAT_KEY, found.secret if found and found.role == "student" else None)
    st.session_state[_READ] = _linked()


def join(code: str) -> Seat:
    """A new student seat in class `code` (rate-limited per session and per server). Raises ClassError."""
    now = time.time()
    join_limiter().check(_session_id(), now)
    token = db_call(repo.join, code, now, limits())
    return Seat(code, "student", token)


def _from_link() -> Seat | None:
    """The seat a link names: the teacher's (secret checked), a student's (kept, or joined anew), or None."""
    code = from_link(CLASS_KEY, t("classroom.field.code"), codes.parse_code)
    if code is None:
        return None
    teacher = link_raw(TEACHER_KEY)
    if teacher is not None:
        secret = from_link(TEACHER_KEY, t("classroom.field.teacher_link"), lambda raw: codes.parse_secret(raw, ""))
        if secret is None:
            return None
        db_call(repo.teacher_view, code, secret)  # ClassError unless this is the teacher's secret
        return Seat(code, "teacher", secret)
    if link_raw(SEAT_KEY) is not None:
        token = from_link(SEAT_KEY, t("classroom.field.student_link"), lambda raw: codes.parse_secret(raw, ""))
        if token is not None and db_call(repo.is_member, code, token):
            return Seat(code, "student", token)
    return join(code)  # a student link without a (valid) seat: a new seat, the old one's answers stay counted


def class_seat() -> Seat | None:
    """The session's seat after reading the link (only when it changed since this session last read it).

    A link naming a class that cannot be entered (unknown, ended, full, not the teacher's secret, the database
    down) leaves the session out of the class, with the reason kept for the panel (`NOTICE`)."""
    raw = _linked()
    if raw != st.session_state.get(_READ) and raw[0] is not None:
        st.session_state[_READ] = raw
        try:
            take(_from_link())
        except (ClassError, ClassroomDown) as err:
            st.session_state[NOTICE] = (err.key, getattr(err, "params", {}))
            take(None)
    found = seat()
    if found is not None:
        _write(found)  # a page switch started with an empty link: the class's parameters go back into it
    return found
