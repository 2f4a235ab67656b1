"""Real bugs the robustness tests found in code owned by others, kept in one place for the lead to route.

KNOWN: (page ns, test kind) -> reason; the case is xfail(strict=False) until the owner fixes it.
KNOWN_TEXT: a regex over a visible text that lost its values -> reason (a shared-file bug, seen on many pages);
the fuzz still fails on any exception or HTML leak first, and only then xfails for these texts.
"""

from __future__ import annotations

import re

import pytest

KNOWN: dict[tuple[str, str], str] = {}

KNOWN_TEXT: dict[str, str] = {}

# Exceptions a fuzz run may hit in shared code: message regex -> reason. The fuzz notes them, reopens the page
# and goes on; it xfails at the end only if nothing unknown turned up.
KNOWN_EXCEPTIONS: dict[str, str] = {}


def known_exception(messages: list[str]) -> str | None:
    """The reason when every exception message is a known shared-code bug, else None."""
    reasons = []
    for message in messages:
        hit = next((r for p, r in KNOWN_EXCEPTIONS.items() if re.search(p, message)), None)
        if hit is None:
            return None
        reasons.append(hit)
    return "; ".join(dict.fromkeys(reasons)) or None


def xfail_if_known(request, ns: str, kind: str) -> None:
    reason = KNOWN.get((ns, kind))
    if reason:
        request.node.add_marker(pytest.mark.xfail(reason=reason, strict=False))


def split_known(texts: list[str]) -> tuple[list[str], list[str]]:
    """(texts matching no known bug, reasons of the known bugs that matched)."""
    unknown, reasons = [], []
    for text in texts:
        hits = [reason for pattern, reason in KNOWN_TEXT.items() if re.search(pattern, text)]
        if hits:
            reasons += [r for r in hits if r not in reasons]
        else:
            unknown.append(text)
    return unknown, reasons
