"""The follow endpoint: a student's page asks `GET /_class/<code>` once a second, without a script run.

    server.py:  app = st.App("app.py", routes=follow_routes())   # `streamlit run server.py` (make run)

A Streamlit poll (`st.fragment(run_every=1)`) is a script run, and each one cost the student's browser about 0.05
of a core on a lesson page (docs/PERFORMANCE.md): thirty stand-in phones on one machine wanted more CPU than it
had. This route answers the same indexed read (s2s_db.classes.follow) as a few bytes of JSON, `{"version": 7}`,
and the page's poller (s2s_ui/classroom/poll.py) asks for a full run only when the version changed. The answer says
nothing the class code does not already open: the code alone can join.

Served only where the app runs as `st.App` (server.py); under a plain `streamlit run app.py` the flag below stays
False and the student's box falls back to the fragment poll, so every host still follows.
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from s2s_core.classroom.state import ClassError
from s2s_core.errors import InputError
from s2s_db import classes as repo
from s2s_ui.classroom.store import ClassroomDown, db_call

PATH = "/_class/{code}"
_served = {"route": False}  # set by follow_routes(): the server that imports server.py serves the route
_NO_STORE = {"Cache-Control": "no-store"}


def follow_routes() -> list[Route]:
    """The routes server.py gives st.App; calling it tells the pages that the route is served."""
    _served["route"] = True
    return [Route(PATH, follow_version, methods=["GET"])]


def route_served() -> bool:
    return _served["route"]


def follow_version(request: Request) -> JSONResponse:
    """The class's version (one indexed SELECT); 404 for a bad or unknown code, 410 expired, 503 database down.

    A plain function: Starlette runs it in its thread pool, so the database read never blocks the event loop."""
    try:
        state = db_call(repo.follow, request.path_params["code"], time.time())
    except InputError:
        return JSONResponse({"error": "bad_code"}, status_code=404, headers=_NO_STORE)
    except ClassError as err:
        status = 410 if err.key == repo.EXPIRED else 404
        return JSONResponse({"error": err.key}, status_code=status, headers=_NO_STORE)
    except ClassroomDown as err:
        return JSONResponse({"error": err.key}, status_code=503, headers=_NO_STORE)
    return JSONResponse({"version": state.version}, headers=_NO_STORE)
