"""The tensor-shapes page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/shapes.py `read_inputs`): every setting through
`parse_settings`, then the lengths through `with_lengths`. The strings a claim says the page shows are the
picture's own (its blocks' shape captions, its h_n labels) or a tab's language-free numbers (batch_sizes, the
packed data's shape, PyTorch's error message), so they are the same in both languages.

Shapes: B batch, S steps, L layers, K directions, Hout = P or H.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from s2s_core.fmt import sci
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.shapes import ShapesConfig, ShapesResult, fields, parse_settings, run_shapes, with_lengths
from s2s_core.shapes.checks import compare
from s2s_core.shapes.failures import failure_demo
from s2s_core.shapes.frames import shape_text
from s2s_core.shapes.origin import last_step_reading
from s2s_core.shapes.picture import picture_frames


def config_of(state: LinkState) -> ShapesConfig:
    flags = {name: state.value(f) for name, f in fields.FLAGS.items()}
    sizes = {name: state.value(f) for name, f in fields.SIZES.items()}
    settings = parse_settings(
        cell=state.value(fields.CELL),
        num_layers=state.value(fields.NUM_LAYERS),
        proj_size=state.value(fields.PROJ_SIZE),
        seed=state.value(fields.SEED),
        **flags,
        **sizes,
    )
    return with_lengths(settings, state.value(fields.LENGTHS))


def captions(r: ShapesResult) -> dict[str, str]:
    """Each drawn tensor's caption under its block in the picture, by name: "(B=2, S=3, K·H=6)"."""
    blocks = picture_frames(r).blocks
    return dict(zip(blocks["tensor"], blocks["shape"], strict=True))


@claim("shapes:shapes")
def shapes(state: LinkState, **expected: Sequence[int]) -> ClaimResult:
    """Each named tensor (x, outputs, h_n, c_n) has the expected shape, e.g. outputs = [2, 3, 6]."""
    r = run_shapes(config_of(state))
    real = {s.name: s.shape for s in r.shapes}  # read from the tensors themselves
    said = captions(r)
    holds = bool(expected) and all(real.get(name) == tuple(shape) for name, shape in expected.items())
    return ClaimResult(holds, said, shown=tuple(said[n] for n in expected if n in said))


def _swapped(shape: Sequence[int]) -> tuple[int, ...]:
    """(B, S, F) <-> (S, B, F): the layout the other batch_first gives."""
    return (shape[1], shape[0], *shape[2:])


@claim("shapes:batch_first")
def batch_first(state: LinkState, outputs: Sequence[int]) -> ClaimResult:
    """outputs has the shape `outputs` here; flipping batch_first swaps the first two axes of x and outputs and
    leaves h_n (and c_n) exactly as they are."""
    config = config_of(state)
    here, flipped = run_shapes(config), run_shapes(replace(config, batch_first=not config.batch_first))
    swap = all(_swapped(getattr(here, n).shape) == tuple(getattr(flipped, n).shape) for n in ("x", "outputs"))
    states = here.h_n.shape == flipped.h_n.shape and (here.c_n is None or here.c_n.shape == flipped.c_n.shape)
    said = captions(here)
    values = {**said, "outputs_flipped": captions(flipped)["outputs"]}
    holds = tuple(here.outputs.shape) == tuple(outputs) and swap and states
    return ClaimResult(bool(holds), values, shown=(said["x"], said["outputs"], said["h_n"]))


@claim("shapes:last_step")
def last_step(state: LinkState, equal: bool | None = None) -> ClaimResult:
    """Is `outputs[:, -1]` equal to `h_n[-1]` here (torch.allclose on the page's real tensors)? With `equal`, the
    claim holds when the comparison comes out so; as a question's answer: "equal" or "differ"."""
    r = run_shapes(config_of(state))
    reading = last_step_reading(r)
    last = r.outputs[:, -1] if r.config.batch_first else r.outputs[-1]  # (B, K·Hout)
    said = captions(r)
    values = {
        "lhs": reading.lhs,
        "lhs_shape": shape_text(tuple(last.shape)),
        "rhs_shape": shape_text(tuple(r.h_n[-1].shape)),  # (B, Hout)
        "final": str(reading.compared.final),  # the position where h_n[-1]'s direction ended (0-based, as drawn)
        "outputs": said["outputs"],
        "h_n": said["h_n"],
    }
    holds = equal is None or reading.equal == bool(equal)
    return ClaimResult(
        holds, values, shown=(said["outputs"], said["h_n"]), answer="equal" if reading.equal else "differ"
    )


@claim("shapes:backward_final")
def backward_final(state: LinkState) -> ClaimResult:
    """With two directions, h_n[-1] is the backward direction's final state, which ended at the first position
    (position 0: the answer "first"; else "last"). Holds when h_n[-1] is a backward row."""
    r = run_shapes(config_of(state))
    row = last_step_reading(r).compared
    values = {"final": str(row.final), "last": str(r.config.S - 1)}  # positions 0-based, as the picture numbers them
    return ClaimResult(row.backward, values, shown=(captions(r)["h_n"],), answer="first" if row.final == 0 else "last")


@claim("shapes:true_last")
def true_last(state: LinkState, sentence: int, equal: bool | None = None) -> ClaimResult:
    """Is h_n (every row) for sentence `sentence` (1-based) its state at its own last token, that is the sentence
    run alone? With `equal`, holds when it comes out so; as an answer: "true_last" or "after_pad".

    The difference itself is drawn only once the page's own question is answered (its padding and checks tabs),
    which no link can reach; so what this claim says is shown is the picture's traced sentence's shape captions."""
    config = config_of(state)
    r = run_shapes(config)
    b = sentence - 1
    same, diff = compare(r.h_n[:, b], r.alone_h_n[:, b])  # (L·K, Hout) each
    n = config.lengths[b]
    values = {"sentence": f"#{sentence}", "length": str(n), "pads": str(config.S - n), "diff": sci(diff or 0.0)}
    holds = equal is None or same == bool(equal)
    said = captions(r)
    return ClaimResult(holds, values, shown=(said["x"], said["h_n"]), answer="true_last" if same else "after_pad")


@claim("shapes:packed")
def packed(state: LinkState) -> ClaimResult:
    """A packed run stops each sentence at its own length: h_n (and c_n) equal every sentence run alone. The
    Packing tab's numbers: packed.data's shape (one row per real token) and batch_sizes."""
    config = config_of(state)
    r = run_shapes(config)
    same, _ = compare(r.h_n, r.alone_h_n)  # (L·K, B, Hout)
    if r.c_n is not None:
        same = same and compare(r.c_n, r.alone_c_n)[0]
    data = shape_text(tuple(r.packed_data.shape))  # (ΣS, E)
    sizes = str(list(r.batch_sizes))
    values = {"data": data, "rows": str(sum(config.lengths)), "batch_sizes": sizes}
    return ClaimResult(config.packed and same, values, shown=(data, sizes))


@claim("shapes:error")
def error(state: LinkState, kind: str) -> ClaimResult:
    """The failure tab's wrong call `kind` makes PyTorch raise; its message is shown verbatim."""
    demo = failure_demo(config_of(state), kind)
    if demo is None or not demo.raised:
        return ClaimResult(False, {"type": "", "message": ""})
    return ClaimResult(True, {"type": demo.error_type or "", "message": demo.message or ""}, shown=(demo.message,))
