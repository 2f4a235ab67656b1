"""The Bahdanau-vs-Luong page's results and pictures, cached by value (one entry per config and language).

Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated against
the schema in tests/core/test_scoring.py instead of on every rerun). Every section fetches what it shows from here.
"""

from __future__ import annotations

from typing import Any

from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.fmt import num, two, vec
from s2s_core.scoring.attend import Read
from s2s_core.scoring.charts import WINDOW_WORDS, page_charts
from s2s_core.scoring.compute import ScoringConfig, ScoringResult, compare
from s2s_core.scoring.fields import SCORERS
from s2s_core.scoring.frames import peak, position_label, softmax_steps
from s2s_core.scoring.from_encoder import states_from_encoder
from s2s_core.scoring.notes import local_p_note_key
from s2s_core.scoring.picture import COMPARE_WORDS, FOCUS_WORDS, compare_picture, focus_picture
from s2s_core.scoring.quiz import DoubledQuery, doubled_query
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec

STEP_PARAM = "scoring_pos_sel"  # picture 2's position slider (the shared step control)


@cached_result(max_entries=256)
def compute(config: ScoringConfig) -> ScoringResult:
    return compare(config)


@cached_result(max_entries=256)
def quiz_answer(config: ScoringConfig) -> DoubledQuery | None:
    return doubled_query(config)


@cached_result(max_entries=1)
def local_p_note() -> str:
    """The local-p Try-this note's key, chosen by the window that case opens (s2s_core/scoring/notes.py)."""
    return local_p_note_key()


@cached_result(max_entries=64)
def encoder_states(sentence: str, seed: int) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
    return states_from_encoder(sentence, seed)


def function_names(language: str) -> dict[str, str]:
    """Each score function's name in the learner's language."""
    return {n: translate(language, f"scoring.fn.{n}") for n in SCORERS}


@cached_spec(max_entries=256)
def compare_spec(config: ScoringConfig, before: ScoringConfig | None, language: str) -> Any:
    """The compare picture ("compare all"): every function's signed scores, softmax and weights; the previous
    input's weights as dashes."""
    result = compute(config)
    fn = function_names(language)
    items = []
    for f in result.functions:
        if f.read is not None:
            j, weight = peak(f.read)
            item = dict(name=fn[f.name], position=position_label(j), weight=num(weight))
            items.append(translate(language, "scoring.chart.peak_item", **item))
    previous = compute(before) if before is not None else None
    subtitle = "scoring.chart.picture_subtitle" + ("_before" if previous is not None else "")
    labels = words(language, "scoring.chart", COMPARE_WORDS) | {
        "title": translate(language, "scoring.chart.picture_title"),
        "subtitle": translate(language, subtitle),
        "description": translate(language, "scoring.chart.picture_description", S=result.S, peaks="; ".join(items)),
    }
    return compare_picture(result, fn, labels, previous)


def _read_labels(config: ScoringConfig, language: str, kind: str) -> tuple[Read, str, dict[str, str]]:
    """What both one-function pictures (the main one and the window tab's) name alike: the read shown, the
    function's name, the window in the subtitle (scoring.chart.<kind>_<window>), the scores' and the softmax's rows."""
    f = compute(config).shown(config.focus)
    _, exp_sum = softmax_steps(f.read)
    window = {"global": {}, "local_m": {"t": config.step}, "local_p": {}}[config.window]
    p = num(float(f.read.center[0])) if f.read.center is not None else ""
    formula = translate(language, f"scoring.formula.{f.name}")
    labels = {
        "subtitle": translate(language, f"scoring.chart.{kind}_{config.window}", p=p, **window),
        "scores": translate(language, "scoring.chart.scores_row", formula=formula),
        "softmax": translate(language, "scoring.chart.softmax_row", total=two(exp_sum)),
    }
    return f.read, translate(language, f"scoring.fn.{f.name}"), labels


@cached_spec(max_entries=256)
def focus_spec(config: ScoringConfig, language: str, first: int) -> Any:
    """The main picture: one function's keys on top, its signed scores, the softmax written out and the weights
    between, the values below; the window over the rows."""
    read, name, shared = _read_labels(config, language, "focus")
    labels = words(language, "scoring.chart", FOCUS_WORDS) | shared
    labels |= {
        "title": translate(language, "scoring.chart.focus_title", name=name),
        "description": translate(
            language,
            "scoring.chart.focus_description",
            name=name,
            scores=vec(read.scores[0]),
            weights=vec(read.weights[0]),
        ),
        "keys": translate(language, "scoring.chart.keys_row"),
        "values": translate(language, "scoring.chart.values_row"),
    }
    step = step_param(STEP_PARAM, compute(config).S, first, translate(language, "scoring.chart.position"))
    return focus_picture(read, labels, step)


@cached_spec(max_entries=256)
def window_spec(config: ScoringConfig, language: str) -> Any:
    """The window tab's picture: the shown function's signed scores, the window over them, the softmax over the
    window and its weights, and local-p's Gaussian with the final weights it leaves."""
    read, name, shared = _read_labels(config, language, "window")
    labels = words(language, "scoring.chart", WINDOW_WORDS) | shared
    labels |= {
        "title": translate(language, "scoring.chart.window_title", name=name),
        "description": translate(
            language,
            "scoring.chart.window_description",
            name=name,
            scores=vec(read.masked_scores[0]),
            align=vec(read.align[0]),
            weights=vec(read.weights[0]),
        ),
        "gauss_row": translate(language, "scoring.chart.gauss_row"),
    }
    return page_charts(compute(config), config.focus, labels)["window"]
