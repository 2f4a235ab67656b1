"""A Translation lab model as a file: its state_dict, both vocabularies and the settings that build it, and the
same file read back without ever running code from it.

    raw = export_archive(settings, src_vocab, tgt_vocab, model)   # bytes: torch.save of tensors and plain data
    loaded = load_archive(raw)                                    # LoadedModel, or InputError naming the file

The file is what torch.save writes (a zip archive holding one pickle of a dict and the tensors' bytes), read back
by `torch.load(..., weights_only=True)`, PyTorch's restricted unpickler: tensors and plain containers only. Before
that the bytes are capped and the zip directory is checked unread (s2s_core/safe_load.py: few
entries, small declared sizes, nothing compressed), so a zip bomb is refused before anything is unpacked. Then the
format tag, the settings through the lab's own checks, the vocabularies (text tokens, the specials first, capped),
and the state_dict against the model those settings and vocabularies build: the same keys, the same shapes, finite
values. Nothing is written to disk.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields

import torch

from s2s_core.errors import InputError
from s2s_core.safe_load import Refused, load_untrusted
from s2s_core.training.compute import parse_config
from s2s_core.training.config import MODEL_ATTENTIONS, TrainConfig
from s2s_core.training.loop import new_model
from s2s_core.training.model import Seq2Seq
from s2s_core.vocab import SPECIALS

FORMAT = "seq2seq-explainer/translation-model/1"
MAX_ARCHIVE_BYTES = 8 * 1024 * 1024  # the upload; the server's cap is the same (.streamlit/config.toml)
MAX_UNPACKED = 3 * MAX_ARCHIVE_BYTES  # what its zip directory may declare: torch.save stores, so about the file
MAX_ENTRIES = 128  # a model's tensors (about 30 for the largest) and torch.save's own few files
MAX_VOCAB = 4000  # tokens per vocabulary (a lab's own data of 2,000 pairs stays well under it)
MAX_TOKEN_CHARS = 64
FIELD = "translation.archive.field"


@dataclass(frozen=True)
class LoadedModel:
    settings: TrainConfig
    src_vocab: tuple[str, ...]
    tgt_vocab: tuple[str, ...]
    model: Seq2Seq  # eval mode, holding the file's weights


def _refuse(why: str, **params: object) -> InputError:
    return InputError(f"translation.archive.{why}", FIELD, **params)


def export_archive(settings: TrainConfig, src_vocab: Sequence[str], tgt_vocab: Sequence[str], model: Seq2Seq) -> bytes:
    """The model as a file load_archive reads back: the format tag, the settings, both vocabularies, the weights."""
    payload = {
        "format": FORMAT,
        "settings": asdict(settings),
        "source_vocab": list(src_vocab),
        "target_vocab": list(tgt_vocab),
        "state_dict": {k: v.detach().clone() for k, v in model.state_dict().items()},
    }
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def _vocab(raw: object, name: str) -> tuple[str, ...]:
    ok = isinstance(raw, list) and len(raw) <= MAX_VOCAB
    ok = ok and all(isinstance(tok, str) and 0 < len(tok) <= MAX_TOKEN_CHARS for tok in raw)
    if not ok or tuple(raw[: len(SPECIALS)]) != SPECIALS or len(set(raw)) != len(raw):
        raise _refuse("vocab", name=name, limit=MAX_VOCAB)
    return tuple(raw)


def _settings(raw: object) -> TrainConfig:
    """The settings through the Training lab's own checks (each value against its field's caps)."""
    names = {f.name for f in fields(TrainConfig)}
    if not isinstance(raw, Mapping) or set(raw) != names:
        raise _refuse("settings")
    values = dict(raw)
    attention = values.pop("attention")
    if attention not in MODEL_ATTENTIONS:
        raise _refuse("settings")
    try:
        config = parse_config(**{**values, "attention": "bahdanau"})  # every other value against the lab's fields
    except (InputError, TypeError, ValueError):
        raise _refuse("settings") from None
    return TrainConfig(**{**asdict(config), "attention": attention})


def load_archive(raw: object) -> LoadedModel:
    """A model file (export_archive's, or anyone's) checked and rebuilt, or an InputError naming the file."""
    try:
        payload = load_untrusted(
            raw, max_bytes=MAX_ARCHIVE_BYTES, max_entries=MAX_ENTRIES, max_unpacked=MAX_UNPACKED, zip_only=True
        )
    except Refused as refused:
        raise _refuse("not_archive" if refused.why == "unreadable" else refused.why, **refused.params) from None
    if not isinstance(payload, Mapping) or payload.get("format") != FORMAT:
        raise _refuse("not_archive")
    settings = _settings(payload.get("settings"))
    src_vocab = _vocab(payload.get("source_vocab"), "source")
    tgt_vocab = _vocab(payload.get("target_vocab"), "target")
    model = new_model(settings, torch.Generator(), (len(src_vocab), len(tgt_vocab)))
    state = payload.get("state_dict")
    expected = model.state_dict()
    if not isinstance(state, Mapping) or set(state) != set(expected):
        raise _refuse("weights")
    for key, want in expected.items():
        got = state[key]
        if not isinstance(got, torch.Tensor) or got.shape != want.shape or got.dtype != want.dtype:
            raise _refuse("weights")
        if got.is_floating_point() and not bool(torch.isfinite(got).all()):
            raise _refuse("not_finite", name=key)
    model.load_state_dict(dict(state))
    model.eval()
    return LoadedModel(settings, src_vocab, tgt_vocab, model)
