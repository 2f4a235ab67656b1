"""Make sure every page runs inside app.py's router, even on a fresh server's first deep link."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def ensure_router() -> None:
    """Rerun through app.py if Streamlit ran this page file on its own.

    Why: a folder named pages/ makes a fresh Streamlit server start in its old "pages directory" mode,
    so the first visitor of a deep link such as /attention would get the bare page (no language from
    the URL, no grouped navigation) until some session runs app.py, whose st.navigation() switches
    the mode off. Switching it off here and rerunning sends that first visitor through app.py too.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
