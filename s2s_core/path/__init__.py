"""The learning path drawn on Home: the course's pages as a connected diagram (no streamlit here).

graph.py lays the syllabus's order out in rows and lanes over the pages that exist, frames.py turns that
layout and the page's texts into tidy rows, charts.py draws them as one layered Vega-Lite view.
"""
