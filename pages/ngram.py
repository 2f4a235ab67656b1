"""Page: next-token prediction by counting — continuations, sentence probability, sparsity, the window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, prob
from s2s_core.ngram import (
    ContinuationResult,
    NgramConfig,
    SentenceResult,
    SparsityResult,
    continuations,
    parse_config,
    parse_prefix,
    parse_sentence,
    sentence_probability,
    sparsity,
    window_view,
)
from s2s_core.ngram.charts import (
    embedding_bars_chart,
    embedding_chart,
    factors_chart,
    sparsity_chart,
    window_chart,
)
from s2s_core.ngram.code import script
from s2s_core.ngram.compute import K_MAX, K_MIN, MAX_N, MIN_N, parse_corpus, quiz_change, quiz_edit
from s2s_core.ngram.counting import Corpus, Sentence
from s2s_core.ngram.embedding import L2 as EMB_L2
from s2s_core.ngram.embedding import E as EMB_E
from s2s_core.ngram.embedding import (
    EmbeddingConfig,
    EmbeddingModel,
    PairResult,
    pair_view,
    parse_pair,
    parse_seed,
    train,
)
from s2s_core.ngram.examples import default_example
from s2s_core.ngram.frames import (
    CHART_TOP,
    continuation_frame,
    embedding_bars_frame,
    embedding_points_frame,
    factors_frame,
    factors_long,
    log_sum_text,
    product_text,
    sparsity_frame,
    window_frame,
)
from s2s_core.ngram.picture import PICK_PARAM, ngram_picture, picture_data
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    guarded,
    md_escape,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
    show_error,
)

CHECK_TOL = 1e-9  # hand ratios vs torch, both float64
CHANGES = ("higher", "lower", "same")  # the question's answers: P(sentence) after the edit vs now
UNSEEN_PREFIX = {"ko": "오늘 아침에", "en": "at breakfast"}  # a history the default corpus never has


@dataclass(frozen=True)
class NgramInputs:
    """Each parsed input, or the error that stopped it: a section asks only for what it needs (`need`), so a
    bad prefix hides the continuations and a bad sentence the sentence's sections, nothing else."""

    corpus: Corpus | InputError
    config: NgramConfig | InputError
    prefix: Sentence | InputError
    sentence: Sentence | InputError

    def need(self, name: str) -> Any:
        """The parsed value, or its error raised again (the section's guard names the field)."""
        value = getattr(self, name)
        if isinstance(value, InputError):
            raise value
        return value

    def get(self, name: str) -> Any | None:
        value = getattr(self, name)
        return None if isinstance(value, InputError) else value


def _parsed(parse: Any) -> Any:
    """parse() or the InputError it raised (kept, to be shown by the sections that need the value)."""
    try:
        return parse()
    except InputError as err:
        return err


# --- cached core calls (keyed by frozen configs and token tuples, never tensors) ----------------------


@cached_result(max_entries=256)
def cached_continuations(config: NgramConfig, prefix: Sentence) -> ContinuationResult:
    return continuations(config, prefix)


@cached_result(max_entries=256)
def cached_sentence(config: NgramConfig, sentence: Sentence) -> SentenceResult:
    return sentence_probability(config, sentence)


@cached_result(max_entries=256)
def cached_sparsity(corpus: Corpus, sentence: Sentence) -> SparsityResult:
    return sparsity(corpus, sentence)


# Chart specs are cached too: building and validating an Altair chart costs far more than the counting.
CHART_KEYS = (
    "word",
    "prob",
    "model",
    "mle",
    "addk",
    "unseen_each",
    "position",
    "ratio",
    "factors_title",
    "n",
    "share",
    "unseen",
    "sparsity_title",
    "ffnn",
    "rnn",
    "sees",
    "blind",
    "target",
    "window_title",
)


def chart_labels(code: str, n: int = 1) -> dict[str, str]:
    """Every "ngram.chart.*" text in language `code` (charts and frames take the same dict)."""
    labels = {k: translate(code, f"ngram.chart.{k}") for k in CHART_KEYS}
    return labels | {"ngram": translate(code, "ngram.chart.ngram", n=n)}


