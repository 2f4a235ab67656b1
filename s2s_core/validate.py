"""Validators shared by all modules: numbers, ranges, tables, text. Each raises InputError."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from s2s_core import caps
from s2s_core.errors import InputError


def parse_number(value: Any, field: str, *, row: int | None = None, col: int | None = None) -> float:
    """One finite float from a cell or a URL value; row/col (1-based) name the cell in the message."""
    where = {"row": row, "col": col} if row is not None else {}
    if value is None or (isinstance(value, str) and value.strip() == ""):
        raise InputError("errors.empty_cell" if where else "errors.empty_value", field, **where)
    if isinstance(value, bool):
        raise InputError("errors.not_a_number", field, value=str(value), **where)
    try:
        number = float(value.strip().replace("−", "-") if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise InputError("errors.not_a_number", field, value=str(value)[:20], **where) from None
    if math.isnan(number):
        raise InputError("errors.nan", field, **where)
    if math.isinf(number) or abs(number) > caps.MAX_ABS_VALUE:
        raise InputError("errors.too_large", field, limit=caps.MAX_ABS_VALUE, **where)
    return number


def check_int(value: Any, field: str, lo: int, hi: int) -> int:
    """An integer in [lo, hi]; floats with a fractional part, bools and text are rejected."""
    if isinstance(value, bool):
        raise InputError("errors.not_an_integer", field, value=str(value))
    try:
        number = float(value) if not isinstance(value, int) else value
    except (TypeError, ValueError):
        raise InputError("errors.not_an_integer", field, value=str(value)[:20]) from None
    if isinstance(number, float) and (not math.isfinite(number) or not number.is_integer()):
        raise InputError("errors.not_an_integer", field, value=str(value)[:20])
    number = int(number)
    if not lo <= number <= hi:
        raise InputError("errors.out_of_range", field, value=number, lo=lo, hi=hi)
    return number


def check_float(value: Any, field: str, lo: float, hi: float) -> float:
    """A finite float in [lo, hi]."""
    number = parse_number(value, field)
    if not lo <= number <= hi:
        raise InputError("errors.out_of_range", field, value=number, lo=lo, hi=hi)
    return number


def check_choice(value: Any, field: str, choices: Sequence[str]) -> str:
    """One of a fixed set of strings (cell type, score function, ...)."""
    if value not in choices:
        raise InputError("errors.bad_choice", field, value=str(value)[:20], choices=", ".join(choices))
    return str(value)


def parse_matrix(
    rows: Sequence[Sequence[Any]],
    field: str,
    *,
    max_rows: int = caps.MAX_MATRIX_ROWS,
    max_cols: int = caps.MAX_MATRIX_COLS,
    n_rows: int | None = None,
    n_cols: int | None = None,
) -> list[list[float]]:
    """A rectangular table of finite floats; the first bad cell is named by row and column (1-based)."""
    if len(rows) == 0:
        raise InputError("errors.empty_table", field)
    if len(rows) > max_rows:
        raise InputError("errors.too_many_rows", field, count=len(rows), limit=max_rows)
    if n_rows is not None and len(rows) != n_rows:
        raise InputError("errors.wrong_rows", field, count=len(rows), expected=n_rows)
    width = len(rows[0])
    if width == 0:
        raise InputError("errors.empty_table", field)
    if width > max_cols:
        raise InputError("errors.too_many_cols", field, count=width, limit=max_cols)
    if n_cols is not None and width != n_cols:
        raise InputError("errors.wrong_cols", field, count=width, expected=n_cols)
    out: list[list[float]] = []
    for r, row in enumerate(rows, start=1):
        if len(row) != width:
            raise InputError("errors.ragged", field, row=r)
        out.append([parse_number(v, field, row=r, col=c) for c, v in enumerate(row, start=1)])
    return out


def parse_vector(text: Any, field: str, *, max_len: int = caps.MAX_MATRIX_COLS) -> list[float]:
    """Comma- or space-separated numbers, e.g. "0.2, 0.3, 0.5"."""
    if not isinstance(text, str):
        raise InputError("errors.not_a_number", field, value=str(text)[:20])
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise InputError("errors.empty_value", field)
    if len(parts) > max_len:
        raise InputError("errors.too_many_values", field, count=len(parts), limit=max_len)
    return [parse_number(p, field, row=1, col=i) for i, p in enumerate(parts, start=1)]


def check_text(text: Any, field: str, *, max_chars: int = caps.MAX_TEXT_CHARS) -> str:
    """A non-empty string within the character cap (stripped)."""
    if not isinstance(text, str):
        raise InputError("errors.empty_text", field)
    text = text.strip()
    if not text:
        raise InputError("errors.empty_text", field)
    if len(text) > max_chars:
        raise InputError("errors.text_too_long", field, count=len(text), limit=max_chars)
    return text


def decode_table(raw: str) -> list[list[str]]:
    """A table's link text, "2,0;0,4;6,2" -> [["2", "0"], ["0", "4"], ["6", "2"]], within the caps, every filled cell
    a finite number (every table in the app holds numbers). The one reading of a table link: the table widget
    (s2s_ui/widgets.matrix_input) and a lesson step's state (s2s_core/lessons/claims.LinkState) both use it."""
    rows = [r.split(",") for r in raw.split(";")]
    if len(rows) > caps.MAX_MATRIX_ROWS:
        raise InputError("errors.too_many_rows", "", count=len(rows), limit=caps.MAX_MATRIX_ROWS)
    if any(len(r) > caps.MAX_MATRIX_COLS for r in rows):
        raise InputError("errors.too_many_cols", "", count=max(map(len, rows)), limit=caps.MAX_MATRIX_COLS)
    for r, row in enumerate(rows, start=1):
        if len(row) != len(rows[0]):
            raise InputError("errors.ragged", "", row=r)
        for cell in row:
            if cell.strip():
                check_float(cell.strip(), "", -caps.MAX_ABS_VALUE, caps.MAX_ABS_VALUE)
    return rows
