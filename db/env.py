"""Alembic environment for Castra's SQLite store.

At start the app runs the migrations itself (``app.store.engine.open_store``): it backs the
file up, opens a connection with foreign keys off (so a batch table rebuild cannot cascade
deletes into child tables) and passes it in ``config.attributes["connection"]``; the whole
upgrade then runs in that connection's transaction.

For development, ``alembic`` on the command line (see ``alembic.ini``) works on the file named
by ``sqlalchemy.url`` or else on :func:`app.store.engine.default_path` (``$CASTRA_DB``); it
makes no backup, so point it at a scratch file: ``CASTRA_DB=/tmp/dev.sqlite3 alembic upgrade
head``, then ``alembic revision --autogenerate -m "..."`` and read what it wrote.
"""

from __future__ import annotations

from logging.config import fileConfig
from pathlib import Path

from alembic import context
from sqlalchemy.engine import Connection, make_url
from sqlmodel import SQLModel

import app.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.store.engine import default_path, migration_engine

config = context.config
target_metadata = SQLModel.metadata

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things: rebuild the table instead
        transactional_ddl=True,  # our engine emits BEGIN itself, so DDL is transactional
        compare_type=True,
        **kwargs,  # type: ignore[arg-type]
    )


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url") or f"sqlite:///{default_path()}"
    _configure(url=url, literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    database = make_url(url).database if url else None
    engine = migration_engine(Path(database) if database else default_path())
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
