"""What the Translation lab shows under its picture: the question (attention does not remove recurrence), the toy
grammar, the alignment score in detail, the map's steps and what-if, the recurrence demo, the check, the notes."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, pct
from s2s_core.grammar import KO_VOCAB, MAX_WORDS, MIN_WORDS, count_meanings, vocabulary_table
from s2s_core.training import SourceInput, parse_source
from s2s_core.training.tasks import KO_EN
from s2s_core.training.trace import default_source_text
from s2s_core.translation import fields
from s2s_core.translation.lab import (
    QUIZ_OPTIONS,
    quiz_answer,
    quiz_word,
    recurrence_key,
    tf_line_key,
    verb_notice,
)
from s2s_jobs.jobs import JobSnapshot
from s2s_ui.i18n import t
from s2s_ui.state import Page
from s2s_ui.training.sections import show_check as show_loss_check
from s2s_ui.training.sections import show_map_tab as show_training_map_tab
from s2s_ui.translation.specs import alignment, attention_check, chain
from s2s_ui.widgets import check_badge, md_escape, notice_list, predict_then_reveal, revealed

QUIZ = "translation_quiz"  # the page's question: its answer is in the recurrence tab


def quiz_source(source: Parsed[SourceInput]) -> SourceInput:
    """The typed sentence, or the default one when the typed one is not usable (the question still stands)."""
    return source.need() if source.ok else parse_source(KO_EN, default_source_text(KO_EN))


def show_quiz(done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """Can the decoder, with attention, compute step 3 before step 2? Graded against the running model (the core)."""
    rec = chain(done.job_id, quiz_source(source), done.result)
    predict_then_reveal(
        QUIZ,
        t("translation.quiz_question"),
        [t(f"translation.quiz_{o}") for o in QUIZ_OPTIONS],
        t(f"translation.quiz_{quiz_answer(rec)}"),
        t("translation.quiz_explain", word=md_escape(quiz_word(rec))),
    )


def show_grammar(done: JobSnapshot | None) -> None:
    """What the toy grammar covers, how many sentences it makes, the held-out split, and the vocabulary."""
    st.markdown(t("translation.grammar_text", n=f"{count_meanings(MIN_WORDS, MAX_WORDS):,}", words=len(KO_VOCAB)))
    if done is not None:
        st.caption(
            t("translation.grammar_heldout", n=done.result.run.n_heldout, exact=pct(done.result.final.free_exact))
        )
    columns = [t(f"translation.col_{k}") for k in ("role", "korean", "english")]
    rows = [(t(f"translation.role_{kind}"), ko, en) for kind, ko, en in vocabulary_table()]
    st.dataframe(pd.DataFrame(rows, columns=columns), hide_index=True, width="stretch")


def show_alignment(done: JobSnapshot) -> None:
    """The alignment score word by word (worst first); the function words left out, named."""
    score = alignment(done.job_id, done.result)
    if score is None:
        st.info(t("translation.no_attention_map"), icon=":material/info:")
        return
    st.markdown(
        t(
            "translation.alignment_line",
            score=pct(score.accuracy),
            hits=score.hits,
            n=score.n_words,
            sentences=score.n_sentences,
        )
    )
    st.caption(t("translation.alignment_function", words=", ".join(score.function_words) or "–", n=score.n_function))
    st.info(t("translation.caution"), icon=":material/warning:")
    columns = [t(f"translation.col_{k}") for k in ("word", "hit", "count")]
    rows = [(word, pct(acc), n) for word, acc, n in score.per_word]
    st.dataframe(pd.DataFrame(rows, columns=columns), hide_index=True, width="stretch")
    st.caption(t("translation.alignment_table_note"))


def show_map_tab(page: Page, done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """The typed sentence step by step (free-running vs teacher forcing), then the what-if override."""
    show_training_map_tab(page, done, source, (fields.WI_STEP, fields.WI), fix="translation.fix_sentence")


def show_recurrence(done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """The free-running chain, the swap experiment, and the teacher-forced loss in one call vs step by step."""
    if not revealed(QUIZ):
        st.info(t("translation.recurrence_hidden"), icon=":material/visibility_off:")
        return
    rec = chain(done.job_id, quiz_source(source), done.result)
    st.subheader(t("translation.recurrence_heading"))
    st.caption(t("translation.recurrence_intro"))
    columns = [t(f"translation.col_{k}") for k in ("step", "fed", "out")]
    rows = [(f"t{i + 1}", fed, out) for i, (fed, out) in enumerate(zip(rec.inputs, rec.outputs, strict=False))]
    st.dataframe(pd.DataFrame(rows, columns=columns), hide_index=True, width="stretch")
    st.markdown(t("translation.recurrence_chained" if rec.chained else "translation.recurrence_not_chained"))
    swapped = " ".join(w for w in rec.swapped_outputs if w != "<eos>")
    if rec.first_changed is None:
        st.markdown(t("translation.swap_same", step=rec.swap_step + 1, word=md_escape(rec.swap_word)))
    else:
        st.markdown(
            t(
                "translation.swap_changed",
                step=rec.swap_step + 1,
                word=md_escape(rec.swap_word),
                output=md_escape(swapped),
                changed=rec.first_changed + 1,
            )
        )
    st.markdown(
        t(
            f"translation.{tf_line_key(rec)}",
            one=num(rec.tf_loss),
            steps=num(rec.tf_loss_steps),
            tf_calls=rec.tf_calls,
            free_calls=rec.free_calls,
        )
    )
    st.caption(t(f"translation.{recurrence_key(done.result.config.attention, rec)}"))


def show_checks(done: JobSnapshot, source: Parsed[SourceInput]) -> None:
    """Attention from the score formula == the module's weights, and the loss by hand == ignore_index."""
    if source.ok and done.result.config.attention != "none":
        diff = attention_check(done.job_id, source.need(), done.result)
        if diff is not None:
            check_badge(t("training.attn_check_what"), diff)
    show_loss_check(done)


def show_notice(done: JobSnapshot | None) -> None:
    """What to notice; the crossing's line is chosen by the trained model's held-out measurement (the core)."""
    score = alignment(done.job_id, done.result) if done is not None else None
    # notice_1 is the question's answer (the decoder stays recurrent): listed once it is out.
    keys = ["translation.notice_1"] if revealed(QUIZ) else []
    keys += [f"translation.{verb_notice(score)}"] + [f"translation.notice_{i}" for i in range(3, 6)]
    share = pct(score.verb_share) if score is not None else ""
    notice_list(keys, share=share, n=score.n_sentences if score is not None else 0)
