"""Campaign steps stored small, as battle steps are (issue 26): the digest of the campaign
each step made, its change from the campaign before (``delta``, a nested diff) and the whole
campaign (compressed) only every SNAPSHOT_EVERY steps or more, instead of the whole campaign
at every step (half a MB a step at 50 battles, re-read and re-validated on every command).

Existing campaigns are converted step by step from the campaigns they stored, with the
functions the app uses (:mod:`app.core.timeline`), so every step, undo and redo is kept
exactly. The file is backed up before this runs (as before every migration).

On a club server (PostgreSQL) the check of a player's step reads the step's change instead
of its whole campaign: a player's step may change only the side they play (its army and
losses, never its id), carries no whole campaign, and nothing else. The function is made
as 0009 makes Castra's functions: every name qualified with Castra's schema, its search path
pinned (the downgrade puts back 0009's).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-20
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.core.campaign.stored import snapshot_due
from app.core.timeline import apply_delta, diff, digest, pack_snapshot, unpack_snapshot

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REFUSED = (
    "RAISE EXCEPTION 'a player''s step may change only the side they play' "
    "USING ERRCODE = 'insufficient_privilege';"
)


def upgrade() -> None:
    with op.batch_alter_table("campaign_step") as batch:
        batch.add_column(sa.Column("digest", sa.String(), nullable=False, server_default=""))
        batch.add_column(sa.Column("delta", sa.Text(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("snapshot", sa.LargeBinary(), nullable=True))
    conn = op.get_bind()
    campaigns = conn.execute(sa.text("SELECT id, start FROM campaign")).fetchall()
    for campaign_id, start in campaigns:
        before = json.loads(start)
        last = 0
        steps = conn.execute(
            sa.text(
                "SELECT id, n, kind, state FROM campaign_step WHERE campaign_id = :c ORDER BY n"
            ),
            {"c": campaign_id},
        ).fetchall()
        for row_id, n, kind, state in steps:
            after = json.loads(state)
            whole = snapshot_due(n, last, kind)
            conn.execute(
                sa.text(
                    "UPDATE campaign_step SET digest = :d, delta = :c, snapshot = :s "
                    "WHERE id = :i"
                ),
                {
                    "d": digest(after),
                    "c": json.dumps(diff(before, after), ensure_ascii=False),
                    "s": pack_snapshot(after) if whole else None,
                    "i": row_id,
                },
            )
            last = n + 1 if whole else last
            before = after
    if conn.dialect.name == "postgresql":
        # the old check reads ``state``: replaced before the column goes
        op.execute(_check(schema(), by_delta=True))
    with op.batch_alter_table("campaign_step") as batch:
        batch.drop_column("state")
        batch.alter_column("digest", server_default=None)
        batch.alter_column("delta", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("campaign_step") as batch:
        batch.add_column(sa.Column("state", sa.Text(), nullable=False, server_default="{}"))
    conn = op.get_bind()
    campaigns = conn.execute(sa.text("SELECT id, start FROM campaign")).fetchall()
    for campaign_id, start in campaigns:
        state = json.loads(start)
        steps = conn.execute(
            sa.text(
                "SELECT id, delta, snapshot FROM campaign_step WHERE campaign_id = :c ORDER BY n"
            ),
            {"c": campaign_id},
        ).fetchall()
        for row_id, change, snapshot in steps:
            state = (
                unpack_snapshot(bytes(snapshot))
                if snapshot is not None
                else apply_delta(state, json.loads(change))
            )
            conn.execute(
                sa.text("UPDATE campaign_step SET state = :s WHERE id = :i"),
                {"s": json.dumps(state, ensure_ascii=False), "i": row_id},
            )
    if conn.dialect.name == "postgresql":
        op.execute(_check(schema(), by_delta=False))
    with op.batch_alter_table("campaign_step") as batch:
        batch.drop_column("snapshot")
        batch.drop_column("delta")
        batch.drop_column("digest")
        batch.alter_column("state", server_default=None)


def schema() -> str:
    """Castra's schema (where its ``roster`` table is), quoted as an identifier."""
    conn = op.get_bind()
    name = conn.exec_driver_sql(
        "SELECT n.nspname FROM pg_catalog.pg_class c "
        "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.oid = 'roster'::regclass"
    ).scalar_one()
    quoted: str = conn.dialect.identifier_preparer.quote_identifier(str(name))
    return quoted


