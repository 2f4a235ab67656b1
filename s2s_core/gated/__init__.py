"""What the two gated-cell pages (LSTM, GRU) share: the input sequence, gate overrides, weight blocks, frames,
charts, the DOT diagram helpers and the script pieces. Neither cell's own math lives here."""
