"""Benchmark baseline: a bare Streamlit page with one small torch computation and one Altair chart.

No i18n, no router: what any Streamlit page costs on this machine, for the benchmark's ratios."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st
import torch

st.title("Baseline")
n = st.number_input("rows", min_value=1, max_value=8, value=3, step=1, key="base_n", bind="query-params")

# 1) One small torch computation: softmax over a seeded (n, 4) score matrix.
torch.manual_seed(int(n))
weights = torch.softmax(torch.randn(int(n), 4), dim=-1)  # (n, 4)

# 2) One chart of it, as a tidy frame.
frame = pd.DataFrame(
    [{"row": f"r{i + 1}", "col": f"c{j + 1}", "weight": float(weights[i, j])} for i in range(int(n)) for j in range(4)]
)
st.altair_chart(
    alt.Chart(frame).mark_rect().encode(x="col:N", y="row:N", color="weight:Q", tooltip=["row", "col", "weight"]),
    width="content",
)
st.markdown(f"sum of row 1 = {float(weights[0].sum()):.4f}")
