"""A class's shared state and its transitions; who may do what.

Every transition returns a new state with `version + 1`, so a follower's poll compares one integer to know
whether anything changed. Time is always passed in (`now`, seconds since the epoch): the core reads no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from s2s_core.errors import InputError

Role = Literal["teacher", "student"]
ACTIONS = ("move", "reveal", "lock", "end", "tally", "answer", "follow", "leave")
_STUDENT_ACTIONS = frozenset({"answer", "follow", "leave"})
# A teacher does everything but answer: the class's distribution is the students', never the teacher's guess.
_TEACHER_ACTIONS = frozenset(ACTIONS) - {"answer"}

ERROR_KEYS = (
    "classroom.errors.ended",
    "classroom.errors.expired",
    "classroom.errors.full",
    "classroom.errors.not_teacher",
    "classroom.errors.locked",
    "classroom.errors.too_many_classes",
    "classroom.errors.too_many_joins",
    "classroom.errors.revealed",
    "classroom.errors.unknown_class",
)


class ClassError(Exception):
    """A refused class action (ended, full, not the teacher...); `.key` is the message's catalog key.

    Distinct from InputError: the input was well-formed, the class's state refuses it."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


@dataclass(frozen=True)
class ClassState:
    lesson: str  # the lesson id the class follows
    step: int  # 1..n_steps
    n_steps: int
    revealed: bool  # the current step's answer is shown to everyone
    locked: bool  # students cannot leave the teacher's step
    ended: bool
    version: int  # +1 on every transition
    expires_at: float  # seconds since the epoch


def new_state(lesson: str, n_steps: int, now: float, lifetime_s: float) -> ClassState:
    """A class just started: at step 1, version 1, expiring `lifetime_s` after `now`."""
    if n_steps < 1:
        raise ValueError("a lesson has at least one step")
    return ClassState(lesson, 1, n_steps, False, False, False, 1, now + lifetime_s)


def _live(state: ClassState) -> None:
    if state.ended:
        raise ClassError("classroom.errors.ended")


def moved(state: ClassState, step: object) -> ClassState:
    """The class at `step` (1..n_steps); a move hides the answer again, since the new step is a new question."""
    _live(state)
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= state.n_steps:
        # The value is not echoed: the message never carries text from a link.
        raise InputError("classroom.errors.bad_step", "classroom.field.step", lo=1, hi=state.n_steps)
    return replace(state, step=step, revealed=False, version=state.version + 1)


def revealed(state: ClassState) -> ClassState:
    """The current step's answer shown to everyone at once."""
    _live(state)
    return replace(state, revealed=True, version=state.version + 1)


def locked(state: ClassState, on: bool) -> ClassState:
    """Students held at the teacher's step (on) or free to explore (off)."""
    _live(state)
    return replace(state, locked=bool(on), version=state.version + 1)


def ended(state: ClassState) -> ClassState:
    """The class over: every later transition and join is refused."""
    _live(state)
    return replace(state, ended=True, version=state.version + 1)


def is_open(state: ClassState, now: float) -> bool:
    """Not ended and not past its expiry."""
    return not state.ended and now < state.expires_at


def allowed(role: object, action: object) -> bool:
    """Whether `role` may do `action`; False for any unknown role or action."""
    if not isinstance(role, str) or not isinstance(action, str):
        return False
    if role == "teacher":
        return action in _TEACHER_ACTIONS
    if role == "student":
        return action in _STUDENT_ACTIONS
    return False


def require(role: object, action: object) -> None:
    """Raise ClassError("classroom.errors.not_teacher") unless `role` may do `action`."""
    if not allowed(role, action):
        raise ClassError("classroom.errors.not_teacher")


def check_open(state: ClassState, now: float) -> None:
    """Raise ClassError (ended, expired) unless the class is open at `now`."""
    if state.ended:
        raise ClassError("classroom.errors.ended")
    if not now < state.expires_at:  # also a NaN clock: refuse rather than keep a class open forever
        raise ClassError("classroom.errors.expired")


def authorize(role: object, action: object, state: ClassState, now: float) -> None:
    """The one gate before any class action: the role may do it, the class is open, and the step allows it.

    A student's answer is refused once the step is revealed (answers change only until then), and leaving is
    refused while the teacher holds the class at the step. Raises ClassError with the reason's key."""
    require(role, action)
    check_open(state, now)
    if action == "answer" and state.revealed:
        raise ClassError("classroom.errors.revealed")
    if action == "leave" and state.locked:
        raise ClassError("classroom.errors.locked")


def check_join(state: ClassState, now: float, n_students: int, max_students: int) -> None:
    """Raise ClassError unless one more student may join: the class is open and not full."""
    check_open(state, now)
    if n_students >= max_students:
        raise ClassError("classroom.errors.full")


def check_new_class(n_open: int, max_open_classes: int) -> None:
    """Raise ClassError("classroom.errors.too_many_classes") when the server already holds its cap."""
    if n_open >= max_open_classes:
        raise ClassError("classroom.errors.too_many_classes")
