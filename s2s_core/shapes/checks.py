"""Live equality checks: when does `outputs[:, -1]` equal `h_n[-1]`, and when not (and why)?

Shapes: B batch, S steps, Hout = P or H, K directions; h_n rows go layer by layer, forward
then backward, so h_n[-1] is the top layer's last direction and h_n[-K] its forward one.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from s2s_core.shapes.compute import ShapesResult

ATOL = 1e-6  # float32 runs of the same math in a different batch agree to ~1e-7


@dataclass(frozen=True)
class EqualityCheck:
    """One comparison of two real tensors, with the code that selects each side."""

    key: str  # catalog: shapes.check.<key>.title / .<note>
    lhs: str  # code, e.g. "outputs[:, -1]"
    rhs: str  # code, e.g. "h_n[-1]"
    lhs_shape: tuple[int, ...]
    rhs_shape: tuple[int, ...]
    equal: bool  # same shape and torch.allclose(atol=ATOL) on the real tensors
    max_abs_diff: float | None  # None when the shapes differ (nothing to subtract)
    note: str  # which explanation fits: catalog key shapes.check.<key>.<note>


def compare(a: torch.Tensor, b: torch.Tensor) -> tuple[bool, float | None]:
    """(equal, max |a - b|); tensors of different shapes are never equal and have no difference."""
    if a.shape != b.shape:
        return False, None
    diff = float((a - b).abs().max()) if a.numel() else 0.0
    return bool(torch.allclose(a, b, rtol=0.0, atol=ATOL)), diff


def _check(key: str, lhs: str, a: torch.Tensor, rhs: str, b: torch.Tensor, note_if: dict[str, bool]) -> EqualityCheck:
    """Build a check; the note is the first situation in note_if that holds (else "equal"/"differ")."""
    equal, diff = compare(a, b)
    note = next((k for k, v in note_if.items() if v), "equal" if equal else "differ")
    return EqualityCheck(key, lhs, rhs, tuple(a.shape), tuple(b.shape), equal, diff, note)


def equality_checks(r: ShapesResult) -> tuple[EqualityCheck, ...]:
    """Every check that applies to the current configuration, read from the page's own run."""
    c = r.config
    Hout, bf = c.Hout, c.batch_first
    out, h_n = r.outputs, r.h_n  # (B, S, K·Hout) or (S, B, K·Hout); (L·K, B, Hout)
    t_last, t_first = ("outputs[:, -1", "outputs[:, 0") if bf else ("outputs[-1", "outputs[0")  # + "]" or ", :n]"
    last = out[:, -1] if bf else out[-1]  # (B, K·Hout): the last time step of every sentence
    first = out[:, 0] if bf else out[0]  # (B, K·Hout): the first time step
    sub = ", " if bf else ", :, "  # the feature axis comes after batch and time either way
    short = c.padded
    checks = []
    # 1) The study note's check: the last step's output vs the last row of h_n.
    checks.append(
        _check(
            "last_step",
            t_last + "]",
            last,
            "h_n[-1]",
            h_n[-1],
            {"bidirectional": c.bidirectional, "packed_pad": short and c.packed, "through_pad": short},
        )
    )
    # 2) Is h_n the state at each sentence's true last token? (each sentence run alone is the truth)
    checks.append(_check("true_last", "h_n", h_n, "h_n_alone", r.alone_h_n, {"packed": c.packed, "through_pad": short}))
    # 3) Time-first layout: outputs[:, -1] now picks the last *sentence*, not the last step.
    if not bf:
        checks.append(
            _check("wrong_axis", "outputs[:, -1]", out[:, -1], "h_n[-1]", h_n[-1], {"coincide": c.B == 1 and c.S == 1})
        )
    # 4) Bidirectional: forward half ends at the last step, backward half ends at position 0.
    if c.bidirectional:
        half = {"packed_pad": short and c.packed}
        checks.append(_check("forward_half", f"{t_last}{sub}:{Hout}]", last[:, :Hout], "h_n[-2]", h_n[-2], half))
        checks.append(_check("backward_first", f"{t_first}{sub}{Hout}:]", first[:, Hout:], "h_n[-1]", h_n[-1], {}))
        checks.append(
            _check(
                "backward_last", f"{t_last}{sub}{Hout}:]", last[:, Hout:], "h_n[-1]", h_n[-1], {"one_step": c.S == 1}
            )
        )
    # 5) Several layers: outputs only carry the top layer; h_n[0] is the bottom layer's state.
    if c.num_layers > 1:
        checks.append(_check("bottom_layer", f"{t_last}{sub}:{Hout}]", last[:, :Hout], "h_n[0]", h_n[0], {}))
    # 6) proj_size: h (and outputs) are projected to P, the cell state keeps H.
    if r.c_n is not None and c.proj_size > 0:
        checks.append(_check("proj_cell", "c_n[-1]", r.c_n[-1], "h_n[-1]", h_n[-1], {}))
    return tuple(checks)


PREDICT_OPTIONS = ("yes", "no")  # the page's question, "is the last step's output h_n[-1]?": shapes.predict.<option>


def last_step(checks: tuple[EqualityCheck, ...]) -> EqualityCheck:
    """The check the page's question is about: the last step's output against h_n[-1] (always the first)."""
    return next(ch for ch in checks if ch.key == "last_step")


def predict_answer(checks: tuple[EqualityCheck, ...]) -> str:
    """The question's right option, read from the live check (never assumed from the settings)."""
    return "yes" if last_step(checks).equal else "no"
