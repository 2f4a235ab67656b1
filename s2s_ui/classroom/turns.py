"""A class's page runs take turns in this server process, a few at a time, so that a teacher's move does not
stall every other visitor.

    with class_turn(role() == "student"):      # app.py, around the whole run
        main()

A teacher's Next wakes the whole class at once (s2s_ui/classroom/route.py): thirty script runs arrive within a
moment, and Python runs one thread at a time, handing the interpreter round in 5 ms slices. Thirty at once then
all finish together, at the end of the burst, and another visitor's run gets one slice in thirty-one. In turns of
TURNS the class is drawn first come, first served (the first students see the step sooner), and
another visitor shares the interpreter with at most TURNS class runs (docs/PERFORMANCE.md, "A class following the
teacher"). A run that waits longer than WAIT_S goes ahead without its turn, so a stuck run delays nobody for long.
The whole run takes the turn: with only the page's content in turns, thirty runs still shared the interpreter for
the frame above it (the language, the navigation, the class's read, the lesson bar), and the step reached every
student about a second late, all at once (scripts/bench_class.py on the wire, 2026-12-07).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

TURNS = 2  # class runs drawn at a time in one server process
WAIT_S = 3.0  # the longest a class run waits for its turn before it goes ahead anyway

_turns = threading.BoundedSemaphore(TURNS)


@contextlib.contextmanager
def class_turn(seated: bool) -> Iterator[None]:
    """Run the block in the class's turns when `seated` (a student in a class); at once otherwise."""
    if not seated:
        yield
        return
    got = _turns.acquire(timeout=WAIT_S)
    try:
        yield
    finally:
        if got:
            _turns.release()
