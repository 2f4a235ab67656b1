"""The pages' pictures for a practitioner's own modules, in a notebook: `from s2s_core import show_lstm, ...`.

    shown = show_lstm(my_lstm, x)          # x: (S, E), or a batch of one in the module's layout
    shown                                  # Jupyter draws the picture (Altair renders there by itself)
    shown.chart, shown.result              # the Altair chart the LSTM page draws, and LstmResult: every intermediate
    shown.result.max_abs_diff              # the hand loop against the module itself (< 1e-9: they agree)

Each function runs the same core code as its page: the learner's module is checked like an uploaded state_dict
(s2s_core/own_weights.py: one layer, one direction, sizes within the page's caps, finite), copied into float64
(the module is not changed), explained by the page's own function, and drawn by the page's own chart builder with
the page's words (s2s_core/catalog.py; `lang` "en" or "ko"). The one difference from the page: the app passes every
spec through its finishing step at draw time (s2s_ui/charts.finish: a font floor, the theme's text colour, screen
reader labels), which a notebook does not need.

Bad input raises ShowError with the page's own message in `lang`, naming the argument.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import altair as alt
import torch
from torch import nn

from s2s_core import caps
from s2s_core.catalog import LANGS, translate, words
from s2s_core.chartkit import step_param
from s2s_core.errors import InputError
from s2s_core.gated.fields import DEFAULT_STEP, MAX_S
from s2s_core.gated.picture import STEP_PARAM, cell_chart, picture_words
from s2s_core.gru import compute as gru
from s2s_core.gru.picture import picture_data as gru_picture
from s2s_core.lstm import compute as lstm
from s2s_core.lstm.picture import picture_data as lstm_picture
from s2s_core.own_weights import from_state_dict
from s2s_core.rnn import compute as rnn
from s2s_core.rnn import picture as rnn_picture
from s2s_core.shapes.compute import ShapesResult, explain_shapes, parse_settings, with_lengths
from s2s_core.shapes.model import token_ids
from s2s_core.shapes.picture import picture_frames, shapes_chart
from s2s_core.training.charts import LABELS as MAP_LABELS
from s2s_core.training.charts import attention_heatmap
from s2s_core.training.frames import map_frame

R = TypeVar("R")
MAX_MAP = caps.MAX_SEQ_LEN  # source positions and target steps of an attention map
ROW_SUM_TOL = 1e-3  # a softmax row sums to 1 within float32 rounding


class ShowError(ValueError):
    """An input a picture cannot be drawn from; the message is the page's own, in the caller's language."""


@dataclass(frozen=True)
class Shown(Generic[R]):
    """A picture and the result it was drawn from. In Jupyter it displays as the chart; it also unpacks,
    `chart, result = show_lstm(...)`."""

    chart: alt.TopLevelMixin
    result: R

    def __iter__(self) -> Iterator[Any]:
        return iter((self.chart, self.result))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return self.chart._repr_mimebundle_(include, exclude)


@dataclass(frozen=True)
class AttentionMap:
    """Every number the attention map shows, and what it does and does not say."""

    weights: torch.Tensor  # (T, S) row t: how much target step t takes from each source position
    source: tuple[str, ...]  # (S,)
    target: tuple[str, ...]  # (T,)
    row_sums: torch.Tensor  # (T,) each 1 within ROW_SUM_TOL: a softmax over the source
    heaviest: tuple[int, ...]  # (T,) the source position each step weighs most (0-based)
    # A map shows where each step looked, not why it produced its word: a heavy weight is not a proof (the
    # attention page's notes, "what attention maps do not prove").


# --- shared checks -----------------------------------------------------------------------------------------


def _fail(err: InputError, lang: str) -> ShowError:
    params = {k: v for k, v in err.params.items() if k != "field"}
    return ShowError(translate(lang, err.key, field=translate(lang, err.field), **params))


def _refuse(lang: str, why: str, field: str, **params: object) -> ShowError:
    return _fail(InputError(f"errors.show.{why}", f"errors.show.field_{field}", **params), lang)


def _language(lang: str) -> str:
    if lang not in LANGS:
        raise ShowError(f"lang: one of {', '.join(LANGS)}, not {str(lang)[:10]!r}")
    return lang


def _own(module: object, kind: str, lang: str) -> nn.Module:
    """A float64, batch_first copy of the caller's single-layer module (theirs is left as it was)."""
    expected = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind]
    if not isinstance(module, expected):
        raise _refuse(lang, "module_kind", "module", kind=expected.__name__, got=type(module).__name__)
    try:
        return from_state_dict(module.state_dict(), kind).module
    except InputError as err:  # the upload's checks, named after this argument rather than a file
        raise _fail(InputError(err.key, "errors.show.field_module", **err.params), lang) from None


