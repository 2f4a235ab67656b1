"""Page: Translation lab — a tiny Korean -> English seq2seq trained live; its attention map crosses (SOV -> SVO).

Read the sentence and the settings -> the shared job that trains them (s2s_jobs/jobs.py, task ko_en; the page only
watches it) -> the picture beside the controls: before training the untrained model's map of the sentence, while
training the live progress and curves, after training the trained map with each English word's true Korean source
outlined, the output, the reference and the alignment score. The question under it, then the toy grammar,
alignment, map details and what-if, bottleneck, RNN vs LSTM vs GRU, recurrence, check, notes and code in tabs (the
ones about the trained model say so until there is one).
"""

from __future__ import annotations

from s2s_core.translation import fields
from s2s_ui.explainer import explainer
from s2s_ui.state import Page, TryCase
from s2s_ui.training.sections import show_bottleneck, with_model
from s2s_ui.training.specs import code_for
from s2s_ui.translation.cells import show_cells
from s2s_ui.translation.own import show_own
from s2s_ui.translation.picture import show_lab
from s2s_ui.translation.sections import (
    show_alignment,
    show_checks,
    show_grammar,
    show_map_tab,
    show_notice,
    show_quiz,
    show_recurrence,
)
from s2s_ui.translation.settings import read_sentence, read_settings
from s2s_ui.widgets import code_expander, guarded

PAGE = Page("translation", fields.FIELDS)
NS = "translation"  # the catalog namespace of the shared Training-lab sections' words
CASES = [
    TryCase(
        "translation.try_long",
        "translation.try_long_note",
        {fields.SOURCE.key: "그녀는 어제 도서관에서 새 책을 안 읽었다"},
    ),
    TryCase("translation.try_none", "translation.try_none_note", {fields.ATTENTION.key: "none"}),
    TryCase("translation.try_rnn", "translation.try_rnn_note", {fields.CELL.key: "rnn"}),
    TryCase("translation.try_syllabus", "translation.try_syllabus_note", {fields.SOURCE.key: "나는 책을 읽는다"}),
]

controls, picture = explainer("translation")

# 1) Read: the sentence and the settings, each validated by the core (a bad one is named where it matters).
with controls:
    source = read_sentence(PAGE)
    config = read_settings(PAGE)
    PAGE.buttons(CASES)

# 2) Compute: the finished job for these settings, or the Train button over the untrained map / the live progress.
with picture:
    done = guarded(lambda: show_lab(PAGE, config.need(), source))

# 3) The question under the picture, then the details, folded (each tab guarded on its own).
if done is not None:
    show_quiz(done, source)
PAGE.tabs(
    [
        ("translation.tab_grammar", lambda: show_grammar(done)),
        ("translation.tab_alignment", lambda: with_model(done, show_alignment, NS)),
        ("translation.tab_map", lambda: with_model(done, lambda d: show_map_tab(PAGE, d, source), NS)),
        ("translation.tab_bottleneck", lambda: with_model(done, lambda d: show_bottleneck(d, NS), NS)),
        ("translation.tab_cells", lambda: with_model(done, lambda d: show_cells(d.result.config), NS)),
        ("translation.tab_recurrence", lambda: with_model(done, lambda d: show_recurrence(d, source), NS)),
        ("translation.tab_own", lambda: show_own(config, done)),
        ("ui.tab_check", lambda: with_model(done, lambda d: show_checks(d, source), NS)),
        ("ui.tab_notice", lambda: show_notice(done)),
        ("ui.tab_code", lambda: code_expander(code_for(config.need(), source.value), file_name="translation_lab.py")),
    ]
)
