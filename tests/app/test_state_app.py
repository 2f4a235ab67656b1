"""One state model per page: every link parameter a page writes is a declared field, and Reset forgets them all.

For every page, a link sets every field that can be given a value from its spec alone (numbers, switches,
choices, texts, the step, the open tab) to something other than its default; the page then holds only
parameters its registry owns (`Page.owns`), and Reset leaves no parameter of the page in the link.
"""

from __future__ import annotations

import pytest

from s2s_core.fields import Field
from s2s_ui.registry import existing_pages
from s2s_ui.state import Page
from tests.app.conftest import open_page

PAGES = [p.ns for p in existing_pages() if p.ns != "home"]


def other_value(field: Field) -> str | None:
    """A valid raw link value other than the field's default (None: its values depend on the inputs on screen)."""
    default = field.default_for("en")
    if field.family or field.kind in ("table", "pick"):
        return None
    if field.kind == "bool":
        return "false" if default else "true"
    if field.kind in ("int", "step"):
        lo = int(field.lo if field.lo is not None else 0)
        hi = int(field.hi if field.hi is not None else lo + 1)
        value = next((v for v in (lo + 1, lo, hi) if lo <= v <= hi and v != default), None)
        return None if value is None else str(value)
    if field.kind == "float":
        lo = field.lo if field.lo is not None else 0.0
        hi = field.hi if field.hi is not None else lo + 1.0
        return str(lo if lo != default else hi)
    if field.kind == "text":
        return "a b c"
    if field.kind in ("choice", "tab"):
        return next((str(o) for o in field.options if o != default), None)
    if field.kind == "multi":
        return str(field.options[0]) if field.options else None
    return None


@pytest.mark.parametrize("ns", PAGES)
def test_every_parameter_is_a_field_and_reset_forgets_them_all(ns):
    page = Page.of(ns)
    query = {f.key: raw for f in page.fields if (raw := other_value(f)) is not None}
    at = open_page(ns, "en", query=query)
    assert not at.exception, [e.value for e in at.exception]
    params = set(at.query_params) - {"lang"}
    assert params, "the link set fields, so the page's link holds parameters"
    assert [k for k in params if not page.owns(k)] == []  # every parameter is a declared field
    at.button(key=f"reset__{ns}").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}, sorted(at.query_params)


@pytest.mark.parametrize("ns", PAGES)
def test_every_try_this_case_names_only_fields_of_its_page(ns):
    page = Page.of(ns)
    at = open_page(ns, "en")
    keys = [b.key for b in at.button if str(b.key).startswith(f"try__{ns}__")]
    assert 2 <= len(keys) <= 4
    for key in keys:
        at.button(key=key).click().run()  # looked up again: each click redraws the page
        assert not at.exception
        assert [k for k in at.query_params if k != "lang" and not page.owns(k)] == []