def _sequence(x: object, module: nn.RNNBase, lang: str) -> torch.Tensor:
    """x as (S, E) float64: given (S, E), or as a batch of one in the module's own layout."""
    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        raise _refuse(lang, "x_type", "x")
    E = module.input_size
    if x.dim() == 3:
        batch = x.shape[0] if module.batch_first else x.shape[1]
        if batch != 1:
            raise _refuse(lang, "x_batch", "x", B=int(batch))
        x = x[0] if module.batch_first else x[:, 0]  # (1, S, E) or (S, 1, E) -> (S, E)
    if x.dim() != 2 or x.shape[1] != E or x.shape[0] == 0:
        raise _refuse(lang, "x_shape", "x", E=E, shape=str(tuple(x.shape)))
    if x.shape[0] > MAX_S:
        raise _refuse(lang, "too_long", "x", S=int(x.shape[0]), limit=MAX_S)
    if not bool(torch.isfinite(x).all()) or float(x.abs().max()) > caps.MAX_ABS_VALUE:
        raise _refuse(lang, "not_finite", "x", limit=caps.MAX_ABS_VALUE)
    return x.detach().to(torch.float64)  # (S, E)


def _labels(labels: Sequence[str] | None, S: int, lang: str) -> tuple[str, ...]:
    """Step labels: the caller's (plain text, never markup), or 1…S."""
    if labels is None:
        return tuple(str(t + 1) for t in range(S))
    found = tuple(str(label)[: caps.MAX_TEXT_CHARS] for label in labels)
    if len(found) != S:
        raise _refuse(lang, "labels", "labels", n=len(found), S=S)
    return found


def _first_step(step: int | None, S: int) -> int:
    return min(max(int(step if step is not None else DEFAULT_STEP), 1), S)


# --- the four cell and attention pictures ----------------------------------------------------------------------


# kind -> (explain(module, x, labels), picture_data(result, config, words), the page's config class)
CELLS: dict[str, tuple[Callable[..., Any], Callable[..., Any], type]] = {
    "lstm": (lstm.explain_lstm, lstm_picture, lstm.LstmConfig),
    "gru": (gru.explain_gru, gru_picture, gru.GruConfig),
}


def show_lstm(
    module: nn.LSTM, x: torch.Tensor, *, labels: Sequence[str] | None = None, step: int | None = None, lang: str = "en"
) -> Shown[lstm.LstmResult]:
    """The LSTM page's cell picture for your nn.LSTM on x, with LstmResult (gates, c, h, the check)."""
    return _show_cell("lstm", module, x, labels, step, lang)


def show_gru(
    module: nn.GRU, x: torch.Tensor, *, labels: Sequence[str] | None = None, step: int | None = None, lang: str = "en"
) -> Shown[gru.GruResult]:
    """The GRU page's cell picture for your nn.GRU on x, with GruResult (r, z, n, h, the check)."""
    return _show_cell("gru", module, x, labels, step, lang)


def _show_cell(kind: str, module: Any, x: Any, labels: Sequence[str] | None, step: int | None, lang: str) -> Shown:
    """A gated cell's page picture: the module checked and copied, explained by hand, drawn with no gate forced."""
    lang = _language(lang)
    explain, picture_data, config_class = CELLS[kind]
    own = _own(module, kind, lang)
    x64 = _sequence(x, module, lang)  # (S, E)
    S = x64.shape[0]
    result = explain(own, x64, _labels(labels, S, lang))
    texts = picture_words(kind, lang, False)
    pic = picture_data(result, config_class(), texts)  # the page's picture reads only the config's forces: none
    param = step_param(STEP_PARAM, S, _first_step(step, S), translate(lang, "steps.label"))
    return Shown(cell_chart(pic, texts, param), result)


def show_rnn(
    module: nn.RNN, x: torch.Tensor, *, labels: Sequence[str] | None = None, step: int | None = None, lang: str = "en"
) -> Shown[rnn.RnnResult]:
    """The RNN page's unrolled chain for your nn.RNN on x, with RnnResult (every term of every step, the check).

    The page also swaps the first input for another to show which states feel it; here that other input is zeros.
    """
    lang = _language(lang)
    own = _own(module, "rnn", lang)
    x64 = _sequence(x, module, lang)  # (S, E)
    tokens = _labels(labels, x64.shape[0], lang)
    other = torch.zeros(x64.shape[1], dtype=torch.float64)  # (E,)
    result = rnn.explain_rnn(tokens, x64, rnn.weights_of(own), other)
    S = x64.shape[0]
    param = step_param(
        rnn_picture.STEP_PARAM, S, _first_step(step if step is not None else 1, S), translate(lang, "steps.label")
    )
    return Shown(
        rnn_picture.unroll_picture(rnn_picture.picture_data(result), rnn_picture.picture_words(lang), param), result
    )


