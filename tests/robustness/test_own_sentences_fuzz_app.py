"""The Translation lab's "Your data" tab under random and hostile input, through AppTest: pasted text and uploaded
files (binary, 10 MB, mismatched columns, right-to-left overrides and zero-width characters, reserved tokens,
over-long lines, too few pairs, good pairs between) and model files (random bytes, pickles with code, zip bombs,
cut or flipped archives, good ones). After each: no exception, the lab's picture still drawn, and either the input is
used or a message names its field. FUZZ_SEED varies the sequence; a failure names it."""

from __future__ import annotations

import io
import os
import random
import zipfile

import torch

from s2s_core.catalog import translate
from s2s_core.training.loop import new_model
from s2s_core.training.tasks import source_vocab, target_vocab
from s2s_core.translation.archive import export_archive
from s2s_core.translation.lab import lab_config
from tests.app.conftest import open_tab
from tests.own_pairs import toy_pairs
from tests.robustness.fuzz import exception_summary, full_details, open_page_full
from tests.sizes import pick

N_MOVES = pick(16, 40)
ODD = ["\u202e", "\u200b", "\u2066", "\x00", "\x07", "\ufeff", "\u200f"]


class Exploit:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/s2s_pwned_lab",))


def hostile_text(rng: random.Random) -> str | bytes:
    """Mostly hostile text; a good one (enough clean pairs) about one time in four."""
    pairs = toy_pairs(rng.choice([3, 12, 40]), seed=rng.randrange(100))
    lines = [f"{ko}\t{en}" for ko, en in pairs]
    roll = rng.randrange(8)
    if roll == 0:
        return rng.randbytes(rng.choice([10, 4000]))
    if roll == 1:
        return "가\tb\n" * (10 * 1024 * 1024 // 6)  # 10 MB of text
    if roll == 2:
        return "\n".join(
            line + "\textra" * rng.randint(0, 2) if rng.random() < 0.5 else line.replace("\t", " ") for line in lines
        )
    if roll == 3:
        return "\n".join(line[: (k := rng.randrange(len(line)))] + rng.choice(ODD) + line[k:] for line in lines)
    if roll == 4:
        return "\n".join(lines + ["<pad> <eos>\t<sos>", "\t", "a\t" + " ".join(["w"] * 20)])
    if roll == 5:
        return "\r\n".join(lines).encode("utf-16")
    return "\n".join(lines) + "\n"  # clean (too few pairs when 3)


def hostile_model(rng: random.Random) -> bytes:
    settings = lab_config(embed=4, hidden=4)
    good = export_archive(
        settings, source_vocab("ko_en"), target_vocab("ko_en"), new_model(settings, torch.Generator())
    )
    roll = rng.randrange(6)
    if roll == 0:
        return good
    if roll == 1:
        return rng.randbytes(rng.choice([1, 3000]))
    if roll == 2:
        buf = io.BytesIO()
        torch.save({"format": "seq2seq-explainer/translation-model/1", "settings": Exploit()}, buf)
        return buf.getvalue()
    if roll == 3:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("archive/data.pkl", b"\0" * (64 * 1024 * 1024))
        return buf.getvalue()
    raw = bytearray(good)
    if roll == 4:
        return bytes(raw[: rng.randrange(1, len(raw))])
    for _ in range(rng.randint(1, 30)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


def test_random_and_hostile_sentences_and_model_files():
    seed = int(os.environ.get("FUZZ_SEED", "0")) + 29
    rng = random.Random(seed)
    lang = rng.choice(["ko", "en"])
    at = open_page_full("translation", lang, {"translation_steps": "10"})
    with full_details():
        open_tab(at, "translation", "translation.tab_own", lang)
    fields = {translate(lang, "translation.own.field"), translate(lang, "translation.archive.field")}
    history: list[str] = []
    seen: set[str] = set()
    for n in range(N_MOVES):
        kind = rng.choice(["paste", "upload", "model"])
        with full_details():
            if kind == "paste":
                value = hostile_text(rng)
                text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                at.file_uploader(key="translation_own_file").set_value(None)
                at.text_area(key="translation_own_text").input(text[:600_000]).run(timeout=120)
            elif kind == "upload":
                value = hostile_text(rng)
                raw = value if isinstance(value, bytes) else value.encode("utf-8")
                at.file_uploader(key="translation_own_file").set_value((f"p{n}.tsv", raw, "text/plain")).run(
                    timeout=120
                )
            else:
                at.file_uploader(key="translation_archive_file").set_value(
                    (f"m{n}.pt", hostile_model(rng), "application/octet-stream")
                ).run(timeout=120)
        history.append(kind)
        where = f"seed {seed}, moves {history}"
        assert not at.exception, f"{where}: {exception_summary(at)}"
        assert at.get("vega_lite_chart"), where  # the lab's own picture above is still there
        for error in at.error:  # every message names the text or the model file, in the learner's language
            assert any(error.value.startswith(f) for f in fields) and "⟦" not in error.value, (where, error.value)
        shown = " ".join(str(m.value) for m in [*at.markdown, *at.success])
        read = translate(lang, "translation.own.read", pairs="", lines="", bad="").split(" ")[-1]  # "used." / "..."
        loaded = translate(
            lang, "translation.archive.loaded", cell="", attention="", embed="", hidden="", src="", tgt=""
        )[:6]
        seen.update(k for k, text in (("read", read), ("loaded", loaded)) if text in shown)
    assert seen, seen  # some input was used: the fuzz reached past the checks, not only into them
    assert not os.path.exists("/tmp/s2s_pwned_lab")
