"""Where the app keeps its data: the data folder and the database URL, read from the environment (README
"Settings"). No SQLAlchemy here: s2s_jobs.settings (and every training worker) reads data_dir() from this module.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DATA_DIR_ENV = "S2S_DATA_DIR"  # the app's data folder: the SQLite database (classes and trained models) lives in it
DATA_DIR = Path(__file__).resolve().parent.parent / "data"  # the default: data/ in the repository (.gitignore)
DATABASE_URL_ENV = "S2S_DATABASE_URL"  # postgresql://user:password@host:port/db (psycopg 3), or sqlite:///path
SQLITE_FILE = "classroom.sqlite3"  # the default database: one file in the data folder
POSTGRES_DRIVER = "postgresql+psycopg"  # the one PostgreSQL driver installed (psycopg 3)
POSTGRES_SCHEMES = ("postgresql", "postgres", POSTGRES_DRIVER)
SQLITE_SCHEMES = ("sqlite", "sqlite+pysqlite")


class DatabaseUrlError(ValueError):
    """$S2S_DATABASE_URL is not a database this app can use (the message names the variable and the scheme)."""


def data_dir(env: Mapping[str, str] = os.environ) -> Path:
    """$S2S_DATA_DIR (a folder; made when first written), else data/ in the repository."""
    raw = env.get(DATA_DIR_ENV, "").strip()
    return Path(raw).expanduser() if raw else DATA_DIR


def database_url(env: Mapping[str, str] = os.environ) -> str:
    """$S2S_DATABASE_URL with PostgreSQL's URLs given the psycopg 3 driver, else the SQLite file in the data folder.

    A URL of any other scheme (another driver, another database, a typo) is refused here, when the server first
    needs the database, rather than failing later inside SQLAlchemy with a message about a missing module. An
    in-memory SQLite URL is refused too: each pooled connection would see its own empty database, and a restart
    would lose every class."""
    raw = env.get(DATABASE_URL_ENV, "").strip()
    if not raw:
        return f"sqlite:///{data_dir(env) / SQLITE_FILE}"
    scheme, sep, rest = raw.partition("://")
    scheme = scheme.lower()
    if sep and scheme in POSTGRES_SCHEMES and rest:
        return f"{POSTGRES_DRIVER}://{rest}"
    if sep and scheme in SQLITE_SCHEMES:
        path = rest[1:].partition("?")[0] if rest.startswith("/") else ""
        if path and path != ":memory:" and not path.startswith("file::memory:"):
            return raw
        raise DatabaseUrlError(
            f"{DATABASE_URL_ENV} names an in-memory SQLite database ({scheme}://{rest[:20]}); "
            f"give a file (sqlite:////absolute/path.sqlite3) or unset it for {data_dir(env) / SQLITE_FILE}"
        )
    shown = scheme if sep else "no scheme"
    raise DatabaseUrlError(
        f"{DATABASE_URL_ENV} must be a postgresql:// (or postgres://) URL or a sqlite:/// file, not {shown!r}; "
        f"unset it to use {data_dir(env) / SQLITE_FILE}"
    )