@cached_spec(max_entries=128)
def factors_spec(config: NgramConfig, sentence: Sentence, code: str) -> Any:
    names = chart_labels(code)
    return factors_chart(factors_long(sentence_probability(config, sentence), config.smoothing, names), names)


@cached_spec(max_entries=128)
def sparsity_spec(corpus: Corpus, sentence: Sentence, n: int | None, code: str) -> Any:
    return sparsity_chart(sparsity_frame(sparsity(corpus, sentence), n), chart_labels(code))


@cached_spec(max_entries=128)
def window_spec(sentence: Sentence, n: int, code: str) -> Any:
    names = chart_labels(code, n)
    return window_chart(window_frame(window_view(sentence, n), names), names)


def show_chart(spec: dict) -> None:
    draw(st, spec)


def _table(df, columns: list[str]) -> None:
    """A frame with translated column headers (cells are plain text, never HTML)."""
    st.dataframe(
        df[columns].rename(columns={c: t(f"ngram.col.{c}") for c in columns}), hide_index=True, width="stretch"
    )


def _words(tokens: Sentence) -> str:
    return md_escape(" ".join(tokens)) if tokens else "∅"


# --- inputs ---------------------------------------------------------------------------------------


def input_keys(code: str) -> list[str]:
    return [
        f"ngram_corpus_{code}",
        "ngram_n",
        f"ngram_prefix_{code}",
        f"ngram_sentence_{code}",
        "ngram_smooth",
        "ngram_k",
        f"ngram_pair_{code}",
        "ngram_emb_seed",
    ]


def cases(code: str) -> list[TryCase]:
    """Prepared states: the other language's example, a longer window, an unseen prefix, plain frequencies."""
    other = "ko" if code == "en" else "en"
    example = {
        f"ngram_{field}_{code}": getattr(default_example(other), field)
        for field in ("corpus", "prefix", "sentence", "pair")
    }
    return [
        TryCase(f"ngram.try.{other}", f"ngram.try.{other}_note", example),
        TryCase("ngram.try.window", "ngram.try.window_note", {"ngram_n": "4"}),
        TryCase("ngram.try.unseen", "ngram.try.unseen_note", {f"ngram_prefix_{code}": UNSEEN_PREFIX[code]}),
        TryCase("ngram.try.unigram", "ngram.try.unigram_note", {"ngram_n": "1", f"ngram_prefix_{code}": ""}),
    ]


def read_inputs() -> NgramInputs:
    """The controls column: corpus, window, prefix, sentence; smoothing folded. Nothing is reported here:
    each section names the input it needs when that input is bad (the picture first)."""
    code = lang()  # text defaults follow the language, so each language keeps its own text widgets
    corpus_text = linked(
        st.text_area,
        t("ngram.field.corpus"),
        key=f"ngram_corpus_{code}",
        default=default_example(code).corpus,
        height=150,
        help=t("ngram.corpus_help") + " " + t("ngram.markers"),
    )
    n = linked(
        st.slider,
        t("ngram.field.n"),
        key="ngram_n",
        default=3,
        min_value=MIN_N,
        max_value=MAX_N,
        help=t("ngram.n_help"),
    )
    prefix_text = linked(
        st.text_input,
        t("ngram.field.prefix"),
        key=f"ngram_prefix_{code}",
        default=default_example(code).prefix,
        help=t("ngram.prefix_help"),
    )
    sentence_text = linked(
        st.text_input,
        t("ngram.field.sentence"),
        key=f"ngram_sentence_{code}",
        default=default_example(code).sentence,
        help=t("ngram.sentence_help"),
    )
    with st.expander(t("ngram.smoothing_settings"), icon=":material/tune:"):
        smoothing = linked(st.toggle, t("ngram.field.smoothing"), key="ngram_smooth", default=False)
        k = linked(
            st.number_input,
            t("ngram.field.k"),
            key="ngram_k",
            default=1.0,
            min_value=K_MIN,
            max_value=K_MAX,
            step=0.1,
            help=t("ngram.k_help"),
            disabled=not smoothing,
        )
    try_this(cases(code), input_keys(code))
    reset_button(input_keys(code))
    corpus = _parsed(lambda: parse_corpus(corpus_text))
    config = corpus if isinstance(corpus, InputError) else _parsed(lambda: parse_config(corpus_text, n, smoothing, k))
    n_used = config.n if isinstance(config, NgramConfig) else int(n)
    return NgramInputs(
        corpus=corpus,
        config=config,
        prefix=_parsed(lambda: parse_prefix(prefix_text, n_used)),
        sentence=_parsed(lambda: parse_sentence(sentence_text)),
    )


