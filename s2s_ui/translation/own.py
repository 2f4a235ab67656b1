"""The Translation lab's "Your sentences" tab: the learner's own parallel sentences, pasted or uploaded, trained
with the lab's settings, and read back as exact match and attention maps.

Reading and checking the text, the split, the training and the decoding are the core's
(s2s_core/translation/own_data.py, own_train.py); the job is the Training lab's machinery with the OWN trainer
(s2s_jobs/trainer.py), which keeps the pairs in memory only. The text is a session value, never a field of the
page: it is not in the link, and nothing of it is written to disk.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, pct
from s2s_core.training import TrainConfig
from s2s_core.translation.own_data import MAX_BYTES, OwnData, read_pairs
from s2s_core.translation.own_train import OwnConfig, exact_rows, own_data, own_map, parse_sentence, reference
from s2s_jobs.jobs import JobSnapshot
from s2s_jobs.trainer import OWN
from s2s_ui.cache import cached_result
from s2s_ui.i18n import t
from s2s_ui.text import md_escape
from s2s_ui.training.live import trained_model
from s2s_ui.training.specs import draw, map_labels, point_spec
from s2s_ui.translation.archive import show_archive
from s2s_ui.widgets import guarded, show_error

TEXT, FILE = "translation_own_text", "translation_own_file"  # session keys only: never in the link
SOURCE_CHARS, TARGET_CHARS = "translation_own_src_chars", "translation_own_tgt_chars"
PICK, TYPED = "translation_own_pick", "translation_own_typed"
MAX_FILE_MB = 1  # the uploader's own limit (the server's is 2 MB: .streamlit/config.toml)
SHOWN_ROWS = 200  # held-out rows listed in the table (the score counts them all)
EXAMPLE = "나는 책을 읽는다\tI read a book\n그는 학교에 간다\the goes to school"


@cached_result(max_entries=32)
def scored(job_id: int, which: str, _config: OwnConfig, _done: JobSnapshot):
    """The model's output for every held-out (or training) pair of a finished job, computed once per job."""
    pairs = _config.data.heldout if which == "heldout" else _config.data.train
    return exact_rows(_config, _done.result.run.model, pairs)


@cached_result(max_entries=128)
def mapped(job_id: int, source: tuple[str, ...], _config: OwnConfig, _done: JobSnapshot):
    return own_map(_config, _done.result.run.model, source, _done.result.run.steps_done)


