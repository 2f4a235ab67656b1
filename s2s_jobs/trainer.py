"""What a job trains, and how its result travels from a worker process as bytes: Trainer, pack, unpack, LAB."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import astuple, dataclass
from typing import Any

import torch

from s2s_core.training.compute import LossCheck, TrainResult, train
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import EvalPoint, TrainRun, new_model
from s2s_core.training.trace import Trace


@dataclass(frozen=True)
class Trainer:
    """A kind of model the jobs can train. Every field is an importable function (a worker process receives
    them by name): train(config, on_progress, stop) -> result, pack(result) -> bytes, unpack(bytes) -> result."""

    name: str
    train: Callable[..., Any]
    pack: Callable[[Any], bytes]
    unpack: Callable[[bytes], Any]


def pack(result: TrainResult) -> bytes:
    """The model's state_dict, the config and the history, as plain tensors, numbers and text."""
    run = result.run
    payload = {
        "config": astuple(result.config),
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
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def unpack(data: bytes) -> TrainResult:
    """pack()'s bytes -> the same result: the model is rebuilt from the config and loaded with its weights."""
    payload = torch.load(io.BytesIO(data), weights_only=True)  # tensors and plain data only, never code
    config = TrainConfig(*payload["config"])
    model = new_model(config, torch.Generator())  # the initial weights are overwritten just below
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


def load_unpack_modules() -> None:
    """Build one tiny model as unpack() does, so torch's lazily imported modules load now (at start-up), not when
    the first finished result arrives from a worker."""
    new_model(TrainConfig(embed=2, hidden=2), torch.Generator())


LAB = Trainer("training", train, pack, unpack)  # the Training lab (and its comparison model, and the Translation lab)


def as_trainer(trainer: Trainer | Callable[..., Any] | None) -> Trainer:
    """A Trainer, or a bare train function (its results travel with the Training lab's pack / unpack)."""
    if trainer is None:
        return LAB
    if isinstance(trainer, Trainer):
        return trainer
    return Trainer(getattr(trainer, "__name__", "trainer"), trainer, pack, unpack)
