"""The shapes picture's layout in pixels: no label runs into another or off the chart on a 390 px phone or at 1280 px.

The picture's x scale is in slots and fits the container, while text keeps its pixel size, so a layout that
looks fine on a desktop can collide on a phone (the depth labels ran into the next block, the last one off the
right edge, two "PAD" words read "PADPAD"). These tests place each label the way the spec does, at the chart
widths measured in Chromium (358 px on a 390 px phone, 563 px at 1280 px), with text widths a little above
the ones Chromium measured for these fonts. tests/browser/test_shapes_browser.py measures the drawn SVG too.
"""

from __future__ import annotations

import itertools

import pytest

from s2s_core.catalog import translate
from s2s_core.chartkit import lines
from s2s_core.shapes import ShapesConfig, parse_config, run_shapes
from s2s_core.shapes.picture import (
    CELL,
    CHAR_PX,
    DEPTH_Y,
    FILLED,
    ROW_PX,
    SIDE_PX,
    TITLE_WIDTH,
    TOP_Y,
    TURNED_MIN_PX,
    WORDS,
    picture_frames,
    shape_picture,
)

WIDTHS = (358, 563)  # the picture's width on a 390 px phone and beside the controls at 1280 px
SMALL_PX, BOLD_PX = 6.6, 7.0  # per character: 11 px labels ("K·H=6" measured 5.4), 12 px bold ("S=3" 6.5)
LINE_PX = 5.8  # per character of a long 12 px bold line (measured 5.0-5.4: spaces are narrow)
HANGUL_PX = 12.5  # a Hangul syllable at 12 px (the 16 px title's measured 281 px for its 8 keep under this too)
TURNED_PX = 16  # the across-width of a turned 12 px bold side label, as drawn
CONFIGS = {
    "defaults": ShapesConfig(),
    "padded": parse_config(lengths="3, 1"),
    "packed": parse_config(lengths="3, 1", packed=True),
    "time_first": parse_config(lengths="3, 1", batch_first=False),
    "stacked": parse_config(num_layers=2, bidirectional=True),
    "wide": parse_config(B=4, S=8, H=12, lengths="8, 5, 2, 1", bidirectional=True),
    "narrow": parse_config(B=1, S=1, E=1, H=1, cell="GRU"),
}


def _text_px(text: str, latin: float) -> float:
    return sum(HANGUL_PX if ord(ch) >= 0x1100 else latin for ch in text)


def _boxes_apart(boxes: list[tuple[float, float]], what: str) -> None:
    boxes = sorted(boxes)
    for (a0, a1), (b0, b1) in itertools.pairwise(boxes):
        assert a1 + 1 <= b0, f"{what}: [{a0:.0f}, {a1:.0f}] runs into [{b0:.0f}, {b1:.0f}]"


@pytest.mark.parametrize("name", CONFIGS)
def test_labels_stay_apart_and_inside_the_chart(name):
    p = picture_frames(run_shapes(CONFIGS[name]))
    blocks = p.blocks.to_dict("records")
    for width in WIDTHS:
        slot = width / p.span

        def px(x: float, slot: float = slot) -> float:
            return (x + p.margins[0]) * slot

        # 1) depth labels: right-aligned at the shadow's right edge, in their own row
        depths = [(px(b["x2"] + 0.35) - len(b["depth"]) * SMALL_PX, px(b["x2"] + 0.35)) for b in blocks]
        # 2) the top sides' names, centred over the faces
        tops = []
        for b in blocks:
            mid, half = px((b["x"] + b["x2"]) / 2), len(b["top"]) * BOLD_PX / 2
            tops.append((mid - half, mid + half))
        for what, boxes in (("depth", depths), ("top", tops)):
            assert all(a >= 0 and b <= width for a, b in boxes), f"{name} at {width} px: a {what} label is cut"
            _boxes_apart(boxes, f"{name} at {width} px, {what} labels")
        assert (TOP_Y - DEPTH_Y) * ROW_PX >= (11 + 12) / 2 + 2  # the two rows never touch
        # 3) the turned side labels: inside, clear of the previous block's shadow and of the arrow's head
        for k, b in enumerate(blocks):
            left = px(b["x"] - 0.3) - TURNED_PX
            assert left >= 0, f"{name} at {width} px: {b['side']} is cut"
            if k:
                assert left >= px(blocks[k - 1]["x2"] + 0.35) + 1, f"{name} at {width} px: {b['side']} hits a shadow"
        for arrow in p.arrows.to_dict("records"):
            end = max(px(arrow["x"] + 0.3), px(arrow["x2"]) - arrow["room"])
            assert end - px(arrow["x"]) >= 8, f"{name} at {width} px: an arrow is too short to see"
        into = p.arrows.to_dict("records")[-1]
        outputs = next(b for b in blocks if b["tensor"] == "outputs")
        assert px(into["x2"]) - into["room"] + 2 <= px(outputs["x"] - 0.3) - TURNED_PX  # head before "B=2"
        assert SIDE_PX >= TURNED_PX + 4


