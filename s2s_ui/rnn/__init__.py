"""The RNN-unrolling page's cached runs, picture specs and folded sections (pages/rnn.py wires them)."""
