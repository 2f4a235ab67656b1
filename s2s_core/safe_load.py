"""A file that torch.save wrote, read from an upload without ever running code from it: the one way the app opens
a learner's weights (s2s_core/own_weights.py) and a Translation lab model file (s2s_core/translation/archive.py).

    payload = load_untrusted(raw, max_bytes=..., max_entries=..., max_unpacked=...)   # or Refused(why, params)

First the bytes are capped; a zip archive (torch.save's format) is checked by its directory alone, unread: a bounded
number of entries whose declared sizes add up to a bounded total, nothing compressed (torch.save stores), so a
small file that would unpack to gigabytes is refused before anything is unpacked. Then `torch.load(...,
weights_only=True)`: PyTorch's restricted unpickler, which builds tensors and plain containers only and refuses any
other global, so a pickle that would run code is a refusal, not a run. Each caller names its own refusals.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import torch


class Refused(Exception):
    """why: "empty", "too_big" (params size, limit), "too_big_unpacked" (limit), "unreadable", "code_refused"."""

    def __init__(self, why: str, **params: object) -> None:
        super().__init__(why)
        self.why = why
        self.params = params


def archive_problem(raw: bytes, max_entries: int, max_unpacked: int) -> str | None:
    """What is wrong with a zip archive's directory, read without unpacking anything: "too_big_unpacked" (more
    than max_entries entries, or declared sizes over max_unpacked: a zip bomb), "unreadable", or None."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            entries = archive.infolist()
    except Exception:  # a hostile directory can raise anything (BadZipFile, NotImplementedError for a version...)
        return "unreadable"
    if len(entries) > max_entries or sum(e.file_size for e in entries) > max_unpacked:
        return "too_big_unpacked"
    if any(e.compress_type != zipfile.ZIP_STORED for e in entries):
        return "unreadable"
    return None


def load_untrusted(raw: object, *, max_bytes: int, max_entries: int, max_unpacked: int, zip_only: bool) -> Any:
    """The object a torch.save file holds (tensors and plain data only), or Refused. zip_only: a file in
    torch.save's older, non-zip format is refused too."""
    if not isinstance(raw, bytes | bytearray) or not raw:
        raise Refused("empty")
    if len(raw) > max_bytes:
        raise Refused("too_big", size=len(raw), limit=max_bytes)
    raw = bytes(raw)
    zipped = zipfile.is_zipfile(io.BytesIO(raw))
    problem = archive_problem(raw, max_entries, max_unpacked) if zipped else ("unreadable" if zip_only else None)
    if problem is not None:
        raise Refused(problem, limit=max_unpacked)
    try:
        return torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as err:  # a hostile file can raise anything: each is the same refusal
        if "Unsupported global" in str(err):  # the restricted unpickler met a class or function: nothing ran
            raise Refused("code_refused") from None
        raise Refused("unreadable") from None
