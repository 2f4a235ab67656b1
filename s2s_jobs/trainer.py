"""What a job trains, and how its result travels from a worker process as bytes: Trainer, pack, unpack, LAB, and
DEFAULT (the server's default models: trained to their step count, whatever the machine's load)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import astuple, dataclass, replace
from typing import Any

import torch

from s2s_core.training.compute import LossCheck, TrainResult, train
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import EvalPoint, TrainRun, new_model
from s2s_core.training.trace import Trace
from s2s_core.translation.own_train import from_plain, plain_config, train_own


@dataclass(frozen=True)
class Trainer:
    """A kind of model the jobs can train. Every field is an importable function (a worker process receives
    them by name): train(config, on_progress, stop) -> result, pack(result) -> bytes, unpack(bytes) -> result.
    capped=False: the trainer ignores its config's wall-clock limit (a default model), and the process backend
    stops it only at the hard safety cap of DEFAULT_CPU_SECONDS."""

    name: str
    train: Callable[..., Any]
    pack: Callable[[Any], bytes]
    unpack: Callable[[bytes], Any]
    capped: bool = True


def pack(result: TrainResult) -> bytes:
    """The model's state_dict, the config and the history, as plain tensors, numbers and text."""
    return _saved(_payload(result) | {"config": astuple(result.config)})


def _payload(result: TrainResult) -> dict[str, Any]:
    """A result's model and history as plain tensors, numbers and text (the config is the caller's to add)."""
    run = result.run
    return {
        "state_dict": run.model.state_dict(),
        "losses": run.losses,
        "evals": tuple(astuple(e) for e in run.evals),
        "by_length": run.by_length,
        "steps_done": run.steps_done,
        "seconds": run.seconds,
        "stopped_by": run.stopped_by,
        "n_heldout": run.n_heldout,
        "n_params": run.n_params,
        "loss_check": astuple(result.loss_check),
        "trace": result.trace.to_plain() if result.trace is not None else None,  # the replay travels with the model
    }


def _saved(payload: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def unpack(data: bytes) -> TrainResult:
    """pack()'s bytes -> the same result: the model is rebuilt from the config and loaded with its weights."""
    payload = torch.load(io.BytesIO(data), weights_only=True)  # tensors and plain data only, never code
    config = TrainConfig(*payload["config"])
    return _result(payload, config, new_model(config, torch.Generator()))


def _result(payload: dict[str, Any], config: Any, model: Any) -> TrainResult:
    """A payload's result around `model` (built for its config: its initial weights are overwritten here)."""
    model.load_state_dict(payload["state_dict"])
    model.eval()
    evals = tuple(EvalPoint(*e) for e in payload["evals"])
    run = TrainRun(
        model=model,
        losses=tuple(map(tuple, payload["losses"])),
        evals=evals,
        by_length=tuple(map(tuple, payload["by_length"])),
        steps_done=payload["steps_done"],
        seconds=payload["seconds"],
        stopped_by=payload["stopped_by"],
        n_heldout=payload["n_heldout"],
        n_params=payload["n_params"],
    )
    return TrainResult(
        config=config,
        run=run,
        final=evals[-1],
        loss_check=LossCheck(*payload["loss_check"]),
        trace=Trace.from_plain(payload.get("trace")),
    )


def pack_own(result: TrainResult) -> bytes:
    """A model trained on a learner's own sentences: the config as plain tuples, the pairs and vocabularies
    included (they go back to the server's memory with the model, never to disk: OwnConfig.memory_only)."""
    return _saved(_payload(result) | {"own": plain_config(result.config)})


def unpack_own(data: bytes) -> TrainResult:
    """pack_own()'s bytes -> the result, its model built for the learner's vocabularies."""
    payload = torch.load(io.BytesIO(data), weights_only=True)  # tensors and plain data only, never code
    config = from_plain(payload["own"])
    sizes = (len(config.data.src_vocab), len(config.data.tgt_vocab))
    return _result(payload, config, new_model(config.settings, torch.Generator(), sizes))


def load_unpack_modules() -> None:
    """Build one tiny model as unpack() does, so torch's lazily imported modules load now (at start-up), not when
    the first finished result arrives from a worker."""
    new_model(TrainConfig(embed=2, hidden=2), torch.Generator())


LAB = Trainer("training", train, pack, unpack)  # the Training lab (and its comparison model, and the Translation lab)

# A default model's only limit: CPU seconds of its worker process (s2s_jobs/process.py kills it past this). The
# largest default (the Translation lab's LSTM, 300 steps) computes for about 6 s on one thread; a worker that
# computes fifty times longer is runaway, not slow (a busy machine makes it slow in wall-clock time, not in CPU).
DEFAULT_CPU_SECONDS = 300.0


def train_default(config: TrainConfig, on_progress=None, stop=None) -> TrainResult:
    """A default model: LAB's training to config.steps, whatever the load. The config's wall-clock limit
    (max_seconds) is lifted for the run, and the result carries the config asked for: the model, its losses, its
    held-out scores and its maps are those of the full run on a quiet machine and on a busy one alike."""
    result = train(replace(config, max_seconds=math.inf), on_progress, stop)
    return replace(result, config=config)


DEFAULT = Trainer("training-default", train_default, pack, unpack, capped=False)  # every default model (jobs.WARM)
OWN = Trainer("own-pairs", train_own, pack_own, unpack_own)  # the Translation lab on a learner's own sentences


def as_trainer(trainer: Trainer | Callable[..., Any] | None) -> Trainer:
    """A Trainer, or a bare train function (its results travel with the Training lab's pack / unpack)."""
    if trainer is None:
        return LAB
    if isinstance(trainer, Trainer):
        return trainer
    return Trainer(getattr(trainer, "__name__", "trainer"), trainer, pack, unpack)
