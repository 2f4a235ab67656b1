"""Which axes of a Vega-Lite spec leave the order of their categories to Vega (issue 24: scrambled maps).

Vega orders a nominal or ordinal axis by itself (alphabetically, or by first appearance with `sort: null`), and
after Streamlit swaps a chart's data in place the old categories can come first: columns s5, s1, s2, ….
Every such axis in the app names its order: a `sort` list, a sort by another field, or a scale `domain` list.
"""

from __future__ import annotations

import json
from typing import Any

ORDERED_CHANNELS = ("x", "y", "row", "column", "facet", "xOffset", "yOffset")


def _has_order(channel: dict[str, Any]) -> bool:
    sort = channel.get("sort")
    if isinstance(sort, list) and sort:
        return True
    if isinstance(sort, dict) and sort.get("field"):
        return True
    domain = (channel.get("scale") or {}).get("domain")
    return isinstance(domain, list) and bool(domain)


def unordered_axes(spec: dict[str, Any] | str, where: str = "") -> list[str]:
    """Every nominal/ordinal positional channel without an explicit order, as "path.channel(field)"."""
    if isinstance(spec, str):
        spec = json.loads(spec)
    found: list[str] = []
    encoding = spec.get("encoding")
    if isinstance(encoding, dict):
        for name in ORDERED_CHANNELS:
            channel = encoding.get(name)
            if (
                isinstance(channel, dict)
                and channel.get("field")
                and channel.get("type") in ("nominal", "ordinal")
                and not _has_order(channel)
            ):
                found.append(f"{where}.{name}({channel['field']})")
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for i, child in enumerate(spec.get(key) or []):
            found += unordered_axes(child, f"{where}.{key}[{i}]")
    if isinstance(spec.get("spec"), dict):
        found += unordered_axes(spec["spec"], f"{where}.spec")
    return found
