"""The classroom's tables (SQLAlchemy Core): one class, its anonymous members, their answers.

Nothing personal is stored: a member is a digest of a random token, a class holds only the digest of its teacher's
secret. Times are seconds since the epoch (the caller's `now`, never the database's clock), so a test and a
server agree on what "expired" means. Migration 0001_classroom creates exactly these tables (tests/db/test_schema.py
compares the migrated database with this metadata).
"""

from __future__ import annotations

import sqlalchemy as sa

# Fixed constraint names, so both backends (and a later migration that alters one) name them the same way.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
CODE_LEN = 8  # codes.new_code(): 8 Crockford base32 symbols (40 bits)
DIGEST_LEN = 64  # codes.digest(): SHA-256 as hex
LESSON_LEN = 64  # a lesson id (lessons/course.toml, tour_<ns>); the repository refuses longer ones first
OPTION_LEN = 32  # Limits.max_answer_chars: an option id of the step's question

metadata = sa.MetaData(naming_convention=NAMING)

classes = sa.Table(
    "classes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(CODE_LEN), nullable=False),
    sa.Column("teacher_digest", sa.String(DIGEST_LEN), nullable=False),
    sa.Column("lesson", sa.String(LESSON_LEN), nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("n_steps", sa.Integer, nullable=False),
    sa.Column("revealed", sa.Boolean, nullable=False),
    sa.Column("locked", sa.Boolean, nullable=False),
    sa.Column("ended", sa.Boolean, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("expires_at", sa.Double, nullable=False),
    # The follow read (each server process, every 0.2 s while students wait; or each student's fragment poll) finds
    # its class by code: one unique index lookup.
    sa.Index(None, "code", unique=True),
)

members = sa.Table(
    "members",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    sa.Column("token_digest", sa.String(DIGEST_LEN), nullable=False),
    sa.Column("joined_at", sa.Double, nullable=False),
    sa.Column("last_seen", sa.Double, nullable=False),
    sa.Index(None, "token_digest", unique=True),
    # The students-per-class cap counts a class's members; expire deletes them by class.
    sa.Index(None, "class_id"),
)

answers = sa.Table(
    "answers",
    metadata,
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    sa.Column("member_id", sa.Integer, sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False),
    sa.Column("lesson", sa.String(LESSON_LEN), nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("option", sa.String(OPTION_LEN), nullable=False),
    sa.Column("answered_at", sa.Double, nullable=False),
    # One answer per student per question. Its column order puts the question first, so the same index serves
    # the tally (class_id, lesson, step → options) and the upsert's conflict target.
    sa.PrimaryKeyConstraint("class_id", "lesson", "step", "member_id"),
    # A member's answers go with the member (leave) without scanning the class's answers.
    sa.Index(None, "member_id"),
)

# The trained models of the whole deployment (issue 28): one row per (trainer, config, code version), keyed by a
# digest of the three (s2s_jobs/store.py). A replica that trains a row holds a lease on it (owner, lease_until),
# renewed while it trains; a row whose lease has run out (its replica died) may be claimed by another. Progress
# travels in the row for the replicas that watch it; the finished model is `result`, plain data written by
# torch.save and read back with weights_only=True. Migration 0002_trainings creates it.
KEY_LEN = 64  # SHA-256 as hex
TRAINER_LEN = 64  # a Trainer's name
OWNER_LEN = 96  # a replica's id: host:pid:random
STATE_LEN = 16  # s2s_db.trainings: running, done, failed, free

trainings = sa.Table(
    "trainings",
    metadata,
    sa.Column("key", sa.String(KEY_LEN), primary_key=True),
    sa.Column("trainer", sa.String(TRAINER_LEN), nullable=False),
    sa.Column("code", sa.String(128), nullable=False),  # the code version the model was trained by
    sa.Column("config", sa.Text, nullable=False),  # the full config, as text, for a person reading the table
    sa.Column("state", sa.String(STATE_LEN), nullable=False),
    sa.Column("owner", sa.String(OWNER_LEN), nullable=False),  # the replica that trains it (or trained it)
    sa.Column("lease_until", sa.Double, nullable=False),  # running: the owner's claim lapses at this time
    sa.Column("claims", sa.Integer, nullable=False),  # how many times a replica started training it
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Double, nullable=False),
    sa.Column("progress", sa.LargeBinary, nullable=True),  # losses, evaluations, the latest map (plain data)
    sa.Column("result", sa.LargeBinary, nullable=True),  # done: the trainer's packed result
    sa.Column("error", sa.String(64), nullable=True),  # failed: the message's catalog key
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
)
