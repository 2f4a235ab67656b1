"""The Training lab's settings: one frozen, hashable dataclass (stdlib only, so the code expander can copy it)."""

from __future__ import annotations

from dataclasses import dataclass

LAB_TASKS = ("reverse", "copy", "sort", "num_ko", "num_en")  # the Training lab's choices
TASKS = (*LAB_TASKS, "ko_en")  # ko_en: the Translation lab's toy grammar (its own page)
ATTENTIONS = ("bahdanau", "luong_general", "luong_dot", "none")  # the Training lab's choices
# The study note §7's translator wiring (luong_prev: score with s_(t-1), join with s_t): the Translation lab's only.
NOTE_ATTENTION = "luong_prev"
MODEL_ATTENTIONS = (*ATTENTIONS, NOTE_ATTENTION)  # every attention the model builds
SCHEDULES = ("constant", "linear")
CELLS = ("gru", "lstm", "rnn")


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a trained model; two equal configs train bit-identical models."""

    task: str = "reverse"  # one of TASKS
    attention: str = "luong_general"  # one of MODEL_ATTENTIONS
    embed: int = 32  # E
    hidden: int = 64  # H
    steps: int = 160  # optimiser steps (one batch each); reverse + attention passes 95 % by about step 130
    batch: int = 128  # B
    lr: float = 0.01  # Adam's learning rate at step 1; decays linearly to 0
    tf_ratio: float = 1.0  # chance that a decoder input is the true previous token (teacher forcing)
    tf_schedule: str = "constant"  # "linear": scheduled sampling, the ratio falls to 0 over training
    min_len: int = 3  # shortest source (digits)
    max_len: int = 10  # longest source (digits)
    seed: int = 0
    max_seconds: float = 30.0  # wall-clock cap: training stops early (and says so) when it is reached
    cell: str = "gru"  # one of CELLS: the encoder's and the decoder's recurrent cell (last: packed results keep order)
