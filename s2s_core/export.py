"""A page's main picture as a file to take away: SVG or PNG rendered from the very Vega-Lite spec the page draws.

    svg = picture_svg(spec, "dark", selections={"step_sel": [{"step": 2}]})   # str, the SVG document
    png = picture_png(spec, "dark", selections=..., scale=2)                   # bytes, a PNG file

`vl-convert-python` runs Vega-Lite and Vega themselves (no browser on the server). What the browser adds to a
chart is added here, so the file looks like the screen:
1) the theme: Streamlit draws a chart with its own chart config (font, background, grid, title and axis layout)
   under the spec's own `config`, and text written "currentColor" takes the page's text colour. Here the same
   config is passed under the spec's, and "currentColor" is replaced by the theme's text colour (a file has no
   page to inherit a colour from: a dark picture would otherwise get black text on its dark background);
2) the width: a "container"-wide spec is laid out at EXPORT_WIDTH, about the picture column of a desktop page;
3) the state of its interactive parts: the step slider's point selection (and any other named selection, such as a
   picked source) starts at the value the learner is on, so the file shows that step. The slider itself is an
   HTML input beside the SVG on screen; a file has none, and the picture is the step it was left at.

Caps (a spec's data rows and its JSON size) are checked before converting; a failed conversion is an ExportError
too, so the UI gives one clear message in the learner's language, never a traceback.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

THEME_TEXT = "currentColor"  # what s2s_ui/charts.finish writes for text on the page (it follows the theme)
EXPORT_WIDTH = 720  # px: a "container"-wide chart's width in the file (the desktop picture column is 560-860)
MAX_ROWS = 50_000  # data rows over all datasets: the pages' largest picture (a training map) has a few thousand
MAX_SPEC_CHARS = 8_000_000  # the spec as JSON, data included
PADDING = 12  # px around the chart in the file (on screen the page's margins do this)
MAX_SCALE = 4.0  # PNG pixels per SVG pixel
DEFAULT_SCALE = 2.0  # a PNG sharp on a high-density screen and in a printed handout
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Streamlit's chart font (its bundled "Source Sans"), then the face this server has that is closest to it: Noto Sans
# CJK (Debian's fonts-noto-cjk) draws its Latin letters from Source Sans and has Hangul and the pictures' symbols
# (◆ Σ × ÷ ↓ −). The PNG renderer draws a text in the first face of the list it has, and a glyph missing there in
# any face at all (a serif, seen with Liberation Sans and "◆"): one face with every glyph keeps the text in one style.
# Vega lays the text out with the same face, so the axes keep about the screen's spacing.
FONT = '"Source Sans", "Noto Sans CJK KR", "Noto Sans KR", sans-serif'
DATA_KEYS = frozenset({"datasets", "data", "values"})  # rows are not style: never walked for colours


@dataclass(frozen=True)
class Palette:
    """The page's colours in one theme, as Chromium computes them for the app (tests/browser/test_download_browser)."""

    background: str
    text: str
    grid: str


THEMES: dict[str, Palette] = {
    "light": Palette(background="#ffffff", text="#2f2d2b", grid="#e6eaf1"),
    "dark": Palette(background="#171614", text="#edebe8", grid="#31333f"),
}


class ExportError(Exception):
    """The picture cannot be made into a file; `key` is the catalog key of the message, `params` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(f"{key} {params}")


def theme_of(name: str | None) -> str:
    """The theme's name, "light" unless it is "dark" (Streamlit reports None before the browser told it)."""
    return "dark" if name == "dark" else "light"


def file_name(ns: str, language: str, theme: str, ext: str) -> str:
    """attention_picture_en_dark.svg: the page, the language and the theme, so two downloads never collide."""
    return f"{ns}_picture_{language}_{theme_of(theme)}.{ext}"


