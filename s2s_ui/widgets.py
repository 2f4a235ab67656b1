"""Shared page pieces: table input, error message, PyTorch check badge, code expander, quiz, notes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import PurePath
from typing import Any

import pandas as pd
import streamlit as st

from s2s_core.catalog import translate
from s2s_core.errors import InputError
from s2s_core.fmt import sci
from s2s_core.notebook import notebook
from s2s_core.validate import decode_table
from s2s_ui.frame import ensure_router
from s2s_ui.i18n import error_text, lang, t
from s2s_ui.link import from_link, to_link
from s2s_ui.text import md_escape

SHOWN = "_errors_shown"  # the messages this script run has shown (app.py empties it as each run starts)


def new_run() -> None:
    """app.py, first thing in every run: no message has been shown yet."""
    st.session_state[SHOWN] = set()


def show_error(err: InputError) -> None:
    """A bad input as a clear message in the learner's language; never a traceback.

    Each message appears once per run: where the picture is (s2s_ui/kept.py). A section further down that
    needs the same input (the question, a tab) says only that it waits for it.
    """
    seen = st.session_state.setdefault(SHOWN, set())
    mark = (err.key, err.field, repr(sorted(err.params.items(), key=lambda kv: kv[0])))
    if mark in seen:
        st.caption(t("ui.error_above"))
        return
    seen.add(mark)
    # Only text can carry markup; numbers stay numbers so templates like {limit:g} still format.
    safe = InputError(
        err.key, err.field, **{k: md_escape(v) if isinstance(v, str) else v for k, v in err.params.items()}
    )
    st.error(error_text(safe), icon=":material/error:")


def guarded(fn: Callable[[], Any]) -> Any | None:
    """Run one section of a page; an InputError becomes a message and the rest of the page goes on."""
    try:
        return fn()
    except InputError as err:
        show_error(err)
        return None


# --- tables ---------------------------------------------------------------------------------------


def _encode_rows(rows: Sequence[Sequence[Any]]) -> str:
    """Rows -> "2,0;0,4;6,2" for the URL (cell separators removed from cell text)."""

    def cell(v: Any) -> str:
        return "" if v is None else re.sub(r"[,;]", " ", str(v)).strip()

    return ";".join(",".join(cell(v) for v in row) for row in rows)


def _text_rows(rows: Sequence[Sequence[float | str]]) -> list[list[str]]:
    return [[v if isinstance(v, str) else f"{v:g}" for v in row] for row in rows]


def matrix_input(
    key: str,
    default: Sequence[Sequence[float | str]],
    field: str,
    *,
    col_names: Sequence[str] | None = None,
    parse: Callable[[list[list[Any]]], Any],
    dynamic_rows: bool = True,
    label: str | None = None,
    n_cols: int | None = None,
    fill: str = "0",
) -> Any | None:
    """An editable table of text cells, seeded from and mirrored into ?key= in the URL (s2s_ui/link.py).

    parse(rows) is the core's validator (e.g. validate.parse_matrix); a bad cell is reported by row and
    column in the learner's language and None is returned, so the caller skips only what depends on it.
    """
    base_key = f"{key}__base"
    if base_key not in st.session_state:
        rows = from_link(key, label or t(field), decode_table) or _text_rows(default)
        width = max(len(r) for r in rows)
        names = list(col_names) if col_names and len(col_names) == width else [f"{i + 1}" for i in range(width)]
        st.session_state[base_key] = pd.DataFrame(rows, columns=names, dtype=object)
    last_key = f"{key}__last"
    if n_cols is not None and st.session_state[base_key].shape[1] != n_cols:
        # The learner changed a size that fixes this table's width: keep what was typed, pad or trim.
        rows = st.session_state.get(last_key) or st.session_state[base_key].values.tolist()
        rows = [[*(list(r)[:n_cols]), *([fill] * max(0, n_cols - len(r)))] for r in rows]
        names = list(col_names) if col_names and len(col_names) == n_cols else [f"{i + 1}" for i in range(n_cols)]
        st.session_state[base_key] = pd.DataFrame(rows, columns=names, dtype=object)
        st.session_state.pop(key, None)
    base: pd.DataFrame = st.session_state[base_key]
    if label:
        st.markdown(f"**{label}**")
    edited = st.data_editor(
        base,
        key=key,
        num_rows="dynamic" if dynamic_rows else "fixed",
        hide_index=True,
        column_config={c: st.column_config.TextColumn(c) for c in base.columns},
        width="stretch",
    )
    rows = [[None if pd.isna(v) else v for v in row] for row in edited.astype(object).values.tolist()]
    st.session_state[last_key] = rows
    text = _encode_rows(rows)
    to_link(key, None if text == _encode_rows(_text_rows(default)) else text)  # the default leaves no parameter
    try:
        return parse(rows)
    except InputError as err:
        show_error(err)
        return None


# --- checks, code, quiz, notes ----------------------------------------------------------------------


def check_badge(what: str, max_abs_diff: float, *, tol: float = 1e-5) -> None:
    """The hand computation vs PyTorch's own result: max |difference| and pass/fail."""
    if max_abs_diff <= tol:
        st.success(
            t("ui.check_pass", what=what, diff=sci(max_abs_diff), tol=f"{tol:.0e}"), icon=":material/check_circle:"
        )
    else:
        st.error(t("ui.check_fail", what=what, diff=sci(max_abs_diff), tol=f"{tol:.0e}"), icon=":material/cancel:")


