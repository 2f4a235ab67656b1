"""The app's database: where the classroom's state lives (issue 27; issue 28 adds the shared model store).

    settings.py   where the database is ($S2S_DATABASE_URL, else a SQLite file in the data folder $S2S_DATA_DIR)
    engine.py     one SQLAlchemy engine per URL per process (SQLite: WAL, foreign keys, a busy timeout;
                  PostgreSQL through psycopg 3: a small pre-pinged pool, a connect timeout)
    migrate.py    the schema's versions (Alembic, run from code): upgrade(engine) to head, safe when two
                  processes start at once; `python -m s2s_db.migrate` upgrades the configured database
    tables.py     the tables (SQLAlchemy Core)
    classes.py    the class repository: each function one transaction

The layer sits between the core and the jobs: it may import s2s_core, never s2s_jobs, s2s_ui or streamlit. This
file imports nothing, so s2s_jobs.settings can read s2s_db.settings without loading SQLAlchemy.
"""
