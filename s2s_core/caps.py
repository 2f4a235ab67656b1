"""Hard caps on every size the learner controls; enforced by the core (a URL can carry any value)."""

MAX_TEXT_CHARS = 400  # one sentence typed by the learner
MAX_CORPUS_CHARS = 4000  # a whole editable corpus
MAX_TOKENS = 24  # tokens in one sentence
MAX_BATCH = 8  # B
MAX_SEQ_LEN = 24  # S or T
MAX_EMBED = 16  # E
MAX_HIDDEN = 16  # H
MAX_LAYERS = 4  # L
MAX_MATRIX_ROWS = 16  # rows of an editable table
MAX_MATRIX_COLS = 16  # columns of an editable table
MAX_ABS_VALUE = 1e6  # any number typed into a table
MAX_BPTT_STEPS = 60  # T on the backprop-through-time page
MAX_SEED = 2**31 - 1
