"""The migrated schema is s2s_db/tables.py's, on SQLite and PostgreSQL, and the class reads use its indexes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from s2s_core.classroom import codes
from s2s_db import classes as repo
from s2s_db.migrate import current, head
from s2s_db.tables import answers, classes, members, metadata

ROWS = 3000  # enough classes that PostgreSQL's planner prefers an index to reading the table


def test_the_migrated_database_is_the_metadata(db):
    """Alembic's autogenerate comparison of the migrated database with tables.metadata finds nothing: no table,
    column, type, nullability, default, index, unique or foreign key differs."""
    assert current(db) == head() == "0002"
    with db.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
        assert compare_metadata(context, metadata) == []
        inspector = sa.inspect(conn)
        assert set(inspector.get_table_names()) == {"alembic_version", "classes", "members", "answers", "trainings"}
        indexes = {
            t: {i["name"]: (i["column_names"], bool(i["unique"])) for i in inspector.get_indexes(t)}
            for t in ("classes", "members", "answers")
        }
        primary = inspector.get_pk_constraint("answers")["constrained_columns"]
    assert indexes["classes"]["ix_classes_code"] == (["code"], True)
    assert indexes["members"]["ix_members_token_digest"] == (["token_digest"], True)
    # One answer per student per question, the question's columns first (the tally reads that prefix).
    assert primary == ["class_id", "lesson", "step", "member_id"]


def explain(conn: sa.Connection, query: sa.Select) -> str:
    """The backend's plan for query, its parameters inlined (they are codes and numbers made here)."""
    sql = str(query.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
    prefix = "EXPLAIN QUERY PLAN " if conn.dialect.name == "sqlite" else "EXPLAIN "
    return "\n".join(" | ".join(str(c) for c in row) for row in conn.exec_driver_sql(prefix + sql))


def test_the_follow_and_tally_reads_are_index_lookups(db):
    """A follower's poll is one SELECT through the unique index on code; the tally is a range of the answers'
    primary key. Shown with each backend's own EXPLAIN on a table of ROWS classes, statistics up to date."""
    now = 1_800_000_000.0
    rows = [
        dict(code=f"{i:08d}", teacher_digest=codes.digest(f"s{i:021d}"), lesson="course", step=1, n_steps=30,
             revealed=False, locked=False, ended=True, version=1, created_at=now, expires_at=now)
        for i in range(ROWS)
    ]  # fmt: skip
    with db.begin() as conn:
        conn.execute(classes.insert(), rows)
        class_id = conn.execute(sa.select(classes.c.id).where(classes.c.code == "00000042")).scalar_one()
        conn.execute(
            members.insert(),
            [dict(class_id=class_id, token_digest=codes.digest(f"t{i:021d}"), joined_at=now, last_seen=now)
             for i in range(200)],
        )  # fmt: skip
        member_ids = conn.execute(sa.select(members.c.id)).scalars().all()
        conn.execute(
            answers.insert(),
            [dict(class_id=class_id, member_id=m, lesson="course", step=s, option="ab"[m % 2], answered_at=now)
             for m in member_ids for s in range(1, 11)],
        )  # fmt: skip
    with db.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
        conn.commit()
        follow_plan = explain(conn, repo.follow_query("00000042"))
        tally_plan = explain(conn, repo.tally_query(class_id, "course", 3))
    print(f"\n{db.dialect.name} follow:\n{follow_plan}\n{db.dialect.name} tally:\n{tally_plan}")
    if db.dialect.name == "sqlite":
        assert "SEARCH classes USING INDEX ix_classes_code (code=?)" in follow_plan, follow_plan
        assert "USING INDEX sqlite_autoindex_answers_1 (class_id=? AND lesson=? AND step=?)" in tally_plan, tally_plan
    else:
        assert "Index Scan using ix_classes_code on classes" in follow_plan, follow_plan
        assert "Seq Scan" not in follow_plan, follow_plan
        assert "pk_answers" in tally_plan and "Seq Scan" not in tally_plan, tally_plan
