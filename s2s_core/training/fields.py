"""The Training lab's inputs, declared once (s2s_core/fields.py): the caps, the defaults, the link keys.

The caps bound one run to well under a minute on 2 cores; parse_config (compute.py) checks every setting with these
fields, so a link can carry any value. The sizes are named MAX_TRAIN_*: caps.MAX_BATCH / MAX_EMBED / MAX_HIDDEN bound
the tensors other pages print, far smaller.
"""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field
from s2s_core.training import config
from s2s_core.training.config import ATTENTIONS, SCHEDULES, TrainConfig
from s2s_core.training.tasks import NAMES_TASK, NUM_MAX_DIGITS

# The Training lab's tasks: config.py's, and the names task (names and quantities through the bottleneck, study
# note §5). TRAIN_TASKS: every task parse_config accepts (the Translation lab's ko_en too).
LAB_TASKS = tuple(dict.fromkeys((*config.LAB_TASKS, NAMES_TASK)))
TRAIN_TASKS = tuple(dict.fromkeys((*config.TASKS, NAMES_TASK)))
MAX_STEPS = 3000
MAX_TRAIN_BATCH = 128
MAX_TRAIN_HIDDEN = 128
MAX_TRAIN_EMBED = 64
MIN_LR, MAX_LR = 1e-4, 0.05
MAX_LEN = 16  # longest training source (digits)
MAX_SECONDS = 60.0
MAX_SOURCE = 20  # longest typed source (real tokens; longer than training is allowed, to test it)
MAX_SOURCE_CHARS = 200  # the source box's own cap, before the tokens are counted
MAX_DECODE = 32  # output steps at most when decoding a typed source
DEFAULT = TrainConfig()
NUM_DEFAULT_LENS = (1, 4)  # the number tasks read 1- to 4-digit numbers unless told otherwise
# The source every checkpoint map decodes (and the page's default source): eight digits for the digit tasks
# (inside the trained lengths 3..10), a four-digit number for the number tasks, and for the Translation lab the
# syllabus's sentence, whose English verb must look back at the last Korean word.
# The names task's default: eight tokens, a name and a three-digit quantity among filler words.
DEFAULT_SOURCES = {
    "digits": "52813907",
    "number": "3017",
    "sentence": "나는 도서관에서 책을 읽었다",
    "names": "today Mina sold 305 red apples",
}
TABS = ("accuracy", "map", "bottleneck", "check", "notice", "code")

TASK = Field("training_task", "choice", DEFAULT.task, "training.field.task", options=LAB_TASKS)
ATTENTION = Field("training_attention", "choice", DEFAULT.attention, "training.field.attention", options=ATTENTIONS)
TF_RATIO = Field("training_tf", "float", DEFAULT.tf_ratio, "training.field.tf_ratio", lo=0.0, hi=1.0)
SCHEDULE = Field("training_schedule", "choice", DEFAULT.tf_schedule, "training.field.tf_schedule", options=SCHEDULES)
STEPS = Field("training_steps", "int", DEFAULT.steps, "training.field.steps", lo=1, hi=MAX_STEPS)
SEED = Field("training_seed", "int", DEFAULT.seed, "training.field.seed", lo=0, hi=caps.MAX_SEED)
HIDDEN = Field("training_hidden", "int", DEFAULT.hidden, "training.field.hidden", lo=2, hi=MAX_TRAIN_HIDDEN)
EMBED = Field("training_embed", "int", DEFAULT.embed, "training.field.embed", lo=2, hi=MAX_TRAIN_EMBED)
BATCH = Field("training_batch", "int", DEFAULT.batch, "training.field.batch", lo=1, hi=MAX_TRAIN_BATCH)
LR = Field("training_lr", "float", DEFAULT.lr, "training.field.lr", lo=MIN_LR, hi=MAX_LR)
# The digit tasks' lengths and the number tasks' lengths are separate inputs with their own defaults and caps (a
# number has at most 6 digits); parse_config narrows the shared range to the task's own (1..6, or 2..7 words).
LEN_MIN = Field("training_min_len", "int", DEFAULT.min_len, "training.field.min_len", lo=1, hi=MAX_LEN)
LEN_MAX = Field("training_max_len", "int", DEFAULT.max_len, "training.field.max_len", lo=1, hi=MAX_LEN)
NUM_MIN = Field("training_num_min", "int", NUM_DEFAULT_LENS[0], "training.field.min_len", lo=1, hi=NUM_MAX_DIGITS)
NUM_MAX = Field("training_num_max", "int", NUM_DEFAULT_LENS[1], "training.field.max_len", lo=1, hi=NUM_MAX_DIGITS)
TIME_LIMIT = Field(
    "training_max_seconds", "float", DEFAULT.max_seconds, "training.field.max_seconds", lo=1.0, hi=MAX_SECONDS
)
# The source decoded on the picture: digits for the digit tasks, a number for the number tasks (one key each, so
# a link made for one task family keeps its source when the other is chosen).
SOURCE = Field(
    "training_source", "text", DEFAULT_SOURCES["digits"], "training.field.source", max_chars=MAX_SOURCE_CHARS
)
NUMBER = Field(
    "training_number", "text", DEFAULT_SOURCES["number"], "training.field.source", max_chars=MAX_SOURCE_CHARS
)
# The what-if: which output step's attention to override (1-based; narrowed to the output's length on screen) and
# the weights typed for it (one row, one cell per source position).
NAMES_SOURCE = Field(
    "training_names", "text", DEFAULT_SOURCES["names"], "training.field.source", max_chars=MAX_SOURCE_CHARS
)
WI_STEP = Field("training_wi_step", "int", 1, "training.field.override_step", lo=1, hi=MAX_DECODE)
WI = Field("training_wi", "table", label="training.field.override")
TAB = Field("training_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (
    TASK,
    ATTENTION,
    TF_RATIO,
    SCHEDULE,
    STEPS,
    SEED,
    HIDDEN,
    EMBED,
    BATCH,
    LR,
    LEN_MIN,
    LEN_MAX,
    NUM_MIN,
    NUM_MAX,
    TIME_LIMIT,
    SOURCE,
    NUMBER,
    NAMES_SOURCE,
    WI_STEP,
    WI,
    TAB,
)
