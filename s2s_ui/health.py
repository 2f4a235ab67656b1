"""GET /_s2s/health on `streamlit run server.py`: 200 when this replica's database and training pool are
reachable, else 503, with what was checked (s2s_jobs/health.py) as JSON; never cached."""

from __future__ import annotations

from dataclasses import asdict

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from s2s_jobs import health

PATH = "/_s2s/health"


def health_check(request: Request) -> JSONResponse:
    """A plain function: Starlette runs it in its thread pool, so the database's answer never blocks the loop."""
    found = health.check()
    body = {"healthy": found.healthy, **asdict(found)}
    return JSONResponse(body, status_code=200 if found.healthy else 503, headers={"Cache-Control": "no-store"})


def health_routes() -> list[Route]:
    return [Route(PATH, health_check, methods=["GET"])]