# --- 1) continuations -------------------------------------------------------------------------------


@cached_spec(max_entries=128)
def picture_spec(config: NgramConfig, prefix: Sentence, sentence: Sentence | None, code: str) -> Any:
    """The main picture (s2s_core/ngram/picture.py): the prefix, its candidates, the sentence's factors."""
    cont = cached_continuations(config, prefix)
    sent = cached_sentence(config, sentence) if sentence is not None else None
    keys = ("title", "description", "prefix", "next", "empty", "sentence", "product", "never", "p", "word")
    words = {k: translate(code, f"ngram.picture.{k}") for k in keys}
    words |= {k: translate(code, f"ngram.picture.{k}") for k in ("history", "count")}
    return ngram_picture(picture_data(prefix, max(config.n - 1, 0), cont, sent, config.smoothing), words)


def _extend_prefix(key: str, chart_key: str, window: int) -> None:
    """A candidate clicked on the picture: append it to the prefix and keep the model's window of n - 1 words, so the
    history slides along the sentence being built (a callback: it runs before the widgets are drawn)."""
    try:
        picked = st.session_state[chart_key].selection.get(PICK_PARAM) or []
        word = str(picked[0]["word"])
    except (AttributeError, IndexError, KeyError, TypeError):
        return
    words = [*str(st.session_state.get(key, "")).split(), word]
    st.session_state[key] = " ".join(words[len(words) - window :] if window > 0 else [])


def show_picture(inputs: NgramInputs) -> None:
    """The main picture: the prefix and its next-word candidates (click one to extend the prefix), the sentence's
    probability as the product of its factors; the counts behind the candidates in one line above it."""
    config: NgramConfig = inputs.need("config")
    prefix: Sentence = inputs.need("prefix")
    res = cached_continuations(config, prefix)
    if not prefix:
        st.caption(t("ngram.cont.unigram", history=res.history_count))
    elif res.history_count == 0:
        st.warning(t("ngram.cont.unseen", prefix=_words(prefix), vocab=res.vocab_size))
    else:
        st.caption(t("ngram.cont.caption", prefix=_words(prefix), history=res.history_count, vocab=res.vocab_size))
    code = lang()
    chart_key = "ngram_pick_chart"
    st.vega_lite_chart(
        spec=picture_spec(config, prefix, inputs.get("sentence"), code),
        on_select=lambda: _extend_prefix(f"ngram_prefix_{code}", chart_key, config.n - 1),
        selection_mode=[PICK_PARAM],
        key=chart_key,
        width="stretch",
    )
    if len(res.words) > CHART_TOP:
        st.caption(t("ngram.cont.top", shown=CHART_TOP, total=len(res.words)))
    if res.words:
        st.caption(t("ngram.picture.pick_hint"))


def show_continuations(inputs: NgramInputs) -> None:
    """The continuation table behind the picture, the lower-order and smoothing notes, and the check."""
    config: NgramConfig = inputs.need("config")
    prefix: Sentence = inputs.need("prefix")
    res = cached_continuations(config, prefix)
    if res.shorter:  # fewer words than the model's window: a lower-order estimate, said out loud
        st.caption(t("ngram.cont.shorter", used=len(prefix), order=res.order, n=config.n, window=config.n - 1))
    if res.words or config.smoothing:
        cols = ["word", "count", "ratio", "p_mle"] + (["p_addk"] if config.smoothing else [])
        _table(continuation_frame(res), cols)
    if config.smoothing:
        st.info(
            t(
                "ngram.cont.smooth_note",
                k=f"{config.k:g}",
                unseen=res.unseen_types,
                p=prob(res.unseen_prob_addk),
                vocab=res.vocab_size,
                total=num(res.addk_total),
            )
        )
    if res.words:
        check_badge(t("ngram.cont.check"), res.max_abs_diff, tol=CHECK_TOL)


