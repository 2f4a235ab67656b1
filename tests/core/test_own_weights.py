"""A learner's own weights (s2s_core/own_weights.py): a state_dict of a single-layer nn.RNN / nn.LSTM / nn.GRU
becomes PyTorch's own module with those weights, and the page's hand loop on it equals the module; every hostile
file (wrong format, a pickle with code, NaN/inf, wrong shapes, layers, directions, oversized, empty, a zip bomb) is
an InputError naming the field in both languages, and none runs code."""

from __future__ import annotations

import io
import pickle
import zipfile

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core import own_weights as ow
from s2s_core.catalog import translate
from s2s_core.errors import InputError
from s2s_core.gru.compute import explain_gru, hand_gru
from s2s_core.gru.compute import split_gates as gru_gates
from s2s_core.lstm.compute import explain_lstm, hand_lstm
from s2s_core.lstm.compute import split_gates as lstm_gates
from s2s_core.rnn.compute import explain_rnn, weights_of


def saved(obj: object) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def practitioners(kind: str, E: int = 3, H: int = 5, **kwargs) -> nn.Module:
    torch.manual_seed(7)
    return ow.KINDS[kind][0](E, H, **kwargs)  # float32, PyTorch's default init: a practitioner's own module


@pytest.mark.parametrize("kind", ["rnn", "lstm", "gru"])
def test_a_state_dict_becomes_the_same_module(kind):
    theirs = practitioners(kind)
    own = ow.load_weights(saved(theirs.state_dict()), kind)
    assert (own.kind, own.E, own.H) == (kind, 3, 5) and isinstance(own.module, ow.KINDS[kind][0])
    x = torch.randn(1, 6, 3)  # (B, S, E)
    with torch.no_grad():
        expected, _ = theirs(x.transpose(0, 1))  # their module is seq-first: (S, B, H)
        got, _ = own.module(x.double())  # ours is batch_first: (B, S, H)
    assert torch.allclose(got[0].float(), expected[:, 0], atol=1e-6)


def test_the_learners_lstm_run_by_hand_equals_the_module():
    own = ow.load_weights(saved(practitioners("lstm").state_dict()), "lstm")
    x = torch.randn(6, 3, dtype=torch.float64)  # (S, E)
    run = hand_lstm(x, lstm_gates(own.module))
    with torch.no_grad():
        out, (h_n, c_n) = own.module(x.unsqueeze(0))  # (1, S, H), (1, 1, H)
    assert torch.allclose(run.h, out[0], atol=1e-12) and torch.allclose(run.h[-1], h_n[0, 0], atol=1e-12)
    assert torch.allclose(run.c[-1], c_n[0, 0], atol=1e-12)


def test_the_learners_gru_run_by_hand_equals_the_module():
    own = ow.load_weights(saved(practitioners("gru", 2, 4).state_dict()), "gru")
    x = torch.randn(5, 2, dtype=torch.float64)  # (S, E)
    run = hand_gru(x, gru_gates(own.module))
    with torch.no_grad():
        out, _ = own.module(x.unsqueeze(0))  # (1, S, H)
    assert torch.allclose(run.h, out[0], atol=1e-12)


