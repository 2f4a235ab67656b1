"""Random and hostile widget values for any page, as the browser would send them (AppTest widget states).

Why raw WidgetStates: AppTest's set_value needs each option's Python value, but only the formatted
labels are visible; the browser sends labels too, so a label-level state is the faithful fake.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from streamlit.proto.NumberInput_pb2 import NumberInput as NumberInputProto
from streamlit.proto.Slider_pb2 import Slider as SliderProto
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget
from streamlit.testing.v1.util import patch_config_options

from s2s_core.catalog import LANGS, load_catalog
from tests import sizes

# How many fuzz steps per page and language: 12 in `make test`, 25 in `make test-all` (tests/sizes.py);
# FUZZ_RUNS=300 for the long mode, by hand.
FUZZ_RUNS = int(os.environ.get("FUZZ_RUNS") or sizes.pick(12, 25))
SCRIPT = "<script>alert(1)</script>"
PAYLOADS = (SCRIPT, "<img src=x onerror=alert(2)>")
HOSTILE_TEXT = (
    "",
    "   ",
    "\n\t",
    SCRIPT,
    PAYLOADS[1],
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e309",
    "-1e309",
    "0",
    "-1",
    "1e-320",
    "abc",
    "a b c",
    "나는 책을 읽는다",
    "오늘 점심에",
    "🙂🙃 emoji",
    "ǅ\u200b\u202e rtl",
    "\x00\x01",
    "' OR 1=1 --",
    "**bold** _x_ `code` [link](javascript:alert(3)) $x$ :material/home:",
    "{field} {0} %s",
    "a" * 5000,
    "나 " * 3000,
    "1," * 500,
    ";" * 100,
)
HOSTILE_CELLS = (
    "",
    " ",
    None,
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e309",
    "-1e309",
    "1e6",
    "-1e6",
    "1e7",
    "0",
    "-0",
    "1e-320",
    "abc",
    "1,2",
    "1;2",
    SCRIPT,
    "３",
    "٣",
    "0x10",
    "1_000",
    "9" * 400,
    "<b>x</b>",
)
# Widget types AppTest sees and the fuzzer drives (the language switch is left alone: the test picks it).
FUZZED = {
    "number_input",
    "slider",
    "select_slider",
    "text_input",
    "text_area",
    "selectbox",
    "multiselect",
    "radio",
    "checkbox",
    "toggle",
    "button_group",
    "button",
}


@dataclass(frozen=True)
class Move:
    """One fuzz action, kept printable so a failure names the widget and the value."""

    kind: str
    key: str | None
    value: object

    def __str__(self) -> str:
        text = repr(self.value)
        return f"{self.kind}[{self.key}]={text[:120]}{'…' if len(text) > 120 else ''}"


def open_page_full(ns: str, lang: str, query: dict[str, str] | None = None) -> AppTest:
    """tests.app's open_page with full error details (the app's config redacts them, as a hosted demo should)."""
    from s2s_core.catalog import translate
    from tests.app.conftest import open_page

    with patch_config_options({"client.showErrorDetails": "full"}):
        at = open_page(ns, lang, query=query, timeout=120)
    if ns != "home" and not at.exception:
        # Home lists every page title too: only the page's own st.title proves AppTest landed on it.
        titles = [str(el.value) for el in at.title]
        assert translate(lang, f"{ns}.title") in titles, f"AppTest did not land on {ns}: titles {titles}"
    return at


def full_details():
    """Context for later reruns of an AppTest: exceptions keep their message and stack."""
    return patch_config_options({"client.showErrorDetails": "full"})


def fuzzable(at: AppTest) -> list:
    """Every widget (and editable table) in the page's main area the fuzzer may drive."""
    nodes = []
    for node in at.main:
        widget = isinstance(node, Widget) and node.type in FUZZED and not getattr(node.proto, "disabled", False)
        table = node.type == "dataframe" and getattr(node.proto, "editing_mode", 0) and not node.proto.disabled
        if widget or table:
            nodes.append(node)
    return nodes


def _number(node, rng: random.Random) -> float:
    p = node.proto
    lo = p.min if p.has_min else -1e6
    hi = p.max if p.has_max else 1e6
    step = p.step or 1
    picks = [lo, hi, lo + step, hi - step, rng.uniform(lo, hi), p.default if p.default else lo]
    v = min(max(rng.choice(picks), lo), hi)
    return float(round(v)) if p.data_type == NumberInputProto.INT else v


def _slider(node, rng: random.Random) -> list[float]:
    p = node.proto
    lo, hi, step = p.min, p.max, p.step or 1
    n = max(1, round((hi - lo) / step))

    def pick() -> float:
        v = lo + step * rng.choice([0, n, rng.randint(0, n)])
        return float(round(v)) if p.data_type == SliderProto.INT else float(min(v, hi))

    width = len(p.default) or 1
    return sorted(pick() for _ in range(width))


def _editor(node, rng: random.Random) -> dict:
    """A data_editor editing state: hostile cells, maybe added rows, maybe deleted rows."""
    df = node.value
    cols = [str(c) for c in df.columns]
    rows = len(df)
    state: dict = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
    for _ in range(rng.randint(1, 3)):
        if rows and cols:
            state["edited_rows"].setdefault(str(rng.randrange(rows)), {})[rng.choice(cols)] = rng.choice(HOSTILE_CELLS)
    if cols and rng.random() < 0.3:
        state["added_rows"] = [
            {c: rng.choice(HOSTILE_CELLS) for c in cols if rng.random() < 0.7} for _ in range(rng.choice([1, 2, 20]))
        ]
    if rows and rng.random() < 0.3:
        state["deleted_rows"] = sorted(rng.sample(range(rows), rng.randint(1, rows)))
    return state