def chart_config(theme: str) -> dict[str, Any]:
    """Streamlit's chart config (the defaults its frontend gives every Vega-Lite chart) in `theme`'s colours.

    The spec's own `config` wins over it, as it does on screen. Sizes in px, as Streamlit's rem values compute
    at its 16 px base (axis labels 12, legend and axis titles 14, the title 16 and bold).
    """
    p = THEMES[theme_of(theme)]
    return {
        "background": p.background,
        "font": FONT,
        "padding": PADDING,
        "title": {"anchor": "start", "align": "left", "color": p.text, "subtitleColor": p.text,
                  "fontWeight": 600, "fontSize": 16, "orient": "top", "offset": 26},
        "header": {"titleFontWeight": "normal", "titleFontSize": 16, "labelFontSize": 12,
                   "labelColor": p.text, "titleColor": p.text},
        "axis": {"labelFontSize": 12, "labelFontWeight": "normal", "labelColor": p.text, "titleColor": p.text,
                 "titleFontWeight": "normal", "titleFontSize": 14, "ticks": False, "gridColor": p.grid,
                 "domain": False, "domainColor": p.grid, "labelFlush": True, "labelFlushOffset": 1,
                 "labelBound": False, "labelLimit": 100, "titlePadding": 16, "labelPadding": 16,
                 "labelSeparation": 4, "labelOverlap": True},
        "legend": {"labelFontSize": 14, "labelFontWeight": "normal", "labelColor": p.text, "titleColor": p.text,
                   "titleFontSize": 14, "titleFontWeight": "normal", "titlePadding": 8, "labelPadding": 16,
                   "columnPadding": 8, "rowPadding": 4, "padding": 8},
        "view": {"strokeWidth": 0, "stroke": "transparent"},
        "axisDiscrete": {"grid": False},
        "axisXPoint": {"grid": False},
        "axisTemporal": {"grid": False},
        "axisXBand": {"grid": False},
    }  # fmt: skip


# ---- preparing the spec ---------------------------------------------------------------------------------------


def _rows(spec: Mapping[str, Any]) -> int:
    """Inline data rows over the spec's named datasets and every view's inline `data.values`."""
    total = sum(len(rows) for rows in (spec.get("datasets") or {}).values() if isinstance(rows, list))
    for key, value in spec.items():
        if key == "datasets":
            continue
        if key == "data" and isinstance(value, Mapping) and isinstance(value.get("values"), list):
            total += len(value["values"])
        elif isinstance(value, Mapping):
            total += _rows(value)
        elif isinstance(value, list):
            total += sum(_rows(v) for v in value if isinstance(v, Mapping))
    return total


def check_size(spec: Mapping[str, Any]) -> str:
    """The spec as JSON, once its rows and size (in MB of JSON) are within the caps; else an ExportError."""
    rows = _rows(spec)
    if rows > MAX_ROWS:
        raise ExportError("ui.download.too_many_rows", rows=f"{rows:,}", limit=f"{MAX_ROWS:,}")
    try:
        text = json.dumps(spec, allow_nan=False, default=_plain)
    except (TypeError, ValueError) as err:
        raise ExportError("ui.download.failed", reason=type(err).__name__) from err
    if len(text) > MAX_SPEC_CHARS:
        raise ExportError("ui.download.too_large", size=f"{len(text) / 1e6:.1f}", limit=f"{MAX_SPEC_CHARS / 1e6:g}")
    return text


def _plain(value: Any) -> Any:
    """A value json cannot write (a numpy number, a timestamp) as the text Vega would read."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(type(value).__name__)


def _finite(node: Any) -> Any:
    """NaN and ±inf rows as null (what Vega draws for them: nothing); JSON has no other way to carry them."""
    if isinstance(node, float) and not math.isfinite(node):
        return None
    if isinstance(node, dict):
        return {k: _finite(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_finite(v) for v in node]
    return node


def _recolour(node: Any, text: str, *, in_data: bool = False) -> Any:
    """A copy with every "currentColor" (a style value or inside an expression) written as the theme's colour;
    in rows only a whole value is replaced (a colour field), never a word inside a label."""
    if isinstance(node, str):
        if in_data:
            return text if node == THEME_TEXT else node
        return node.replace(THEME_TEXT, text)
    if isinstance(node, dict):
        return {k: _recolour(v, text, in_data=in_data or k in DATA_KEYS) for k, v in node.items()}
    if isinstance(node, list):
        return [_recolour(v, text, in_data=in_data) for v in node]
    return node


def _select(node: Any, selections: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Start each named selection parameter (top level or in a layer) at the points given (in place, on a copy)."""
    if isinstance(node, dict):
        for param in node.get("params") or []:
            if isinstance(param, dict) and param.get("name") in selections and "select" in param:
                fields = (param["select"].get("fields") if isinstance(param["select"], dict) else None) or []
                points = [
                    {k: v for k, v in point.items() if not fields or k in fields}
                    for point in selections[param["name"]]
                    if isinstance(point, Mapping)
                ]
                if points:
                    param["value"] = points
        for key in ("layer", "concat", "hconcat", "vconcat"):
            for child in node.get(key) or []:
                _select(child, selections)
        if isinstance(node.get("spec"), dict):
            _select(node["spec"], selections)


