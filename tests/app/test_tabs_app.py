"""A page's folded details run only their open tab, as a server runs them, and no tab depends on another.

Every AppTest runs the app exactly as a server does: a tab is drawn only once it is opened (by its tab
widget, as a learner clicks it, or by the link's `?<ns>_tabs=<id>`). Here, for every page:

1. only the open tab holds anything, and the open tab is in the link;
2. each tab opened alone in a fresh session draws exactly what it draws in a session that opened every other
   tab first (in order, and in reverse order): a tab that read what another tab computed would differ;
3. a language switch with a later tab open keeps that tab open (the link holds its id, not its label);
4. every chart the page draws with any tab open names the order of its nominal and ordinal axes
   (tests/chart_order.py): Vega's own order scrambled the attention maps after an edit.
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.fields import Field
from s2s_ui.registry import existing_pages
from s2s_ui.state import Page
from tests.app.conftest import open_page
from tests.chart_order import unordered_axes

PAGES = [p.ns for p in existing_pages() if p.ns != "home"]


def tab_field(ns: str) -> Field:
    return next(f for f in Page.of(ns).fields if f.kind == "tab")


def drawn(at) -> list[bool]:
    """Per tab: does it hold anything (a closed tab is an empty block)?"""
    return [len(tab.children) > 0 for tab in at.tabs]


def _leaves(node) -> list[str]:
    children = getattr(node, "children", None)
    if children is None:
        return [_text(node)]
    return [leaf for key in sorted(children) for leaf in _leaves(children[key])]


def _text(element) -> str:
    """One drawn element as comparable text: a widget by its label and value (its protobuf also says whether this
    session set the value, which is not what the learner sees), anything else by its protobuf (a chart's spec and
    data, a table's cells, a text)."""
    if getattr(element, "id", None) and hasattr(element, "label"):  # a widget
        return f"{element.type}: {element.label!r} = {element.value!r}"
    return str(getattr(element, "proto", element))


def tab_content(at) -> list[str]:
    """Everything the one open tab draws (the folded details' tabs are the page's last tab group)."""
    open_tabs = [tab for tab in at.tabs if len(tab.children) > 0]
    assert len(open_tabs) == 1, [tab.label for tab in at.tabs]
    return _leaves(open_tabs[0])


def select(at, ns: str, tab: str, lang: str = "en"):
    """Open a tab as a learner does: the tab widget takes its label."""
    labels = [t.label for t in at.tabs]
    ids = tab_field(ns).options
    at.session_state[f"{ns}_tabs"] = labels[ids.index(tab)]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("ns", PAGES)
def test_each_tab_draws_the_same_alone_and_after_the_others(ns):
    ids = tab_field(ns).options
    alone = {}
    for tab in ids:
        at = open_page(ns, "en", query={f"{ns}_tabs": tab})
        assert not at.exception
        assert drawn(at) == [t == tab for t in ids]  # only the open tab runs
        assert at.query_params.get(f"{ns}_tabs", ids[0]) == tab  # and it is in the link (the first: no parameter)
        alone[tab] = tab_content(at)
        unordered = {i: bad for i, c in enumerate(at.get("vega_lite_chart")) if (bad := unordered_axes(c.proto.spec))}
        assert not unordered, f"{ns}, tab {tab!r}: charts whose axis order Vega chooses: {unordered}"
    for order in (ids, tuple(reversed(ids))):
        at = open_page(ns, "en")
        for tab in order:
            assert tab_content(select(at, ns, tab)) == alone[tab], f"{ns}: tab {tab!r} after {order}"


@pytest.mark.parametrize("ns", ["gru", "rnn"])
def test_a_language_switch_with_a_later_tab_open_keeps_it_open(ns):
    ids = tab_field(ns).options
    at = select(open_page(ns, "en"), ns, ids[-1])
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert drawn(at) == [t == ids[-1] for t in ids]
    assert [tab.label for tab in at.tabs][-1] != translate("en", "ui.tab_notice") or ns == "home"
    assert at.query_params[f"{ns}_tabs"] == ids[-1]


def test_no_test_only_switch_in_the_app():
    """Tests run what the server runs: no flag that draws every tab, no backend picked by what is imported."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [p for d in ("pages", "s2s_ui", "s2s_core", "s2s_jobs") for p in (root / d).rglob("*.py")]
    sources.append(root / "app.py")
    flagged = [
        str(p.relative_to(root))
        for p in sources
        if "DRAW_EVERY_TAB" in (text := p.read_text(encoding="utf-8")) or '"pytest" in sys.modules' in text
    ]
    assert flagged == []
