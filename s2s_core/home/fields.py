"""Home's inputs: none (its picture, the learning path, is the same for everyone); a lesson step opens it as is."""

from __future__ import annotations

from s2s_core.fields import Field

FIELDS: tuple[Field, ...] = ()