def export_spec(
    spec: Mapping[str, Any],
    theme: str,
    *,
    selections: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    width: int = EXPORT_WIDTH,
) -> dict[str, Any]:
    """The spec as the file draws it: theme colours, a fixed width, the selections where the learner left them.

    `spec` holds its data as plain rows (the UI turns Streamlit's Arrow tables back into rows first) and is not
    changed. Raises ExportError when it is over the caps.
    """
    text = check_size(spec)
    prepared = _recolour(_finite(json.loads(text)), THEMES[theme_of(theme)].text)
    if prepared.get("width") in (None, "container"):
        prepared["width"] = int(width)
    _select(prepared, selections or {})
    return prepared


# ---- converting -------------------------------------------------------------------------------------------------


def picture_svg(
    spec: Mapping[str, Any],
    theme: str,
    *,
    selections: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    width: int = EXPORT_WIDTH,
) -> str:
    """The picture as an SVG document (its text as SVG text: the translated title and labels stay searchable)."""
    import vl_convert  # the converter starts its JavaScript engine on first use: only when a picture is asked for

    prepared = export_spec(spec, theme, selections=selections, width=width)
    try:
        # allowed_base_urls=[]: the pages' data are inline; a spec never makes the server fetch a URL
        return vl_convert.vegalite_to_svg(prepared, config=chart_config(theme), allowed_base_urls=[])
    except Exception as err:  # the converter reports a bad spec as a plain ValueError with JavaScript's message
        raise ExportError("ui.download.failed", reason=_reason(err)) from err


def picture_png(
    spec: Mapping[str, Any],
    theme: str,
    *,
    selections: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    width: int = EXPORT_WIDTH,
    scale: float = DEFAULT_SCALE,
) -> bytes:
    """The picture as a PNG, rasterised from the same SVG (so the two files show the same picture), `scale` pixels
    per SVG pixel (1 to MAX_SCALE)."""
    import vl_convert

    if not 1 <= scale <= MAX_SCALE:
        raise ExportError("ui.download.failed", reason=f"scale {scale:g}")
    svg = picture_svg(spec, theme, selections=selections, width=width)
    try:
        return vl_convert.svg_to_png(svg, scale=scale)
    except Exception as err:
        raise ExportError("ui.download.failed", reason=_reason(err)) from err


def _reason(err: Exception) -> str:
    """The converter's own words, short: JavaScript's message, on the line after "... conversion failed:"."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith("failed:"):
        lines = lines[1:]
    return (lines[0] if lines else type(err).__name__)[:160]


# ---- a message instead of a picture ------------------------------------------------------------------------------


def message_svg(text: str, theme: str, *, width: int = EXPORT_WIDTH) -> str:
    """A small SVG that says `text` (wrapped), in the theme's colours: what a download holds when the picture
    could not be converted, so the learner reads why in their language instead of getting a broken file."""
    p = THEMES[theme_of(theme)]
    lines = _wrap(text, max(20, width // 8))
    height = 32 + 22 * len(lines)
    tspans = "".join(f'<tspan x="16" dy="{22 if i else 0}">{escape(line)}</tspan>' for i, line in enumerate(lines))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="{p.background}"/>'
        f"<text x='16' y='30' font-family='{FONT}' font-size='15' "
        f"fill='{p.text}'>{tspans}</text></svg>"
    )


def _wrap(text: str, width: int) -> list[str]:
    """Words into lines of about `width` characters (a Hangul character counted as two)."""
    lines: list[tuple[str, int]] = []  # (line, its width)
    for word in text.split():
        size = sum(2 if ord(c) >= 0x1100 else 1 for c in word)
        if lines and lines[-1][1] + 1 + size <= width:
            lines[-1] = (f"{lines[-1][0]} {word}", lines[-1][1] + 1 + size)
        else:
            lines.append((word, size))
    return [line for line, _ in lines] or [""]


def message_png(text: str, theme: str, *, scale: float = DEFAULT_SCALE) -> bytes:
    """message_svg as a PNG (the PNG button's file when its picture could not be made)."""
    import vl_convert

    return vl_convert.svg_to_png(message_svg(text, theme), scale=scale)