# --- quiz, 2) sentence probability ------------------------------------------------------------------


def _factor_words(res: SentenceResult, i: int) -> dict[str, object]:
    f = res.factors[i]
    return {
        "i": i + 1,
        "word": md_escape(f.word),
        "history": _words(f.history),
        "ratio": f"{f.count}/{f.history_count}",
    }


def quiz_key(config: NgramConfig) -> str:
    """One question per edit: after making it the learner meets a fresh question about the next one."""
    return f"ngram_quiz_k{config.k:g}" if config.smoothing else "ngram_quiz_smooth"


def show_quiz(inputs: NgramInputs) -> None:
    """Predict the effect of an edit not made yet: the page shows the current probability, not the edited one."""
    config: NgramConfig = inputs.need("config")
    sentence: Sentence = inputs.need("sentence")
    now = cached_sentence(config, sentence)
    edited = quiz_edit(config)
    after = cached_sentence(edited, sentence)
    change = quiz_change(now.probability, after.probability)
    edit = (
        t("ngram.quiz.edit_on", k=f"{config.k:g}")
        if not config.smoothing
        else t("ngram.quiz.edit_k", k=f"{config.k:g}", k2=f"{edited.k:g}")
    )
    if now.probability == 0:
        why = t("ngram.quiz.why_zero", **_factor_words(now, now.first_zero))
    else:
        why = t(f"ngram.quiz.why_{change}")
    predict_then_reveal(
        quiz_key(config),
        t("ngram.quiz.question", edit=edit, sentence=_words(sentence)),
        [t(f"ngram.quiz.{c}") for c in CHANGES],
        t(f"ngram.quiz.{change}"),
        t("ngram.quiz.explain", edit=edit, p=prob(now.probability), p2=prob(after.probability)) + " " + why,
    )


def show_sentence(inputs: NgramInputs) -> None:
    st.markdown(f"**{t('ngram.sent.header')}**")
    config: NgramConfig = inputs.need("config")
    res = cached_sentence(config, inputs.need("sentence"))
    st.caption(t("ngram.sent.caption_unigram") if config.n == 1 else t("ngram.sent.caption", window=config.n - 1))
    st.markdown(
        t(
            "ngram.sent.formula",
            sentence=_words(res.tokens),
            product=product_text(res, config.smoothing),
            p=prob(res.probability),
        )
    )
    st.markdown(t("ngram.sent.log", terms=log_sum_text(res), logp=num(res.log_probability)))
    if res.first_zero is not None:
        f = res.factors[res.first_zero]
        key = "ngram.sent.undefined" if f.mle is None else "ngram.sent.zero"
        st.warning(t(key, **_factor_words(res, res.first_zero)), icon=":material/warning:")
    if config.smoothing:
        st.info(t("ngram.sent.smooth_on", k=f"{config.k:g}", vocab=res.vocab_size))
    show_chart(factors_spec(config, res.tokens, lang()))
    cols = ["i", "word", "history", "ratio"] + (["addk_ratio", "p_addk"] if config.smoothing else ["p_mle"])
    _table(factors_frame(res, config.smoothing), cols + ["p", "log_p"])
    check_badge(t("ngram.sent.check"), res.max_abs_diff, tol=CHECK_TOL)


# --- 3) sparsity, 4) the window ---------------------------------------------------------------------