def _check(s: str, *, by_delta: bool) -> str:
    """The player's-step check, qualified with schema ``s``: by the step's change (this
    revision) or by its whole campaign (before it)."""
    head = f"""
CREATE OR REPLACE FUNCTION {s}.castra_player_step_check() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, {s}, pg_temp AS $$
DECLARE
"""
    players_only = f"""
    -- only players are held to it (the umpire, and the club's owner who copies whole
    -- campaigns in, are not)
    IF NOT EXISTS (
        SELECT 1 FROM {s}.club_member m
        WHERE m.name = current_user AND m.role <> 'umpire'
    ) THEN
        RETURN NEW;
    END IF;
"""
    if by_delta:
        return (
            head
            + f"""
    change jsonb := NEW.delta::jsonb;
    sides jsonb;
    start jsonb;
    item record;
BEGIN
{players_only}
    SELECT c.start::jsonb INTO start FROM {s}.campaign c WHERE c.id = NEW.campaign_id;
    sides := change -> 'sides';
    -- a change of the sides alone, item by item, keeping their number; no whole campaign
    IF start IS NULL
        OR NEW.snapshot IS NOT NULL
        OR pg_catalog.jsonb_typeof(change) IS DISTINCT FROM 'object'
        OR (change - 'sides') <> '{{}}'::jsonb
        OR (sides IS NOT NULL AND (
            pg_catalog.jsonb_typeof(sides -> 'items') IS DISTINCT FROM 'object'
            OR (sides - 'items' - 'length') <> '{{}}'::jsonb
            OR (sides -> 'length') IS DISTINCT FROM
                pg_catalog.to_jsonb(pg_catalog.jsonb_array_length(start -> 'sides'))))
    THEN
        {REFUSED}
    END IF;
    IF sides IS NULL THEN
        RETURN NEW;
    END IF;
    -- each side changed is theirs (sides keep their order and ids from the start), changed
    -- key by key, its id never
    FOR item IN SELECT e.key, e.value FROM pg_catalog.jsonb_each(sides -> 'items') e LOOP
        IF item.key !~ '^[0-9]{{1,3}}$'
            OR (start -> 'sides' -> (item.key::integer) ->> 'id') IS DISTINCT FROM NEW.side
            OR pg_catalog.jsonb_typeof(item.value -> 'keys') IS DISTINCT FROM 'object'
            OR (item.value - 'keys') <> '{{}}'::jsonb
            OR (item.value -> 'keys') ? 'id'
        THEN
            {REFUSED}
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
"""
        )
    return (
        head
        + f"""
    before jsonb;
    after jsonb := NEW.state::jsonb;
    i integer;
BEGIN
{players_only}
    IF NEW.n = 0 THEN
        SELECT c.start::jsonb INTO before FROM {s}.campaign c WHERE c.id = NEW.campaign_id;
    ELSE
        SELECT c.state::jsonb INTO before FROM {s}.campaign_step c
        WHERE c.campaign_id = NEW.campaign_id AND c.n = NEW.n - 1;
    END IF;
    IF before IS NULL
        OR pg_catalog.jsonb_typeof(after -> 'sides') IS DISTINCT FROM 'array'
        OR (after - 'sides') IS DISTINCT FROM (before - 'sides')
        OR pg_catalog.jsonb_array_length(after -> 'sides')
            <> pg_catalog.jsonb_array_length(before -> 'sides')
    THEN
        {REFUSED}
    END IF;
    FOR i IN 0 .. pg_catalog.jsonb_array_length(before -> 'sides') - 1 LOOP
        IF (after -> 'sides' -> i ->> 'id') IS DISTINCT FROM (before -> 'sides' -> i ->> 'id')
            OR ((before -> 'sides' -> i ->> 'id') IS DISTINCT FROM NEW.side
                AND (after -> 'sides' -> i) IS DISTINCT FROM (before -> 'sides' -> i))
        THEN
            {REFUSED}
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
"""
    )
