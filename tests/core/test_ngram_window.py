"""The fixed-window network of the next-token page (s2s_core/ngram/window.py): the hand forward equals a torch
module with copied weights, training is seeded and bounded, the window decides the prediction, counting beside it
is the n-gram model's own, and each sentence's condition holds for the inputs."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from s2s_core.errors import InputError
from s2s_core.ngram import continuations, fields, parse_config, sentence_probability
from s2s_core.ngram.compute import parse_corpus
from s2s_core.ngram.embedding import MAX_WORDS
from s2s_core.ngram.examples import EXAMPLES
from s2s_core.ngram.window import (
    CHECK_TOL,
    STEPS,
    E,
    WindowConfig,
    forward,
    parse_window,
    same,
    train,
    window_view,
)
from s2s_core.vocab import SOS, UNK


def _model(lang: str = "ko", window: int = 2, hidden: int = fields.DEFAULT_WIN_HIDDEN, seed: int = 0):
    return train(WindowConfig(parse_corpus(EXAMPLES[lang].corpus), window, hidden, seed))


def _copy(model) -> nn.Module:
    """An independent torch network with the trained weights copied in: Embedding -> Flatten -> Linear -> Tanh ->
    Linear -> Softmax."""
    m = model.module
    net = nn.Sequential(
        nn.Embedding(len(model.inputs), E),
        nn.Flatten(1),
        nn.Linear(model.config.window * E, model.config.hidden),
        nn.Tanh(),
        nn.Linear(model.config.hidden, len(model.outputs)),
        nn.Softmax(dim=1),
    ).double()
    with torch.no_grad():
        net[0].weight.copy_(m.embed.weight)
        net[2].weight.copy_(m.hidden.weight)
        net[2].bias.copy_(m.hidden.bias)
        net[4].weight.copy_(m.out.weight)
        net[4].bias.copy_(m.out.bias)
    return net


@pytest.mark.parametrize(("lang", "window"), [("ko", 1), ("ko", 2), ("en", 3)])
def test_the_hand_forward_equals_a_torch_network_with_copied_weights(lang, window):
    model = _model(lang, window)
    net = _copy(model)
    for context in (tuple(EXAMPLES[lang].prefix.split()), tuple(EXAMPLES[lang].sentence.split()[:-1]), ()):
        fwd = forward(model, context)
        assert fwd.embedded.shape == (window, E) and fwd.x.shape == (window * E,)
        assert fwd.hidden.shape == (model.config.hidden,) and fwd.probs.shape == (len(model.outputs),)
        theirs = net(torch.tensor([fwd.ids]))[0]  # (1, W) -> (1, V) -> (V,)
        assert torch.allclose(fwd.probs, theirs, rtol=0, atol=1e-12)
        assert fwd.max_abs_diff <= CHECK_TOL  # the page's own check: hand vs the page's nn.Module
        assert torch.allclose(fwd.hidden, torch.tanh(fwd.pre)) and abs(float(fwd.probs.sum()) - 1) < 1e-12
        assert len(fwd.window) == window
        if context:
            assert fwd.window[-min(len(context), window) :] == context[-window:]


def test_training_is_seeded_and_bounded():
    # Bounded by its step count (STEPS), not by a clock: speed is the benchmark's (make bench), never a timed test.
    corpus = parse_corpus(EXAMPLES["ko"].corpus)
    a = train(WindowConfig(corpus, 2, seed=3))
    b = train(WindowConfig(corpus, 2, seed=3))
    c = train(WindowConfig(corpus, 2, seed=4))
    assert a.steps == STEPS and a.loss_end < a.loss_start
    context = ("오늘", "점심에")
    assert torch.equal(forward(a, context).probs, forward(b, context).probs)
    assert not torch.equal(forward(a, context).probs, forward(c, context).probs)
    assert a.grams == sum(len(s) + 1 for s in corpus)  # one n-gram per predicted token
    assert a.unk_untouched  # no corpus n-gram holds <unk>: its vector keeps its starting value


def test_two_contexts_that_differ_only_outside_the_window_get_the_same_prediction():
    model = _model("ko", 2)
    view = window_view(model, ("오늘", "점심에"), ("어제", "점심에", "라면을", "먹었다"))
    spot = view.blind
    assert spot is not None and spot.a.context == ("어제", "점심에", "라면을")
    assert spot.b.context == ("오늘", "점심에", "라면을") and spot.a.outside == ("어제",)
    assert spot.a.window == spot.b.window == ("점심에", "라면을")
    assert same(spot) and torch.equal(spot.a.probs, spot.b.probs)
    # Inside the window a change does move the prediction: the sameness is the window's, not the network's.
    inside = forward(model, ("어제", "저녁에", "라면을"))
    assert not torch.equal(inside.probs, spot.a.probs)
    # A sentence that fits in the window has nothing outside it to vary.
    assert window_view(model, (), ("오늘", "점심에", "먹었다")).blind is None


def test_counting_beside_it_is_the_ngram_models_own_table_for_the_same_window():
    text = EXAMPLES["ko"].corpus
    model = _model("ko", 2)
    view = window_view(model, ("오늘", "점심에"), None)
    cont = continuations(parse_config(text, 3, False, 1.0), ("오늘", "점심에"))
    assert (view.counted.words, view.counted.counts) == (cont.words, cont.counts)
    assert view.counted.best == ("김밥을",) and view.agree == (view.forward.top[0][0] == "김밥을")
    unseen = [j for j, w in enumerate(model.outputs) if w not in cont.words]
    assert view.counted.unseen_words == len(unseen) > 0
    assert view.counted.network_unseen_mass == pytest.approx(float(view.forward.probs[unseen].sum()))
    assert 0 < view.counted.network_unseen_mass < 1  # counting gives them 0, a softmax never does
    # A prefix shorter than the window: both read <sos> in front, the n-gram model's first factor.
    short = window_view(model, ("오늘",), None)
    assert short.forward.window == (SOS, "오늘")
    first = sentence_probability(parse_config(text, 3, False, 1.0), ("오늘", "점심에")).factors[1]
    assert short.counted.history_count == first.history_count and first.history == (SOS, "오늘")


def test_an_unseen_window_and_an_unknown_word():
    model = _model("ko", 2)
    view = window_view(model, ("오늘", "아침에"), None)  # 아침에 is no corpus word
    assert view.forward.unknown == ("아침에",) and model.inputs[view.forward.ids[-1]] == UNK
    assert view.counted.history_count == 0 and not view.agree  # counting: 0/0; the network still predicts
    assert abs(float(view.forward.probs.sum()) - 1) < 1e-12


@pytest.mark.parametrize(
    ("text", "n", "hidden", "seed", "field"),
    [
        (EXAMPLES["ko"].corpus, 1, 12, 0, "ngram.field.n"),
        (EXAMPLES["ko"].corpus, 3, fields.WIN_HIDDEN_MAX + 1, 0, "ngram.field.win_hidden"),
        (EXAMPLES["ko"].corpus, 3, 12, -1, "ngram.field.win_seed"),
        (" ".join(f"w{i}" for i in range(MAX_WORDS + 1)), 3, 12, 0, "ngram.field.corpus"),
    ],
)
def test_bad_inputs_name_their_field(text, n, hidden, seed, field):
    with pytest.raises(InputError) as err:
        parse_window(parse_corpus(text), n, hidden, seed)
    assert err.value.field == field
