"""A page's folded details run only their open tab (s2s_ui/explainer.details), as a server runs them.

The other AppTest suites draw every tab at once (tests/conftest.py sets DRAW_EVERY_TAB) to read any tab's
content; here that is switched off, so what is tested is the lazy path itself: one tab drawn, another opened
by a switch (one rerun), and a language switch with a later tab open still draws exactly one tab.
"""

from __future__ import annotations

import pytest

import s2s_ui.explainer as explainer
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

GRU_TABS = (
    "gru.tab_override",
    "ui.tab_steps",
    "gru.tab_gates",
    "gru.tab_compare",
    "ui.tab_tables",
    "ui.tab_check",
    "ui.tab_code",
    "ui.tab_notice",
)


@pytest.fixture(autouse=True)
def lazy_tabs(monkeypatch):
    monkeypatch.setattr(explainer, "DRAW_EVERY_TAB", False)


def drawn(at) -> list[bool]:
    """Per tab: does it hold anything (a closed tab is an empty block)?"""
    return [len(tab.children) > 0 for tab in at.tabs]


def test_only_the_open_tab_runs_and_a_switch_opens_another():
    at = open_page("gru", "en")
    assert not at.exception
    assert [tab.label for tab in at.tabs] == [translate("en", key) for key in GRU_TABS]
    assert drawn(at) == [True] + [False] * (len(GRU_TABS) - 1)  # the first tab opens by default
    compare_intro = translate("en", "gru.compare_keeps")
    assert compare_intro not in all_text(at)  # the comparison tab's text is not computed, not sent

    at.session_state["gru_tabs"] = translate("en", "gru.tab_compare")
    at.run()
    assert not at.exception
    assert drawn(at) == [key == "gru.tab_compare" for key in GRU_TABS]
    assert compare_intro in all_text(at)  # drawn now, and only it


def test_a_language_switch_with_a_later_tab_open_still_draws_one_tab():
    at = open_page("gru", "en")
    at.session_state["gru_tabs"] = translate("en", "ui.tab_check")
    at.run()
    assert drawn(at) == [key == "ui.tab_check" for key in GRU_TABS]
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert [tab.label for tab in at.tabs] == [translate("ko", key) for key in GRU_TABS]
    assert sum(drawn(at)) == 1  # the English label means nothing in Korean: one tab, not none, not all


def test_the_server_and_the_bench_draw_lazily_by_default():
    """The switch is for test processes only: the module's own value is the lazy path."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(explainer.__file__).read_text(encoding="utf-8"))
    values = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DRAW_EVERY_TAB" for t in node.targets)
    ]
    assert values == [False]
