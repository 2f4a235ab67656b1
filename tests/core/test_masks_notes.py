"""Padding & masks: the notices and the loss line are chosen by the batch, and what the page attributes to the
syllabus is in the syllabus (issue 24 §2)."""

from __future__ import annotations

import re

import pytest

from s2s_core.catalog import load_catalog
from s2s_core.masks.compute import MasksConfig, compute_masks
from s2s_core.masks.notes import loss_diff_key, near_uniform, notice_keys, source_padded
from tests import study_note

ONE = MasksConfig(sources=(("나는", "책을", "읽는다"),), targets=(("i", "read", "a", "book"),), rows=(1,))


def test_a_batch_with_nothing_to_pad_gets_no_pad_claims():
    """The old notices said the PAD columns "still take weight" and the state "keeps changing through PAD" for
    every batch; one sentence has no PAD, so its leak is 0 and its h_n is the true last state."""
    result = compute_masks(ONE)
    assert result.n_pad == 0 and not source_padded(result) and max(result.leak_by_row) == 0
    assert float(result.final_gap.max()) == 0
    keys = notice_keys(result, revealed=True)
    assert keys == [
        "masks.notice_1_no_pad",
        "masks.notice_2",
        "masks.notice_3_no_pad",
        "masks.notice_4",
        "masks.notice_5_no_pad",
    ]
    assert loss_diff_key(result) == "masks.loss_diff_no_pad" and result.loss_all == result.loss_ignore


def test_the_default_batch_keeps_the_pad_notices():
    result = compute_masks(MasksConfig())
    assert result.n_pad > 0 and source_padded(result) and max(result.leak_by_row) > 0
    assert notice_keys(result, revealed=False) == [
        "masks.notice_2",
        "masks.notice_3",
        "masks.notice_4",
        "masks.notice_5",
    ]
    assert near_uniform(result) and loss_diff_key(result) == "masks.loss_diff"


def test_far_from_uniform_is_said_so():
    result = compute_masks(MasksConfig())
    far = type(result)(**{**result.__dict__, "loss_ignore": result.ln_v * 1.5})
    assert not near_uniform(far) and loss_diff_key(far) == "masks.loss_diff_far"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_what_the_page_quotes_from_the_syllabus_is_in_the_syllabus(lang):
    """Every `quoted` phrase of a masks sentence that names the syllabus occurs in the syllabus file; the old note
    called the whole batch (고마워, 국수를 먹었다 …) the syllabus's own sentences."""
    syllabus = study_note.text()  # docs/study_note.ko.txt
    names = ("study note", "학습 노트")  # the glossary's one name for it (locales/glossary.toml)
    attributed = {k: v for k, v in load_catalog(lang).items() if k.startswith("masks.") and any(n in v for n in names)}
    assert "masks.try_ko_note" in attributed
    quoted = [q for v in attributed.values() for q in re.findall(r"`([^`]+)`", v)]
    assert quoted, "the note quotes the syllabus's own phrases"
    for phrase in quoted:
        assert phrase in syllabus, phrase
    for ours in ("고마워", "국수를 먹었다"):  # in the batch, not in the syllabus
        assert ours not in syllabus and all(ours not in v for v in attributed.values())
