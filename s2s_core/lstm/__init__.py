"""LSTM gates: nn.LSTM's own weights split into i, f, g, o, run by hand and checked against nn.LSTM."""

from s2s_core.lstm.compute import LstmConfig, LstmResult, lstm_gates, parse_config

__all__ = ["LstmConfig", "LstmResult", "lstm_gates", "parse_config"]
