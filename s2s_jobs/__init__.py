"""s2s_jobs: the server's training jobs, outside the pure core (s2s_core only holds what a job computes).

    jobs.py       the interface the pages use: find, submit, snapshot, cancel, hold, release, wake, warm_defaults
    settings.py   the environment settings ($S2S_TRAIN_BACKEND, $S2S_TRAIN_WORKERS, $S2S_POOL_IDLE, ...)
    trainer.py    what a job trains, and how its result travels as bytes (Trainer, pack, unpack)
    snapshot.py   one job and the snapshot a page draws from (states, error keys)
    runner.py     the queue: one job per configuration, a bounded number running; trains in threads (inprocess)
    estimate.py   when a queued job starts and when a job ends, from the recent pace
    process.py    the process backend: one worker process per running job, supervised from the server
    pool.py       the forkserver those workers are forked from: started on demand, stopped when idle
    worker.py     the body of one worker process; preload.py what the forkserver imports once; guest.py its priority

This file imports nothing on purpose: the forkserver imports `s2s_jobs.preload`, which lowers its priority before
torch is imported (tests/core/test_jobs.py checks that), and importing a package runs its __init__ first.
"""
