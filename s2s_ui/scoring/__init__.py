"""The Bahdanau-vs-Luong page's pieces: settings (widgets -> config), specs (results and pictures cached by value),
sections (the folded tabs: every function, keys vs values, windows, the step's wiring)."""
