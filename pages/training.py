"""Page: Training lab — train a tiny GRU seq2seq live; teacher forcing vs free-running, attention map, bottleneck.

Read the settings -> the shared job that trains them (s2s_jobs/jobs.py; this page only watches it, so it never
blocks in a training loop) -> the picture beside the settings: the source box, then before training the untrained
model's attention map of the learner's source, while training (or replaying a recorded run) the live curves, after
training the trained model's map; the quiz under it, then accuracy, map details and what-if, bottleneck, check,
notice and code in tabs (the ones about the trained model say so until there is one).
"""

from __future__ import annotations

from s2s_core.fields import Parsed
from s2s_core.training import fields
from s2s_ui.explainer import explainer
from s2s_ui.state import Page, TryCase
from s2s_ui.training.lab import Lab, show_lab
from s2s_ui.training.sections import (
    show_accuracy,
    show_bottleneck,
    show_check,
    show_map_tab,
    show_notice,
    show_quiz,
    with_model,
)
from s2s_ui.training.settings import read_settings
from s2s_ui.training.specs import code_for
from s2s_ui.widgets import code_expander, guarded

PAGE = Page("training", fields.FIELDS)
WHAT_IF = (fields.WI_STEP, fields.WI)  # the map tab's override: which step, and its weights
CASES = [
    TryCase("training.try_none", "training.try_none_note", {fields.ATTENTION.key: "none"}),
    TryCase("training.try_free", "training.try_free_note", {fields.TF_RATIO.key: "0.0"}),
    TryCase("training.try_long", "training.try_long_note", {fields.SOURCE.key: "5281390746"}),
]

controls, picture = explainer("training")

# 1) Read: the settings, validated by the core (a bad one is named where the picture would be).
with controls:
    config = read_settings(PAGE)
    PAGE.buttons(CASES)

# 2) Compute: the finished job for these settings, or the Train button over the untrained picture / the live
#    progress (or the replay of the recorded run) until there is one; the typed source above the picture.
with picture:
    lab = guarded(lambda: show_lab(PAGE, config.need())) or Lab(None, Parsed(None))
done, source = lab.done, lab.source

# 3) The question under the picture, then the trained model's details and the code, folded.
if done is not None:
    show_quiz(done)
PAGE.tabs(
    [
        ("training.tab_accuracy", lambda: with_model(done, show_accuracy)),
        ("training.tab_map", lambda: with_model(done, lambda d: show_map_tab(PAGE, d, source, WHAT_IF))),
        ("training.tab_bottleneck", lambda: with_model(done, show_bottleneck)),
        ("ui.tab_check", lambda: with_model(done, show_check)),
        ("ui.tab_notice", lambda: show_notice(done, source)),
        ("ui.tab_code", lambda: code_expander(code_for(config.need(), source.value), file_name="training_lab.py")),
    ]
)
