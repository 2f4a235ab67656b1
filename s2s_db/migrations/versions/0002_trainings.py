"""The deployment's trained models: one row per (trainer, config, code version), claimed by one replica at a time
(s2s_db/tables.py `trainings`, s2s_db/trainings.py).

Written out here rather than read from tables.py, like 0001: a migration is the schema as it was at this revision.
"""
# pylint: disable=duplicate-code  # the same columns as tables.py, on purpose: a migration never follows later edits

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trainings",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("trainer", sa.String(64), nullable=False),
        sa.Column("code", sa.String(128), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("lease_until", sa.Double, nullable=False),
        sa.Column("claims", sa.Integer, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Double, nullable=False),
        sa.Column("progress", sa.LargeBinary, nullable=True),
        sa.Column("result", sa.LargeBinary, nullable=True),
        sa.Column("error", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_trainings"),
    )


def downgrade() -> None:
    op.drop_table("trainings")
