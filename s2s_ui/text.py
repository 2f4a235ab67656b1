"""User text made safe for Streamlit's markdown: the one escaping rule (never HTML, never formatting)."""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")


def md_escape(text: object) -> str:
    """User text made inert for st.markdown (no formatting, no HTML)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))
