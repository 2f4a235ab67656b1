"""Presentation mode for a projector: `?present=1` in the link (s2s_ui/style.py draws it; docs: README).

The flag is a link value like every other: read once per session from the link through the link's own
primitives (s2s_ui/link.py), checked by a `bool` field (a value it cannot read is named in a toast, in the
learner's language, and the default, off, is used), kept in the session, and written back into the link on
every run, so it survives a page switch (st.navigation starts a page with an empty link) and a copied link
opens in presentation mode too.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Field
from s2s_ui.i18n import t
from s2s_ui.link import from_link, to_link

PRESENT = Field("present", "bool", False, "ui.present.field")
_STATE = "_present"  # the session's flag, read from the link once


def presenting() -> bool:
    """Is this session in presentation mode? The first run reads ?present=; every run writes it back."""
    if _STATE not in st.session_state:
        seeded = from_link(PRESENT.key, t(PRESENT.label), PRESENT.parse)
        st.session_state[_STATE] = bool(seeded)
        if not seeded:
            to_link(PRESENT.key, None)  # off is the default, which leaves no parameter (?present=0, a bad value)
    on = bool(st.session_state[_STATE])
    if on:
        to_link(PRESENT.key, "1")  # written only when missing: a page switch starts with an empty link
    return on
