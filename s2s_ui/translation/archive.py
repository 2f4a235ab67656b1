"""The Translation lab's models as files, at the foot of its "Your data" tab: download the lab's trained model or the
one trained on the learner's sentences, and load such a file back to see its map of a typed sentence.

Writing and reading the file, with every check, is the core's (s2s_core/translation/archive.py); the loaded model
stays in the session (the uploader's value), never on disk.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.training.tasks import KO_EN, source_vocab, target_vocab
from s2s_core.translation.archive import MAX_ARCHIVE_BYTES, LoadedModel, export_archive, load_archive
from s2s_core.translation.own_train import OwnConfig, OwnData, own_map, parse_sentence
from s2s_jobs.jobs import JobSnapshot
from s2s_ui.cache import cached_result
from s2s_ui.i18n import t
from s2s_ui.text import md_escape
from s2s_ui.training.specs import draw, map_labels, point_spec
from s2s_ui.uploads import read_once
from s2s_ui.widgets import show_error

FILE, TYPED, CHARS = "translation_archive_file", "translation_archive_typed", "translation_archive_chars"
MAX_MB = MAX_ARCHIVE_BYTES // (1024 * 1024)


@cached_result(max_entries=16)
def archive_of(job_id: int, _done: JobSnapshot) -> bytes:
    """A finished job's model as a file (built once per job): the lab's toy-grammar model, or an own-data one."""
    result = _done.result
    config = result.config
    if isinstance(config, OwnConfig):
        return export_archive(config.settings, config.data.src_vocab, config.data.tgt_vocab, result.run.model)
    return export_archive(config, source_vocab(KO_EN), target_vocab(KO_EN), result.run.model)


def _download(label_key: str, done: JobSnapshot, file_name: str) -> None:
    data = archive_of(done.job_id, done)
    st.download_button(
        t(label_key), data, file_name=file_name, mime="application/octet-stream", icon=":material/download:"
    )
    if len(data) > MAX_ARCHIVE_BYTES:
        st.caption(t("translation.archive.too_big_to_load", size=f"{len(data) / 2**20:.1f}", limit=MAX_MB))


def attention_name(attention: str) -> str:
    return t("translation.attention_luong_prev") if attention == "luong_prev" else t(f"training.attention_{attention}")


def show_archive(lab_done: JobSnapshot | None, own_done: JobSnapshot | None) -> None:
    st.subheader(t("translation.archive.heading"))
    st.caption(t("translation.archive.intro"))
    if lab_done is not None:
        _download("translation.archive.download_lab", lab_done, "translation_lab_model.pt")
    if own_done is not None:
        _download("translation.archive.download_own", own_done, "my_sentences_model.pt")
    if lab_done is None and own_done is None:
        st.caption(t("translation.archive.none_yet"))
    file = st.file_uploader(
        t("translation.archive.upload"),
        type=["pt"],
        key=FILE,
        max_upload_size=MAX_MB,
        help=t("translation.archive.upload_help", mb=MAX_MB),
    )
    if file is None:
        return
    loaded = read_once("_archive_read", file, load_archive)  # one upload, read once, kept in the session only
    if loaded.error is not None:
        show_error(loaded.error)
        return
    show_loaded(loaded.value, file.file_id)


def show_loaded(model: LoadedModel, file_id: str) -> None:
    """What the file holds, then its map of a sentence the learner types."""
    s = model.settings
    st.success(
        t(
            "translation.archive.loaded",
            cell=t(f"translation.cell_{s.cell}"),
            attention=attention_name(s.attention),
            embed=s.embed,
            hidden=s.hidden,
            src=len(model.src_vocab),
            tgt=len(model.tgt_vocab),
        ),
        icon=":material/check_circle:",
    )
    chars = st.toggle(t("translation.archive.chars"), key=CHARS)
    typed = st.text_input(t("translation.archive.typed"), key=TYPED, help=t("translation.own.typed_help"))
    if not typed:
        return
    sentence = Parsed.of(lambda: parse_sentence(typed, chars))
    if sentence.error is not None:
        show_error(sentence.error)
        return
    # The file's vocabularies as data with no pairs: own_map decodes with them (no target to compare with).
    data = OwnData((), (), model.src_vocab, model.tgt_vocab, hashlib.sha256(file_id.encode()).hexdigest())
    point = own_map(OwnConfig(s, data), model.model, sentence.value)
    if point.weights is None:
        st.info(t("translation.no_attention_map"), icon=":material/info:")
    else:
        draw(st, point_spec(point, map_labels() | {"map_title": t("translation.archive.map_title")}))
    st.markdown(t("translation.archive.output", output=md_escape(" ".join(w for w in point.output if w != "<eos>"))))