@pytest.mark.parametrize("name", ["padded", "packed", "time_first", "wide"])
def test_pad_is_written_once_per_run_and_fits_where_it_is_written(name):
    c = CONFIGS[name]
    p = picture_frames(run_shapes(c))
    short = sum(n < c.S for n in c.lengths)
    assert len(p.pads) == 2 * short  # x and outputs: one label per padded sentence, not one per cell
    assert not p.pads.duplicated(["x", "y"]).any()
    cells = p.cells[p.cells["pad"]]
    assert int(p.pads[p.pads["tensor"] == "x"]["run"].sum()) == int(cells["tensor"].eq("x").sum())
    need = len("PAD") * CHAR_PX
    assert need >= 18.7 + 0.5  # "PAD" measured 18.7 px wide at 11 px in Chromium
    for width in WIDTHS:
        slot = width / p.span
        cell = slot * CELL
        for run in p.pads.to_dict("records"):
            # flat across the grey of the run (its cells and the gaps between them)
            flat = (run["run"] - 1 + CELL if run["along"] == "row" else CELL) * slot >= need
            # turned, it needs the cell's height for its length and the cell's width for its 11 px height
            assert flat or (need <= ROW_PX * CELL and cell >= TURNED_MIN_PX), f"{name} at {width} px: PAD unlabelled"


def test_title_and_text_lines_fit_a_phone_in_both_languages():
    phone = WIDTHS[0]
    for lang in ("en", "ko"):
        title = translate(lang, "shapes.picture.title")  # 16 px: "batch_first flips x…" measured 6.7 px a letter
        for line in lines(title, TITLE_WIDTH):  # the picture wraps its title into lines
            assert _text_px(line, 7.2) <= phone, f"{lang}: the title line {line!r} is cut with an ellipsis on a phone"
        for lhs in ("outputs[:, -1]", "outputs[-1]"):
            for verdict in ("equal", "not_equal"):
                line = translate(lang, "shapes.picture.slice", lhs=lhs, rhs="h_n[-1]")
                line += " " + translate(lang, f"shapes.picture.{verdict}")
                assert 17 + _text_px(line, LINE_PX) <= phone, f"{lang}: {line!r} is cut on a phone"
        heading = translate(lang, "shapes.picture.packed", rows=24 * 8, E=16)  # the largest numbers the caps allow
        assert _text_px(heading, LINE_PX) <= phone, f"{lang}: {heading!r} is cut on a phone"


def test_text_is_in_the_theme_colour_and_roles_are_bars():
    """No hue keeps 4.5:1 on both the light and the dark background, so every label on the page is drawn in the
    theme's text colour; the axes' meanings are coloured bars (graphics need 3:1, which the role hues keep)."""
    from s2s_core.shapes.charts import ROLE_COLORS
    from s2s_ui.charts import DARK_BG, GRAPHIC_CONTRAST, LIGHT_BG, _rgb, contrast

    labels = {k: k for k in WORDS + FILLED}  # exactly the words the page hands the picture
    spec = shape_picture(picture_frames(run_shapes(CONFIGS["packed"])), labels, "equal").to_dict()
    on_cells = {"pad", "sentence"}  # black on the grey / light-blue cells they label
    for layer in spec["layer"]:
        mark = layer["mark"]
        if mark["type"] != "text":
            continue
        text = layer["encoding"]["text"]
        if text.get("value") == "pad" or text.get("field") in on_cells:
            assert mark["color"] == "black"
        else:
            assert mark.get("color") == "currentColor" and "color" not in layer["encoding"], text
    for hue in ROLE_COLORS.values():
        for background in (LIGHT_BG, DARK_BG):
            assert contrast(_rgb(hue), _rgb(background)) >= GRAPHIC_CONTRAST, (hue, background)


