"""The follow endpoint: a student's page asks `GET /_class/<code>?v=<version>` and hears of the teacher's move at
once, without a script run.

    server.py:  app = st.App("app.py", routes=follow_routes())   # `streamlit run server.py` (make run)

A Streamlit poll (`st.fragment(run_every=1)`) is a script run, and each one cost the student's browser about 0.05
of a core on a lesson page (docs/PERFORMANCE.md): thirty stand-in phones on one machine wanted more CPU than it
had. This route answers the same indexed read (s2s_db.classes.follow) as a few bytes of JSON, `{"version": 7}`,
and the page's poller (s2s_ui/classroom/poll.py) asks for a full run only when the version changed.

A request that names the version its page shows (`?v=7`) is held while the class stays at that version, for at
most HOLD_S, and answered as soon as it changes (a long poll). While anyone waits on a class, this process reads
its version once every WATCH_S, one read per class however many students wait, and wakes them all together: the
class hears of a move within WATCH_S instead of within a poll's second, and thirty students cost 5 reads a
second instead of 30. The page asks again no sooner than a second after its last request began (at most once a
second per student); a request without `v` (or with junk there) is answered at once, as before. The answer says
nothing the class code does not already open: the code alone can join.

Served only where the app runs as `st.App` (server.py); under a plain `streamlit run app.py` the flag below stays
False and the student's box falls back to the fragment poll, so every host still follows.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from s2s_core.classroom import codes
from s2s_core.classroom.state import ClassError
from s2s_core.errors import InputError
from s2s_db import classes as repo
from s2s_ui.classroom.store import ClassroomDown, db_call

PATH = "/_class/{code}"
HOLD_S = 10.0  # a held request answers the unchanged version after this long (well inside any proxy's timeout)
WATCH_S = 0.2  # while anyone waits on a class, its version is read this often (one read for all who wait)
_MAX_VERSION_CHARS = 12  # `v` from a URL: a version is a small counter; anything longer is not one
_served = {"route": False}  # set by follow_routes(): the server that imports server.py serves the route
_NO_STORE = {"Cache-Control": "no-store"}

Answer = tuple[int, dict]  # (HTTP status, JSON body)


def follow_routes() -> list[Route]:
    """The routes server.py gives st.App; calling it tells the pages that the route is served."""
    _served["route"] = True
    return [Route(PATH, follow_version, methods=["GET"])]


def route_served() -> bool:
    return _served["route"]


def read_version(code: str) -> Answer:
    """The class's version now (one indexed SELECT); 404 for a bad or unknown code, 410 expired, 503 database down.
    Blocking: called in Starlette's thread pool, never on the event loop."""
    try:
        state = db_call(repo.follow, code, time.time())
    except InputError:
        return 404, {"error": "bad_code"}
    except ClassError as err:
        return (410 if err.key == repo.EXPIRED else 404), {"error": err.key}
    except ClassroomDown as err:
        return 503, {"error": err.key}
    return 200, {"version": state.version}


def shown_version(raw: str | None) -> int | None:
    """The `v` a page sent: the version it shows, or None (absent or not a small whole number: answer at once)."""
    if raw is None or not 0 < len(raw) <= _MAX_VERSION_CHARS or not raw.isascii() or not raw.isdigit():
        return None
    return int(raw)


async def follow_version(request: Request) -> JSONResponse:
    """GET /_class/<code>[?v=<version>]: the class's version, held while it is still `v` (at most HOLD_S)."""
    code = request.path_params["code"]
    since = shown_version(request.query_params.get("v"))
    status, body = await run_in_threadpool(read_version, code)
    if since is not None and (status, body) == (200, {"version": since}):
        status, body = await _changed(codes.parse_code(code), (status, body))
    return JSONResponse(body, status_code=status, headers=_NO_STORE)


# --- the watches: one per class someone waits on, in this process -----------------------------------------------


@dataclass
class _Watch:
    seen: Answer  # the class's answer as last read
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set (and replaced) when `seen` changes
    waiting: int = 0  # requests held on this class now


_watches: dict[str, _Watch] = {}
_tasks: set[asyncio.Task] = set()  # the watch loops running (a task nobody references can be collected)


async def _changed(code: str, shown: Answer) -> Answer:
    """Wait until the class's answer differs from `shown` (at most HOLD_S) and return the answer then."""
    watch = _watches.get(code)
    if watch is None:
        watch = _watches[code] = _Watch(shown)
        task = asyncio.get_running_loop().create_task(_watch_loop(code, watch))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)
    elif _newer(shown, watch.seen):  # this request read the class after the watch did: everyone waiting hears of it
        _publish(watch, shown)
    watch.waiting += 1
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_until_other(watch, shown), HOLD_S)
        return watch.seen
    finally:
        watch.waiting -= 1


async def _until_other(watch: _Watch, shown: Answer) -> None:
    while watch.seen == shown:
        await watch.changed.wait()


def _newer(fresh: Answer, seen: Answer) -> bool:
    """Is `fresh` news beside the watch's `seen`? Two reads in flight can finish out of order: a version only grows,
    so a smaller one is a late read, not news; any other difference (a refusal, or an answer after one) is."""
    if fresh[0] == seen[0] == 200:
        return fresh[1]["version"] > seen[1]["version"]
    return fresh != seen


def _publish(watch: _Watch, seen: Answer) -> None:
    watch.seen = seen
    woken, watch.changed = watch.changed, asyncio.Event()
    woken.set()


async def _watch_loop(code: str, watch: _Watch) -> None:
    """Read the class's version every WATCH_S while anyone waits on it; wake them all when it changed."""
    try:
        while watch.waiting > 0:
            await asyncio.sleep(WATCH_S)
            seen = await run_in_threadpool(read_version, code)
            if _newer(seen, watch.seen):
                _publish(watch, seen)
    finally:  # nobody waits (or the loop stopped): the next request starts a watch of its own
        if _watches.get(code) is watch:
            del _watches[code]