@st.cache_data(max_entries=128, show_spinner=False)
def notebook_text(script: str, language: str) -> str:
    """The page's script as a Jupyter notebook in `language` (s2s_core/notebook.py)."""
    return notebook(script, partial(translate, language))


def code_expander(script: str, *, file_name: str = "example.py") -> None:
    """The PyTorch code for exactly this view: runnable, with the learner's current numbers; as a .py file and as
    a notebook cut from the same text at its `# %%` markers (s2s_core/notebook.py), so the two hold the same code.

    The notebook's text is built in the run (about 5 ms, cached by script and language), not by a callable `data`
    on the click: Streamlit's deferred download sometimes never delivered the file (a clean-clone CI run and a
    local run both waited 180 s for it after the training tests), where the .py's plain data always arrived.
    """
    language = lang()
    with st.expander(t("ui.code_title"), icon=":material/code:"):
        st.caption(t("ui.code_caption"))
        st.code(script, language="python")
        with st.container(horizontal=True, gap="small"):
            st.download_button(
                t("ui.code_download"),
                script,
                file_name=file_name,
                mime="text/x-python",
                icon=":material/code:",
                on_click="ignore",  # nothing on the page changes: no rerun to race the learner's next click
            )
            st.download_button(
                t("ui.notebook.download"),
                notebook_text(script, language),
                file_name=str(PurePath(file_name).with_suffix(".ipynb")),
                mime="application/x-ipynb+json",
                help=t("ui.notebook.download_help"),
                icon=":material/description:",
                on_click="ignore",  # nothing on the page changes: no rerun
            )


def notice_list(keys: Sequence[str], **fmt: object) -> None:
    """A short 'what to notice' list from catalog keys ("<ns>.…"), then the page's tour, which shows the same
    things on the picture one at a time (the tour is the page's first guidance; this list is its summary)."""
    from s2s_ui.lessons.bar import tour_button  # here, not at the top: the lesson bar imports state, which imports us

    st.markdown(f"#### {t('ui.notice_title')}")
    st.markdown("\n".join(f"- {t(k, **fmt)}" for k in keys))
    if keys:
        tour_button(keys[0].split(".", 1)[0], "tour_start_notice", lead=t("lesson.tour_notice"))


def revealed(key: str) -> bool:
    """Has the learner answered the question `key` (or asked to be shown)? Until then, a page draws nothing
    that states its answer: no notice, bullet, info box or chart annotation."""
    return st.session_state.get(key) is not None or bool(st.session_state.get(f"{key}__shown"))


def predict_then_reveal(key: str, question: str, options: Sequence[str], correct: str, explanation: str) -> bool:
    """Ask first, then grade against the live computation and explain. Returns whether the answer is out.

    "Show me" reveals without answering. The page calls `revealed(key)` before drawing anything that
    would give the answer away, so the question is the only place the answer can be found until then.
    """
    with st.container(border=True):
        st.markdown(f"**{t('ui.quiz_title')}** — {question}")
        answer = st.radio(question, options, index=None, key=key, label_visibility="collapsed", horizontal=True)
        if answer is None:
            if not st.session_state.get(f"{key}__shown"):
                st.caption(t("ui.quiz_hint"))
                if st.button(t("ui.quiz_show"), key=f"{key}__show", type="tertiary"):
                    st.session_state[f"{key}__shown"] = True
                    st.rerun()
                return False
            st.info(t("ui.quiz_shown", correct=md_escape(correct)), icon=":material/visibility:")
        elif answer == correct:
            st.success(t("ui.quiz_right", answer=md_escape(correct)), icon=":material/target:")
        else:
            st.warning(
                t("ui.quiz_wrong", answer=md_escape(answer), correct=md_escape(correct)), icon=":material/search:"
            )
        st.markdown(explanation)
    return True


def page_header(ns: str) -> None:
    """Title and one-line intro from the page's catalog namespace (every page starts with this)."""
    ensure_router()
    st.title(t(f"{ns}.title"))
    st.caption(t(f"{ns}.intro"))
