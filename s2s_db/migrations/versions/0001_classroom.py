"""The classroom: classes, their anonymous members and the members' answers (s2s_db/tables.py).

Written out here rather than read from tables.py: a migration is the schema as it was at this revision, and
tests/db/test_schema.py checks that the migrated database still equals tables.metadata.
"""
# pylint: disable=duplicate-code  # the same columns as tables.py, on purpose: a migration never follows later edits

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("teacher_digest", sa.String(64), nullable=False),
        sa.Column("lesson", sa.String(64), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("n_steps", sa.Integer, nullable=False),
        sa.Column("revealed", sa.Boolean, nullable=False),
        sa.Column("locked", sa.Boolean, nullable=False),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_classes"),
    )
    op.create_index("ix_classes_code", "classes", ["code"], unique=True)
    op.create_table(
        "members",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("class_id", sa.Integer, nullable=False),
        sa.Column("token_digest", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Double, nullable=False),
        sa.Column("last_seen", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], name="fk_members_class_id_classes", ondelete="CASCADE"),
    )
    op.create_index("ix_members_token_digest", "members", ["token_digest"], unique=True)
    op.create_index("ix_members_class_id", "members", ["class_id"])
    op.create_table(
        "answers",
        sa.Column("class_id", sa.Integer, nullable=False),
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("lesson", sa.String(64), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("option", sa.String(32), nullable=False),
        sa.Column("answered_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("class_id", "lesson", "step", "member_id", name="pk_answers"),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], name="fk_answers_class_id_classes", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_answers_member_id_members", ondelete="CASCADE"),
    )
    op.create_index("ix_answers_member_id", "answers", ["member_id"])


def downgrade() -> None:
    op.drop_table("answers")
    op.drop_table("members")
    op.drop_table("classes")
