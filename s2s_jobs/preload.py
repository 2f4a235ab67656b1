"""What the training forkserver imports once, before it forks any worker: torch, the worker, and first-use costs.

Building the first model in a process imports some of torch's lazy modules, and the first step initialises
autograd and Adam. Paid here once, in the forkserver, every worker it forks starts
with them done: a worker's first step comes milliseconds after it starts. Only the forkserver imports this module.
"""

from __future__ import annotations

import gc
import multiprocessing.spawn
from dataclasses import replace

from s2s_jobs.guest import be_a_guest

be_a_guest()  # a guest's priority before torch's import: it must not slow the server drawing its first page
import torch  # noqa: E402

from s2s_core.training.config import TrainConfig  # noqa: E402
from s2s_core.training.loop import train_loop  # noqa: E402
from s2s_jobs import worker  # noqa: F401, E402  (the worker's code, shared by every forked worker)

# A worker never runs the server's main script. Under `streamlit run`, sys.modules["__main__"] is the app's own
# script while a page runs, and multiprocessing would re-run it in every worker to "prepare" it (the whole app,
# warm-up included, inside a worker). The forkserver serves only our workers, so its copy of the hooks is a no-op.
multiprocessing.spawn._fixup_main_from_path = lambda main_path: None
multiprocessing.spawn._fixup_main_from_name = lambda mod_name: None

# One thread before anything runs: forking a process whose OpenMP pool has started is unsafe.
torch.set_num_threads(1)
train_loop(replace(TrainConfig(), embed=2, hidden=2, batch=2, steps=1, min_len=1, max_len=2))
# Everything imported so far lives as long as the forkserver: out of the collector's sight, a worker's garbage
# collections never write to (and so never copy) the pages it shares with the forkserver.
gc.collect()
gc.freeze()
