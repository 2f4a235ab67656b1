"""Class codes (typed by students), teacher secrets and student tokens; only their digests are ever stored.

A code is 8 symbols of Crockford's base32 (40 bits): short enough to read off a projector, and with the join
rate limits (ratelimit.py) and a 6-hour life, guessing a live one is hopeless. A secret is 256 bits, a token
128 bits, both from `secrets`. Comparisons go through `hmac.compare_digest` of SHA-256 digests, so neither the
time taken nor the stored value tells anything about the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata

from s2s_core.errors import InputError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
CODE_LEN = 8
_CODE_FIELD = "classroom.field.code"
_BAD_CODE = "classroom.errors.bad_code"
# Longer than any honest way of typing a code ("abcd - efgh", full-width letters, spaces): checked first.
MAX_CODE_INPUT = 32
# What a learner may type between or around symbols; dashes a copy-paste or a phone keyboard may substitute.
_DROPPED = str.maketrans("", "", "-\t\n\r\u2010\u2011\u2012\u2013\u2014\u2212")
# Spaces of any width and invisible format marks (zero-width, direction) a chat app may paste along.
_INVISIBLE = ("Zs", "Cf")
# Crockford's decoding of look-alikes.
_LOOKALIKE = str.maketrans({"O": "0", "I": "1", "L": "1"})
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LEN}}}")

SECRET_BYTES = 32  # teacher link: 256 bits
TOKEN_BYTES = 16  # student: 128 bits
MIN_SECRET_CHARS = 22  # token_urlsafe(16); anything shorter is below 128 bits and never accepted
MAX_SECRET_CHARS = 64
_SECRET = re.compile(f"[A-Za-z0-9_-]{{{MIN_SECRET_CHARS},{MAX_SECRET_CHARS}}}")
_DIGEST = re.compile("[0-9a-f]{64}")


def new_code() -> str:
    """A fresh class code, canonical form (8 symbols, no hyphen)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def parse_code(text: object) -> str:
    """A typed or linked code in canonical form; InputError for anything that is not one.

    Case-insensitive; spaces and hyphens dropped; O reads as 0, I and L as 1 (Crockford). Full-width letters
    from a Korean keyboard are folded by NFKC. The length is capped before any of that work."""
    if not isinstance(text, str) or len(text) > MAX_CODE_INPUT:
        raise InputError(_BAD_CODE, _CODE_FIELD)
    folded = unicodedata.normalize("NFKC", text).upper().translate(_DROPPED).translate(_LOOKALIKE)
    folded = "".join(c for c in folded if unicodedata.category(c) not in _INVISIBLE)
    if not _CODE.fullmatch(folded):
        raise InputError(_BAD_CODE, _CODE_FIELD)
    return folded


def show_code(code: str) -> str:
    """The code as shown to people: "ABCD-EFGH"."""
    canonical = parse_code(code)
    half = CODE_LEN // 2
    return f"{canonical[:half]}-{canonical[half:]}"


def new_secret() -> str:
    """A teacher link's secret (256 bits, URL-safe)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_token() -> str:
    """A student's anonymous token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(secret: str) -> str:
    """SHA-256 hex of a secret or token: what the database stores instead of it."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def matches(given: object, stored_digest: object) -> bool:
    """Whether `given` is the secret whose digest is stored. False, never an exception, for junk of any kind.

    The shape checks look only at their own argument (never at how `given` relates to the stored value), so
    they leak nothing an attacker does not already know; the real comparison is constant-time."""
    if not isinstance(given, str) or not isinstance(stored_digest, str):
        return False
    if len(stored_digest) != 64 or not _DIGEST.fullmatch(stored_digest):
        return False
    if len(given) > MAX_SECRET_CHARS or not _SECRET.fullmatch(given):
        return False
    return hmac.compare_digest(digest(given), stored_digest)


def parse_secret(text: object, field: str) -> str:
    """A secret or token from a link: URL-safe base64 of at least 128 bits; InputError naming `field`."""
    if not isinstance(text, str) or len(text) > MAX_SECRET_CHARS + 8:
        raise InputError("classroom.errors.bad_secret", field)
    stripped = text.strip()
    if not _SECRET.fullmatch(stripped):
        raise InputError("classroom.errors.bad_secret", field)
    return stripped
