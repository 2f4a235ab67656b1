"""Which of the encoder–decoder page's sentences are true for the run on screen: each is chosen by a condition of
the result (the model that computed it, its attention, the measured fading), never written as always true."""

from __future__ import annotations

from s2s_core.seq2seq.frames import BottleneckSummary
from s2s_core.seq2seq.run import Seq2SeqResult


def state_kind(result: Seq2SeqResult) -> str:
    """ "lstm" when the hand-off carries a cell state too (h_n and c_n), else "gru" (h_n alone): the catalog's
    bn_intro_* keys say which numbers reach the decoder."""
    return "gru" if result.encoder.c_n is None else "lstm"


def bottleneck_intro(result: Seq2SeqResult) -> str:
    """Without attention the final state is all the decoder learns of the sentence; with attention it is not."""
    suffix = "_attention" if result.reads_every_state else ""
    return f"seq2seq.bn_intro{suffix}_{state_kind(result)}"


def bottleneck_attention(result: Seq2SeqResult) -> str:
    """What attention does to the bottleneck: on a model without it, what it would do (reduce, not remove); on
    a model with it, what it does here."""
    return "seq2seq.bn_attention_model" if result.reads_every_state else "seq2seq.bn_attention"


def forgetting(result: Seq2SeqResult, m: BottleneckSummary) -> str:
    """The measured fading explained for the weights that faded: random (untrained) or trained ones."""
    trained = "_trained" if result.model == "trained" else ""
    return f"seq2seq.bn_{'forgetting' if m.fades else 'no_forgetting'}{trained}"


def quiz_explain(result: Seq2SeqResult) -> str:
    return "seq2seq.quiz_explain_trained" if result.model == "trained" else "seq2seq.quiz_explain"


def notices(result: Seq2SeqResult, m: BottleneckSummary | None, revealed: bool) -> list[tuple[str, dict]]:
    """The "what to notice" list: (key, params). The fourth describes the bottleneck chart's lines, the
    question's answer, so it waits for the question (revealed) and follows the measurement."""
    attention = "_attention" if result.reads_every_state else ""
    out = [(f"seq2seq.notice_1{attention}", {}), (f"seq2seq.notice_2{attention}", {})]
    out.append(("seq2seq.notice_3_trained" if result.model == "trained" else "seq2seq.notice_3", {}))
    if revealed and m is not None and m.per_word is not None:
        key = "seq2seq.notice_4_fades" if m.fades else "seq2seq.notice_4_keeps"
        out.append((key, {"factor": m.per_word, "model": f"seq2seq.model_adj_{result.model}"}))
    return out
