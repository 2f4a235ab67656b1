"""The server's classroom resources, made once per process: the database (migrated), the caps, the join limiter.

Every session's thread shares them (`st.cache_resource`): one engine and its pool per server, one join limiter
counting every session's joins. A database or a setting that cannot be used is a ClassroomDown with the message's
key, shown where the class would be (never a traceback); the rest of the app keeps working without classes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa
import streamlit as st

from s2s_core.classroom.limits import Limits, limits_from_env
from s2s_core.classroom.ratelimit import JoinLimiter
from s2s_core.errors import InputError
from s2s_db.migrate import ready
from s2s_db.settings import DatabaseUrlError, database_url

log = logging.getLogger(__name__)
T = TypeVar("T")


class ClassroomDown(Exception):
    """The classroom cannot run on this server (its database or a setting); `.key` is the message's catalog key."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(key)


@st.cache_resource(show_spinner=False)
def _limits() -> Limits | InputError:
    try:
        return limits_from_env(os.environ)
    except InputError as err:
        return err


def limits() -> Limits:
    """The caps from the environment (README "Settings"); a bad value is named by its variable."""
    found = _limits()
    if isinstance(found, InputError):
        raise ClassroomDown(found.key, **found.params, field_key=found.field)
    return found


def database() -> sa.Engine:
    """The classroom's database, migrated; ClassroomDown when $S2S_DATABASE_URL is unusable or unreachable.

    A failure is not cached: the next request tries again (a database that was restarting answers later)."""
    try:
        return ready(database_url())  # migrated once per server process; the environment decides, read every call
    except DatabaseUrlError:
        raise ClassroomDown("classroom.ui.db_bad_url") from None
    except sa.exc.SQLAlchemyError as error:
        log.warning("classroom database unreachable: %s", error)
        raise ClassroomDown("classroom.ui.db_down") from None


def db_call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """fn(the database, *args, **kwargs) for a page or the follow route. A database that stops answering after it
    was first reached (restarted, its network gone) is a ClassroomDown as well, never a traceback: the caller
    names it in the learner's language, and the next run or poll tries again (the pool pings a connection first)."""
    eng = database()
    try:
        return fn(eng, *args, **kwargs)
    except sa.exc.SQLAlchemyError as error:
        log.warning("classroom database call %s failed: %s", getattr(fn, "__name__", fn), str(error).splitlines()[0])
        raise ClassroomDown("classroom.ui.db_down") from None


@st.cache_resource(show_spinner=False)
def join_limiter() -> JoinLimiter:
    """Joins per session and per server (s2s_core/classroom/ratelimit.py): one limiter for the whole server."""
    return JoinLimiter(limits())
