"""A learner's own weights on the RNN, LSTM and GRU pages: the uploader in the controls column.

The file is read and checked by the core (s2s_core/own_weights.load_weights: torch.load with weights_only=True,
caps, keys, shapes, finite values) and kept in this session only: never written to disk, never in the link (a
shared link opens on the seeded weights). The server refuses a body over server.maxUploadSize (8 MB,
.streamlit/config.toml) before any of this runs.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.own_weights import KINDS, MAX_FILE_BYTES, OwnWeights, load_weights
from s2s_ui.i18n import t
from s2s_ui.text import md_escape
from s2s_ui.uploads import read_once
from s2s_ui.widgets import show_error

MAX_MB = MAX_FILE_BYTES // (1024 * 1024)  # the uploader's own limit, in Streamlit's unit


def uploader_key(ns: str) -> str:
    """The uploader's session key: not a field of the page (a file cannot travel in a link). Streamlit cannot
    clear an uploader by its value, so forgetting the file gives the widget a new key (a new generation)."""
    return f"{ns}_own_file_{st.session_state.get(_generation(ns), 0)}"


def _generation(ns: str) -> str:
    return f"_own_gen__{ns}"


def _memo(ns: str) -> str:
    return f"_own_read__{ns}"


def forget(ns: str) -> None:
    """Drop the page's uploaded weights (Reset, a prepared case, a lesson step or the class move the page to a
    state of its own fields: s2s_ui/state.Page.forget)."""
    st.session_state[_generation(ns)] = st.session_state.get(_generation(ns), 0) + 1
    st.session_state.pop(_memo(ns), None)


def in_use(ns: str) -> bool:
    """Does page `ns` run on the learner's own weights (a file that passed is in its uploader)? A lesson step's
    sentences are about the page's own weights, so the lesson bar counts this as having left the step."""
    file = st.session_state.get(uploader_key(ns))  # the lesson bar runs before the page draws the uploader
    return file is not None and ns in KINDS and _checked(ns, ns, file).ok


def _checked(ns: str, kind: str, file: Any) -> Parsed[OwnWeights]:
    return read_once(_memo(ns), file, lambda raw: load_weights(raw, kind))


def read_own(ns: str, kind: str) -> OwnWeights | None:
    """The folded uploader; the learner's checked weights, or None (no file, or a bad one: its message is shown
    here and the page goes on with its seeded weights)."""
    with st.expander(t("own.heading"), icon=":material/upload_file:"):
        st.caption(t(f"own.how_{kind}"))
        file = st.file_uploader(
            t("own.label"),
            type=["pt", "pth"],
            key=uploader_key(ns),
            max_upload_size=MAX_MB,
            help=t("own.help", mb=MAX_MB),
        )
        if file is None:
            return None
        parsed = _checked(ns, kind, file)
        if parsed.error is not None:
            show_error(parsed.error)
            st.caption(t("own.seeded_meanwhile"))
            return None
        own = parsed.value
        st.success(t("own.loaded", name=md_escape(file.name), E=own.E, H=own.H), icon=":material/check_circle:")
        return own