def read_text() -> tuple[Parsed[OwnData] | None, bool]:
    """The pasted text or the uploaded file (the file wins when both are given) -> the core's reading of it;
    (None, _) while there is nothing yet. Also returns whether the source side is read as characters."""
    st.caption(t("translation.own.intro", limit=MAX_BYTES // 1024))
    left, right = st.columns(2)
    source_chars = left.toggle(t("translation.own.source_chars"), key=SOURCE_CHARS)
    target_chars = right.toggle(t("translation.own.target_chars"), key=TARGET_CHARS)
    text = st.text_area(t("translation.own.paste"), key=TEXT, height=180, max_chars=MAX_BYTES, placeholder=EXAMPLE)
    file = st.file_uploader(t("translation.own.upload"), type=["tsv", "txt"], key=FILE, max_upload_size=MAX_FILE_MB)
    raw: str | bytes | None = file.getvalue() if file is not None else text
    if file is not None and text:
        st.caption(t("translation.own.file_wins", name=md_escape(file.name)))
    if not raw:
        st.info(t("translation.own.empty"), icon=":material/edit_note:")
        return None, source_chars
    return Parsed.of(lambda: read_pairs(raw, source_chars=source_chars, target_chars=target_chars)), source_chars


def show_problems(data: OwnData) -> None:
    """How many pairs are used, and each bad line with why (the first ones named, the rest counted)."""
    st.markdown(t("translation.own.read", pairs=len(data.pairs), lines=data.n_lines, bad=data.n_bad))
    if not data.problems:
        return
    with st.expander(t("translation.own.problems", bad=data.n_bad), icon=":material/rule:"):
        rows = [(p.line, t(p.key, **p.params)) for p in data.problems]  # each line's own message, numbered
        columns = [t("translation.own.col_line"), t("translation.own.col_why")]
        st.dataframe(pd.DataFrame(rows, columns=columns), hide_index=True, width="stretch")
        if data.unnamed_bad:
            st.caption(t("translation.own.more_problems", n=data.unnamed_bad))


def show_own(settings: Parsed[TrainConfig], lab_done: JobSnapshot | None) -> None:
    """The tab: the learner's sentences trained and read back, then the models as files (translation/archive.py)."""
    own_done = guarded(lambda: train_own_section(settings))
    show_archive(lab_done, own_done)


def train_own_section(settings: Parsed[TrainConfig]) -> JobSnapshot | None:
    """Read the text, name its bad lines, split, train with the lab's settings, then the results; the finished job."""
    read, source_chars = read_text()
    if read is None:
        return None
    if read.error is not None:
        show_error(read.error)
        return None
    data = read.value
    show_problems(data)
    if settings.value is None:
        st.caption(t("translation.own.settings_first"))
        return None
    own = own_data(data, seed=settings.value.seed)
    config = OwnConfig(settings.value, own)
    st.caption(t("translation.own.split", train=len(own.train), heldout=len(own.heldout)))
    done = trained_model(
        config,
        "translation_own_train",
        t("translation.own.train"),
        t("training.press_train", steps=config.steps, seconds=num(config.max_seconds)),
        trainer=OWN,
    )
    if done is not None:
        show_results(config, done, source_chars)
    return done


def show_results(config: OwnConfig, done: JobSnapshot, source_chars: bool) -> None:
    """Exact match on the held-out and the training pairs, the held-out table, and the map of any sentence."""
    heldout = scored(done.job_id, "heldout", config, done)
    train = scored(done.job_id, "train", config, done)
    right = sum(ok for *_, ok in heldout)
    st.markdown(
        t(
            "translation.own.exact",
            heldout=pct(right / max(1, len(heldout))),
            right=right,
            n=len(heldout),
            train=pct(sum(ok for *_, ok in train) / max(1, len(train))),
            steps=done.result.run.steps_done,
        )
    )
    st.caption(t("translation.own.exact_note"))
    columns = [t(f"translation.own.col_{k}") for k in ("source", "target", "output", "exact")]
    rows = [(" ".join(s), " ".join(tg), " ".join(out), "✓" if ok else "✗") for (s, tg), out, ok in heldout]
    st.dataframe(pd.DataFrame(rows[:SHOWN_ROWS], columns=columns), hide_index=True, width="stretch")
    # The map: a held-out sentence picked from the list, or one the learner types.
    options = [" ".join(s) for (s, _), _, _ in heldout] or [" ".join(s) for s, _ in config.data.train[:50]]
    picked = st.selectbox(t("translation.own.pick"), options, key=PICK)
    typed = st.text_input(t("translation.own.typed"), key=TYPED, help=t("translation.own.typed_help"))
    sentence = Parsed.of(lambda: parse_sentence(typed, source_chars)) if typed else None
    if sentence is not None and sentence.error is not None:
        show_error(sentence.error)
        return
    if sentence is not None:
        source = sentence.value
    else:
        source = next(s for (s, _), _, _ in heldout if " ".join(s) == picked) if heldout else config.data.train[0][0]
    point = mapped(done.job_id, tuple(source), config, done)
    if point.weights is None:
        st.info(t("translation.no_attention_map"), icon=":material/info:")
    else:
        draw(st, point_spec(point, map_labels() | {"map_title": t("translation.own.map_title")}))
    output = " ".join(w for w in point.output if w != "<eos>")
    expected = reference(config.data, tuple(source))
    verdict = "exact" if point.exact else ("no_reference" if expected is None else "wrong")
    target = md_escape(" ".join(expected or ()))
    st.markdown(t(f"translation.own.output_{verdict}", output=md_escape(output), target=target))
