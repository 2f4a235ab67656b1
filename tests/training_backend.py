"""The training backend of the tests that train in this test process, chosen explicitly (s2s_jobs/settings.py).

AppTest runs a page inside the test process, and tests/core drives the runner directly: they train in-process
(threads of this process), so a test sees its job end without a worker pool. The server's runner is made on
first use and reads $S2S_TRAIN_BACKEND then, so every test that may be the first to touch it says `inprocess`
(the conftest files of tests/app, tests/core and tests/robustness import this fixture). A browser test's server
is another process and runs the default, `process`, as `streamlit run` does: the variable is set for the test
function only (monkeypatch), never for a browser-marked test, and never in tests/conftest.py.
"""

from __future__ import annotations

import pytest

from s2s_jobs.settings import BACKEND_ENV


@pytest.fixture(autouse=True)
def inprocess_training(request, monkeypatch) -> None:
    if request.node.get_closest_marker("browser") is None:
        monkeypatch.setenv(BACKEND_ENV, "inprocess")
