"""Close the temporary-table hole in the club server's access rules (issue 22).

PostgreSQL resolves a bare table name through the session's ``search_path``, which starts
with the session's own temporary schema: a member who made a temporary ``club_member`` of
their own was an umpire to every function that read ``club_member`` by its bare name. As
PostgreSQL's documentation advises for functions that policies and triggers call:

- every function is made again naming each table and function with its schema, and with
  its ``search_path`` pinned (``pg_catalog``, Castra's schema, then ``pg_temp`` last: a
  temporary object is never found before Castra's own), the security-definer one too;
- members may make no temporary objects (TEMP on the database is taken from PUBLIC) and
  nobody but the owner creates anything in Castra's schema (CREATE taken from PUBLIC: before
  PostgreSQL 15 every database gave it); only ``castra_member`` may run Castra's functions.

The policies themselves hold their functions by identity, not by name: they need no change.

Live refresh: a change to a roster, battle, campaign, side or member is told on the channel
``castra_changes`` (``NOTIFY``, sent when the change commits), so a member's open window
reloads within a second instead of asking every few seconds.
On SQLite nothing changes (a local store has one user).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-20
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MEMBER_ROLE = "castra_member"

#: Castra's functions by signature (the policies' and the trigger's building blocks).
FUNCTIONS = (
    "castra_is_umpire()",
    "castra_plays(integer)",
    "castra_others_steps(integer)",
    "castra_plays_side(integer, text)",
    "castra_ids_past_copies()",
    "castra_may_edit_roster(integer)",
    "castra_player_step_check()",
    "castra_notify_change()",
)
#: The channel a change to these tables is told on (the window's live refresh).
CHANNEL = "castra_changes"
NOTIFYING = ("roster", "battle", "campaign", "campaign_side", "club_member")


def functions(s: str) -> str:
    """The functions, every name qualified with schema ``s`` (already quoted as an
    identifier), each with its search path pinned."""
    pin = f"SET search_path = pg_catalog, {s}, pg_temp"
    seq = "'" + s.replace("'", "''") + ".{}_id_seq'::regclass"
    return f"""
CREATE OR REPLACE FUNCTION {s}.castra_is_umpire() RETURNS boolean LANGUAGE sql STABLE
{pin} AS $$
    SELECT EXISTS (
        SELECT 1 FROM {s}.club_member m
        WHERE m.name = current_user AND m.role = 'umpire'
    )
$$;
CREATE OR REPLACE FUNCTION {s}.castra_plays(cid integer) RETURNS boolean LANGUAGE sql STABLE
{pin} AS $$
    SELECT EXISTS (
        SELECT 1 FROM {s}.campaign_side c
        WHERE c.campaign_id = cid AND c.member = current_user
    )
$$;
CREATE OR REPLACE FUNCTION {s}.castra_others_steps(cid integer) RETURNS integer LANGUAGE sql
STABLE {pin} AS $$
    SELECT coalesce(pg_catalog.max(c.n) + 1, 0) FROM {s}.campaign_step c
    WHERE c.campaign_id = cid AND c.made_by IS DISTINCT FROM current_user
$$;
CREATE OR REPLACE FUNCTION {s}.castra_plays_side(cid integer, sid text) RETURNS boolean
LANGUAGE sql STABLE {pin} AS $$
    SELECT EXISTS (
        SELECT 1 FROM {s}.campaign_side c
        WHERE c.campaign_id = cid AND c.side = sid AND c.member = current_user
    )
