"""Claims: predicates a page's core computes on a lesson step's state, and the registry that names them.

A page declares its claims in `s2s_core/<ns>/claims.py`:

    @claim("attention:context")
    def context(state: LinkState, step: int, equals: list[float]) -> ClaimResult:
        result = attention_weighting(config_of(state))   # the page's own computation, on the step's state
        got = result.contexts[step - 1]                  # (D,)
        return ClaimResult(close(got, equals), {"context": vec(got)}, shown=(vec(got),))

`state` holds the step's link values, read exactly as the page reads its link (`Field.parse`, then
`Field.check`; a field the step does not set has its default in the step's language). The result says whether the
claim holds, gives the numbers a narration may quote ({context}), and `shown`: text the page itself shows on that
state, which the AppTest of every step looks for on the drawn page (so the claim and the page compute the same).
A question's answer is a claim too: its `answer` is the id of the right option.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import s2s_core
from s2s_core.fields import Field
from s2s_core.validate import decode_table


@dataclass(frozen=True)
class ClaimResult:
    """What a claim computed: does it hold, the numbers a narration may quote, what the page shows.

    holds: the predicate on this state (a step whose claim does not hold is a test failure).
    values: formatted numbers by name, as the page writes them (s2s_core/fmt.py), for "{name}" in the narration.
    shown: strings the page draws on this state (in its text or its picture's spec); the step's AppTest finds them.
    answer: for a question's claim, the id of the option that is right on this state.
    """

    holds: bool
    values: Mapping[str, str] = field(default_factory=dict)
    shown: tuple[str, ...] = ()
    answer: str | None = None


@dataclass(frozen=True)
class LinkState:
    """A page state as a link holds it: raw values by parameter name, in a language.

    `value(field)` reads one field as the page's widget would seed from that link: the raw text parsed and checked
    by the field's own declaration, or the field's default in `lang` when the link leaves it out. A table comes back
    as its rows of cell text (from the link) or its default rows.
    """

    fields: tuple[Field, ...]
    params: Mapping[str, str]
    lang: str = "en"

    def raw(self, f: Field) -> str | None:
        return next((self.params[n] for n in (f.key, *f.aliases) if n in self.params), None)

    def value(self, f: Field, *, decode: Callable[[str], Any] | None = None) -> Any:
        raw = self.raw(f)
        if raw is None:
            return f.default_for(self.lang)
        if f.kind == "table":
            return f.parse(raw, decode=decode or decode_table)
        value = f.parse(raw, decode=decode)
        return value if f.kind == "step" else f.check(value)

    def member(self, f: Field, suffix: str | int) -> str | None:
        """A family member's raw text ("rnn_w_x" + "3x2"), or None when the link leaves it out."""
        return self.params.get(f.member(suffix))


Claim = Callable[..., ClaimResult]
_REGISTRY: dict[str, Claim] = {}


def claim(name: str) -> Callable[[Claim], Claim]:
    """Register a claim under "<ns>:<what>" (a colon: never mistaken for a catalog key); twice is an error."""

    def register(fn: Claim) -> Claim:
        if name in _REGISTRY and _REGISTRY[name] is not fn:
            raise ValueError(f"claim {name!r} is registered twice")
        _REGISTRY[name] = fn
        return fn

    return register


def registered() -> Mapping[str, Claim]:
    """Every claim of every page: each `s2s_core/<ns>/claims.py` is imported once."""
    for info in pkgutil.iter_modules(s2s_core.__path__):
        if info.ispkg and importlib.util.find_spec(f"s2s_core.{info.name}.claims") is not None:
            importlib.import_module(f"s2s_core.{info.name}.claims")
    return dict(_REGISTRY)


def evaluate(
    name: str, args: Mapping[str, Any], fields: tuple[Field, ...], params: Mapping[str, str], lang: str
) -> ClaimResult:
    """Compute the claim `name` with `args` on the state `params` of a page whose fields are `fields`."""
    fn = registered().get(name)
    if fn is None:
        raise KeyError(f"no claim named {name!r}: declare it in s2s_core/<ns>/claims.py")
    return fn(LinkState(tuple(fields), dict(params), lang), **dict(args))
