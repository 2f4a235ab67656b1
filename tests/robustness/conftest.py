"""Robustness tests share the browser fixtures registered in tests/conftest.py (one server, one Chromium)."""
