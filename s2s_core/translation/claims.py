"""The Translation lab's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state, without
training anything.

A lesson step must not start a training, and a claim must be quick and the same on every machine, so every claim
here reads the toy grammar (the reference, its alignment, its size), the settings, or the seeded untrained model
the page draws until Train is pressed. `config_of` and `source_of` read a state as the page reads its controls
(s2s_ui/translation/settings.py `read_settings`, `read_sentence`): the same fields, `lab_config` and `parse_source`.

Shapes: T English words, S Korean words.
"""

from __future__ import annotations

from functools import lru_cache

from s2s_core.fmt import num
from s2s_core.grammar import KO_VOCAB, MAX_WORDS, MIN_WORDS, NEGATION, Pair, count_meanings, translate
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.training.compute import SourceInput, parse_source, untrained_map
from s2s_core.training.config import TrainConfig
from s2s_core.training.frames import join_tokens, position_label
from s2s_core.training.notes import untrained_reading
from s2s_core.training.tasks import KO_EN
from s2s_core.training.trace import MapPoint
from s2s_core.translation import fields
from s2s_core.translation.lab import lab_config


def config_of(state: LinkState) -> TrainConfig:
    return lab_config(
        attention=state.value(fields.ATTENTION),
        cell=state.value(fields.CELL),
        steps=state.value(fields.STEPS),
        seed=state.value(fields.SEED),
        hidden=state.value(fields.HIDDEN),
    )


def source_of(state: LinkState) -> SourceInput:
    return parse_source(KO_EN, state.value(fields.SOURCE), field=fields.SOURCE.label)


def _pair(state: LinkState) -> Pair:
    """The typed sentence's pair in the toy grammar (a lesson's sentence is always one the grammar makes)."""
    found = translate(list(source_of(state).tokens))
    if found is None:
        raise ValueError("the step's sentence is outside the toy grammar")
    return found


@lru_cache(maxsize=64)
def _untrained(config: TrainConfig, source: SourceInput) -> MapPoint:
    """The page's untrained picture (s2s_ui/training/specs.py `untrained`), kept: each claim is asked in two
    languages and again by the step's AppTest."""
    return untrained_map(config, source)


def _column(pair: Pair, s: int) -> str:
    """A Korean word's column on the map, as the map names it ("s4 · 읽었다")."""
    return position_label(s, pair.ko[s])


def _verb(pair: Pair) -> dict[str, str]:
    """The main verb: its English word and row, the Korean word it translates and that word's column."""
    s = pair.align[pair.verb_row]
    return {
        "verb": pair.en[pair.verb_row],
        "row": str(pair.verb_row + 1),
        "ko_verb": pair.ko[s],
        "column": _column(pair, s),
        "last": f"s{len(pair.ko)}",
    }


@claim("translation:crossing")
def crossing(state: LinkState, reference: str) -> ClaimResult:
    """The reference of the typed sentence is `reference`, and its main verb translates the LAST Korean word: the
    verb's row has to reach back to the last column, so a right alignment crosses (SOV -> SVO)."""
    pair = _pair(state)
    got = join_tokens(KO_EN, pair.en)
    last = pair.align[pair.verb_row] == len(pair.ko) - 1
    values = {"korean": " ".join(pair.ko), "reference": got, **_verb(pair)}
    return ClaimResult(got == reference and last, values, shown=(got, values["column"]))


@claim("translation:verb_source")
def verb_source(state: LinkState, position: str) -> ClaimResult:
    """The main verb's row should weigh column `position` ("s4") most: the Korean word it translates. The answer:
    "last", "first" or "inside" (where that column is)."""
    pair = _pair(state)
    s = pair.align[pair.verb_row]
    where = "last" if s == len(pair.ko) - 1 else "first" if s == 0 else "inside"
    values = {"reference": join_tokens(KO_EN, pair.en), **_verb(pair)}
    return ClaimResult(f"s{s + 1}" == position, values, shown=(values["column"],), answer=where)


@claim("translation:time_word")
def time_word(state: LinkState, time_en: str) -> ClaimResult:
    """The Korean time word stands second (right after the subject) and its English, `time_en`, is the English
    sentence's last word: the second crossing. A negated sentence also names what 안 becomes."""
    pair = _pair(state)
    rows = [t for t, s in enumerate(pair.align) if s == 1]  # English words from the second Korean word
    moved = pair.meaning.time is not None and rows == [len(pair.en) - 1]
    negation = [w for w, s in zip(pair.en, pair.align, strict=True) if s is not None and pair.ko[s] == NEGATION]
    values = {
        "time_ko": pair.ko[1],
        "time_en": pair.en[-1],
        "time_column": _column(pair, 1),
        "reference": join_tokens(KO_EN, pair.en),
        "negation": " ".join(negation),
        **_verb(pair),
    }
    return ClaimResult(moved and pair.en[-1] == time_en, values, shown=(values["reference"], values["time_column"]))


@claim("translation:grammar")
def grammar(state: LinkState, n: int) -> ClaimResult:
    """The toy grammar makes `n` sentences of MIN_WORDS..MAX_WORDS Korean words (the Toy grammar tab's count)."""
    del state  # the grammar is the same on every state of the page
    got = count_meanings(MIN_WORDS, MAX_WORDS)
    text = f"{got:,}"  # as the tab writes it
    values = {"n": text, "words": str(len(KO_VOCAB)), "lo": str(MIN_WORDS), "hi": str(MAX_WORDS)}
    return ClaimResult(got == n, values, shown=(text,))


@claim("translation:untrained")
def untrained(state: LinkState) -> ClaimResult:
    """The untrained model's map of the sentence is spread (no weight above 1.5 times the even share) and its
    English is wrong: what the page's untrained title and note say."""
    config, source = config_of(state), source_of(state)
    point = _untrained(config, source)
    if point.weights is None:
        return ClaimResult(False, {})
    reading = untrained_reading(point)
    output = join_tokens(KO_EN, point.output)
    values = {"largest": num(reading.largest), "uniform": num(reading.uniform), "output": output}
    return ClaimResult(bool(reading.even) and not reading.exact, values, shown=(output,))


@claim("translation:no_attention")
def no_attention(state: LinkState) -> ClaimResult:
    """Without attention there is no map: the decoder reads the sentence's S words only through one vector of H
    numbers, the encoder's last state."""
    config, source = config_of(state), source_of(state)
    point = _untrained(config, source)
    reference = join_tokens(KO_EN, _pair(state).en)
    values = {"n": str(len(source.tokens)), "hidden": str(config.hidden), "reference": reference}
    return ClaimResult(point.weights is None, values, shown=(reference,))
