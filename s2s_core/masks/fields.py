"""The inputs of the padding & masks page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

MAX_PAIRS = 4  # B: sentence pairs in the batch
MAX_CHARS = 120  # characters in one sentence
MIN_SIZE, MAX_SIZE = 2, 8  # E and H
DEFAULT_SEED, DEFAULT_HIDDEN, DEFAULT_EMBED = 0, 4, 4

DEFAULT_PAIRS = (
    ("나는 책을 읽는다", "i read a book"),
    ("고마워", "thanks"),
    ("오늘 점심에 국수를 먹었다", "i had noodles for lunch today"),
)
SPARE_PAIR = ("책을 샀다", "i bought a book")  # what a 4th row starts with when the learner adds one
# The page opens on sentences in the learner's language; the Korean batch (built on the study note's examples
# 나는 → 책을 → 읽는다 and 오늘 점심에) stays the config's default and one "try this" click away in English.
# Same shape in both: lengths 3-4, 1 and 4-6 words, so the short row carries the most PAD.
PAIRS_BY_LANG = {
    "ko": (*DEFAULT_PAIRS, SPARE_PAIR),
    "en": (
        ("i read a book", "je lis un livre"),
        ("thanks", "merci"),
        ("i had noodles for lunch today", "j'ai mangé des nouilles ce midi"),
        ("i bought a book", "j'ai acheté un livre"),
    ),
}
TABS = ("loss", "attention", "final", "batch", "empty", "notice", "code")


def _sentence(side: int, row: int) -> Field:
    """Row `row`'s source (side 0) or target (side 1): one field each, so each row has its own default per language
    (the links name them masks_src_<row> / masks_tgt_<row>, as they always did)."""
    name, role = ("src", "source") if side == 0 else ("tgt", "target")
    return Field(
        f"masks_{name}_{row}",
        "text",
        label=f"masks.field.{role}_{row}",
        max_chars=MAX_CHARS,
        by_lang=tuple((lang, pairs[row - 1][side]) for lang, pairs in PAIRS_BY_LANG.items()),
    )


ROWS = Field("masks_rows", "int", len(DEFAULT_PAIRS), "masks.field.pairs", lo=1, hi=MAX_PAIRS)
SOURCES = tuple(_sentence(0, row) for row in range(1, MAX_PAIRS + 1))
TARGETS = tuple(_sentence(1, row) for row in range(1, MAX_PAIRS + 1))
SEED = Field("masks_seed", "int", DEFAULT_SEED, "masks.field.seed", lo=0, hi=caps.MAX_SEED)
HIDDEN = Field("masks_hidden", "int", DEFAULT_HIDDEN, "masks.field.hidden", lo=MIN_SIZE, hi=MAX_SIZE)
EMBED = Field("masks_embed", "int", DEFAULT_EMBED, "masks.field.embed", lo=MIN_SIZE, hi=MAX_SIZE)
# The sentence the attention and final-state tabs show (a row number as typed), and the one the picture's slider
# shows (a 1-based place in the batch). Both open on the sentence with the most PAD, which depends on the batch:
# the page passes that default in (s2s_core.masks.compute.most_pad); the values here only bound them.
ROW = Field("masks_row", "choice", 1, "masks.field.inspect", options=tuple(range(1, MAX_PAIRS + 1)))
PICK = Field("masks_pick", "step", 1, "masks.field.inspect", lo=1, hi=MAX_PAIRS)
TAB = Field("masks_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (ROWS, *SOURCES, *TARGETS, SEED, HIDDEN, EMBED, ROW, PICK, TAB)
