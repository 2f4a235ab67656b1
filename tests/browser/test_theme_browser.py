"""The theme follows the viewer's light or dark preference, the viewer can switch it, and chart text keeps
≥ 4.5:1 contrast on either background (.streamlit/config.toml [theme.light] / [theme.dark]; s2s_ui/charts.py).

The attention page is the reference: its picture is on the first screen, with axis labels and titles.
"""

from __future__ import annotations

import pytest

from s2s_ui.charts import contrast
from tests.browser.harness import DESKTOP, charts_drawn, open_page, settle

pytestmark = pytest.mark.browser

# The app's background, the first chart's axis labels and title, and a text label drawn on the page (not in a
# cell), as computed colours "rgb(r, g, b)": what the eye gets, whatever set it.
COLOURS = """() => {
  const rgb = e => e ? getComputedStyle(e).fill : null;
  const chart = document.querySelector('[data-testid="stVegaLiteChart"] svg');
  return {
    background: getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor,
    axis: rgb(chart.querySelector('.role-axis-label text')),
    title: rgb(chart.querySelector('.role-title-text text, .role-axis-title text')),
  };
}"""


def parse(css: str) -> tuple[int, int, int]:
    return tuple(int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])  # type: ignore[return-value]


def luminance_is_dark(rgb: tuple[int, int, int]) -> bool:
    return contrast(rgb, (0, 0, 0)) < contrast(rgb, (255, 255, 255))


def colours_after_draw(page) -> dict[str, tuple[int, int, int]]:
    charts_drawn(page, at_least=1)
    return {k: parse(v) for k, v in page.evaluate(COLOURS).items() if v}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_theme_follows_the_viewers_preference_and_chart_text_contrasts(app_server, browser, scheme):
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "attention", "en")
        seen = colours_after_draw(page)
        assert luminance_is_dark(seen["background"]) == (scheme == "dark"), seen
        for part in ("axis", "title"):
            ratio = contrast(seen[part], seen["background"])
            assert ratio >= 4.5, f"{scheme}: chart {part} text {seen[part]} on {seen['background']} is {ratio:.2f}:1"
    finally:
        context.close()


def test_the_viewer_can_switch_the_theme_in_the_menu(app_server, browser):
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "attention", "en")
        assert not luminance_is_dark(colours_after_draw(page)["background"])
        page.click('[data-testid="stMainMenuButton"]')
        page.click('[data-testid="stMainMenuItem-theme-Dark"]')
        settle(page)
        page.wait_for_function(
            """() => {
                const [r, g, b] = getComputedStyle(document.querySelector('[data-testid="stApp"]'))
                    .backgroundColor.match(/\\d+/g).map(Number);
                return r + g + b < 150;
            }""",
            timeout=30_000,
        )
        seen = colours_after_draw(page)
        assert contrast(seen["axis"], seen["background"]) >= 4.5, seen  # the charts followed the switch at once
    finally:
        context.close()
