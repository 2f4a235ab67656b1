"""The training pool's start-up hook for app.py: kept apart from the page's modules so the router stays light."""

from __future__ import annotations

import streamlit as st

from s2s_core.training import jobs


@st.cache_resource(show_spinner=False)
def warm_up() -> int:
    """Once per server process: start the training pool and train every trainer's default settings in the
    background, so a class's first visitor finds them ready. Off in-process (AppTest, unit tests)."""
    return len(jobs.warm_defaults())