def random_move(node, rng: random.Random) -> tuple[Move, WidgetState]:
    """A random, often hostile value within what the widget itself would let a browser send."""
    ws = WidgetState()
    ws.id = node.proto.id if node.type == "dataframe" else node.id
    kind, key = node.type, getattr(node, "key", None)
    if kind == "number_input":
        value = _number(node, rng)
        ws.double_value = value
    elif kind == "slider" and node.proto.type != SliderProto.SELECT_SLIDER:
        value = _slider(node, rng)
        ws.double_array_value.data[:] = value
    elif kind in ("slider", "select_slider"):
        opts = list(node.proto.options)
        width = 2 if len(node.proto.default) == 2 else 1
        value = sorted(rng.sample(range(len(opts)), min(width, len(opts))))
        value = [opts[i] for i in value]
        ws.string_array_value.data[:] = value
    elif kind in ("text_input", "text_area"):
        value = rng.choice(HOSTILE_TEXT)
        limit = node.proto.max_chars
        value = value[:limit] if limit else value
        ws.string_value = value
    elif kind in ("selectbox", "radio"):
        value = rng.choice(list(node.options)) if node.options else ""
        ws.string_value = value
    elif kind == "multiselect":
        opts = list(node.options)
        cap = node.proto.max_selections or len(opts)
        value = rng.sample(opts, rng.randint(0, min(cap, len(opts)))) if opts else []
        ws.string_array_value.data[:] = value
    elif kind == "button_group":
        opts = list(node.options)
        single = node.proto.click_mode == 0
        if single:
            value = [rng.choice(opts)] if opts and (node.proto.required or rng.random() < 0.8) else []
        else:
            value = rng.sample(opts, rng.randint(0, len(opts)))
        ws.string_array_value.data[:] = value
    elif kind in ("checkbox", "toggle"):
        value = rng.random() < 0.5
        ws.bool_value = value
    elif kind == "button":
        value = True
        ws.trigger_value = True
    elif kind == "dataframe":
        value = _editor(node, rng)
        ws.string_value = json.dumps(value)
    else:  # pragma: no cover - FUZZED lists what is handled
        raise AssertionError(kind)
    return Move(kind, key, value), ws


def run_moves(at: AppTest, states: list[WidgetState]) -> AppTest:
    """Rerun with the current widget states, some replaced by ours (as one browser interaction would)."""
    mine = {ws.id: ws for ws in states}
    merged = WidgetStates()
    for ws in at._tree.get_widget_states().widgets:
        if ws.id not in mine:
            merged.widgets.append(ws)
    merged.widgets.extend(mine.values())
    return at._run(merged)


def steps(at: AppTest, rng: random.Random, n: int, *, tab_key: str | None = None) -> Iterator[list[Move]]:
    """n random interactions: each changes 1-3 widgets (buttons rarely: a button may start heavy work), and about
    one in three also opens another of the page's folded tabs (tab_key: its tab widget), as a learner clicks one:
    only the open tab is drawn, so the widgets inside the others are driven once their tab is open."""
    for _ in range(n):
        nodes = fuzzable(at)
        if not nodes:
            return
        weights = [0.15 if node.type == "button" else 1.0 for node in nodes]
        chosen = {id(nd): nd for nd in rng.choices(nodes, weights=weights, k=rng.randint(1, 3))}
        moves, states = [], []
        for node in chosen.values():
            move, ws = random_move(node, rng)
            moves.append(move)
            states.append(ws)
        labels = [tab.label for tab in at.tabs]
        if tab_key is not None and labels and rng.random() < 0.35:
            label = rng.choice(labels)
            at.session_state[tab_key] = label
            moves.append(Move("tab", tab_key, label))
        run_moves(at, states)
        yield moves


def exception_summary(at: AppTest) -> str:
    """The exceptions on the page, one line each (type: message, last frame)."""
    lines = []
    for exc in at.exception:
        trace = [line for line in exc.stack_trace if line.strip()]
        lines.append(f"{exc.message[:300]} @ {trace[-1].strip() if trace else '?'}")
    return "\n".join(lines)


def html_leaks(at: AppTest) -> list[str]:
    """Elements that would render a hostile payload as HTML (st.html, or markdown allowed to hold HTML)."""
    leaks = []
    for node in at:
        body = getattr(getattr(node, "proto", None), "body", None)
        if not isinstance(body, str):
            continue
        as_html = node.type == "html" or getattr(node.proto, "allow_html", False)
        if as_html and any(p in body for p in PAYLOADS):
            leaks.append(f"{node.type}: {body[:160]}")
    return leaks


def _placeholder_names() -> frozenset[str]:
    """Every {name} any catalog uses: shown verbatim, one means a message was not filled in."""
    names = set()
    for lang in LANGS:
        for text in load_catalog(lang).values():
            names.update(m.group(1) for m in _PLACEHOLDER.finditer(text))
    return frozenset(names)


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[^{}]*)?\}")
TEXT_KINDS = ("error", "warning", "info", "success", "markdown", "caption", "title", "header", "subheader")


def unfilled_texts(at: AppTest) -> list[str]:
    """Visible texts with a raw {placeholder} or a ⟦missing.key⟧ left in them (a message that lost its values)."""
    names = _placeholder_names()
    bad = []
    for kind in TEXT_KINDS:
        for el in getattr(at, kind):
            text = str(el.value)
            if "⟦" in text or any(m.group(1) in names for m in _PLACEHOLDER.finditer(text)):
                bad.append(f"{kind}: {text[:200]}")
    return bad
