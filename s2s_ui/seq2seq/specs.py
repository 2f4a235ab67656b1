"""The encoder–decoder page's model and run, and its charts, cached by value (frozen configs, never tensors): the
picture and every tab fetch what they show from here, so no tab depends on another having run.

The trained model is the Translation lab's default, a job of the server's training jobs (s2s_jobs/jobs.py): the
page asks for it (find, else submit: one job per server, shared by every visitor) and decodes with it once it is
done; until then the untrained model stands in, and `OnScreen` says which one computed what the page shows.
Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated against
the schema in tests/core/test_seq2seq.py instead of on every rerun), keyed by the model on screen too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from s2s_core.catalog import translate, words
from s2s_core.chartkit import VALUE_SCALE, colour_ends, step_param
from s2s_core.seq2seq import Seq2SeqConfig, Seq2SeqResult, run
from s2s_core.seq2seq.charts import LABELS, TOPK_LABELS, page_charts, topk_chart
from s2s_core.seq2seq.frames import topk_frame
from s2s_core.seq2seq.picture import STEP_PARAM, WORDS, model_picture, picture_frames, titles
from s2s_core.seq2seq.trained import run_trained
from s2s_core.training import TrainResult
from s2s_core.translation.lab import DEFAULT as TRAINED
from s2s_jobs import jobs
from s2s_jobs.jobs import DONE, JobSnapshot
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec
from s2s_ui.training.live import visitor


@dataclass(frozen=True)
class OnScreen:
    """What the page shows: the result and which model computed it."""

    model_id: int  # the trained model's job id; 0 for the untrained model (chosen, or standing in)
    result: Seq2SeqResult
    job: JobSnapshot | None  # the trained model's job when it was chosen (its progress while it trains)

    @property
    def waiting(self) -> bool:
        """The trained model was chosen but is not ready: the untrained one stands in."""
        return self.job is not None and self.model_id == 0


def trained_job() -> JobSnapshot:
    """The Translation lab's default model's job on this server: the one that exists, else a new one (trained
    once for everyone; a failed or stopped one is asked for again). This visitor holds it while watching."""
    job = jobs.find(TRAINED)
    snap = jobs.snapshot(job) if job is not None else None
    if snap is None or (snap.ended and snap.state != DONE):
        job = jobs.submit(TRAINED)
        snap = jobs.snapshot(job)
    jobs.hold(job, visitor().id)
    return snap


@cached_result(max_entries=128)
def untrained(config: Seq2SeqConfig) -> Seq2SeqResult:
    return run(config)


@cached_result(max_entries=128)
def trained(job_id: int, config: Seq2SeqConfig, _result: TrainResult) -> Seq2SeqResult:
    """The trained model's run (a finished job's id names its model for good)."""
    return run_trained(config, _result.config, _result.run.model.state_dict())


def on_screen(config: Seq2SeqConfig) -> OnScreen:
    if config.model != "trained":
        return OnScreen(0, untrained(config), None)
    snap = trained_job()
    if snap.state == DONE:
        return OnScreen(snap.job_id, trained(snap.job_id, config, snap.result), snap)
    return OnScreen(0, untrained(config), snap)


def compute(config: Seq2SeqConfig) -> Seq2SeqResult:
    return on_screen(config).result


@cached_spec(max_entries=128)
def _chart_specs(config: Seq2SeqConfig, model_id: int, language: str, _result: Seq2SeqResult) -> Any:
    labels = words(language, "seq2seq.chart", LABELS)
    return dict(page_charts(_result, config.directions if model_id == 0 else 1, _layers(config, model_id), labels))


def _layers(config: Seq2SeqConfig, model_id: int) -> int:
    return config.enc_layers if model_id == 0 else 1  # the trained model has one layer each side


def chart_specs(config: Seq2SeqConfig, language: str) -> Any:
    """The tabs' charts by name: outputs, h_n (and c_n), the decoder's states, the bottleneck."""
    shown = on_screen(config)
    return _chart_specs(config, shown.model_id, language, shown.result)


def picture_labels(result: Seq2SeqResult, frames_titles: tuple[str, str], language: str) -> dict[str, str]:
    """The picture's words; its title and description chosen by the model on screen, the colour words from the
    scale the squares are drawn with."""
    low, high = (translate(language, f"ui.colour.{c}") for c in colour_ends(VALUE_SCALE))
    title, description = frames_titles
    return words(language, "seq2seq.picture", WORDS) | {
        "title": translate(language, f"seq2seq.picture.{title}"),
        "description": translate(language, f"seq2seq.picture.{description}", low=low, high=high),
    }


@cached_spec(max_entries=128)
def _picture_spec(
    config: Seq2SeqConfig,
    model_id: int,
    before: Seq2SeqConfig | None,
    language: str,
    first: int,
    _result: Seq2SeqResult,
    _before: Seq2SeqResult | None,
) -> Any:
    frames = picture_frames(_result, 1 if model_id else config.directions, _before)
    dec = _result.decoding
    param = None if dec is None else step_param(STEP_PARAM, len(dec.steps), first, translate(language, "steps.label"))
    return model_picture(frames, picture_labels(_result, titles(frames), language), param)


def picture_spec(config: Seq2SeqConfig, before: Seq2SeqConfig | None, language: str, first: int) -> Any:
    """The main picture (both chains and their waist), its step control starting at `first`."""
    shown = on_screen(config)
    old = on_screen(before).result if before is not None else None
    return _picture_spec(config, shown.model_id, before, language, first, shown.result, old)


def picture_cut(config: Seq2SeqConfig) -> tuple[int, int] | None:
    """(components drawn, components of a state) when the picture draws only the first ones; else None."""
    shown = on_screen(config)
    frames = picture_frames(shown.result, 1 if shown.model_id else config.directions)
    return (frames.rows, frames.components) if frames.cut else None


@cached_spec(max_entries=256)
def _topk_spec(config: Seq2SeqConfig, model_id: int, step: int, language: str, _result: Seq2SeqResult) -> Any:
    chosen = _result.decoding.steps[step]
    title = translate(language, "seq2seq.chart.topk_title", k=len(chosen.top), step=step + 1)
    return topk_chart(topk_frame(chosen), words(language, "seq2seq.chart", TOPK_LABELS) | {"title": title})


def topk_spec(config: Seq2SeqConfig, step: int, language: str) -> Any:
    """The k most likely next words at decoder step `step` (0-based), the chosen one highlighted."""
    shown = on_screen(config)
    return _topk_spec(config, shown.model_id, step, language, shown.result)
