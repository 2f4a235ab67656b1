"""s2s_core: the real computations behind every page; pure Python + torch, never streamlit.

Shape legend used in every module (annotate each tensor line with it):
    B  batch size              S  source length (time steps)   T  target length
    E  embedding / input size  H  hidden size                  D  vector size of a value
    L  num_layers              K  num_directions (1 or 2)      V  vocabulary size

Layout: one module (or small sub-package) per concept. Each has a frozen @dataclass config,
pure functions, and a result dataclass returning every intermediate its page shows.
Bad input raises s2s_core.errors.InputError, whose message key the UI translates.
"""

from s2s_core.errors import InputError

__all__ = ["InputError"]
