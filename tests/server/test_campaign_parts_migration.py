"""A club store at schema 0011 upgraded by ``castra server init`` stores its campaigns'
whole states as a head and parts (migration 0012), every state and digest kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from app.core.campaign.stored import PARTED, unpack_campaign
from app.core.timeline import digest, unpack_snapshot
from app.store.engine import SCHEMA_HEAD, _alembic_config
from app.store.server import init_server, server_engine
from tests.stored_fixtures import unzipped

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "campaign-0011.sqlite3.gz"
CAMPAIGN = ("id", "name", "ruleset", "start", "cursor", "created_at", "updated_at", "version")
STEP = ("id", "campaign_id", "n", "kind", "label", "step", "digest", "delta", "snapshot")


def test_a_0011_club_store_keeps_every_campaign_state(pg_empty: str, tmp_path: Path) -> None:
    old = unzipped(FIXTURE, tmp_path / "old.sqlite3")
    con = sqlite3.connect(old)
    try:
        campaign = con.execute(f"SELECT {', '.join(CAMPAIGN)} FROM campaign").fetchall()
        steps = con.execute(f"SELECT {', '.join(STEP)} FROM campaign_step ORDER BY n").fetchall()
    finally:
        con.close()
    (blob,) = [bytes(r[-1]) for r in steps if r[-1] is not None]
    whole = digest(unpack_snapshot(blob))
    engine = server_engine(pg_empty)
    try:
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "0011")
            for table, names, rows in (
                ("campaign", CAMPAIGN, campaign),
                ("campaign_step", STEP, steps),
            ):
                marks = ", ".join(f":{n}" for n in names)
                insert = sa.text(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})")
                for row in rows:
                    conn.execute(insert, dict(zip(names, row, strict=True)))
    finally:
        engine.dispose()
    done = init_server(pg_empty)
    assert any(f"from schema 0011 to {SCHEMA_HEAD}" in line for line in done), done
    engine = server_engine(pg_empty)
    try:
        with engine.connect() as conn:
            stored = conn.execute(
                sa.text("SELECT n, digest, snapshot FROM campaign_step ORDER BY n")
            ).fetchall()
    finally:
        engine.dispose()
    assert [(n, dg) for n, dg, _ in stored] == [(r[2], r[6]) for r in steps]
    (new,) = [bytes(s) for *_, s in stored if s is not None]
    assert new.startswith(PARTED) and len(new) <= len(blob)
    assert digest(unpack_campaign(new)) == whole == stored[19][1]
