"""Shareable links: the one way a widget's value lives in the URL (?key=raw value).

Every input whose value belongs in a copied link is a field (s2s_core/fields.py) drawn through
`field_input()` by its page's registry (s2s_ui/state.Page.input; tables through `matrix_input`, which uses
`from_link`/`to_link` below). It:

1. seeds the widget once per session from the link, checking the raw text with the core's own
   validators (`s2s_core.validate`) against the widget's own range or options; a value that fails is
   named at that moment in a toast, in the learner's language, with the reason, and the default is used;
2. drops a kept value that is no longer valid (a shorter sentence has fewer steps, a removed row):
   numbers are clamped into the new range, a choice falls back to the default, a multiselect keeps
   the options that still exist;
3. draws the widget unbound and mirrors its raw value back into the link (the default leaves no
   parameter, so links stay short);
4. a number field takes whatever the learner types: its range is checked here with the same validators,
   not by the widget (which refuses silently, in English, with "Press Enter to apply" left over the
   digits). A value outside the range, or no finite number at all, gets a line right under the field in
   the learner's language naming the field and the range, and the page goes on with the clamped (or last
   valid) value; the field keeps what was typed, the link only a valid value.

Why not Streamlit's `bind="query-params"`: it writes a choice widget's translated label into the
link (a Korean link would not open in English), drops a bad value without a word, and raises on
`int(inf)` inside the widget. Here only public Streamlit APIs are used (st.query_params,
st.session_state, st.toast).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import streamlit as st

from s2s_core import caps, fmt
from s2s_core.errors import InputError
from s2s_core.fields import MAX_RAW_CHARS, Field, same, to_raw
from s2s_core.validate import check_float, check_int
from s2s_ui.i18n import t
from s2s_ui.text import md_escape

T = TypeVar("T")
KEYS = "_link_keys"  # session key: every URL parameter read through this module (tests tamper with each)


# --- the two primitives: read a checked value from the link, write a raw value into it ------------------


def from_link(key: str, label: str, parse: Callable[[str], T]) -> T | None:
    """The link's ?key= parsed by `parse` (which raises InputError or ValueError); None when absent or bad.

    A bad value is reported now, naming the field by its visible label, with the core's reason.
    """
    st.session_state.setdefault(KEYS, set()).add(key)
    raw = st.query_params.get(key)
    if raw is None:
        return None
    try:
        if len(raw) > MAX_RAW_CHARS:
            raise InputError("errors.text_too_long", "", count=len(raw), limit=MAX_RAW_CHARS)
        return parse(raw)
    except InputError as err:
        report(key, label, err)
    except (TypeError, ValueError, OverflowError):
        report(key, label, None)
    return None


def link_raw(key: str) -> str | None:
    """The link's raw ?key= text, unchecked (to notice that a link changed; read values with `from_link`)."""
    return st.query_params.get(key)


def to_link(key: str, text: str | None) -> None:
    """Write the raw text into ?key= (None removes the parameter). Unchanged values are not rewritten."""
    if text is None:
        st.query_params.pop(key, None)
    elif st.query_params.get(key) != text:
        st.query_params[key] = text


def report(key: str, label: str, err: InputError | None, *, message: str = "ui.url_rejected") -> None:
    """One toast: which field of the link could not be used, and why (all text escaped: a link is hostile)."""
    if err is None:
        reason = t("ui.url_unreadable", field=md_escape(label))
    else:
        params = {k: md_escape(v) if isinstance(v, str) else v for k, v in err.params.items()}
        reason = t(err.key, **{**params, "field": md_escape(label)})
    st.toast(t(message, param=md_escape(key[:40]), reason=reason), icon=":material/link_off:")


# --- field_input(): the linked widget of one field spec (s2s_core/fields.py) --------------------------------


