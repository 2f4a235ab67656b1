"""Validate the shapes page's values as they arrive in a link (?shapes_B=0 ...).

Streamlit quietly drops a URL value its widget cannot take (out of range, not a number, not an
option), so without this check a bad link would silently show defaults. Each bad value becomes
the same InputError the core raises for that field, and the page says the default is used.
"""

from __future__ import annotations

from collections.abc import Mapping

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.shapes.failures import KINDS
from s2s_core.shapes.model import CELLS
from s2s_core.validate import check_choice, check_int

F = "shapes.field."
_INTS = {"B": (1, caps.MAX_BATCH), "S": (1, caps.MAX_SEQ_LEN), "E": (1, caps.MAX_EMBED), "H": (1, caps.MAX_HIDDEN),
         "num_layers": (1, caps.MAX_LAYERS), "proj_size": (0, caps.MAX_HIDDEN), "seed": (0, caps.MAX_SEED),
         "dec_layers": (1, caps.MAX_LAYERS), "dec_hidden": (1, caps.MAX_HIDDEN)}
_FLAGS = ("batch_first", "bidirectional", "packed")
URL_KEYS: tuple[str, ...] = tuple(f"shapes_{n}" for n in (*_INTS, *_FLAGS, "cell", "failure"))


def url_errors(params: Mapping[str, str]) -> list[tuple[str, InputError]]:
    """(URL key, error) for every shapes_* value in the link that its widget cannot use.

    Choice values are raw options ("lstm", "wrong_e"), the same in every language (s2s_ui/linked.py).
    """
    choices = {"cell": CELLS, "failure": KINDS}
    out = []
    for key in URL_KEYS:
        raw = params.get(key)
        if raw is None:
            continue
        name = key.removeprefix("shapes_")
        try:
            if name in _INTS:
                check_int(raw.strip(), F + name, *_INTS[name])
            elif name in _FLAGS:
                check_choice(raw.strip().lower(), F + name, ("true", "false"))
            else:
                check_choice(raw, F + name, choices[name])
        except InputError as err:
            out.append((key, err))
    return out