def show_attention(
    weights: object, source_tokens: Sequence[str], target_tokens: Sequence[str], *, lang: str = "en"
) -> Shown[AttentionMap]:
    """The Translation lab's attention map for any (T, S) weights: row t, target step t; column s, source
    position s. A batch of one, (1, T, S), is taken as its one map."""
    lang = _language(lang)
    try:
        w = torch.as_tensor(weights.detach() if isinstance(weights, torch.Tensor) else weights)
    except (TypeError, ValueError, RuntimeError):  # not numbers, or ragged rows
        raise _refuse(lang, "weights_shape", "weights", shape="-", T=len(target_tokens), S=len(source_tokens)) from None
    if w.dim() == 3 and w.shape[0] == 1:
        w = w[0]  # (1, T, S) -> (T, S)
    source, target = tuple(map(str, source_tokens)), tuple(map(str, target_tokens))
    if w.dim() != 2 or tuple(w.shape) != (len(target), len(source)) or not w.is_floating_point():
        raise _refuse(lang, "weights_shape", "weights", shape=str(tuple(w.shape)), T=len(target), S=len(source))
    if not 0 < len(source) <= MAX_MAP or not 0 < len(target) <= MAX_MAP:
        raise _refuse(lang, "map_too_big", "weights", T=len(target), S=len(source), limit=MAX_MAP)
    w = w.to(torch.float64)  # (T, S)
    row_sums = w.sum(dim=1)  # (T,)
    bad = [t for t in range(w.shape[0]) if not bool(torch.isfinite(w[t]).all()) or float(w[t].min()) < 0]
    bad += [t for t in range(w.shape[0]) if abs(float(row_sums[t]) - 1) > ROW_SUM_TOL]
    if bad:
        t = min(bad)
        raise _refuse(lang, "weights_rows", "weights", row=t + 1, total=f"{float(row_sums[t]):.4g}")
    result = AttentionMap(w, source, target, row_sums, tuple(int(i) for i in w.argmax(dim=1)))
    labels = words(lang, "training.chart", MAP_LABELS)
    labels = labels | {"step": labels["out_step"]}
    frame = map_frame(target, source, len(source), w.tolist())  # the lab's own rows: no source position is PAD
    return Shown(attention_heatmap(frame, labels), result)


def show_shapes(
    module: nn.RNNBase, x: torch.Tensor, lengths: Sequence[int] | None = None, *, lang: str = "en"
) -> Shown[ShapesResult]:
    """The Tensor shapes page's blocks picture for your nn.RNN / nn.LSTM / nn.GRU on the batch x, in the module's
    layout ((B, S, E) when batch_first, else (S, B, E)): output, h_n (and c_n), padded and, given `lengths` (each
    sentence's true length), packed; with ShapesResult (every tensor, and h_n against each sentence run alone)."""
    lang = _language(lang)
    kinds = {nn.LSTM: "LSTM", nn.GRU: "GRU", nn.RNN: "RNN"}
    if type(module) not in kinds:
        raise _refuse(lang, "module_kind", "module", kind="RNN / LSTM / GRU", got=type(module).__name__)
    if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.dim() != 3:
        raise _refuse(lang, "x_batch_shape", "x", shape=str(tuple(x.shape)) if isinstance(x, torch.Tensor) else "-")
    B, S = (x.shape[0], x.shape[1]) if module.batch_first else (x.shape[1], x.shape[0])
    if x.shape[2] != module.input_size:
        raise _refuse(lang, "x_shape", "x", E=module.input_size, shape=str(tuple(x.shape)))
    try:
        config = parse_settings(
            cell=kinds[type(module)],
            B=int(B),
            S=int(S),
            E=module.input_size,
            H=module.hidden_size,
            num_layers=module.num_layers,
            bidirectional=module.bidirectional,
            batch_first=module.batch_first,
            proj_size=getattr(module, "proj_size", 0),
            packed=lengths is not None,
        )
        if lengths is not None:
            config = with_lengths(config, ",".join(str(int(n)) for n in lengths))
    except InputError as err:
        raise _fail(err, lang) from None
    if not bool(torch.isfinite(x).all()):
        raise _refuse(lang, "not_finite", "x", limit=caps.MAX_ABS_VALUE)
    layer = copy.deepcopy(module).eval()  # theirs keeps its mode and weights; eval: no dropout between layers
    x = x.detach().to(next(layer.parameters()).dtype)  # (B, S, E) or (S, B, E), in the layer's own dtype
    result = explain_shapes(config, layer, x, token_ids(config.B, config.S, config.lengths))
    return Shown(shapes_chart(picture_frames(result), config, lang, answered=True), result)
