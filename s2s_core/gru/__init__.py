"""GRU: nn.GRU's own weights split into r, z, n, run by hand, checked, and compared with the LSTM."""

from s2s_core.gru.compute import GruConfig, GruResult, gru_gates, parse_config

__all__ = ["GruConfig", "GruResult", "gru_gates", "parse_config"]
