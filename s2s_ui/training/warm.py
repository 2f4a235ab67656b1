"""The server's start-up hook for app.py: the training pool, the default models, and a settled heap.

Kept apart from the page's modules so the router stays light.
"""

from __future__ import annotations

import gc
import threading

import streamlit as st

from s2s_jobs import jobs
from s2s_jobs.trainer import load_unpack_modules


@st.cache_resource(show_spinner=False)
def warm_up() -> int:
    """Once per server process: start the training pool, then load every default model from the model store or
    train it in the background (to its step count), so a class's first visitor finds them ready (off in-process:
    AppTest, unit tests); then settle the heap. Returns how many default models there are."""
    warm = jobs.warm_defaults()
    threading.Thread(target=settle_heap, name="settle-heap", daemon=True).start()
    return len(warm)


def settle_heap() -> None:
    """Move the server's long-lived objects out of the garbage collector's sight, once.

    Streamlit collects garbage after every script run (runner.postScriptGC), and every poll of a training's
    progress is a script run. With torch, its lazily imported modules (building the first model pulls in more),
    pandas and Altair loaded, one full collection took ~170 ms on this 2-core machine:
    three visitors watching their trainings kept the server's interpreter half busy with it. After gc.freeze()
    the collections only look at objects made since. Those grow as pages are visited (each page's modules, the
    shared caches): with a class of five following a teacher, one collection still took ~11 ms, 41 % of the
    server's CPU, so .streamlit/config.toml now turns runner.postScriptGC off. The freeze still keeps the
    interpreter's own, threshold-driven full collections small.
    """
    import altair  # noqa: F401  (every page draws with them: imported now, they are frozen with the rest)
    import pandas  # noqa: F401

    load_unpack_modules()  # torch's lazy modules, as unpack() needs them
    gc.collect()
    gc.freeze()
