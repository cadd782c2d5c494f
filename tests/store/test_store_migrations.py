"""The migrations in db/ are honest: they build exactly the schema the models describe, they
go down and up again, and SCHEMA_HEAD (the start-up fast path) is Alembic's head."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlmodel import SQLModel

import app.store.models  # noqa: F401
from app.store import SCHEMA_HEAD, Store
from app.store.engine import MIGRATIONS_DIR, _alembic_config, migration_engine


def test_schema_head_is_alembics_only_head() -> None:
    script = ScriptDirectory.from_config(_alembic_config())
    assert script.get_heads() == [SCHEMA_HEAD]
    assert Path(script.dir) == MIGRATIONS_DIR


def test_migrated_schema_matches_the_models(store: Store) -> None:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "render_as_batch": True}
        )
        diff = compare_metadata(context, SQLModel.metadata)
    assert diff == []


def test_constraints_are_named(store: Store) -> None:
    insp = inspect(store.engine)
    for table in ("roster_unit", "roster_leader", "roster_command"):
        [fk] = insp.get_foreign_keys(table)
        assert fk["name"] == f"fk_{table}_roster_id_roster"
        assert fk["options"].get("ondelete") == "CASCADE"
        [uq] = insp.get_unique_constraints(table)
        assert (uq["name"], uq["column_names"]) == (
            f"uq_{table}_roster_id_uid",
            ["roster_id", "uid"],
        )


def test_downgrade_to_base_and_up_again(store: Store) -> None:
    # SQLite: foreign keys off for the batch rebuilds; a server: its own engine
    engine = store.engine if store.on_server else migration_engine(store.path)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "base")
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "head")
        assert "roster_unit" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
