"""Every page's notebook (the Code tab's .ipynb), executed cell by cell in a real Jupyter kernel, prints the
numbers the page shows: each page's own comparison (its test module's `page_case`, the one its .py test runs)
applied to what the notebook printed.

One kernel runs all the notebooks, each in a fresh namespace, so torch is imported once (the first notebook
costs the kernel's start and torch's import, ~4 s of CPU; each further one its own computation). The languages
alternate, so both catalogs' markdown goes into a notebook that is executed.
"""

from __future__ import annotations

from functools import partial

import nbformat

from s2s_core.catalog import LANGS, translate
from s2s_core.notebook import notebook
from s2s_ui.registry import existing_pages
from tests.codegen import (
    test_attention_code,
    test_bptt_code,
    test_gru_code,
    test_lstm_code,
    test_masks_code,
    test_ngram_code,
    test_rnn_code,
    test_scoring_code,
    test_seq2seq_code,
    test_shapes_code,
    test_training_code,
)
from tests.codegen.run import Kernel, PageCase, printed

SINGLE = (
    test_ngram_code,
    test_rnn_code,
    test_bptt_code,
    test_lstm_code,
    test_gru_code,
    test_shapes_code,
    test_seq2seq_code,
    test_attention_code,
    test_scoring_code,
    test_masks_code,
)


def page_cases() -> list[PageCase]:
    """One case per page that has a Code tab (every page but Home)."""
    return [m.page_case() for m in SINGLE] + list(test_training_code.page_cases())


def test_every_page_has_a_case():
    assert sorted(c.page for c in page_cases()) == sorted(p.url for p in existing_pages() if p.url != "home")


def test_every_pages_notebook_prints_the_pages_numbers():
    cases = page_cases()
    with Kernel() as kernel:
        for i, case in enumerate(cases):
            lang = LANGS[i % len(LANGS)]
            nb = nbformat.reads(notebook(case.source, partial(translate, lang)), as_version=4)
            nbformat.validate(nb)
            kernel.execute(nb)
            try:
                case.check(printed(nb))
            except AssertionError as err:
                raise AssertionError(f"{case.page} notebook ({lang}): {err}") from err
            # Only printed lines come out: no cell ends in a bare expression whose value Jupyter would echo.
            kinds = {out.output_type for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs}
            assert kinds <= {"stream"}, (case.page, kinds)
