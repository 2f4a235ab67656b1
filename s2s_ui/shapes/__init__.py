"""The tensor-shapes page's pieces: specs (results and charts cached by value), sections (the tabs that read the
page's run), bridge and failure (the two tabs with inputs of their own), drill (predict the shape)."""
