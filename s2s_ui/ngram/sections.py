"""The next-token page's tabs under the picture: the sentence's product, sparsity, the window, the continuation
table, the code and the notices. Each takes the parsed inputs and computes (or fetches from the cache) what it
shows, so a tab drawn alone shows what it shows after the others."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, prob
from s2s_core.ngram import NgramConfig, SentenceResult, window_view
from s2s_core.ngram.code import script
from s2s_core.ngram.compute import QuizReason
from s2s_core.ngram.counting import Corpus, Sentence
from s2s_core.ngram.embedding import parse_embedding
from s2s_core.ngram.fields import EMB_SEED, PAIR, WIN_HIDDEN, WIN_SEED
from s2s_core.ngram.frames import continuation_frame, factors_frame, log_sum_text, product_text, sparsity_frame
from s2s_core.ngram.window import blind_contexts, parse_window
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.ngram.specs import (
    cached_continuations,
    cached_sentence,
    cached_sparsity,
    factors_spec,
    sparsity_spec,
    window_spec,
)
from s2s_ui.state import Page
from s2s_ui.widgets import check_badge, code_expander, md_escape, notice_list, revealed

CHECK_TOL = 1e-9  # hand ratios vs torch, both float64


def table(df, columns: list[str]) -> None:
    """A frame with translated column headers (cells are plain text, never HTML)."""
    st.dataframe(
        df[columns].rename(columns={c: t(f"ngram.col.{c}") for c in columns}), hide_index=True, width="stretch"
    )


def words_text(tokens: Sentence) -> str:
    return md_escape(" ".join(tokens)) if tokens else "∅"


def factor_words(res: SentenceResult, i: int) -> dict[str, object]:
    """The words of factor i that the texts name (the question's explanation uses them too)."""
    f = res.factors[i]
    ratio = f"{f.count}/{f.history_count}"
    return {"i": i + 1, "word": md_escape(f.word), "history": words_text(f.history), "ratio": ratio}


def quiz_why_text(reason: QuizReason, now: SentenceResult) -> str:
    """The question's explanation, a sentence per condition the core computed: a zero factor, or where the edit
    moves the factors, whether every factor was seen, and how many rose and fell."""
    if reason.zero is not None:
        return t("ngram.quiz.why_zero", **factor_words(now, reason.zero))
    words = {"u": prob(reason.uniform), "unseen": reason.unseen, "total": reason.total}
    words |= {"rose": reason.rose, "fell": reason.fell}
    parts = (f"move_{reason.move}", f"seen_{reason.seen}", f"outcome_{reason.outcome}")
    return " ".join(t(f"ngram.quiz.{part}", **words) for part in parts)


def quiz_key(config: NgramConfig) -> str:
    """One question per edit: after making it the learner meets a fresh question about the next one."""
    return f"ngram_quiz_k{config.k:g}" if config.smoothing else "ngram_quiz_smooth"


# --- the tabs ---------------------------------------------------------------------------------------------


def show_sentence(config: NgramConfig, sentence: Sentence) -> None:
    """P(sentence) as the product of its factors, the log sum, the zero factor, the bars and the check."""
    st.markdown(f"**{t('ngram.sent.header')}**")
    res = cached_sentence(config, sentence)
    st.caption(t("ngram.sent.caption_unigram") if config.n == 1 else t("ngram.sent.caption", window=config.n - 1))
    product = product_text(res, config.smoothing)
    st.markdown(t("ngram.sent.formula", sentence=words_text(res.tokens), product=product, p=prob(res.probability)))
    st.markdown(t("ngram.sent.log", terms=log_sum_text(res), logp=num(res.log_probability)))
    if res.first_zero is not None:
        f = res.factors[res.first_zero]
        key = "ngram.sent.undefined" if f.mle is None else "ngram.sent.zero"
        st.warning(t(key, **factor_words(res, res.first_zero)), icon=":material/warning:")
    if config.smoothing:
        st.info(t("ngram.sent.smooth_on", k=f"{config.k:g}", vocab=res.vocab_size))
    draw(st, factors_spec(config, res.tokens, lang()))
    cols = ["i", "word", "history", "ratio"] + (["addk_ratio", "p_addk"] if config.smoothing else ["p_mle"])
    table(factors_frame(res, config.smoothing), cols + ["p", "log_p"])
    check_badge(t("ngram.sent.check"), res.max_abs_diff, tol=CHECK_TOL)


def show_sparsity(corpus: Corpus, sentence: Sentence, config: NgramConfig | None) -> None:
    """Needs the corpus and the sentence only: it compares every n, whatever the model's own n is."""
    st.markdown(f"**{t('ngram.sparse.header')}**")
    res = cached_sparsity(corpus, sentence)
    n = config.n if config is not None else None
    st.caption(t("ngram.sparse.caption", total=res.totals[0]))
    draw(st, sparsity_spec(corpus, sentence, n, lang()))
    if n in res.ns:
        i = res.ns.index(n)
        st.markdown(t("ngram.sparse.now", n=n, unseen=res.unseen[i], total=res.totals[i]))
    df = sparsity_frame(res, n).rename(columns={"label": "unseen", "unseen": "count"})
    table(df, ["n", "unseen", "grams", "distinct"])
    st.caption(t("ngram.sparse.monotone"))


def show_window(config: NgramConfig, sentence: Sentence) -> None:
    """What the window reads when it predicts the sentence's last word, and what an RNN would read instead."""
    st.markdown(f"**{t('ngram.win.header')}**")
    win = window_view(sentence, config.n)
    target = md_escape(win.target)
    if config.n == 1:
        st.markdown(t("ngram.win.unigram", target=target))
    elif win.outside:
        alt = cached_continuations(config, win.history)
        alternatives = ", ".join(
            f"{md_escape(w)} {c}/{alt.history_count}" for w, c in zip(alt.words, alt.counts, strict=True)
        )
        words = {
            "target": target,
            "n": config.n,
            "history": words_text(win.history),
            "outside": ", ".join(f"“{md_escape(w)}”" for w in win.outside),
            "alternatives": alternatives or t("ngram.win.nothing"),
        }
        st.markdown(t("ngram.win.outside", **words))
    else:
        st.markdown(t("ngram.win.inside", target=target, window=config.n - 1))
    draw(st, window_spec(sentence, config.n, lang()))
    lines = [t("ngram.win.ffnn", window=config.n - 1)] if config.n > 1 else []
    lines.append(t("ngram.win.rnn", target=target, first=md_escape(sentence[0])))
    st.markdown("\n".join(f"- {line}" for line in lines))


def show_continuations(config: NgramConfig, prefix: Sentence) -> None:
    """The continuation table behind the picture, the lower-order and smoothing notes, and the check."""
    res = cached_continuations(config, prefix)
    if res.shorter:  # fewer words than the model's window: a lower-order estimate, said out loud
        st.caption(t("ngram.cont.shorter", used=len(prefix), order=res.order, n=config.n, window=config.n - 1))
    if res.words or config.smoothing:
        cols = ["word", "count", "ratio", "p_mle"] + (["p_addk"] if config.smoothing else [])
        table(continuation_frame(res), cols)
    if config.smoothing:
        words = {
            "k": f"{config.k:g}",
            "unseen": res.unseen_types,
            "p": prob(res.unseen_prob_addk),
            "vocab": res.vocab_size,
            "total": num(res.addk_total),
        }
        st.info(t("ngram.cont.smooth_note", **words))
    if res.words:
        check_badge(t("ngram.cont.check"), res.max_abs_diff, tol=CHECK_TOL)


def show_code(
    page: Page,
    corpus: Parsed[Corpus],
    config: Parsed[NgramConfig],
    prefix: Parsed[Sentence],
    sentence: Parsed[Sentence],
) -> None:
    """The script for what is on screen; a part whose input is bad is left out. The embedding part's pair and seed
    and the window network's hidden size and seed are those tabs' inputs, read here as the tabs would hold them
    (they are not drawn while this one is)."""
    ngram = config.need()
    emb = Parsed.of(lambda: parse_embedding(page.current(PAIR), page.current(EMB_SEED), corpus.need()))
    pair = None
    if emb.value is not None:
        emb_config, previous, word = emb.value
        pair = (previous, word, emb_config.seed)
    win = Parsed.of(lambda: parse_window(corpus.need(), ngram.n, page.current(WIN_HIDDEN), page.current(WIN_SEED)))
    network = None
    if win.value is not None:
        spot = blind_contexts(win.value.corpus, win.value.window, sentence.value) if sentence.value else None
        network = (win.value.hidden, win.value.seed, *(spot or (None, None)))
    code = script(ngram, prefix.value, sentence.value, pair, network)
    code_expander(code, file_name="next_token_counts.py")


def show_notices(config: Parsed[NgramConfig]) -> None:
    # The smoothing notice says which way the seen words' bars move: the question's answer, so after it.
    smooth = ["smooth"] if config.value is None or revealed(quiz_key(config.value)) else []
    notice_list([f"ngram.notice.{k}" for k in ("cont", "zero", "sparse", *smooth, "window", "emb")])
