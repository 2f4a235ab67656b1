"""An uploaded file read once: the core's parse of its bytes kept in the session by the upload's id, so a rerun
does not unpickle or parse it again (the own-weights uploader, the Translation lab's model files)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from s2s_core.fields import Parsed

T = TypeVar("T")


def read_once(memo: str, file: Any, parse: Callable[[bytes], T]) -> Parsed[T]:
    """parse(file's bytes) as a Parsed (an InputError kept as its error), computed once per upload and kept under
    the session key `memo` (one upload per key: a new file replaces the old one's result)."""
    kept = st.session_state.get(memo)
    if kept is not None and kept[0] == file.file_id:
        return kept[1]
    parsed = Parsed.of(lambda: parse(file.getvalue()))
    st.session_state[memo] = (file.file_id, parsed)
    return parsed
