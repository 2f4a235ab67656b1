"""The encoder–decoder page's pieces: specs (the run and its charts cached by value) and sections (the tabs)."""
