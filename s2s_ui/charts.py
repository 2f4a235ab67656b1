"""Charts on a page: build Altair charts from frozen inputs once, cache the finished Vega-Lite specs by value.

Profiling showed that building and validating Altair charts cost far more than the math on every page,
so a page decorates its small chart-building function with `@cached_spec`: the function takes hashable
inputs (a frozen config, a step, the language) and returns an Altair chart, or a dict / list / tuple of
them; the decorator turns them into plain spec dicts once per distinct input, with their tables already
in Arrow bytes (`packed`), and shares them through `s2s_ui/cache.cached_result` (never copied, never
changed). Specs are not validated here (`to_dict(validate=False)`): each core package's tests
validate its charts' structure. `draw` puts a spec on the page at the container's width.

Every spec also passes `finish` on its way out (docs/ARCHITECTURE.md, "One visual language"), so what every
chart needs is done once, here, for all pages:
1) no text below 11 px (axis, legend, title, header and text marks);
2) text that stands on the page uses the theme's text colour: "currentColor", which the SVG inherits from
   the app (dark on the light theme, light on the dark one); a neutral colour hard-coded on a page would
   vanish on one of the two backgrounds. Text inside cells, boxes and circles keeps its colour (it is
   chosen against the cell's fill), and so do the role colours below (≥ 3:1 on both backgrounds);
3) a text `description` for the chart (the SVG's accessible name) from its title, unless a page gave one;
4) each mark's accessible label in the learner's language with rounded numbers: Vega-Lite's own labels
   name the internal fields and print raw floats ("x: 0.30000001"), so a mark with a tooltip gets a
   `description` built from the tooltip's translated titles and formats; a text label says its text;
   a mark that carries nothing of its own (a rule, a faded copy, a label on a cell that is itself
   described) is hidden from screen readers (`aria: false`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import altair as alt
import streamlit as st
from streamlit import dataframe_util

from s2s_core.fmt import NUM_D3
from s2s_ui.cache import cached_result
from s2s_ui.download import claim_picture, download_buttons

F = TypeVar("F", bound=Callable[..., Any])

# Altair validates every schema object against the Vega-Lite JSON schema as it is constructed ("debug mode"), which
# made about a quarter of a page picture's build time (the GRU cell diagram: 237 -> 176 ms; the spec is the same).
# The app's charts are validated where it matters, in each core package's tests; a page builds them unvalidated.
alt.utils.schemapi.disable_debug_mode()

MIN_FONT_PX = 11  # no chart text below 11 px, on a phone too
THEME_TEXT = "currentColor"  # the chart's SVG inherits the app's text colour, so it follows light and dark
FINISHED = "s2s_finished"  # usermeta flag: `finish` has run on this spec (it is idempotent, this saves the walk)
ARIA_FIELD = "_aria"  # the calculated field that holds a mark's accessible label
# The role colours (the same hue for the same role on every page): chosen to keep ≥ 3:1 on #ffffff and #171614
# (PAD grey included: always labelled)
ROLE_COLOURS = {"#2c7fb8", "#d55e00", "#b8588f", "#0f8b8d", "#8a8a8a"}
LIGHT_BG, DARK_BG = "#ffffff", "#171614"  # Streamlit's light and dark backgrounds (.streamlit/config.toml)
TEXT_CONTRAST, GRAPHIC_CONTRAST = 4.5, 3.0  # WCAG 2.1 AA: text, and lines that carry meaning
NAMED = {"black": "#000000", "white": "#ffffff", "gray": "#808080", "grey": "#808080", "darkgray": "#a9a9a9"}
NAMED |= {"dimgray": "#696969", "lightgray": "#d3d3d3", "silver": "#c0c0c0", "darkgrey": "#a9a9a9"}
SHAPES = {"rect", "square", "circle", "arc"}  # marks a text label can sit inside (a cell, a box, a node)
FONT_KEY = re.compile(r"(^f|F)ontSize$")  # fontSize, labelFontSize, titleFontSize, subtitleFontSize, ...
DATA_KEYS = {"data", "datasets", "values"}  # never walked: rows are not style


def to_spec(chart: Any) -> Any:
    """An Altair chart (or a dict / list / tuple of them) as plain, finished Vega-Lite spec dicts."""
    if isinstance(chart, alt.TopLevelMixin):
        return finish(chart.to_dict(validate=False))
    if isinstance(chart, dict) and not ("$schema" in chart or "mark" in chart or "layer" in chart):
        return {name: to_spec(part) for name, part in chart.items()}
    if isinstance(chart, (list, tuple)):
        return type(chart)(to_spec(part) for part in chart)
    if isinstance(chart, dict):
        return finish(chart)
    return chart


def cached_spec(fn: F | None = None, *, max_entries: int = 256) -> Any:
    """Decorator: cache the finished spec(s) of a chart-building function by the value of its arguments.

    Arguments whose name starts with "_" are not part of the key (s2s_ui/cache.py): pass a large result that
    is fully determined by the other arguments that way.
    """

    def wrap(build: F) -> F:
        @functools.wraps(build)  # keeps the name, signature and code (__wrapped__) that the cache keys on
        def spec(*args: Any, **kwargs: Any) -> Any:
            return packed(to_spec(build(*args, **kwargs)))

        return cached_result(max_entries=max_entries)(spec)  # type: ignore[return-value]

    return wrap(fn) if fn is not None else wrap


def packed(spec: Any) -> Any:
    """Finished spec(s) whose named tables are already Streamlit's Arrow bytes.

    On every rerun `st.vega_lite_chart` turns each named dataset (a list of rows) into a pandas frame and
    then into Arrow IPC bytes; for the pages' large pictures that cost more than the rest of the rerun. A
    dataset that already is bytes is passed through as it is (streamlit/elements/vega_charts.py,
    `_marshall_chart_data`), so a cached spec pays the conversion once. The bytes are made by Streamlit's
    own converter, so the browser and AppTest read exactly the rows they read before.
    """
    if isinstance(spec, (list, tuple)):
        return type(spec)(packed(part) for part in spec)
    if not isinstance(spec, dict):
        return spec
    if not ("$schema" in spec or "mark" in spec or "layer" in spec or "datasets" in spec):
        return {name: packed(part) for name, part in spec.items()}
    datasets = spec.get("datasets")
    if not isinstance(datasets, dict) or not any(_is_table(rows) for rows in datasets.values()):
        return spec
    tables = {name: arrow_bytes(rows) if _is_table(rows) else rows for name, rows in datasets.items()}
    return {**spec, "datasets": tables}


def _is_table(rows: Any) -> bool:
    """A list of plain row dicts (not GeoJSON features, which Streamlit leaves in the spec)."""
    return isinstance(rows, list) and all(isinstance(row, dict) and "geometry" not in row for row in rows)


def arrow_bytes(rows: list[dict]) -> bytes:
    """Rows as the Arrow IPC bytes Streamlit itself would send for them."""
    return dataframe_util.convert_anything_to_arrow_bytes(rows)


def draw(where: Any, spec: dict, **select: Any) -> Any:
    """One finished spec at the container's width (`where`: st, a column or a placeholder); returns its element
    (the selection event when `select` holds `on_select`, `selection_mode`, `key`: a chart the learner clicks).

    The page's main picture (the first chart drawn inside s2s_ui/download.main_picture) gets its SVG / PNG
    buttons under it, in one box with it (so a placeholder keeps both).
    """
    finished, main = finish(spec), claim_picture()
    if main is None:
        return where.vega_lite_chart(spec=finished, width="stretch", **select)
    with where.container():
        drawn = st.vega_lite_chart(spec=finished, width="stretch", **select)
        download_buttons(main, finished)
    return drawn


# ---- finishing a spec -------------------------------------------------------------------------------------


def finish(spec: dict) -> dict:
    """`spec` with readable text, theme colours, a description and accessible mark labels (module docstring).

    Never the reason a chart goes missing: a spec this code does not understand is drawn as it came.
    """
    if not isinstance(spec, dict) or spec.get("usermeta", {}).get(FINISHED):
        return spec
    try:
        done = _copy(spec)
        finish_in_place(done)
    except Exception:  # a shape of spec not foreseen here: the chart is drawn as the page built it
        return spec
    return done


def finish_in_place(spec: dict) -> None:
    # 1) fonts everywhere (config, axes, legends, titles, marks)
    _clamp_fonts(spec)
    # 2) axis, legend and title text in the theme's text colour (Streamlit's grey axis labels are 3.9:1 on white)
    config = spec.setdefault("config", {})
    for part, keys in (
        ("axis", ("labelColor", "titleColor")),
        ("legend", ("labelColor", "titleColor")),
        ("header", ("labelColor", "titleColor")),
        ("title", ("color", "subtitleColor")),
    ):
        for key in keys:
            config.setdefault(part, {}).setdefault(key, THEME_TEXT)
    # 3) the chart's own accessible name
    if not spec.get("description"):
        description = _describe(spec)
        if description:
            spec["description"] = description
    # 4) axes and legends named by their translated titles (Vega's own names are English: "X-axis titled …")
    for view in _views(spec):
        _describe_guides(view.get("encoding"))
    # 5) every mark: colours on the page, accessible labels
    for layer, units in _unit_groups(spec):
        for unit in units:
            _finish_unit(unit, units, layer)
    spec.setdefault("usermeta", {})[FINISHED] = True


def _copy(node: Any) -> Any:
    """A copy of the spec's structure; data rows are shared (they are never changed)."""
    if isinstance(node, dict):
        return {k: (v if k in DATA_KEYS else _copy(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def _clamp_fonts(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in DATA_KEYS:
                continue
            if FONT_KEY.search(key):
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value < MIN_FONT_PX:
                    node[key] = MIN_FONT_PX
                elif isinstance(value, dict) and isinstance(value.get("expr"), str):
                    node[key] = {"expr": f"max({MIN_FONT_PX}, {value['expr']})"}
            else:
                _clamp_fonts(value)
    elif isinstance(node, list):
        for value in node:
            _clamp_fonts(value)


def _title_parts(title: Any) -> list[str]:
    if isinstance(title, str):
        return [title]
    if isinstance(title, list):
        return [" ".join(str(line) for line in title)]
    if isinstance(title, dict):
        return _title_parts(title.get("text")) + _title_parts(title.get("subtitle"))
    return []


def _describe(spec: dict) -> str:
    """The chart's title (and subtitle); without one, the titles of its axes and legends (page-translated)."""
    for view in _views(spec):
        parts = [p for p in _title_parts(view.get("title")) if p.strip()]
        if parts:
            return ": ".join([parts[0], " ".join(parts[1:])]) if len(parts) > 1 else parts[0]
    names: list[str] = []
    for view in _views(spec):
        for channel in ("y", "x", "color"):
            definition = view.get("encoding", {}).get(channel)
            title = definition.get("title") if isinstance(definition, dict) else None
            if isinstance(title, str) and title.strip() and title not in names:
                names.append(title)
    return " · ".join(names)


AXES = ("x", "y")
LEGENDS = ("color", "fill", "stroke", "shape", "size", "opacity", "strokeDash", "strokeWidth")


def _describe_guides(encoding: Any) -> None:
    """An axis or legend is named by its title (and a legend by its listed values); untitled ones are hidden
    from screen readers, whose English default would read a field name ("X-axis titled 'pos_x' …")."""
    if not isinstance(encoding, dict):
        return
    for channel, guide_key in [(c, "axis") for c in AXES] + [(c, "legend") for c in LEGENDS]:
        definition = encoding.get(channel)
        if not isinstance(definition, dict) or "field" not in definition or definition.get(guide_key, {}) is None:
            continue
        guide = definition.setdefault(guide_key, {})
        if not isinstance(guide, dict) or "description" in guide or "aria" in guide:
            continue
        title = guide.get("title", definition.get("title"))
        if not isinstance(title, str) or not title.strip():
            guide["aria"] = False
            continue
        domain = (definition.get("scale") or {}).get("domain")
        listed = guide_key == "legend" and isinstance(domain, list) and all(isinstance(v, str) for v in domain)
        guide["description"] = f"{title}: {', '.join(domain)}" if listed else title


def _views(spec: dict) -> Iterator[dict]:
    """The spec and every view nested in it (layers, concatenations, a facet's inner spec)."""
    yield spec
    for key in ("layer", "concat", "hconcat", "vconcat"):
        for child in spec.get(key, []) or []:
            if isinstance(child, dict):
                yield from _views(child)
    if isinstance(spec.get("spec"), dict):
        yield from _views(spec["spec"])


def _unit_groups(spec: dict) -> Iterator[tuple[dict | None, list[dict]]]:
    """(layer view or None, its unit specs that are drawn together): siblings tell a cell label from a page label."""
    for view in _views(spec):
        if isinstance(view.get("layer"), list):
            yield view, [u for u in view["layer"] if isinstance(u, dict) and "mark" in u]
        elif "mark" in view and (view is spec or not _in_layer(spec, view)):
            yield None, [view]


def _in_layer(spec: dict, unit: dict) -> bool:
    return any(any(u is unit for u in view.get("layer", []) or []) for view in _views(spec))


def _mark(unit: dict) -> dict:
    if not isinstance(unit["mark"], dict):
        unit["mark"] = {"type": unit["mark"]}
    return unit["mark"]


# ---- one mark ---------------------------------------------------------------------------------------------


def _finish_unit(unit: dict, siblings: list[dict], layer: dict | None) -> None:
    mark = _mark(unit)
    kind = mark.get("type")
    encoding = unit.get("encoding") or {}
    if layer is not None and isinstance(layer.get("encoding"), dict):
        encoding = layer["encoding"] | encoding  # a layer's shared channels apply to each of its marks
    on_shape = kind == "text" and any(_mark(s).get("type") in SHAPES for s in siblings if s is not unit)
    # 1) colours: text on the page and lines get the theme's text colour where a neutral one would vanish
    if kind == "text" and not on_shape:
        if not _has_colour(mark, encoding):
            mark["color"] = THEME_TEXT
        else:
            _recolour(mark, unit.get("encoding") or {}, TEXT_CONTRAST)
    elif kind in ("rule", "line"):
        _recolour(mark, unit.get("encoding") or {}, GRAPHIC_CONTRAST)
    # 2) the accessible label of each drawn item
    if mark.get("aria") is False or "description" in encoding:
        return
    tooltip = encoding.get("tooltip")
    entries = tooltip if isinstance(tooltip, list) else [tooltip] if isinstance(tooltip, dict) else []
    entries = [e for e in entries if isinstance(e, dict) and isinstance(e.get("field"), str)]
    if entries and not _aggregated(encoding):
        # what places the mark first (x, its offset, y, its offset), then the rest in the tooltip's order:
        # "k: 20; norm: 2.0e+0; series: RNN", "word: rice; model: counts; p: 0.5"
        placed = [encoding.get(c) for c in ("x", "xOffset", "y", "yOffset")]
        positions = [d.get("field") for d in placed if isinstance(d, dict)]
        entries = sorted(entries, key=lambda e: positions.index(e["field"]) if e["field"] in positions else 4)
        _label_from(unit, [(_entry_title(e), _value_expr(e)) for e in entries])
    elif kind == "text" and not (on_shape and any(_speaks(s) for s in siblings if s is not unit)):
        text = encoding.get("text")
        if isinstance(text, dict) and isinstance(text.get("field"), str) and not _aggregated(encoding):
            _label_from(unit, [(None, _value_expr(text))])
        elif isinstance(text, dict) and "value" in text:
            mark["description"] = _plain(text["value"])
        else:
            mark["aria"] = False
    else:
        mark["aria"] = False  # decorative: no tooltip, no text, nothing a screen reader could say about it


def _speaks(unit: dict) -> bool:
    """The mark has (or will get) its own accessible label: a description or a tooltip."""
    encoding = unit.get("encoding") or {}
    return _mark(unit).get("aria") is not False and ("description" in encoding or "tooltip" in encoding)


def _has_colour(mark: dict, encoding: dict) -> bool:
    return any(k in mark for k in ("color", "fill")) or any(k in encoding for k in ("color", "fill"))


def _aggregated(encoding: dict) -> bool:
    """Channels that aggregate, bin or group by time: a field calculated before them would not survive."""
    defs = [d for v in encoding.values() for d in (v if isinstance(v, list) else [v]) if isinstance(d, dict)]
    return any(k in d for d in defs for k in ("aggregate", "bin", "timeUnit"))


def _recolour(mark: dict, encoding: dict, needed: float) -> None:
    """Neutral constant colours that fail `needed` contrast on the light or the dark page → theme text colour."""
    for key in ("color", "fill", "stroke"):
        if _fails(mark.get(key), needed):
            mark[key] = THEME_TEXT
        channel = encoding.get(key)
        if isinstance(channel, dict):
            for holder in [channel, *_conditions(channel)]:
                if "field" not in holder and _fails(holder.get("value"), needed):
                    holder["value"] = THEME_TEXT


def _conditions(channel: dict) -> list[dict]:
    condition = channel.get("condition")
    return [c for c in (condition if isinstance(condition, list) else [condition]) if isinstance(c, dict)]


def _fails(colour: Any, needed: float) -> bool:
    rgb = _rgb(colour)
    if rgb is None or colour.lower() in ROLE_COLOURS or max(rgb) - min(rgb) > 24:  # not neutral: a colour's meaning
        return False
    return min(contrast(rgb, _rgb(LIGHT_BG)), contrast(rgb, _rgb(DARK_BG))) < needed


def _rgb(colour: Any) -> tuple[int, int, int] | None:
    if not isinstance(colour, str):
        return None
    value = NAMED.get(colour.strip().lower(), colour.strip().lower())
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        value = "#" + "".join(c * 2 for c in value[1:])
    if not re.fullmatch(r"#[0-9a-f]{6}", value):
        return None
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (1 … 21)."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        c = [v / 255 for v in rgb]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _entry_title(entry: dict) -> str | None:
    title = entry.get("title")
    if isinstance(title, list):
        title = " ".join(str(t) for t in title)
    return title if isinstance(title, str) and title.strip() else None  # no title: the value alone, not a field name


def _datum(field: str) -> str:
    """Vega expression for a Vega-Lite field: dots nest unless escaped (Vega-Lite's rule)."""
    parts = [p.replace("\\.", ".") for p in re.split(r"(?<!\\)\.", field)]
    return "datum" + "".join(f"[{json.dumps(p, ensure_ascii=False)}]" for p in parts)


def _value_expr(entry: dict) -> str:
    """A channel's value as the tooltip shows it: its own format, numbers rounded like num() otherwise."""
    ref = _datum(entry["field"])
    fmt = entry.get("format")
    kind = entry.get("type")
    if entry.get("formatType") not in (None, "number", "time") or (fmt is not None and not isinstance(fmt, str)):
        return f"'' + {ref}"
    if kind == "quantitative":
        return f"isValid({ref}) ? format({ref}, {json.dumps(fmt or NUM_D3)}) : '—'"
    if kind == "temporal" or entry.get("formatType") == "time":
        return f"isValid({ref}) ? timeFormat({ref}, {json.dumps(fmt or '%Y-%m-%d')}) : '—'"
    return f"isValid({ref}) ? '' + {ref} : '—'"


def _plain(value: Any) -> str:
    return " ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _label_from(unit: dict, parts: list[tuple[str | None, str]]) -> None:
    """A calculated field "title: value; title: value" as each item's description (aria-label)."""
    pieces = [
        f"{json.dumps(title + ': ', ensure_ascii=False)} + ({expr})" if title else f"({expr})" for title, expr in parts
    ]
    unit.setdefault("transform", []).append({"calculate": " + '; ' + ".join(pieces), "as": ARIA_FIELD})
    unit.setdefault("encoding", {})["description"] = {"field": ARIA_FIELD, "type": "nominal"}
