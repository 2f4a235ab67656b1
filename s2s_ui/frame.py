"""Make sure every page runs inside app.py's router, even on a fresh server's first deep link.

Why this is needed: a folder named pages/ makes a fresh Streamlit server (and every AppTest run) start
in its old "pages directory" mode, in which a deep link such as /attention runs pages/attention.py on
its own: no language from the URL, no grouped navigation. app.py's st.navigation() switches that mode
off for the whole server, but only once some run has gone through app.py.

The fix: app.py marks the runs it routes (`routing()`); a page that starts without that mark runs
app.py's router in place, in the same script run, and then stops its own outer run. No rerun is
needed, so nothing the visitor did in that run (a button click) is lost, under AppTest or a browser.
"""

from __future__ import annotations

import runpy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

APP = Path(__file__).resolve().parent.parent / "app.py"
_local = threading.local()  # one script run per thread: the mark never leaks to another session


@contextmanager
def routing() -> Iterator[None]:
    """app.py wraps st.navigation(...).run() in this: pages run inside it are routed."""
    _local.routed = True
    try:
        yield
    finally:
        _local.routed = False


def ensure_router() -> None:
    """Called first by every page: outside app.py's router, run the router here and end this outer run."""
    if getattr(_local, "routed", False):
        return
    runpy.run_path(str(APP), run_name="__main__")  # its st.navigation() runs this same page, routed
    st.stop()  # the page has been drawn by the router above; don't draw it a second time
