"""Vocabulary helpers: ids with specials, padding, lengths, masks; empty and all-PAD input rejected."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.errors import InputError
from s2s_core.vocab import (
    EOS_ID,
    PAD,
    PAD_ID,
    SOS_ID,
    UNK_ID,
    build_vocab,
    lengths_to_mask,
    pad_batch,
    padding_mask,
    tokenize,
)


def test_tokenize_and_ids():
    tokens = tokenize("  나는 책을  읽는다 ", "f")
    assert tokens == ["나는", "책을", "읽는다"]
    vocab = build_vocab([tokens])
    assert vocab.itos[:4] == ("<pad>", "<sos>", "<eos>", "<unk>")
    assert vocab.encode(tokens, add_sos=True, add_eos=True) == [SOS_ID, 4, 5, 6, EOS_ID]
    assert vocab.encode(["모르는"]) == [UNK_ID]
    assert vocab.decode([4, 5]) == ["나는", "책을"]


@pytest.mark.parametrize("text", ["", "   ", f"{PAD} {PAD}", None, 5])
def test_empty_or_all_pad_sentence_rejected(text):
    with pytest.raises(InputError):
        tokenize(text, "f")


def test_pad_batch_lengths_and_mask():
    ids, lengths = pad_batch([[4, 5, 6], [7]], "f")
    assert ids.tolist() == [[4, 5, 6], [7, PAD_ID, PAD_ID]]
    assert lengths.tolist() == [3, 1]
    assert padding_mask(ids).tolist() == [[True, True, True], [True, False, False]]
    assert torch.equal(lengths_to_mask(lengths, 3), padding_mask(ids))


@pytest.mark.parametrize("batch", [[], [[]], [[4], [PAD_ID, PAD_ID]]])
def test_pad_batch_rejects_empty_rows(batch):
    with pytest.raises(InputError):
        pad_batch(batch, "f")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_tokenize_raises_only_input_error(text):
    try:
        tokens = tokenize(text, "f")
    except InputError:
        return
    assert tokens and all(tok.strip() for tok in tokens)
