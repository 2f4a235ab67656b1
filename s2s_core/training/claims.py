"""The Training lab's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state, without
training anything.

A lesson step must not start a training, and a claim must be quick and the same on every machine, so every claim
here reads what the page shows before (or whatever) it trains: the task's right answer for the typed source, the
settings, and the seeded untrained model (the picture the page draws until Train is pressed; the same initial
weights training starts from). `config_of` and `source_of` read a state as the page reads its controls
(s2s_ui/training/settings.py `read_settings`, `read_source`): the same fields, the same `parse_config` and
`parse_source`.

Shapes: T output steps, S source positions.
"""

from __future__ import annotations

from functools import lru_cache

from s2s_core.fields import Field
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.training import fields
from s2s_core.training.compute import SourceInput, parse_config, parse_source, untrained_map
from s2s_core.training.config import TrainConfig
from s2s_core.training.frames import join_tokens, position_label
from s2s_core.training.tasks import NUM_TASKS, PAD, target_tokens
from s2s_core.training.trace import MapPoint, source_family

COPYING = ("reverse", "copy", "sort")  # the tasks whose every output digit is one of the source's digits


def config_of(state: LinkState) -> TrainConfig:
    """The settings as read_settings reads them: the number tasks' lengths are their own two fields."""
    task = state.value(fields.TASK)
    shortest, longest = (fields.NUM_MIN, fields.NUM_MAX) if task in NUM_TASKS else (fields.LEN_MIN, fields.LEN_MAX)
    return parse_config(
        task=task,
        attention=state.value(fields.ATTENTION),
        embed=state.value(fields.EMBED),
        hidden=state.value(fields.HIDDEN),
        steps=state.value(fields.STEPS),
        batch=state.value(fields.BATCH),
        lr=state.value(fields.LR),
        tf_ratio=state.value(fields.TF_RATIO),
        tf_schedule=state.value(fields.SCHEDULE),
        min_len=state.value(shortest),
        max_len=state.value(longest),
        seed=state.value(fields.SEED),
        max_seconds=state.value(fields.TIME_LIMIT),
    )


def source_field(task: str) -> Field:
    """The source box of a task's family (one link key each), as s2s_ui/training/settings.py picks it."""
    return {"number": fields.NUMBER, "names": fields.NAMES_SOURCE}.get(source_family(task), fields.SOURCE)


def source_of(state: LinkState, config: TrainConfig) -> SourceInput:
    return parse_source(config.task, state.value(source_field(config.task)))


@lru_cache(maxsize=64)
def _untrained(config: TrainConfig, source: SourceInput) -> MapPoint:
    """The page's untrained picture (s2s_ui/training/specs.py `untrained`), kept: each claim is asked in two
    languages and again by the step's AppTest."""
    return untrained_map(config, source)


def _answer(config: TrainConfig, source: SourceInput) -> str:
    """The right answer as the page writes it beside the map ("Right answer: **70931825**")."""
    return join_tokens(config.task, tuple(target_tokens(config.task, list(source.tokens))))


@claim("training:target")
def target(state: LinkState, expected: str) -> ClaimResult:
    """The right answer for the typed source is `expected` (as written beside the map); for a copying task, also
    the source position that output step t1 must write from (its first digit's place in the source)."""
    config = config_of(state)
    source = source_of(state, config)
    answer = _answer(config, source)
    first = target_tokens(config.task, list(source.tokens))[0]
    values = {"source": join_tokens(config.task, source.tokens), "expected": answer, "first": first}
    if config.task in COPYING:
        values["position"] = position_label(_first_source(config, source), first)
    return ClaimResult(answer == expected, values, shown=(answer,))


def _first_source(config: TrainConfig, source: SourceInput) -> int:
    """0-based source position of the digit output step t1 writes: the last for reverse, the first for copy; for
    sort, where the smallest digit stands (its first copy)."""
    if config.task == "reverse":
        return len(source.tokens) - 1
    return source.tokens.index(target_tokens(config.task, list(source.tokens))[0])


@claim("training:first_source")
def first_source(state: LinkState, position: str) -> ClaimResult:
    """Output step t1 writes the digit at source position `position` ("s10"): the column a trained map's first row
    should weigh most. The answer: "last", "first" or "inside" (where that column is)."""
    config = config_of(state)
    source = source_of(state, config)
    if config.task not in COPYING:  # a number's words are read from digits and places: no one column to copy
        return ClaimResult(False, {}, answer="inside")
    s = _first_source(config, source)
    n = len(source.tokens)
    label = f"s{s + 1}"
    where = "last" if s == n - 1 else "first" if s == 0 else "inside"
    values = {"position": label, "digit": source.tokens[s], "n": str(n), "expected": _answer(config, source)}
    return ClaimResult(label == position, values, shown=(position_label(s, source.tokens[s]),), answer=where)


@claim("training:fed_input")
def fed_input(state: LinkState, own: str, true: str) -> ClaimResult:
    """Step t2's input two ways, on the untrained model the picture shows: running free (the model's own t1
    output, `own`) and teacher forced (the right answer's first digit, `true`); they differ. The answer to "what is
    t2 fed while training at this ratio?": "own" at ratio 0, "true" at ratio 1, "mixed" between."""
    config = config_of(state)
    source = source_of(state, config)
    point = _untrained(config, source)
    got_own, got_true = point.output[0], target_tokens(config.task, list(source.tokens))[0]
    answer = "true" if config.tf_ratio >= 1.0 else "own" if config.tf_ratio <= 0.0 else "mixed"
    output = join_tokens(config.task, point.output)
    values = {"own": got_own, "true": got_true, "output": output, "expected": _answer(config, source)}
    holds = (got_own, got_true) == (own, true) and got_own != got_true
    return ClaimResult(holds, values, shown=(output, _answer(config, source)), answer=answer)


@claim("training:no_attention")
def no_attention(state: LinkState) -> ClaimResult:
    """Without attention the model has no map (the untrained model's decode has no weights): the decoder reads the
    source's n digits only through one vector of H numbers, the encoder's final state."""
    config = config_of(state)
    source = source_of(state, config)
    point = _untrained(config, source)
    values = {"n": str(len(source.tokens)), "hidden": str(config.hidden), "expected": _answer(config, source)}
    return ClaimResult(point.weights is None, values, shown=(_answer(config, source),))


@claim("training:pad_zero")
def pad_zero(state: LinkState) -> ClaimResult:
    """The typed PAD positions get weight exactly 0 at every output step (masked before the softmax), on the map
    the page draws before training; a source with no PAD does not hold."""
    config = config_of(state)
    source = source_of(state, config)
    point = _untrained(config, source)
    n = len(source.tokens)
    pads = [s for s, tok in enumerate(point.source) if tok == PAD]
    zero = point.weights is not None and bool(pads) and all(row[s] == 0.0 for row in point.weights for s in pads)
    labels = [position_label(s, PAD) for s in pads]
    values = {"n_pad": str(len(pads)), "first_pad": f"s{n + 1}", "n": str(n)}
    return ClaimResult(zero, values, shown=tuple(labels))