def show_sparsity(inputs: NgramInputs) -> None:
    """Needs the corpus and the sentence only: it compares every n, whatever the model's own n is."""
    st.markdown(f"**{t('ngram.sparse.header')}**")
    corpus: Corpus = inputs.need("corpus")
    sentence: Sentence = inputs.need("sentence")
    config: NgramConfig | None = inputs.get("config")
    res = cached_sparsity(corpus, sentence)
    st.caption(t("ngram.sparse.caption", total=res.totals[0]))
    df = sparsity_frame(res, config.n if config else None)
    show_chart(sparsity_spec(corpus, sentence, config.n if config else None, lang()))
    if config is not None and config.n in res.ns:
        i = res.ns.index(config.n)
        st.markdown(t("ngram.sparse.now", n=config.n, unseen=res.unseen[i], total=res.totals[i]))
    _table(df.rename(columns={"label": "unseen", "unseen": "count"}), ["n", "unseen", "grams", "distinct"])
    st.caption(t("ngram.sparse.monotone"))


def show_window(inputs: NgramInputs) -> None:
    st.markdown(f"**{t('ngram.win.header')}**")
    config: NgramConfig = inputs.need("config")
    sentence: Sentence = inputs.need("sentence")
    win = window_view(sentence, config.n)
    target = md_escape(win.target)
    if config.n == 1:
        st.markdown(t("ngram.win.unigram", target=target))
    elif win.outside:
        alt = cached_continuations(config, win.history)
        alternatives = ", ".join(
            f"{md_escape(w)} {c}/{alt.history_count}" for w, c in zip(alt.words, alt.counts, strict=True)
        )
        st.markdown(
            t(
                "ngram.win.outside",
                target=target,
                n=config.n,
                history=_words(win.history),
                outside=", ".join(f"“{md_escape(w)}”" for w in win.outside),
                alternatives=alternatives or t("ngram.win.nothing"),
            )
        )
    else:
        st.markdown(t("ngram.win.inside", target=target, window=config.n - 1))
    show_chart(window_spec(sentence, config.n, lang()))
    lines = [t("ngram.win.ffnn", window=config.n - 1)] if config.n > 1 else []
    lines.append(t("ngram.win.rnn", target=target, first=md_escape(sentence[0])))
    st.markdown("\n".join(f"- {line}" for line in lines))


# --- 5) counting vs a tiny embedding model -------------------------------------------------------------


@cached_result(max_entries=32)
def cached_embedding(config: EmbeddingConfig) -> EmbeddingModel:
    return train(config)


def emb_names(code: str, word: str) -> dict[str, str]:
    """The embedding charts' translated texts; the role names mention the learner's next word."""
    keys = (
        "emb_axis_1",
        "emb_axis_2",
        "emb_role",
        "emb_cosine",
        "emb_points_desc",
        "emb_bars_desc",
        "emb_counting",
        "emb_model",
        "word",
        "prob",
        "model",
    )
    names = {k: translate(code, f"ngram.chart.{k}") for k in keys}
    names |= {
        f"emb_role_{r}": translate(code, f"ngram.chart.emb_role_{r}", word=word)
        for r in ("previous", "nearest", "far", "before", "other")
    }
    return names | {
        f"emb_short_{r}": translate(code, f"ngram.chart.emb_short_{r}") for r in ("previous", "nearest", "far")
    }


@cached_spec(max_entries=64)
def embedding_specs(config: EmbeddingConfig, previous: str, word: str, code: str) -> Any:
    model = cached_embedding(config)
    pair = pair_view(model, previous, word)
    names = emb_names(code, word)
    return {
        "points": embedding_chart(embedding_points_frame(model, pair, names), names),
        "bars": embedding_bars_chart(embedding_bars_frame(pair, names), pair.uniform, names),
    }


def _pair_words(pair: PairResult) -> dict[str, object]:
    """Every number and word the embedding texts may name, written by fmt."""
    return {
        "prev": md_escape(pair.previous),
        "word": md_escape(pair.word),
        "count": pair.count,
        "p_count": prob(pair.p_count),
        "p_model": prob(pair.p_model),
        "uniform": prob(pair.uniform),
        "V": pair.vocab,
        "near": md_escape(pair.nearest or ""),
        "cos": num(pair.nearest_cosine) if pair.nearest_cosine is not None else "—",
        "near_p": prob(pair.nearest_p_model),
        "near_count": prob(pair.nearest_p_count),
        "far": md_escape(pair.far or ""),
        "far_cos": num(pair.far_cosine) if pair.far_cosine is not None else "—",
        "far_p": prob(pair.far_p_model),
    }


