"""The next-token page's default inputs in each language: corpus, prefix, sentence to score, word pair.

Examples in the learner's language: the English page opens on an English corpus, the Korean page on a Korean one
(오늘 점심에 → 김밥을 2, 라면을 1, 친구를 1), which stays one "try this" click away in English. Each language's own
example leaves no parameter in a shared link.

Of these, only the prefix 오늘 점심에 is the study note's (§1 asks what follows it); the corpora, the sentences and
the pairs are written for this page: the note gives no corpus and no counts. SYLLABUS_QUOTES lists what the page
quotes from the note, and the tests check each is in it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    corpus: str  # one sentence per line
    prefix: str
    sentence: str
    pair: str  # "previous next" for the embedding section


EXAMPLES = {
    "ko": Example(
        corpus=(
            "오늘 점심에 김밥을 먹었다\n"
            "오늘 점심에 김밥을 샀다\n"
            "오늘 점심에 라면을 먹었다\n"
            "오늘 점심에 친구를 만났다\n"
            "어제 점심에 라면을 끓였다\n"
            "어제 저녁에 김밥을 먹었다\n"
            "내일 점심에 라면을 먹는다\n"
            "내일 저녁에 친구를 만난다"
        ),
        prefix="오늘 점심에",
        sentence="어제 점심에 라면을 먹었다",
        pair="라면을 샀다",
    ),
    "en": Example(
        corpus=(
            "today at lunch we ate noodles\n"
            "today at lunch we ate rice\n"
            "today at lunch we made noodles\n"
            "today at lunch I met a friend\n"
            "yesterday at lunch I made soup\n"
            "yesterday at dinner we ate rice\n"
            "tomorrow at lunch we eat noodles\n"
            "tomorrow at dinner I meet a friend"
        ),
        prefix="at lunch",
        sentence="yesterday at lunch we ate noodles",
        pair="made rice",
    ),
}


# The only words the page quotes from the study note (in the Korean try-this note): §1's example prefix.
SYLLABUS_QUOTES = ("오늘 점심에",)


def default_example(lang: str) -> Example:
    """The example in the learner's language (English for a language without its own)."""
    return EXAMPLES.get(lang, EXAMPLES["en"])
