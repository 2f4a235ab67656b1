"""The inputs of the next-token page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field
from s2s_core.ngram.examples import EXAMPLES

MIN_N, MAX_N = 1, 4  # the window: 4 already leaves most of a tiny corpus's 4-grams unseen
K_MIN, K_MAX = 0.01, 10.0  # add-k smoothing constant
DEFAULT_N = 3
DEFAULT_K = 1.0
DEFAULT_SEED = 0
WIN_HIDDEN_MIN, WIN_HIDDEN_MAX = 2, 32  # the window network's hidden layer
DEFAULT_WIN_HIDDEN = 12
TABS = ("sentence", "sparsity", "window", "network", "embedding", "tables", "code", "notice")


def _by_lang(part: str) -> tuple[tuple[str, str], ...]:
    """One example text per language (s2s_core/ngram/examples.py): each language's own leaves no parameter."""
    return tuple((code, getattr(example, part)) for code, example in EXAMPLES.items())


def _older(part: str) -> tuple[str, ...]:
    """The link keys of the time when each language kept its own text field ("ngram_corpus_ko")."""
    return tuple(f"ngram_{part}_{code}" for code in EXAMPLES)


CORPUS = Field(
    "ngram_corpus",
    "text",
    label="ngram.field.corpus",
    by_lang=_by_lang("corpus"),
    max_chars=caps.MAX_CORPUS_CHARS,
    aliases=_older("corpus"),
)
N = Field("ngram_n", "int", DEFAULT_N, "ngram.field.n", lo=MIN_N, hi=MAX_N)
PREFIX = Field("ngram_prefix", "text", label="ngram.field.prefix", by_lang=_by_lang("prefix"), aliases=_older("prefix"))
SENTENCE = Field(
    "ngram_sentence", "text", label="ngram.field.sentence", by_lang=_by_lang("sentence"), aliases=_older("sentence")
)
SMOOTH = Field("ngram_smooth", "bool", False, "ngram.field.smoothing")
K = Field("ngram_k", "float", DEFAULT_K, "ngram.field.k", lo=K_MIN, hi=K_MAX)
# The embedding tab's own two inputs (drawn inside that tab; the code tab reads them too).
PAIR = Field("ngram_pair", "text", label="ngram.field.pair", by_lang=_by_lang("pair"), aliases=_older("pair"))
EMB_SEED = Field("ngram_emb_seed", "int", DEFAULT_SEED, "ngram.field.emb_seed", lo=0, hi=caps.MAX_SEED)
# The window network tab's own two inputs (drawn inside that tab; its window is the page's n - 1).
WIN_HIDDEN = Field(
    "ngram_win_hidden", "int", DEFAULT_WIN_HIDDEN, "ngram.field.win_hidden", lo=WIN_HIDDEN_MIN, hi=WIN_HIDDEN_MAX
)
WIN_SEED = Field("ngram_win_seed", "int", DEFAULT_SEED, "ngram.field.win_seed", lo=0, hi=caps.MAX_SEED)
TAB = Field("ngram_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (CORPUS, N, PREFIX, SENTENCE, SMOOTH, K, PAIR, EMB_SEED, WIN_HIDDEN, WIN_SEED, TAB)
