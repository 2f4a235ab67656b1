"""The body of one training worker process: train one job, stream progress over a pipe, send the model back as bytes.

The server's process runner (s2s_jobs/process.py) starts one process per job from a forkserver that has imported
this module, and with it torch and the trainers, once: a new worker then starts in milliseconds and shares those
pages. Everything sent over the pipe is plain data (tuples of numbers, text, bytes), never a live object:

    ("progress", step, total, seconds, ((step, loss, tf_ratio), ...), (EvalPoint, ...), MapPoint | None)
                                            # EvalPoint, MapPoint (the latest checkpoint map): numbers and text
    ("done", packed result bytes)           # the trainer's pack(result): a state_dict and plain numbers
    ("error", traceback text)               # the trainer raised; the worker then exits with code 1

The worker never decides to stop by itself beyond the trainer's own caps: cancelling, the hard time cap and a
crash are all the server's business (it terminates the process, or sees the pipe close without a result).
"""

from __future__ import annotations

import time
import traceback
from typing import Any

import torch

# Imported here so that the forkserver's preload brings every trainer's code (and torch) into the shared parent,
# and the Trainer a job arrives as (unpickled by name) is there before the first fork.
import s2s_core.training.compute  # noqa: F401
import s2s_jobs.trainer  # noqa: F401
from s2s_core.training.loop import Progress
from s2s_jobs.guest import be_a_guest

SEND_EVERY = 0.25  # seconds between progress messages: the page polls once a second, so finer is wasted work


class _Reporter:
    """Collects the trainer's per-step progress and sends it in small batches."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._losses: list[tuple[int, float, float]] = []
        self._evals: list[Any] = []
        self._checkpoint: Any = None  # a checkpoint map not sent yet (CheckpointProgress, s2s_core/training/trace.py)
        self._last: Progress | None = None
        self._sent_at = 0.0

    def __call__(self, p: Progress) -> None:
        self._losses.append((p.step, p.loss, p.tf_ratio))
        if p.evaluation is not None:
            self._evals.append(p.evaluation)
        self._checkpoint = getattr(p, "checkpoint", None) or self._checkpoint
        self._last = p
        now = time.monotonic()
        if p.evaluation is not None or self._checkpoint is not None or now - self._sent_at >= SEND_EVERY:
            self.flush()
            self._sent_at = now

    def flush(self) -> None:
        if self._last is None or not (self._losses or self._evals):
            return
        p = self._last
        message = ("progress", p.step, p.total, p.seconds, tuple(self._losses), tuple(self._evals), self._checkpoint)
        self._conn.send(message)
        self._losses, self._evals, self._checkpoint = [], [], None


def run(trainer: Any, config: Any, conn: Any) -> None:
    """Process target: one job. trainer is a Trainer (s2s_jobs/trainer.py: importable functions), config its
    frozen config."""
    # 1) A guest on the server's machine: lower priority, one torch thread (the runs are tiny; more threads
    #    only fight the server and the other workers for the same cores, and change no number).
    be_a_guest()
    torch.set_num_threads(1)
    report = _Reporter(conn)
    try:
        # 2) Train with the trainer's own caps (steps, seconds, sizes: validated before the job was submitted).
        result = trainer.train(config, report, None)
        report.flush()
        # 3) The result as bytes: tensors and plain data only, rebuilt by the server with trainer.unpack.
        conn.send(("done", trainer.pack(result)))
    except Exception:  # the server turns this into the visitor's "training failed" message
        try:
            report.flush()
            conn.send(("error", traceback.format_exc()))
        finally:
            conn.close()
        raise SystemExit(1) from None
    conn.close()
