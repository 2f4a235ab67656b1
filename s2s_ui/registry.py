"""Every planned page: its file, URL path, group and catalog namespace. app.py lists only those that exist."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class PageSpec:
    ns: str  # catalog namespace: locales/<lang>/<ns>.toml holds title, intro, ...
    file: str  # path relative to the repo root
    url: str  # url_path: always the file's stem (see PAGES)
    group: str  # nav group key under "nav.group_*"
    icon: str

    @property
    def exists(self) -> bool:
        return (ROOT / self.file).is_file()


# Each URL path equals its file's stem. A fresh server runs in Streamlit's pages/-folder mode until app.py
# has run once, and in that mode a first deep link whose path is not a file name under pages/ shows
# "Page not found" (tests/test_architecture.py keeps the rule; s2s_ui/frame.py handles the rest).
PAGES: tuple[PageSpec, ...] = (
    PageSpec("home", "pages/home.py", "home", "start", ":material/home:"),
    PageSpec("ngram", "pages/ngram.py", "ngram", "foundations", ":material/format_list_numbered:"),
    PageSpec("rnn", "pages/rnn.py", "rnn", "foundations", ":material/repeat:"),
    PageSpec("bptt", "pages/bptt.py", "bptt", "foundations", ":material/trending_down:"),
    PageSpec("lstm", "pages/lstm.py", "lstm", "gated", ":material/door_sliding:"),
    PageSpec("gru", "pages/gru.py", "gru", "gated", ":material/call_split:"),
    PageSpec("shapes", "pages/shapes.py", "shapes", "pytorch", ":material/view_in_ar:"),
    PageSpec("seq2seq", "pages/seq2seq.py", "seq2seq", "seq2seq", ":material/link:"),
    PageSpec("attention", "pages/attention.py", "attention", "seq2seq", ":material/center_focus_strong:"),
    PageSpec("scoring", "pages/scoring.py", "scoring", "seq2seq", ":material/balance:"),
    PageSpec("masks", "pages/masks.py", "masks", "seq2seq", ":material/masks:"),
    PageSpec("training", "pages/training.py", "training", "seq2seq", ":material/model_training:"),
    PageSpec("translation", "pages/translation.py", "translation", "seq2seq", ":material/translate:"),
)

GROUPS: tuple[str, ...] = ("start", "foundations", "gated", "pytorch", "seq2seq")


def existing_pages() -> list[PageSpec]:
    return [p for p in PAGES if p.exists]
