"""Core tests train in this process when they use the server's runner (tests/training_backend.py says why)."""

from tests.training_backend import inprocess_training  # noqa: F401  (an autouse fixture)