def test_every_word_the_page_hands_a_chart_is_in_both_catalogs():
    """The label tuples next to the builders are what the page looks up (s2s_ui/shapes/specs.py): each one exists."""
    from s2s_core.catalog import LANGS, load_catalog
    from s2s_core.shapes.charts import PACKED_LABELS, PADDING_LABELS

    for lang in LANGS:
        catalog = load_catalog(lang)
        for prefix, keys in (
            ("shapes.picture", WORDS + FILLED),
            ("shapes.padding.chart", PADDING_LABELS),
            ("shapes.packed.chart", PACKED_LABELS),
        ):
            assert [k for k in keys if f"{prefix}.{k}" not in catalog] == [], (lang, prefix)


def test_the_panel_words_fit_their_columns_on_a_phone_in_both_languages():
    """The row names fit the names' column, h_n[-1] its column, the heading two lines, every reason line and the
    outputs label the phone's width (the panel is laid out for the phone; a desktop only gives it more room)."""
    from s2s_core.shapes.panel import HEADING_WIDTH, HN_PX, NAME_PX
    from s2s_core.shapes.picture import WHY_WIDTH

    phone = WIDTHS[0]
    assert _text_px("h_n[-1]", BOLD_PX) + 2 <= HN_PX
    for lang in ("en", "ko"):
        for key in ("fwd", "bwd"):
            name = translate(lang, f"shapes.picture.panel.{key}", layer=4)
            assert _text_px(name, BOLD_PX) <= NAME_PX - 4, (lang, name)
        heading = translate(lang, "shapes.picture.panel.heading", b=8, n=24, cell="LSTM")  # the widest numbers
        assert len(lines(heading, HEADING_WIDTH)) <= 2, (lang, heading)  # the panel keeps room for two lines
        for line in lines(heading, HEADING_WIDTH):
            assert _text_px(line, BOLD_PX) <= phone, (lang, line)
        said = translate(lang, "shapes.picture.panel.outputs_bi", lhs="outputs[:, -1]", h="H", size=16)
        assert _text_px(said, BOLD_PX) <= phone, (lang, said)
        for note in ("equal", "equal_layers", "equal_through_pad", "differ_bidirectional", "differ_packed_pad"):
            why = translate(lang, f"shapes.picture.why.{note}", lhs="outputs[:, -1]")
            for line in lines(why, WHY_WIDTH):
                assert _text_px(line, LINE_PX) <= phone, (lang, line)


@pytest.mark.parametrize("name", ["defaults", "padded", "packed", "time_first", "stacked"])
def test_every_shape_caption_is_drawn_on_a_phone(name):
    """The phone left the shapes under the blocks out (issue 25): in three staggered rows they fit. A caption is
    drawn while the live slot is at least its `need` (the slot at which it clears its row's other captions)."""
    spec = shape_picture(picture_frames(run_shapes(CONFIGS[name])), {k: k for k in WORDS + FILLED}).to_dict()
    p = picture_frames(run_shapes(CONFIGS[name]))
    phone_slot = WIDTHS[0] / p.span
    captions = [
        row
        for layer in spec["layer"]
        for row in spec["datasets"].get(layer.get("data", {}).get("name"), [])
        if "need" in row and layer["transform"][0]["filter"].endswith(">= datum.need")
    ]
    assert sorted(c["text"] for c in captions) == sorted(p.blocks["shape"])
    assert all(c["need"] <= phone_slot for c in captions), [(c["text"], c["need"], phone_slot) for c in captions]
