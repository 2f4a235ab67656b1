"""Shared pytest set-up: one torch thread per test process, so parallel work stays predictable."""

import torch

torch.set_num_threads(1)
