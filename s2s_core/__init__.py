"""s2s_core: the real computations behind every page; pure Python + torch, never streamlit.

Shape legend used in every module (annotate each tensor line with it):
    B  batch size              S  source length (time steps)   T  target length
    E  embedding / input size  H  hidden size                  D  vector size of a value
    L  num_layers              K  num_directions (1 or 2)      V  vocabulary size

Layout: one module (or small sub-package) per concept. Each has a frozen @dataclass config,
pure functions, and a result dataclass returning every intermediate its page shows.
Bad input raises s2s_core.errors.InputError, whose message key the UI translates.

The notebook API (s2s_core/show): `from s2s_core import show_lstm, show_gru, show_rnn, show_attention,
show_shapes`, each a page's picture for a practitioner's own module or weights. Loaded on first use (PEP 562), so
importing one core module does not import every page's charts.
"""

from typing import Any

from s2s_core.errors import InputError

_SHOW = ("show_lstm", "show_gru", "show_rnn", "show_attention", "show_shapes", "Shown", "ShowError", "AttentionMap")
__all__ = ["InputError", *_SHOW]


def __getattr__(name: str) -> Any:
    if name in _SHOW:
        from s2s_core import show

        return getattr(show, name)
    raise AttributeError(f"module 's2s_core' has no attribute {name!r}")
