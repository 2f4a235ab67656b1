"""Field specs: the one declaration of every input a page reads (key, kind, default, range or options, caps).

A page's inputs are declared once, in `s2s_core/<ns>/fields.py`, as a tuple of `Field`s. Three things read that
one declaration, so they cannot drift apart:

1. the core's `parse_*` checks a typed value with `field.check(value)` (range, options, caps);
2. the UI draws the linked widget from it in one call (`s2s_ui/state.Page.input`) and reads a link's raw text
   with `field.parse(raw)`;
3. Reset, Try-this, lessons and the classroom know every key a page owns from `Page.fields` (`owns(name)`).

Everything a learner sets is a field: inputs (int, float, bool, text, choice, multi, table), the picture's
step (`step`), a picked element (`pick`), the open tab (`tab`). A link holds raw values only (never a translated
label), and the default leaves no parameter, so links stay short and open in either language.

Pure Python: no streamlit (tests/test_architecture.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.validate import check_float, check_int

T = TypeVar("T")
Kind = Literal["int", "float", "bool", "text", "choice", "multi", "table", "step", "tab", "pick"]
MAX_RAW_CHARS = 2000  # a link value longer than this is not read at all (a URL can carry anything)
_TRUE, _FALSE = ("true", "1", "on", "yes"), ("false", "0", "off", "no")


@dataclass(frozen=True)
class Field:
    """One input of one page.

    key: the session key and the link parameter ("rnn_E"). For a `family` the key is a prefix: the page owns
        every `key_<suffix>` (one weight table per shape "rnn_w_x_3x2", one row per index "masks_src_2").
    kind: how the raw link text is read and the typed value checked (see `parse` and `check`).
    default: the value when the link says nothing; `by_lang` gives one per language instead (a sentence in the
        learner's language). Defaults are hashable (tuples for tables and multi choices).
    label: the catalog key that names the field in a message ("rnn.field.E").
    lo, hi: the range of a number or a step (inclusive). A page may narrow it for the inputs on screen (a step
        slider to the sentence's length), never widen it: these are the caps.
    options: the choices of a choice, multi, tab or pick field (raw values, as in the link).
    max_chars: the cap on a text field.
    aliases: older link parameters that still mean this field (read when `key` is absent), so links made
        before a rename still open.
    """

    key: str
    kind: Kind
    default: Any = None
    label: str = ""
    lo: float | None = None
    hi: float | None = None
    options: tuple[Any, ...] = ()
    max_chars: int = caps.MAX_TEXT_CHARS
    by_lang: tuple[tuple[str, Any], ...] = ()
    family: bool = False
    aliases: tuple[str, ...] = ()

    # --- the default ------------------------------------------------------------------------------------

    def default_for(self, lang: str) -> Any:
        """The default in `lang` (a per-language default falls back to English, then to `default`)."""
        table = dict(self.by_lang)
        return table.get(lang, table.get("en", self.default))

    def is_lang_default(self, value: Any) -> bool:
        """Is `value` the untouched default of some language (it then follows a language switch)?"""
        return any(same(value, v) for _, v in self.by_lang)

    # --- ownership --------------------------------------------------------------------------------------

    def owns(self, name: str) -> bool:
        """Is `name` (a session key or link parameter) this field's, or one of its family's, or an alias?"""
        if name == self.key or name in self.aliases:
            return True
        return self.family and name.startswith(f"{self.key}_")

    def member(self, suffix: str | int) -> str:
        """The key of one member of a family ("rnn_w_x" + "3x2" -> "rnn_w_x_3x2")."""
        return f"{self.key}_{suffix}"

    # --- the core's check of a typed value --------------------------------------------------------------

    def check(self, value: Any, *, lo: float | None = None, hi: float | None = None, options: Any = None) -> Any:
        """The typed value, checked (raises InputError naming this field). lo/hi/options narrow the caps."""
        low, high = self._range(lo, hi)
        choices = tuple(options) if options is not None else self.options
        if self.kind in ("int", "step"):
            return check_int(value, self.label, int(low), int(high))
        if self.kind == "float":
            return check_float(value, self.label, low, high)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InputError("errors.bad_choice", self.label, value=str(value)[:20], choices="true, false")
            return value
        if self.kind == "text":
            text = "" if value is None else str(value)
            if len(text) > self.max_chars:
                raise InputError("errors.text_too_long", self.label, count=len(text), limit=self.max_chars)
            return text
        if self.kind in ("choice", "tab", "pick"):
            if value not in choices:
                raise _bad_choice(value, choices, self.label)
            return value
        if self.kind == "multi":
            values = list(value or [])
            bad = [v for v in values if v not in choices]
            if bad:
                raise _bad_choice(bad[0], choices, self.label)
            return values
        return value  # a table is checked cell by cell by the page's own parser (s2s_core.validate.parse_matrix)

    def _range(self, lo: float | None, hi: float | None) -> tuple[float, float]:
        if self.kind in ("int", "step"):
            cap_lo, cap_hi = (
                (-caps.MAX_SEED if self.lo is None else self.lo),
                (caps.MAX_SEED if self.hi is None else self.hi),
            )
        else:
            cap_lo, cap_hi = (
                (-caps.MAX_ABS_VALUE if self.lo is None else self.lo),
                (caps.MAX_ABS_VALUE if self.hi is None else self.hi),
            )
        low = cap_lo if lo is None else max(lo, cap_lo)
        high = cap_hi if hi is None else min(hi, cap_hi)
        return low, max(low, high)

    # --- the link: raw text <-> value -------------------------------------------------------------------

    def parse(self, raw: str, *, decode: Callable[[str], Any] | None = None) -> Any:
        """A link's raw text -> the value (raises InputError or ValueError). A step is read whole and clamped
        later (a stale link still opens); `decode` reads an option's raw text (e.g. int) or a table's rows."""
        if len(raw) > MAX_RAW_CHARS:
            raise InputError("errors.text_too_long", "", count=len(raw), limit=MAX_RAW_CHARS)
        text = raw.strip()
        if self.kind == "step":
            return check_int(text, "", -caps.MAX_SEED, caps.MAX_SEED)
        if self.kind == "int":
            low, high = self._range(None, None)
            return check_int(text, "", int(low), int(high))
        if self.kind == "float":
            low, high = self._range(None, None)
            return check_float(text, "", low, high)
        if self.kind == "bool":
            if text.lower() not in (*_TRUE, *_FALSE):
                raise InputError("errors.bad_choice", "", value=text[:20], choices="true, false")
            return text.lower() in _TRUE
        if self.kind == "text":
            if len(raw) > self.max_chars:
                raise InputError("errors.text_too_long", "", count=len(raw), limit=self.max_chars)
            return raw
        if self.kind == "table":
            return (decode or str)(raw)
        read = decode or _same_type_as(self.options)
        if self.kind == "multi":
            parts = [p.strip() for p in text.split(",")[: caps.MAX_SEQ_LEN] if p.strip()]
            return [read(p) for p in parts]
        value = read(text)
        if self.options and value not in self.options:
            raise _bad_choice(text, self.options, "")
        return value

    def raw(self, value: Any, lang: str = "en") -> str | None:
        """The link text of `value`, or None when it is the default (the link then has no parameter)."""
        if same(value, self.default_for(lang)):
            return None
        return to_raw(value)


def same(value: Any, default: Any) -> bool:
    """Equal as the link sees it: floats within rounding, an empty list like None, tuples like lists."""
    if value is None or value == [] or value == ():
        return default is None or default == [] or default == ()
    if isinstance(value, (list, tuple)) and isinstance(default, (list, tuple)):
        return list(value) == list(default)
    if isinstance(value, bool) or isinstance(default, bool):
        return value is default or (value == default and type(value) is type(default))
    if isinstance(value, float) or isinstance(default, float):
        return isinstance(default, (int, float)) and math.isclose(
            float(value), float(default), rel_tol=1e-12, abs_tol=1e-15
        )
    return value == default


def to_raw(value: Any) -> str:
    """A value as link text: true/false, comma-separated lists, plain str otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


def _same_type_as(options: tuple[Any, ...]) -> Callable[[str], Any]:
    """Read an option's raw text as the options' own type (int steps, str names)."""
    if options and all(isinstance(o, int) and not isinstance(o, bool) for o in options):
        return int
    return str


def _bad_choice(value: Any, options: tuple[Any, ...] | list[Any], field: str) -> InputError:
    choices = list(options)
    shown = ", ".join(map(str, choices[:12])) + (", …" if len(choices) > 12 else "")
    return InputError("errors.bad_choice", field, value=str(value)[:20], choices=shown)


def by_key(fields: tuple[Field, ...]) -> Mapping[str, Field]:
    """The fields of a page by key (a duplicate key is a programming error, caught at import)."""
    table = {f.key: f for f in fields}
    if len(table) != len(fields):
        dupes = sorted({f.key for f in fields if sum(g.key == f.key for g in fields) > 1})
        raise ValueError(f"duplicate field keys: {dupes}")
    return table


@dataclass(frozen=True)
class Parsed(Generic[T]):
    """A parsed value or the error that stopped it: the one "value or error" shape of every page.

    The page reads its controls into one of these; each section that needs the value calls `need()` inside its
    guard, so a bad input is named where its picture would be and the sections that do not need it still draw.
    """

    value: T | None
    error: InputError | None = None

    @staticmethod
    def of(parse: Callable[[], T]) -> Parsed[T]:
        """Run `parse`; an InputError becomes the error of the result instead of propagating."""
        try:
            return Parsed(parse(), None)
        except InputError as err:
            return Parsed(None, err)

    @property
    def ok(self) -> bool:
        return self.error is None and self.value is not None

    def need(self) -> T:
        """The value, or its error raised again (the section's guard names the field)."""
        if self.value is None:
            raise self.error or InputError("errors.empty_value", "")
        return self.value
