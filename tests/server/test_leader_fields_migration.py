"""A club store at schema 0010 upgraded by ``castra server init`` moves its leaders' three
field columns into ``roster_leader.fields`` (migration 0011) with every value kept, and its
members read the rosters back with their leaders' fields."""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import command

from app.store.engine import SCHEMA_HEAD, _alembic_config
from app.store.server import init_server, server_engine

#: (uid, bonus, exceptional, quality) as schema 0010 held them, and the object 0011 makes
LEADERS = (
    ("a", 2, False, None, {"bonus": 2}),
    ("b", 0, False, None, {"bonus": 0}),
    ("c", None, True, None, {"exceptional": True}),
    ("d", None, False, "average", {"quality": "average"}),
    ("e", None, False, None, {}),
)


def test_a_0010_club_store_keeps_every_leader_value(pg_empty: str) -> None:
    engine = server_engine(pg_empty)
    try:
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "0010")
            conn.execute(
                sa.text(
                    "INSERT INTO roster (id, name, ruleset, army, side, notes, created_at, "
                    "updated_at, version) VALUES (1, 'R', 'quincunx', 'roman', 'Rome', '', "
                    "now(), now(), 0)"
                )
            )
            for i, (uid, bonus, exceptional, quality, _) in enumerate(LEADERS):
                conn.execute(
                    sa.text(
                        "INSERT INTO roster_leader (roster_id, position, uid, name, rank, "
                        "status, wounds, bonus, exceptional, quality, notes) VALUES "
                        "(1, :p, :u, :u, 'commander', 'fit', 0, :b, :e, :q, '')"
                    ),
                    {"p": i, "u": uid, "b": bonus, "e": exceptional, "q": quality},
                )
    finally:
        engine.dispose()
    done = init_server(pg_empty)
    assert any(f"from schema 0010 to {SCHEMA_HEAD}" in line for line in done), done
    engine = server_engine(pg_empty)
    try:
        with engine.connect() as conn:
            rows = dict(conn.execute(sa.text("SELECT uid, fields FROM roster_leader")).fetchall())
            columns = {c["name"] for c in sa.inspect(conn).get_columns("roster_leader")}
    finally:
        engine.dispose()
    assert {uid: json.loads(rows[uid]) for uid in rows} == {
        uid: fields for uid, *_, fields in LEADERS
    }
    assert "fields" in columns and not {"bonus", "exceptional", "quality"} & columns
