"""Robustness tests share the browser fixtures registered in tests/conftest.py (one server, one Chromium)."""

from tests.training_backend import inprocess_training  # noqa: F401  (autouse: AppTests train in-process)
