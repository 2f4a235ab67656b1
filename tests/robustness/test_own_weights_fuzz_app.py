"""The own-weights uploaders of the RNN, LSTM and GRU pages under random and hostile files, through AppTest.

One session per page takes a sequence of files, one after another as a learner might drop them: random bytes,
real state_dicts cut short or with bytes flipped, other kinds' weights, random shapes and values (NaN, inf,
huge), a pickle with code, a zip bomb, and good files in between. After each: no exception, the page draws its
picture, and either the file is in use (its sizes named) or one message names the field, with the seeded
weights in use. The seed is printed with a failure, so it replays (FUZZ_SEED).
"""

from __future__ import annotations

import io
import os
import random
import zipfile

import pytest
import torch

from s2s_core.catalog import translate
from s2s_core.own_weights import KEYS, KINDS
from tests.app.conftest import all_text
from tests.robustness.fuzz import exception_summary, full_details, open_page_full
from tests.sizes import pick

N_FILES = pick(24, 60)


class Exploit:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/s2s_pwned",))


def saved(value: object) -> bytes:
    buf = io.BytesIO()
    torch.save(value, buf)
    return buf.getvalue()


def bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("archive/data.pkl", b"\0" * (32 * 1024 * 1024))
    return buf.getvalue()


def random_file(rng: random.Random, kind: str) -> tuple[str, bytes, bool]:
    """(what, bytes, should pass)."""
    gen = torch.Generator().manual_seed(rng.randrange(2**31))
    E, H = rng.randint(1, 8), rng.randint(1, 8)
    good = KINDS[kind][0](E, H).state_dict()
    roll = rng.randrange(9)
    if roll == 0:
        return "good", saved(good), True
    if roll == 1:
        return "random bytes", rng.randbytes(rng.choice([1, 100, 5000])), False
    if roll == 2:
        raw = saved(good)
        return "cut short", raw[: rng.randrange(1, len(raw))], False
    if roll == 3:
        raw = bytearray(saved(good))
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return "flipped bytes", bytes(raw), None  # may still be a valid file: either outcome, never a crash
    if roll == 4:
        other = rng.choice([k for k in KINDS if k != kind])
        return f"{other} weights", saved(KINDS[other][0](E, H).state_dict()), None  # shapes may happen to fit
    if roll == 5:
        shapes = [tuple(rng.randint(0, 9) for _ in range(rng.randint(0, 3))) for _ in KEYS]
        state = {k: torch.randn(s, generator=gen) for k, s in zip(KEYS, shapes, strict=True)}
        return "random shapes", saved(state), None
    if roll == 6:
        bad = {k: v.clone() for k, v in good.items()}
        key = rng.choice(KEYS)
        bad[key].view(-1)[0] = rng.choice([float("nan"), float("inf"), -float("inf"), 1e30])
        return f"bad value in {key}", saved(bad), False
    if roll == 7:
        return "pickle with code", saved({"weight_ih_l0": Exploit()}), False
    return "zip bomb", bomb(), False


@pytest.mark.parametrize("kind", list(KINDS))
def test_random_and_hostile_weight_files(kind):
    seed = int(os.environ.get("FUZZ_SEED", "0")) + sum(map(ord, kind))
    rng = random.Random(seed)
    lang = rng.choice(["ko", "en"])
    at = open_page_full(kind, lang)
    field = translate(lang, "errors.own_weights.field")
    meanwhile = translate(lang, "own.seeded_meanwhile")
    history: list[str] = []
    for n in range(N_FILES):
        what, raw, passes = random_file(rng, kind)
        history.append(what)
        with full_details():
            at.file_uploader[0].set_value((f"file{n}.pt", raw, "application/octet-stream")).run(timeout=120)
        where = f"seed {seed}, files {history}"
        assert not at.exception, f"{where}: {exception_summary(at)}"
        assert at.get("vega_lite_chart"), where  # the picture is drawn: on the file's weights or the seeded ones
        errors = [e.value for e in at.error]
        refused = any(field in e for e in errors)
        assert refused == (meanwhile in all_text(at)), where
        if passes is not None:
            assert refused != passes, f"{where}: {errors}"
        if not refused:
            assert [s for s in at.success if translate(lang, f"{kind}.check_what") in s.value], where
    assert not os.path.exists("/tmp/s2s_pwned")
