"""The command-line scripts refuse a bad value by name before they start anything (no server, no browser, no nginx)."""

from __future__ import annotations

import pytest

from scripts import bench_class, replicas


@pytest.mark.parametrize("argv", [["--own", "31"], ["--students", "0", "--own", "0"], ["--own", "-1"]])
def test_bench_class_refuses_more_own_students_than_the_class(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        bench_class.main(argv, readme=False)
    assert stop.value.code == 2  # argparse's usage error, before any browser or server starts
    assert "--own" in capsys.readouterr().err


@pytest.mark.parametrize("n", ["0", "-2", "17"])
def test_replicas_refuses_a_count_out_of_range(n, capsys):
    with pytest.raises(SystemExit) as stop:
        replicas.main(["--replicas", n])
    assert stop.value.code == 2
    assert "--replicas must be between 1 and 16" in capsys.readouterr().err


def test_replicas_refuses_a_count_that_is_not_a_number(capsys):
    with pytest.raises(SystemExit) as stop:
        replicas.main(["--replicas", "two"])
    assert stop.value.code == 2 and "--replicas" in capsys.readouterr().err
