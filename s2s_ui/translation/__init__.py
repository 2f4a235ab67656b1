"""The Translation lab's page pieces: settings (widgets -> config and the typed Korean sentence), specs (the map with
its true-source marks, the three cells' curves, cached by value), picture (the map with its output, reference and
alignment score), sections (the tabs under it) and cells (RNN vs LSTM vs GRU, three jobs). Training, the queue and
the live progress are the Training lab's (s2s_ui/training/live.py)."""
