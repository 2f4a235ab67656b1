"""RNN unrolling (seed §2): h_t = tanh(W_x·x_t + W_h·h_(t-1) + b), step by step, checked against nn.RNN."""

from s2s_core.rnn.compute import RnnConfig, RnnResult, parse_config, seeded_weights, unroll

__all__ = ["RnnConfig", "RnnResult", "parse_config", "seeded_weights", "unroll"]
