"""The one error type the core raises for bad learner input (the UI translates it)."""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """Bad input from the learner, a URL or a widget.

    key    catalog key of the message, e.g. "errors.not_a_number"
    field  catalog key of the field it concerns, e.g. "attention.field.sources"
    params values formatted into the message, e.g. row=2, col=1, value="abc"

    The message itself is not stored here: the core never knows the learner's language.
    """

    def __init__(self, key: str, field: str, **params: Any) -> None:
        self.key = key
        self.field = field
        self.params = params
        super().__init__(f"{key} [{field}] {params}")
