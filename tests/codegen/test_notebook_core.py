"""s2s_core/notebook.py: a script cut into cells at its markers, and every page's script as a notebook (no kernel
here: test_notebook_code.py executes them)."""

from __future__ import annotations

import json
import string
from functools import partial

import nbformat
import pytest

from s2s_core.catalog import LANGS, load_catalog, translate
from s2s_core.ngram.code import script as ngram_script
from s2s_core.ngram.compute import parse_config as ngram_config
from s2s_core.notebook import LEAD, MARKER, cells, marker, note_keys, notebook
from tests.codegen.test_notebook_code import page_cases

SCRIPT = "\n".join(
    [
        "import math",
        marker("1) Inputs", heading="a.head", notes=("a.one", "a.two")),
        "x = 1",
        "",
        marker(notes=("a.three",)),
        "print(x)",
    ]
)


def _text(key: str) -> str:
    return f"<{key}>"


def test_cells_follow_the_markers_and_keep_every_line():
    got = cells(SCRIPT)
    assert [(c.title, c.heading, c.notes) for c in got] == [
        ("", None, ()),
        ("1) Inputs", "a.head", ("a.one", "a.two")),
        ("", None, ("a.three",)),
    ]
    assert [c.code for c in got] == ["import math", "# 1) Inputs\nx = 1", "print(x)"]
    assert note_keys(SCRIPT) == ("a.head", "a.one", "a.two", "a.three", LEAD)


def test_a_marker_line_reads_back_what_marker_wrote():
    line = marker("2) A title with = and (parens)", heading="x.h", notes=("x.n",))
    assert line == '# %% 2) A title with = and (parens) heading="x.h" notes="x.n"'
    (cell,) = cells(line + "\npass")
    assert (cell.title, cell.heading, cell.notes) == ("2) A title with = and (parens)", "x.h", ("x.n",))
    with pytest.raises(ValueError):
        marker(notes=("two keys",))


def test_the_notebook_puts_each_cells_markdown_before_its_code():
    nb = nbformat.reads(notebook(SCRIPT, _text), as_version=4)
    nbformat.validate(nb)
    assert [(c.cell_type, c.source) for c in nb.cells] == [
        ("markdown", f"<{LEAD}>"),
        ("code", "import math"),
        ("markdown", "## <a.head>\n\n<a.one>\n\n<a.two>"),
        ("code", "# 1) Inputs\nx = 1"),
        ("markdown", "<a.three>"),
        ("code", "print(x)"),
    ]
    assert notebook(SCRIPT, _text) == notebook(SCRIPT, _text)  # cell ids are positions: the same file every time
    assert json.loads(notebook(SCRIPT, _text))["metadata"]["kernelspec"]["name"] == "python3"


def _code_lines(script: str) -> list[str]:
    """The script's non-blank lines with each marker line written as its title's comment (or dropped)."""
    out = []
    for line in script.splitlines():
        if line.startswith(MARKER):
            title = cells(line)[0].title if cells(line) else ""
            line = f"# {title}" if title else ""
        if line.strip():
            out.append(line)
    return out


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    return {case.page: case.source for case in page_cases()}


def test_every_pages_notebook_holds_exactly_the_scripts_code(sources):
    for page, source in sources.items():
        nb = nbformat.reads(notebook(source, partial(translate, "en")), as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        assert [line for part in code for line in part.splitlines() if line.strip()] == _code_lines(source), page
        for part in code:  # every cell is Python on its own, so Jupyter can run it
            compile(part, f"<{page} cell>", "exec")
        assert len(code) >= 3, page  # cut into cells, not one block


def test_every_pages_markdown_comes_from_its_catalog_in_both_languages(sources):
    catalogs = {lang: load_catalog(lang) for lang in LANGS}
    for page, source in sources.items():
        keys = note_keys(source)
        assert keys[0] == f"{page}.title", page  # the notebook's title is the page's
        for key in keys:
            for lang, catalog in catalogs.items():
                assert key in catalog, (page, lang, key)
                fields = [f for _, f, _, _ in string.Formatter().parse(catalog[key]) if f is not None]
                assert not fields, (page, lang, key, "a markdown cell has no values to fill in")
        korean = notebook(source, partial(translate, "ko"))
        assert translate("ko", f"{page}.title") in korean and translate("ko", LEAD) in korean


def test_learner_text_cannot_add_or_end_a_cell():
    """A corpus line that looks like a marker stays inside a Python literal: the same cells, the same markdown."""
    plain = ngram_script(ngram_config("a b\nc d", 2, False, 1.0), None, None)
    sneaky = ngram_script(ngram_config('a b\n# %% heading="ui.reset" notes="x"\nc d', 2, False, 1.0), None, None)
    shape = lambda script: [(c.title, c.heading, c.notes) for c in cells(script)]  # noqa: E731
    assert shape(sneaky) == shape(plain)
    assert "ui.reset" not in note_keys(sneaky)
    assert "['#', '%%', 'heading=\"ui.reset\"', 'notes=\"x\"']" in sneaky