def field_input(
    field: Field,
    widget: Callable[..., Any],
    label: str,
    *,
    lang: str,
    key: str | None = None,
    options: Sequence[Hashable] | None = None,
    labels: dict[Any, str] | None = None,
    lo: float | None = None,
    hi: float | None = None,
    decode: Callable[[str], Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Draw `widget` for `field`, seeded from and mirrored into ?key= (the field's key, or a family member's).

    widget: st.number_input, st.slider, st.text_input, st.text_area, st.toggle, st.checkbox (no options),
    or st.selectbox, st.segmented_control, st.radio, st.pills, st.multiselect (with options), or a column's
    method. options/lo/hi narrow the field's own (the steps of this sentence); labels: option -> shown text.
    """
    key = key or field.key
    default = field.default_for(lang)
    choices = list(options) if options is not None else (list(field.options) if field.options else None)
    low, high = _limits(field, lo, hi)
    limits = {k: v for k, v in (("min_value", low), ("max_value", high)) if v is not None}
    if field.kind == "text":
        kwargs.setdefault("max_chars", field.max_chars)
    if key not in st.session_state:
        seeded = _seed(field, key, label, choices, low, high, decode)
        st.session_state[key] = default if seeded is None else seeded
    elif field.by_lang and field.is_lang_default(st.session_state[key]) and key not in st.query_params:
        # Another language's untouched default (no link names it): the learner switched language.
        st.session_state[key] = default
    if _is_number_input(widget) and field.kind in ("int", "float"):
        return _number_field(widget, label, key=key, default=default, kind=field.kind, kwargs={**kwargs, **limits})
    kept = st.session_state[key]
    valid = _still_valid(kept, field.kind, default, choices, limits)
    if valid is not kept and valid != kept:  # write only a real change: a write re-sends the widget's value
        st.session_state[key] = valid
    if choices is None:
        value = widget(label, key=key, **{**kwargs, **limits})
    else:
        format_func = labels.get if labels is not None else str
        value = widget(label, choices, key=key, format_func=format_func, **kwargs)
    shown_default = _still_valid(default, field.kind, default, choices, limits)  # the default these options allow
    to_link(key, None if same(value, shown_default) else to_raw(value))
    return value


def _limits(field: Field, lo: float | None, hi: float | None) -> tuple[Any, Any]:
    """The widget's range: the field's caps, narrowed by the page; ints stay ints (a slider needs one type)."""
    low = field.lo if lo is None else (lo if field.lo is None else max(lo, field.lo))
    high = field.hi if hi is None else (hi if field.hi is None else min(hi, field.hi))
    if field.kind == "int":
        low, high = (None if low is None else int(low)), (None if high is None else int(high))
    if field.kind == "float":
        low, high = (None if low is None else float(low)), (None if high is None else float(high))
    return low, high


def _seed(
    field: Field,
    key: str,
    label: str,
    choices: list | None,
    low: Any,
    high: Any,
    decode: Callable[[str], Any] | None,
) -> Any:
    """The first value of this session from the link (?key=, else an older alias, which is then renamed)."""
    name = (
        key
        if key in st.query_params or key != field.key
        else next((a for a in field.aliases if a in st.query_params), key)
    )

    def check(raw: str) -> Any:
        value = field.parse(raw, decode=decode)
        if field.kind in ("int", "float"):
            return field.check(value, lo=low, hi=high)
        if field.kind == "multi":
            kept = list(dict.fromkeys(v for v in value if v in choices))
            if len(kept) < len(value):
                bad = next(v for v in value if v not in choices)
                report(key, label, _bad_choice(bad, choices), message="ui.url_rejected_part")
            return kept
        if field.kind == "choice" and choices is not None and value not in choices:
            raise _bad_choice(value, choices)
        return value

    seeded = from_link(name, label, check)
    if name != key:  # an alias from an older link: the field's own key holds it from now on
        to_link(name, None)
    return seeded


# --- number fields: the range is checked here, with words, not by the widget -------------------------------


def _is_number_input(widget: Callable[..., Any]) -> bool:
    """st.number_input or a column's number_input (a bound method of that column)."""
    return getattr(widget, "__name__", "") == "number_input"


def _number_field(
    widget: Callable[..., Any], label: str, *, key: str, default: int | float, kind: str, kwargs: dict[str, Any]
) -> int | float:
    """A number_input without widget limits; returns the value the page uses (always in range).

    The widget gets value=None (no Session State warning: its default is then None) so a cleared field or
    a non-finite float, which Streamlit's own check would turn into that default, arrives here as None and
    is named, instead of silently becoming 0.
    """
    lo, hi = kwargs.get("min_value"), kwargs.get("max_value")
    widget_kwargs = {k: v for k, v in kwargs.items() if k not in ("min_value", "max_value")}
    # without limits Streamlit infers the field's type from `step`: keep an int field int, a float field float
    step = widget_kwargs.get("step")
    widget_kwargs["step"] = (1 if step is None else int(step)) if kind == "int" else float(step or 0.01)
    typed = widget(label, key=key, value=None, **widget_kwargs)
    last_key = f"{key}__last"  # explainer.load_case forgets it with the page's other inputs
    last = st.session_state.get(last_key, default)
    used, message = _checked_number(typed, label, kind, lo, hi, last)
    if message:  # a caption, not an alert box: a field is often one of three in a narrow column
        getattr(widget, "__self__", st).caption(f":orange[:material/warning:] {message}")
    st.session_state[last_key] = used
    to_link(key, None if same(used, default) else to_raw(used))
    return used


def _checked_number(
    typed: Any, label: str, kind: str, lo: int | float | None, hi: int | float | None, last: int | float
) -> tuple[int | float, str | None]:
    """(the value the page uses, the line shown under the field or None). Validated by s2s_core.validate."""
    field = md_escape(label)
    low = (-caps.MAX_SEED if kind == "int" else -caps.MAX_ABS_VALUE) if lo is None else lo
    high = (caps.MAX_SEED if kind == "int" else caps.MAX_ABS_VALUE) if hi is None else hi
    last = min(max(last, low), high)  # a last value from an older, wider range
    limits = {"field": field, "lo": _shown(low), "hi": _shown(high), "used": _shown(last)}
    if typed is None:  # a cleared field, or a non-finite float that Streamlit turned into the default None
        return last, t("ui.number_empty", **limits)
    try:
        value = check_int(typed, "", low, high) if kind == "int" else check_float(typed, "", low, high)
    except InputError as err:
        if err.key != "errors.out_of_range":  # NaN, infinite, huge, not a whole number: keep the last value
            return last, t("ui.number_kept", reason=t(err.key, **{**err.params, "field": field}), **limits)
        clamped = int(min(max(typed, low), high)) if kind == "int" else float(min(max(typed, low), high))
        return clamped, t("ui.number_out_of_range", **{**limits, "value": _shown(typed), "used": _shown(clamped)})
    return value, None


def _shown(x: float) -> str:
    """A typed or limit value in a message: fmt.num, or fmt.sci when num would print hundreds of digits."""
    return fmt.num(x) if abs(x) < 1e9 else fmt.sci(x)


def _bad_choice(text: Any, options: list) -> InputError:
    shown = ", ".join(map(str, options[:12])) + (", …" if len(options) > 12 else "")
    return InputError("errors.bad_choice", "", value=str(text)[:20], choices=shown)


def _still_valid(value: Any, kind: str, default: Any, options: list | None, limits: dict[str, Any]) -> Any:
    """A kept value that the current options or range no longer allow, made valid."""
    if kind in ("choice", "tab", "pick") and options is not None:
        return value if value is None or value in options else (default if default in options else options[0])
    if kind == "multi" and options is not None:
        return [v for v in value if v in options] if isinstance(value, list) else []
    if kind in ("int", "float") and isinstance(value, (int, float)):
        lo, hi = limits.get("min_value"), limits.get("max_value")
        if lo is not None and value < lo:
            return lo
        if hi is not None and value > hi:
            return hi
    return value