$$;
CREATE OR REPLACE FUNCTION {s}.castra_ids_past_copies() RETURNS void LANGUAGE plpgsql
SECURITY DEFINER {pin} AS $$
BEGIN
    -- after a copy from another store kept its ids: the next new id goes past them, never
    -- back (an id is not reused after a purge)
    PERFORM pg_catalog.setval({seq.format("roster")}, greatest(
        coalesce((SELECT pg_catalog.max(r.id) FROM {s}.roster r), 1),
        (SELECT q.last_value FROM {s}.roster_id_seq q)));
    PERFORM pg_catalog.setval({seq.format("battle")}, greatest(
        coalesce((SELECT pg_catalog.max(b.id) FROM {s}.battle b), 1),
        (SELECT q.last_value FROM {s}.battle_id_seq q)));
    PERFORM pg_catalog.setval({seq.format("campaign")}, greatest(
        coalesce((SELECT pg_catalog.max(c.id) FROM {s}.campaign c), 1),
        (SELECT q.last_value FROM {s}.campaign_id_seq q)));
END
$$;
CREATE OR REPLACE FUNCTION {s}.castra_may_edit_roster(rid integer) RETURNS boolean
LANGUAGE sql STABLE {pin} AS $$
    SELECT {s}.castra_is_umpire()
        OR EXISTS (
            SELECT 1 FROM {s}.roster r WHERE r.id = rid AND r.owner = current_user
        )
$$;
CREATE OR REPLACE FUNCTION {s}.castra_player_step_check() RETURNS trigger LANGUAGE plpgsql
{pin} AS $$
DECLARE
    before jsonb;
    after jsonb := NEW.state::jsonb;
    i integer;
BEGIN
    -- only players are held to it (the umpire, and the club's owner who copies whole
    -- campaigns in, are not)
    IF NOT EXISTS (
        SELECT 1 FROM {s}.club_member m
        WHERE m.name = current_user AND m.role <> 'umpire'
    ) THEN
        RETURN NEW;
    END IF;
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
        RAISE EXCEPTION 'a player''s step may change only the side they play'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOR i IN 0 .. pg_catalog.jsonb_array_length(before -> 'sides') - 1 LOOP
        IF (after -> 'sides' -> i ->> 'id') IS DISTINCT FROM (before -> 'sides' -> i ->> 'id')
            OR ((before -> 'sides' -> i ->> 'id') IS DISTINCT FROM NEW.side
                AND (after -> 'sides' -> i) IS DISTINCT FROM (before -> 'sides' -> i))
        THEN
            RAISE EXCEPTION 'a player''s step may change only the side they play'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
CREATE OR REPLACE FUNCTION {s}.castra_notify_change() RETURNS trigger LANGUAGE plpgsql
{pin} AS $$
BEGIN
    PERFORM pg_catalog.pg_notify('{CHANNEL}', TG_TABLE_NAME);
    RETURN NULL;
END
$$;
"""


def lock_down(s: str) -> list[str]:
    """The statements that leave members no temporary objects, nobody but the owner
    creating in schema ``s`` (quoted) and only members running Castra's functions."""
    statements = [
        "DO $$ BEGIN EXECUTE pg_catalog.format("
        "'REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', pg_catalog.current_database()); END $$",
        f"REVOKE CREATE ON SCHEMA {s} FROM PUBLIC",
    ]
    for fn in FUNCTIONS:
        statements += [
            f"REVOKE ALL ON FUNCTION {s}.{fn} FROM PUBLIC",
            f"GRANT EXECUTE ON FUNCTION {s}.{fn} TO {MEMBER_ROLE}",
        ]
    return statements


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


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    s = schema()
    op.execute(functions(s))
    for table in NOTIFYING:
        op.execute(
            f"CREATE TRIGGER castra_changes AFTER INSERT OR UPDATE OR DELETE ON {s}.{table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {s}.castra_notify_change()"
        )
    for statement in lock_down(s):
        op.execute(statement)


def downgrade() -> None:
    """The live-refresh triggers go. Functions back to 0007's bodies are not restored: the
    pinned ones do the same work (and the older bodies had the hole). The privileges taken
    stay taken."""
    if op.get_bind().dialect.name != "postgresql":
        return
    s = schema()
    for table in NOTIFYING:
        op.execute(f"DROP TRIGGER IF EXISTS castra_changes ON {s}.{table}")
    op.execute(f"DROP FUNCTION IF EXISTS {s}.castra_notify_change()")
