"""The next-token page's window-network tab: the study note's fixed-window feed-forward model, trained now on the
learner's corpus, beside counting after the same window; what falls outside the window; the hand forward vs the
module. The tab draws its own two inputs (hidden size, seed); its window is the page's n − 1.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, prob, vec
from s2s_core.ngram import NgramConfig
from s2s_core.ngram.counting import Corpus, Sentence
from s2s_core.ngram.fields import WIN_HIDDEN, WIN_SEED
from s2s_core.ngram.window import CHECK_TOL, E, Forward, WindowView, parse_window, same
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.ngram.specs import cached_network_view, cached_window_model, network_spec
from s2s_ui.state import Page
from s2s_ui.widgets import check_badge, md_escape, show_error


def _words(tokens: Sentence) -> str:
    return md_escape(" ".join(tokens)) if tokens else "∅"


def _prediction(view: WindowView) -> dict[str, object]:
    """Every word and number the comparison's sentences may name."""
    fwd, cnt = view.forward, view.counted
    top, p = fwd.top[0]
    words: dict[str, object] = {"top": md_escape(top), "p": prob(p), "window": _words(fwd.window)}
    if cnt.history_count:
        words |= {
            "ctop": md_escape(cnt.words[0]),
            "ratio": f"{cnt.counts[0]}/{cnt.history_count}",
            "cp": prob(cnt.counts[0] / cnt.history_count),
            "k": cnt.unseen_words,
            "mass": prob(cnt.network_unseen_mass),
        }
    return words


def _comparison(view: WindowView, prefix: Sentence, W: int, untouched: bool) -> list[str]:
    """The sentences about the network vs counting, each chosen by a condition the core computed."""
    fwd, cnt = view.forward, view.counted
    words = _prediction(view)
    lines = [t("ngram.net.reads", window=words["window"], W=W)]
    if len(prefix) < W:
        lines.append(t("ngram.net.padded", W=W))
    if fwd.unknown and untouched:
        lines.append(t("ngram.net.unk", words=", ".join(f"“{md_escape(w)}”" for w in fwd.unknown)))
    if not cnt.history_count:
        lines.append(t("ngram.net.unseen_window", **words))
        return lines
    lines.append(t("ngram.net.agree" if view.agree else "ngram.net.differ", **words))
    if cnt.unseen_words:
        lines.append(t("ngram.net.unseen_mass", **words))
    return lines


def _steps(fwd: Forward, H: int, V: int) -> None:
    """The forward pass written out, with its shapes and numbers."""
    W = len(fwd.window)
    looked = "; ".join(f"e({md_escape(w)}) = {vec(e)}" for w, e in zip(fwd.window, fwd.embedded, strict=True))
    lines = [
        t("ngram.net.step_embed", W=W, E=E, vectors=looked),
        t("ngram.net.step_concat", WE=W * E, x=vec(fwd.x)),
        t("ngram.net.step_hidden", H=H, WE=W * E, h=vec(fwd.hidden)),
        t("ngram.net.step_softmax", V=V, H=H, top=", ".join(f"{md_escape(w)} {prob(p)}" for w, p in fwd.top)),
    ]
    st.markdown("\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1)))


def _blind(view: WindowView, W: int, V: int, sentence: Sentence) -> None:
    """Two contexts that differ only before the window: the same distribution (computed, not assumed)."""
    spot = view.blind
    if spot is None:
        st.markdown(t("ngram.net.blind_none", target=md_escape(sentence[-1]), W=W))
        return
    words = {
        "target": md_escape(sentence[-1]),
        "a": _words(spot.a.context),
        "b": _words(spot.b.context),
        "replaced": md_escape(spot.replaced),
        "by": md_escape(spot.by),
        "window": _words(spot.a.window),
        "V": V,
        "diff": num(spot.max_abs_diff),
        "top_a": ", ".join(f"{md_escape(w)} {prob(p)}" for w, p in spot.a.top[:3]),
        "top_b": ", ".join(f"{md_escape(w)} {prob(p)}" for w, p in spot.b.top[:3]),
    }
    st.markdown(t("ngram.net.blind_same" if same(spot) else "ngram.net.blind_differ", **words))


def show_network(
    page: Page,
    corpus: Parsed[Corpus],
    config: Parsed[NgramConfig],
    prefix: Parsed[Sentence],
    sentence: Parsed[Sentence],
) -> None:
    """The tab: its two inputs, the prediction beside counting's, the chart, the blind spot, the steps, the check."""
    st.markdown(f"**{t('ngram.net.header')}**")
    st.caption(t("ngram.net.intro"))
    c1, c2 = st.columns(2)
    hidden = page.input(WIN_HIDDEN, c1.number_input, step=1, help=t("ngram.win_hidden_help"))
    seed = page.input(WIN_SEED, c2.number_input, step=1, help=t("ngram.win_seed_help"))
    ngram = config.need()
    parsed = Parsed.of(lambda: parse_window(corpus.need(), ngram.n, hidden, seed))
    if parsed.error is not None:
        show_error(parsed.error)
        return
    win = parsed.need()
    model = cached_window_model(win)
    the_prefix, the_sentence = prefix.need(), sentence.value
    view = cached_network_view(win, the_prefix, the_sentence)
    V = len(model.outputs)
    m1, m2 = st.columns(2)
    top, p = view.forward.top[0]
    m1.metric(t("ngram.net.metric_net"), f"{top} ({prob(p)})")
    cnt = view.counted
    m2.metric(
        t("ngram.net.metric_count"), f"{cnt.words[0]} ({cnt.counts[0]}/{cnt.history_count})" if cnt.words else "0/0"
    )
    st.markdown("\n".join(f"- {line}" for line in _comparison(view, the_prefix, win.window, model.unk_untouched)))
    st.markdown(f"**{t('ngram.chart.net_title', window=_words(view.forward.window))}**")
    draw(st, network_spec(win, the_prefix, lang()))
    st.markdown(f"**{t('ngram.net.blind_header')}**")
    if the_sentence:
        _blind(view, win.window, V, the_sentence)
    with st.expander(t("ngram.net.steps_header"), icon=":material/calculate:"):
        _steps(view.forward, win.hidden, V)
    check_badge(t("ngram.net.check"), view.forward.max_abs_diff, tol=CHECK_TOL)
    loss = {"loss_start": num(model.loss_start), "loss_end": num(model.loss_end)}
    info = {"E": E, "H": win.hidden, "steps": model.steps, "grams": model.grams, "C": model.histories}
    st.caption(t("ngram.net.model", seed=win.seed, **info, **loss))
