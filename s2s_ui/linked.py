"""Choice widgets whose shareable link holds the raw option, never its displayed label.

Why not `bind="query-params"`: Streamlit 1.67 writes a bound choice widget's *formatted label* into the
link. Our labels are translated ("raw scores" / "원점수") or are the learner's own words, so a link made
in Korean would not open in English. `linked()` seeds the widget once per session from ?key=<raw option>
(comma-separated for a multiselect), draws it unbound, and mirrors the raw value back into the link.
A link value that is not one of the options falls back to the default and is named in the URL notice.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import streamlit as st

from s2s_core import caps

REJECTED = "_url_rejected_choices"  # session key: link parameters a choice widget could not use
LINKED = "_linked_choice_keys"  # session key: the keys managed here (urlstate skips them)


def linked(
    widget: Callable[..., Any],
    label: str,
    options: Sequence[Hashable],
    *,
    key: str,
    default: Any,
    labels: dict[Any, str] | None = None,
    parse: Callable[[str], Any] = str,
    **kwargs: Any,
) -> Any:
    """Draw `widget` (st.selectbox, st.segmented_control, st.radio, st.multiselect, or a column's method).

    default: one option, or a list of options for a multiselect. labels: option -> displayed text (a
    plain dict, so AppTest and the browser see the same label). parse turns one raw link text into an
    option (int for step numbers).
    """
    multi = isinstance(default, list)
    options = list(options)
    st.session_state.setdefault(LINKED, set()).add(key)
    _seed(key, options, default, parse, multi)
    if key in st.session_state and not _valid(st.session_state[key], options, multi):
        # The options changed under a kept value (e.g. a shorter sentence has fewer steps): keep what is
        # still an option in a multiselect, fall back to the default otherwise.
        kept = st.session_state[key]
        st.session_state[key] = [v for v in kept if v in options] if multi and isinstance(kept, list) else default
    format_func = labels.get if labels is not None else str
    value = widget(label, options, key=key, format_func=format_func, **kwargs)
    _mirror(key, value, default)
    return value


def _valid(value: Any, options: list, multi: bool) -> bool:
    if multi:
        return isinstance(value, list) and all(v in options for v in value)
    return value is None or value in options


def _seed(key: str, options: list, default: Any, parse: Callable[[str], Any], multi: bool) -> None:
    """Once per session: the link's raw option(s), else the default."""
    if key in st.session_state:
        return
    raw = st.query_params.get(key)
    if raw is None:
        st.session_state[key] = default
        return
    if multi:
        # Keep every part that is an option ("2,3,9,x" with steps 1-4 keeps [2, 3]); name the link if any was not.
        parts = list(dict.fromkeys(p.strip() for p in raw.split(",")[: caps.MAX_SEQ_LEN] if p.strip() != ""))
        value = list(dict.fromkeys(v for v in map(_parse_or_none(parse), parts) if v is not None and v in options))
        if len(value) < len(parts):
            st.session_state.setdefault(REJECTED, []).append(key)
    else:
        value = _parse_or_none(parse)(raw.strip())
        if value is None or value not in options:
            st.session_state.setdefault(REJECTED, []).append(key)
            value = default
    st.session_state[key] = value


def _parse_or_none(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def safe(text: str) -> Any:
        try:
            return parse(text)
        except (TypeError, ValueError):
            return None
    return safe


def _mirror(key: str, value: Any, default: Any) -> None:
    """The raw value into the link; the default (or nothing chosen) leaves no parameter, as Streamlit does."""
    if value is None or value == [] or value == default:
        st.query_params.pop(key, None)
    elif isinstance(value, list):
        st.query_params[key] = ",".join(map(str, value))
    else:
        st.query_params[key] = str(value)


def take_rejected() -> list[str]:
    """The choice parameters rejected since the last call (for the URL notice)."""
    return st.session_state.pop(REJECTED, [])


def linked_keys() -> set[str]:
    return set(st.session_state.get(LINKED, set()))
