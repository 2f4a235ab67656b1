"""Helpers of the replica tests (scripts/replicas.py, deploy/nginx.conf): nginx required or skipped loudly, a browser
context pinned to one replica by nginx's affinity cookie, and a replica killed as a machine dies (every process).

nginx is Debian's package (`.ci/run` installs it); without it these tests skip loudly, and with REQUIRE_NGINX=1
(as in `.ci/run`) they fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import urllib.error
import urllib.request
import warnings
from pathlib import Path

import pytest

from scripts.replicas import nginx_missing_reason

COOKIE = "s2s_replica"  # deploy/nginx.conf: the affinity cookie nginx sets and hashes


class NginxSkipped(UserWarning):
    """Shown in pytest's warnings summary: the replica tests did not run."""


def require_nginx() -> None:
    reason = nginx_missing_reason()
    if reason is not None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail(f"REQUIRE_NGINX=1 but {reason}")
        warnings.warn(NginxSkipped(f"replica tests skipped: {reason}"), stacklevel=2)
        pytest.skip(reason)


def replica_of(top, cookie: str) -> str:
    """Which replica (its address, from nginx's X-S2S-Replica header) a visitor with this affinity cookie reaches."""
    request = urllib.request.Request(f"{top.url}/_stcore/health", headers={"Cookie": f"{COOKIE}={cookie}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["X-S2S-Replica"]


def health_of(top, k: int) -> tuple[int, dict]:
    """Replica k's own health route (s2s_ui/health.py), asked directly, not through nginx: its status and body."""
    url = f"http://127.0.0.1:{top.replica_ports[k]}/_s2s/health"
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:  # 503: unhealthy, with the same body
        return error.code, json.loads(error.read())


def pinned_context(browser, top, k: int, **options):
    """A browser context whose affinity cookie sends it to replica k, and the set of replicas that answered it."""
    want = f"127.0.0.1:{top.replica_ports[k]}"
    cookie = next(f"visitor-{i}" for i in range(1000) if replica_of(top, f"visitor-{i}") == want)
    context = browser.new_context(**options)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": top.url}])
    answered: set[str] = set()
    # every response through nginx names its replica (a websocket's upgrade is not a response Playwright reports)
    context.on("response", lambda r: r.url.startswith(top.url) and answered.add(r.headers.get("x-s2s-replica", "?")))
    return context, answered


def descendants(pid: int) -> list[int]:
    """Every process below pid (its training pool's forkserver and workers), read from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we read
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def kill_machine(proc) -> None:
    """SIGKILL a replica and every process below it at once, as a machine that loses power: nothing runs a
    handler, nothing hands its claims back."""
    for pid in [proc.pid, *descendants(proc.pid)]:
        with contextlib.suppress(ProcessLookupError):  # ended on its own already
            os.kill(pid, signal.SIGKILL)
    proc.wait(timeout=30)