def test_a_wrapper_modules_prefix_is_read_through():
    class Wrapper(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = practitioners("gru")

    own = ow.load_weights(saved(Wrapper().state_dict()), "gru")
    assert (own.E, own.H) == (3, 5)


class Exploit:
    def __reduce__(self):
        return (print, ("this ran",))


def bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("archive/data.pkl", b"\0" * (64 * 1024 * 1024))  # 64 MB of zeros: ~64 KB compressed
    return buffer.getvalue()


def many_entries() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(ow.MAX_ENTRIES + 1):
            archive.writestr(f"archive/data/{i}", b"x")
    return buffer.getvalue()


def newer_zip_version() -> bytes:
    """A real state_dict whose zip directory says it needs zip version 6.5 to extract (zipfile refuses that with
    NotImplementedError, not BadZipFile: found by tests/robustness/test_own_weights_fuzz_app.py)."""
    raw = bytearray(saved(practitioners("rnn").state_dict()))
    at = raw.index(b"PK\x01\x02")  # the first central directory entry; "version needed" sits 6 bytes in
    raw[at + 6 : at + 8] = (65).to_bytes(2, "little")
    return bytes(raw)


def replaced(kind: str, key: str, value: torch.Tensor) -> bytes:
    state = practitioners(kind).state_dict()
    state[key] = value
    return saved(state)


HOSTILE = {
    "empty": (b"", "empty"),
    "not bytes": ("weights", "empty"),
    "oversized": (b"\0" * (ow.MAX_FILE_BYTES + 1), "too_big"),
    "random bytes": (bytes(range(256)) * 8, "not_weights"),
    "json": (b'{"weight_ih_l0": [[1, 2]]}', "not_weights"),
    "zip bomb": (bomb(), "too_big_unpacked"),
    "many entries": (many_entries(), "too_big_unpacked"),
    "a newer zip version": (newer_zip_version(), "not_weights"),
    "pickle with code (torch.save)": (saved({"weight_ih_l0": Exploit()}), "code_refused"),
    "plain pickle with code": (pickle.dumps(Exploit(), protocol=2), "code_refused"),
    "plain pickle, protocol 4": (pickle.dumps(Exploit()), "not_weights"),
    "a whole module": (saved(practitioners("lstm")), "code_refused"),
    "a list of tensors": (saved([torch.zeros(2)]), "not_a_state_dict"),
    "an empty dict": (saved({}), "not_a_state_dict"),
    "two layers": (saved(practitioners("lstm", num_layers=2).state_dict()), "layers"),
    "bidirectional": (saved(practitioners("gru", bidirectional=True).state_dict()), "bidirectional"),
    "no biases": (saved(practitioners("rnn", bias=False).state_dict()), "keys"),
    "an extra key": (saved({**practitioners("rnn").state_dict(), "scale": torch.ones(1)}), "keys"),
    "lstm weights for a gru": (saved(practitioners("lstm").state_dict()), "shapes"),
    "ragged hidden size": (replaced("gru", "weight_hh_l0", torch.zeros(15, 4)), "shapes"),
    "a bias of the wrong length": (replaced("gru", "bias_ih_l0", torch.zeros(14)), "shapes"),
    "too wide": (saved(practitioners("gru", 3, ow.MAX_SIZE + 1).state_dict()), "too_large"),
    "NaN": (replaced("gru", "weight_ih_l0", torch.full((15, 3), float("nan"))), "not_finite"),
    "inf": (replaced("gru", "bias_hh_l0", torch.full((15,), float("inf"))), "not_finite"),
    "huge": (replaced("gru", "bias_hh_l0", torch.full((15,), 1e30)), "too_far"),
    "integers": (replaced("gru", "bias_hh_l0", torch.zeros(15, dtype=torch.int64)), "not_float"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file_is_refused_with_a_message_naming_the_field(name, capsys):
    raw, key = HOSTILE[name]
    kind = "lstm" if name in ("two layers", "a whole module") else "rnn" if "bias" in name or "key" in name else "gru"
    with pytest.raises(InputError) as err:
        ow.load_weights(raw, kind)
    assert err.value.key == f"errors.own_weights.{key}" and err.value.field == ow.FIELD
    assert "this ran" not in capsys.readouterr().out, "code from the file ran"
    for lang in ("en", "ko"):
        assert translate(lang, ow.FIELD) in translate(
            lang, err.value.key, field=translate(lang, ow.FIELD), **err.value.params
        )


def test_an_unknown_kind_is_refused():
    with pytest.raises(InputError) as err:
        ow.load_weights(saved(practitioners("rnn").state_dict()), "transformer")
    assert err.value.key == "errors.own_weights.kind"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2048))
def test_any_bytes_load_or_are_refused_by_name(raw):
    with pytest.raises(InputError) as err:
        ow.load_weights(raw, "lstm")
    assert err.value.key.startswith("errors.own_weights.")


# --- the pages' own explanation, on the learner's weights: the check the page shows passes -----------------------


def test_the_lstm_page_explains_the_learners_weights_and_its_check_passes():
    own = ow.load_weights(saved(practitioners("lstm").state_dict()), "lstm")
    x = torch.randn(4, 3, dtype=torch.float64)  # (S, E)
    result = explain_lstm(own.module, x, ("a", "b", "c", "d"))
    assert result.max_abs_diff < 1e-12 and result.labels == ("a", "b", "c", "d")
    theirs = practitioners("lstm").state_dict()
    assert torch.equal(result.weight_ih, theirs["weight_ih_l0"].double())  # the learner's, not a seeded one


def test_the_gru_page_explains_the_learners_weights_and_its_check_passes():
    own = ow.load_weights(saved(practitioners("gru", 2, 6).state_dict()), "gru")
    result = explain_gru(own.module, torch.randn(7, 2, dtype=torch.float64), tuple("abcdefg"))
    assert result.max_abs_diff < 1e-12 and result.n_params == sum(p.numel() for p in own.module.parameters())


def test_the_rnn_page_explains_the_learners_weights_and_its_check_passes():
    own = ow.load_weights(saved(practitioners("rnn", 4, 3).state_dict()), "rnn")
    x = torch.randn(5, 4, dtype=torch.float64)  # (S, E)
    result = explain_rnn(tuple("abcde"), x, weights_of(own.module), torch.zeros(4, dtype=torch.float64))
    assert result.max_abs_diff < 1e-12
    assert torch.equal(result.weights.W_x, practitioners("rnn", 4, 3).state_dict()["weight_ih_l0"].double())
