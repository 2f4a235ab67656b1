"""A Translation lab model as a file (s2s_core/translation/archive.py): written and read back to the same weights,
vocabularies and settings, for the lab's toy-grammar model and for one trained on a learner's sentences; every
hostile file refused with a message naming the file, nothing in it run."""

from __future__ import annotations

import io
import pickle
import zipfile
from dataclasses import replace

import pytest
import torch

from s2s_core.catalog import translate
from s2s_core.errors import InputError
from s2s_core.training.loop import new_model
from s2s_core.training.tasks import source_vocab, target_vocab
from s2s_core.translation import archive as ar
from s2s_core.translation.lab import lab_config
from s2s_core.translation.own_data import read_pairs
from s2s_core.translation.own_train import OwnConfig, own_data, own_map, train_own
from tests.own_pairs import toy_text

SETTINGS = lab_config(cell="lstm", embed=8, hidden=12, steps=20, attention="bahdanau")


def lab_file(settings=SETTINGS) -> tuple[bytes, torch.nn.Module]:
    model = new_model(settings, torch.Generator().manual_seed(3))
    return ar.export_archive(settings, source_vocab("ko_en"), target_vocab("ko_en"), model), model


def test_the_labs_model_comes_back_the_same():
    raw, model = lab_file()
    loaded = ar.load_archive(raw)
    assert loaded.settings == SETTINGS and loaded.src_vocab == source_vocab("ko_en")
    assert all(
        torch.equal(a, b) for a, b in zip(model.state_dict().values(), loaded.model.state_dict().values(), strict=True)
    )
    assert not loaded.model.training


def test_a_model_of_own_sentences_comes_back_and_decodes_the_same():
    config = OwnConfig(replace(SETTINGS, steps=30), own_data(read_pairs(toy_text(60)), seed=0))
    result = train_own(config)
    raw = ar.export_archive(config.settings, config.data.src_vocab, config.data.tgt_vocab, result.run.model)
    loaded = ar.load_archive(raw)
    source = config.data.heldout[0][0]
    again = OwnConfig(loaded.settings, replace(config.data))
    assert own_map(config, result.run.model, source) == own_map(again, loaded.model, source)


class Exploit:
    def __reduce__(self):
        return (print, ("this ran",))


def saved(value) -> bytes:
    buf = io.BytesIO()
    torch.save(value, buf)
    return buf.getvalue()


def payload(**changes) -> dict:
    raw, _ = lab_file()
    data = torch.load(io.BytesIO(raw), weights_only=True)
    data.update(changes)
    return data


def bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("archive/data.pkl", b"\0" * (40 * 1024 * 1024))
    return buf.getvalue()


def nan_weights() -> dict:
    data = payload()
    key = next(iter(data["state_dict"]))
    data["state_dict"][key] = torch.full_like(data["state_dict"][key], float("nan"))
    return data


HOSTILE = {
    "empty": (b"", "empty"),
    "random bytes": (bytes(range(256)) * 10, "not_archive"),
    "a plain pickle": (pickle.dumps({"format": ar.FORMAT}, protocol=2), "not_archive"),
    "a pickle with code": (saved({"format": ar.FORMAT, "settings": Exploit()}), "code_refused"),
    "a zip bomb": (bomb(), "too_big_unpacked"),
    "too big": (b"PK" + b"\0" * (ar.MAX_ARCHIVE_BYTES + 1), "too_big"),
    "a state_dict alone": (saved({"weight": torch.zeros(2)}), "not_archive"),
    "another format": (saved(payload(format="other/1")), "not_archive"),
    "settings beyond the caps": (saved(payload(settings={**payload()["settings"], "hidden": 100000})), "settings"),
    "settings missing a field": (saved(payload(settings={"cell": "gru"})), "settings"),
    "an unknown attention": (saved(payload(settings={**payload()["settings"], "attention": "magic"})), "settings"),
    "a vocabulary without specials": (saved(payload(source_vocab=["a", "b"])), "vocab"),
    "a vocabulary with repeats": (saved(payload(target_vocab=[*target_vocab("ko_en"), "the"])), "vocab"),
    "weights of other sizes": (
        saved(payload(state_dict=new_model(replace(SETTINGS, hidden=6), torch.Generator()).state_dict())),
        "weights",
    ),
    "NaN weights": (saved(nan_weights()), "not_finite"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file_is_refused_by_name(name, capsys):
    raw, why = HOSTILE[name]
    with pytest.raises(InputError) as err:
        ar.load_archive(raw)
    assert err.value.key == f"translation.archive.{why}" and err.value.field == ar.FIELD
    for lang in ("en", "ko"):
        text = translate(lang, err.value.key, field=translate(lang, err.value.field), **err.value.params)
        assert "⟦" not in text and text.startswith(translate(lang, ar.FIELD))
    assert "this ran" not in capsys.readouterr().out
