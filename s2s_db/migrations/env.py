"""Alembic's environment: migrate the connection s2s_db.migrate.config() carries, inside its transaction.

Only online upgrades from code (s2s_db.migrate.upgrade): the caller holds the lock and the transaction, so nothing
here begins or commits. `target_metadata` is the tables' metadata, for `alembic revision --autogenerate` and the
schema test. SQLite migrations render ALTERs as batch operations (a copy of the table), which SQLite needs.
"""

from __future__ import annotations

from alembic import context

from s2s_db.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through s2s_db.migrate.upgrade(engine) (python -m s2s_db.migrate)")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
