"""Home: no inputs of its own; its tour reads the learning path (s2s_core/path)."""
