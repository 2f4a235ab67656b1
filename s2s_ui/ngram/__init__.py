"""The next-token page's pieces: specs (the core's results and the charts, cached by value), sections (the tabs
under the picture, each computing what it shows), embedding (the counting-vs-embedding sub-lab and its inputs)."""