def show_embedding(inputs: NgramInputs) -> tuple[str, str, int] | None:
    """Counting gives an unseen pair 0; a tiny embedding model, trained now on this corpus, shares across words."""
    st.markdown(f"**{t('ngram.emb.header')}**")
    corpus: Corpus = inputs.need("corpus")
    st.caption(t("ngram.emb.intro"))
    code = lang()
    c1, c2 = st.columns([3, 1])
    pair_text = linked(
        c1.text_input,
        t("ngram.field.pair"),
        key=f"ngram_pair_{code}",
        default=default_example(code).pair,
        help=t("ngram.pair_help"),
        max_chars=caps.MAX_TEXT_CHARS,
    )
    seed_raw = linked(
        c2.number_input,
        t("ngram.field.emb_seed"),
        key="ngram_emb_seed",
        default=0,
        min_value=0,
        max_value=caps.MAX_SEED,
        step=1,
        help=t("ngram.emb_seed_help"),
    )
    try:
        previous, word = parse_pair(pair_text, corpus)
        config = EmbeddingConfig(corpus=corpus, seed=parse_seed(seed_raw))
        model = cached_embedding(config)
    except InputError as err:
        show_error(err)
        return None
    pair = pair_view(model, previous, word)
    words = _pair_words(pair)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("ngram.emb.metric_count", **words), words["p_count"])
    m2.metric(t("ngram.emb.metric_model", **words), words["p_model"])
    if pair.nearest is not None:
        m3.metric(t("ngram.emb.metric_near", **words), f"{pair.nearest} ({words['cos']})")
    # The text is chosen by the core's verdict: seen pair, unseen and lifted above 1/V, or unseen and not.
    st.markdown(t(f"ngram.emb.{pair.verdict}", **words))
    if pair.far is not None and pair.verdict != "seen":
        st.markdown(t("ngram.emb.far", **words))
    specs = embedding_specs(config, previous, word, code)
    st.markdown(f"**{t('ngram.chart.emb_points_title', word=words['word'])}**")
    show_chart(specs["points"])
    st.markdown(f"**{t('ngram.chart.emb_bars_title', word=words['word'])}**")
    show_chart(specs["bars"])
    st.caption(
        t(
            "ngram.emb.model",
            E=EMB_E,
            steps=model.steps,
            pairs=model.pairs,
            seed=config.seed,
            loss_start=num(model.loss_start),
            loss_end=num(model.loss_end),
            l2=num(EMB_L2),
        )
    )
    return previous, word, config.seed


# --- the page -------------------------------------------------------------------------------------


def show_notices() -> None:
    # The smoothing notice says which way the seen words' bars move: the question's answer, so after it.
    config = inputs.get("config")
    smooth = ["smooth"] if config is None or revealed(quiz_key(config)) else []
    notice_list([f"ngram.notice.{k}" for k in ("cont", "zero", "sparse", *smooth, "window", "emb")])


def show_code() -> None:
    config: NgramConfig = inputs.need("config")
    code = script(config, inputs.get("prefix"), inputs.get("sentence"), pair.get("pair"))
    code_expander(code, file_name="next_token_counts.py")


def embedding_tab() -> None:
    pair["pair"] = show_embedding(inputs)


controls, picture = explainer("ngram")
with controls:
    inputs = read_inputs()
with picture:
    guarded(lambda: show_picture(inputs))
    guarded(lambda: show_quiz(inputs))
pair: dict[str, tuple[str, str, int] | None] = {}
details(
    [
        ("ngram.tab.sentence", lambda: show_sentence(inputs)),
        ("ngram.tab.sparsity", lambda: show_sparsity(inputs)),
        ("ngram.tab.window", lambda: show_window(inputs)),
        ("ngram.tab.embedding", embedding_tab),
        ("ui.tab_tables", lambda: show_continuations(inputs)),
        ("ui.tab_code", show_code),
        ("ui.tab_notice", show_notices),
    ],
    key="ngram_tabs",
)
