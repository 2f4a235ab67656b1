"""A class's page runs take turns (s2s_ui/classroom/turns.py): at most TURNS at a time, first come first served,
anyone else at once; a run that waits past WAIT_S goes ahead without a turn and gives none back."""

from __future__ import annotations

import threading

import pytest

from s2s_ui.classroom import turns
from tests.waiting import wait_until


class Run(threading.Thread):
    """A page run inside class_turn(seated) that holds its block until told to finish."""

    def __init__(self, seated: bool = True) -> None:
        super().__init__(daemon=True)
        self.seated, self.inside, self.finish = seated, threading.Event(), threading.Event()

    def run(self) -> None:
        with turns.class_turn(self.seated):
            self.inside.set()
            self.finish.wait(30)


@pytest.fixture
def fresh_turns(monkeypatch):
    monkeypatch.setattr(turns, "_turns", threading.BoundedSemaphore(turns.TURNS))
    monkeypatch.setattr(turns, "WAIT_S", 30.0)


def test_at_most_turns_class_runs_at_once_and_the_next_goes_when_one_ends(fresh_turns):
    first = [Run() for _ in range(turns.TURNS)]
    for run in first:
        run.start()
    wait_until(lambda: all(run.inside.is_set() for run in first), what="the first TURNS runs inside")
    waiting = Run()
    waiting.start()
    visitor = Run(seated=False)  # not in a class: never waits for the class's turns
    visitor.start()
    wait_until(visitor.inside.is_set, what="the other visitor's run")
    assert not waiting.inside.is_set(), "a class run went in while every turn was taken"
    first[0].finish.set()
    wait_until(waiting.inside.is_set, what="the waiting class run, once a turn was free")
    for run in [*first, waiting, visitor]:
        run.finish.set()
        run.join(5)
    assert turns._turns._value == turns.TURNS  # every turn given back


def test_a_run_that_waits_too_long_goes_ahead_and_gives_back_no_turn(fresh_turns, monkeypatch):
    held = [Run() for _ in range(turns.TURNS)]
    for run in held:
        run.start()
    wait_until(lambda: all(run.inside.is_set() for run in held), what="every turn taken")
    monkeypatch.setattr(turns, "WAIT_S", 0.05)
    late = Run()
    late.start()
    wait_until(late.inside.is_set, what="the run that waited past WAIT_S")
    late.finish.set()
    late.join(5)
    assert turns._turns._value == 0, "a run without a turn gave one back"
    for run in held:
        run.finish.set()
        run.join(5)
    assert turns._turns._value == turns.TURNS
