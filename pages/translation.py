"""Page: Translation lab — a tiny Korean -> English seq2seq trained live; its attention map crosses (SOV -> SVO).

Read the sentence and the settings -> the shared job that trains them (s2s_core/training/jobs.py, task ko_en; the
page only watches it) -> the picture beside the controls: before training the untrained model's map of the
sentence, while training the live progress and curves, after training the trained map with each English word's
true Korean source outlined, the output, the reference and the alignment score. The question under it, then the
toy grammar, alignment, map details and what-if, bottleneck, RNN vs LSTM vs GRU, recurrence, check, notes and code
in tabs.
"""

from __future__ import annotations

from typing import Any

from s2s_ui.explainer import TryCase, details, explainer, try_this
from s2s_ui.i18n import t
from s2s_ui.training.live import trained_model
from s2s_ui.training.sections import show_bottleneck
from s2s_ui.training.specs import code_for
from s2s_ui.translation.cells import show_cells
from s2s_ui.translation.picture import show_trained, show_untrained
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
from s2s_ui.widgets import code_expander, reset_button

INPUT_KEYS = [
    "translation_source",
    "translation_attention",
    "translation_cell",
    "translation_steps",
    "translation_seed",
    "translation_hidden",
    "translation_wi_step",
    "translation_wi",
]
CASES = [
    TryCase(
        "translation.try_long",
        "translation.try_long_note",
        {"translation_source": "그녀는 어제 도서관에서 새 책을 안 읽었다"},
    ),
    TryCase("translation.try_none", "translation.try_none_note", {"translation_attention": "none"}),
    TryCase("translation.try_rnn", "translation.try_rnn_note", {"translation_cell": "rnn"}),
    TryCase("translation.try_syllabus", "translation.try_syllabus_note", {"translation_source": "나는 책을 읽는다"}),
]

controls, picture = explainer("translation")

# 1) Read: the sentence and the settings, each validated by the core (None, with a message, when bad).
with controls:
    source = read_sentence()
    config = read_settings()
    try_this(CASES, INPUT_KEYS)
    reset_button(INPUT_KEYS)

# 2) Compute: the finished job for these settings, or the Train button over the untrained map / the live progress.
done = None
with picture:
    if config is not None:
        done = trained_model(
            config,
            "translation_train",
            t("translation.train"),
            t("training.press_train", steps=config.steps, seconds=f"{config.max_seconds:g}"),
            before=lambda: show_untrained(config, source),
        )
    if done is not None:
        show_trained(done, source)

# 3) The question under the picture, then the details, folded (each tab guarded on its own).
sections: list[tuple[str, Any]] = [("translation.tab_grammar", lambda: show_grammar(done))]
if done is not None:
    show_quiz(done, source)
    sections += [
        ("translation.tab_alignment", lambda: show_alignment(done)),
        ("translation.tab_map", lambda: show_map_tab(done, source)),
        ("translation.tab_bottleneck", lambda: show_bottleneck(done, "translation")),
        ("translation.tab_cells", lambda: show_cells(done.result.config)),
        ("translation.tab_recurrence", lambda: show_recurrence(done, source)),
        ("ui.tab_check", lambda: show_checks(done, source)),
    ]
sections.append(("ui.tab_notice", show_notice))
if config is not None:
    sections.append(("ui.tab_code", lambda: code_expander(code_for(config, source), file_name="translation_lab.py")))
details(sections, key="translation_tabs")
