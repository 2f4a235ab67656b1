"""Altair helpers every chart module shares: the fit-to-width autosize and plain-record inline data."""

from __future__ import annotations

import altair as alt
import pandas as pd

# Streamlit fits a "container"-wide chart in both directions, squeezing title, legend and axes into the
# height; fitting only x keeps the plot area as tall as asked (and the width follows the page column).
FIT_X = alt.AutoSizeParams(type="fit-x", contains="padding")


def records(frame: pd.DataFrame) -> alt.InlineData:
    """A tidy frame as plain inline records: Altair sanitises and deep-copies a DataFrame, which costs more
    than building the chart itself."""
    return alt.InlineData(values=frame.to_dict("records"))
