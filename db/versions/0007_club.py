"""The club server (issue 15): who owns and who changed each roster, battle and campaign,
who plays which campaign side, the club's members; on PostgreSQL, the members' group role,
its privileges and the row-level security policies that decide what each member may change.

On SQLite only the columns and the two small tables are added (a local store has one user:
they stay empty). On PostgreSQL the policies are the whole of the access control: a member
with a SQL client of their own meets the same refusals as the app.

- everyone (the group role ``castra_member``) reads everything;
- a player inserts rosters they own, and changes or deletes only those; an umpire any;
- only an umpire writes battles and their steps, creates, deletes and assigns campaigns;
- a player changes a campaign they play a side of, adding only steps for their own side
  (reinforce, promote, return a leader) whose campaign differs from the one before only in
  that side (a trigger reads the step's JSON), and undoing only back to the first step someone
  else made; recording and applying results is the umpire's; a campaign's start is never
  changed once made;
- every change names its maker (``updated_by`` / ``made_by`` = ``current_user``);
- ``club_member``, ``app_meta`` and ``alembic_version`` are read-only to members.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The group role every member's login role belongs to (one per cluster, shared by clubs).
MEMBER_ROLE = "castra_member"
#: The campaign steps a player may make, for a side they play.
PLAYER_STEPS = ("reinforce", "promote", "return-leader")

_AUTOINC = {"sqlite_autoincrement": True}


def upgrade() -> None:
    for table, columns in (
        ("roster", ("owner", "updated_by")),
        ("battle", ("updated_by",)),
        ("campaign", ("updated_by",)),
        ("battle_step", ("made_by",)),
        ("campaign_step", ("side", "made_by")),
    ):
        kwargs = _AUTOINC if table in ("roster", "battle", "campaign") else {}
        with op.batch_alter_table(table, table_kwargs=kwargs) as batch:
            for column in columns:
                batch.add_column(sa.Column(column, sa.String(), nullable=True))
            if table == "battle":
                # a seed is any 64-bit number (castra battle new --seed); PostgreSQL's
                # INTEGER holds only 32 bits (SQLite's holds 64 either way)
                batch.alter_column(
                    "seed", type_=sa.BigInteger(), existing_type=sa.Integer(), nullable=False
                )
    op.create_table(
        "campaign_side",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(), nullable=False),
        sa.Column("member", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name="fk_campaign_side_campaign_id_campaign",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", "side", name="pk_campaign_side"),
    )
    op.create_table(
        "club_member",
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("role", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_club_member"),
    )
    if op.get_bind().dialect.name == "postgresql":
        _policies()


# The policies' building blocks. ``castra_is_umpire()`` and ``castra_plays()`` read the club's
# tables as the member (who may read them), so a member cannot grant themselves anything.
_FUNCTIONS = """
CREATE FUNCTION castra_is_umpire() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM club_member WHERE name = current_user AND role = 'umpire')
$$;
CREATE FUNCTION castra_plays(cid integer) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM campaign_side WHERE campaign_id = cid AND member = current_user)
$$;
CREATE FUNCTION castra_others_steps(cid integer) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT coalesce(max(n) + 1, 0) FROM campaign_step
    WHERE campaign_id = cid AND made_by IS DISTINCT FROM current_user
$$;
CREATE FUNCTION castra_plays_side(cid integer, sid text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM campaign_side
        WHERE campaign_id = cid AND side = sid AND member = current_user
    )
$$;
CREATE FUNCTION castra_ids_past_copies() RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public AS $$
BEGIN
    -- after a copy from another store kept its ids: the next new id goes past them, never
    -- back (an id is not reused after a purge)
    PERFORM setval('roster_id_seq', greatest(
        coalesce((SELECT max(id) FROM roster), 1), (SELECT last_value FROM roster_id_seq)));
    PERFORM setval('battle_id_seq', greatest(
        coalesce((SELECT max(id) FROM battle), 1), (SELECT last_value FROM battle_id_seq)));
    PERFORM setval('campaign_id_seq', greatest(
        coalesce((SELECT max(id) FROM campaign), 1), (SELECT last_value FROM campaign_id_seq)));
END
$$;
CREATE FUNCTION castra_may_edit_roster(rid integer) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT castra_is_umpire()
        OR EXISTS (SELECT 1 FROM roster WHERE id = rid AND owner = current_user)
$$;
"""

_ROSTER_OWN = "(owner = current_user OR castra_is_umpire())"
_STAMPED = "updated_by = current_user"


def _policy(table: str, name: str, command: str, using: str | None, check: str | None) -> str:
    text = f"CREATE POLICY {name} ON {table} FOR {command} TO {MEMBER_ROLE}"
    if using is not None:
        text += f" USING ({using})"
    if check is not None:
        text += f" WITH CHECK ({check})"
    return text


def _policies() -> None:
    op.execute(
        f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{MEMBER_ROLE}') THEN
                CREATE ROLE {MEMBER_ROLE} NOLOGIN;
            END IF;
        END $$"""
    )
    op.execute(_FUNCTIONS)
    tables = (
        "roster",
        "roster_unit",
        "roster_leader",
        "roster_command",
        "battle",
        "battle_step",
        "campaign",
        "campaign_step",
        "campaign_side",
    )
    op.execute(f"GRANT USAGE ON SCHEMA public TO {MEMBER_ROLE}")
    op.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {MEMBER_ROLE}")
    op.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {MEMBER_ROLE}")
    # app_meta stays read-only to members: a club server seeds no samples, and a junk value
    # there would stop every member's Castra from reading the store
    op.execute(f"GRANT INSERT, UPDATE, DELETE ON {', '.join(tables)} TO {MEMBER_ROLE}")
    # a campaign's start never changes once made; the rest moves with its steps
    op.execute(f"REVOKE UPDATE ON campaign FROM {MEMBER_ROLE}")
    columns = "name, cursor, version, updated_at, updated_by"
    op.execute(f"GRANT UPDATE ({columns}) ON campaign TO {MEMBER_ROLE}")
    for table in tables:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(_policy(table, f"{table}_read", "SELECT", "true", None))
    umpire = "castra_is_umpire()"
    statements = [
        # rosters: the owner's, or any for an umpire; a new roster is its maker's own
        _policy(
            "roster", "roster_add", "INSERT", None, f"{_ROSTER_OWN} AND {_STAMPED}"
        ),
        _policy("roster", "roster_change", "UPDATE", _ROSTER_OWN, f"{_ROSTER_OWN} AND {_STAMPED}"),
        _policy("roster", "roster_remove", "DELETE", _ROSTER_OWN, None),
    ]
    for child in ("roster_unit", "roster_leader", "roster_command"):
        mine = "castra_may_edit_roster(roster_id)"
        statements += [
            _policy(child, f"{child}_add", "INSERT", None, mine),
            _policy(child, f"{child}_change", "UPDATE", mine, mine),
            _policy(child, f"{child}_remove", "DELETE", mine, None),
        ]
    # battles: the umpire's alone
    statements += [
        _policy("battle", "battle_add", "INSERT", None, f"{umpire} AND {_STAMPED}"),
        _policy("battle", "battle_change", "UPDATE", umpire, f"{umpire} AND {_STAMPED}"),
        _policy("battle", "battle_remove", "DELETE", umpire, None),
        _policy("battle_step", "battle_step_add", "INSERT", None, f"{umpire} AND made_by = current_user"),
        _policy("battle_step", "battle_step_change", "UPDATE", umpire, umpire),
        _policy("battle_step", "battle_step_remove", "DELETE", umpire, None),
    ]
    # campaigns: the umpire manages them; a player moves one they play a side of
    plays = f"({umpire} OR castra_plays(id))"
    # a player's undo stops at the first step someone else made (a result stays applied)
    moves = f"({umpire} OR (castra_plays(id) AND cursor >= castra_others_steps(id)))"
    steps = ", ".join(f"'{k}'" for k in PLAYER_STEPS)
    own_step = f"(kind IN ({steps}) AND castra_plays_side(campaign_id, side))"
    statements += [
        _policy("campaign", "campaign_add", "INSERT", None, f"{umpire} AND {_STAMPED}"),
        _policy("campaign", "campaign_change", "UPDATE", plays, f"{moves} AND {_STAMPED}"),
        _policy("campaign", "campaign_remove", "DELETE", umpire, None),
        _policy(
            "campaign_step",
            "campaign_step_add",
            "INSERT",
            None,
            f"({umpire} OR {own_step}) AND made_by = current_user",
        ),
        _policy("campaign_step", "campaign_step_change", "UPDATE", umpire, umpire),
        _policy(
            "campaign_step",
            "campaign_step_remove",
            "DELETE",
            f"{umpire} OR made_by = current_user",
            None,
        ),
        _policy("campaign_side", "campaign_side_add", "INSERT", None, umpire),
        _policy("campaign_side", "campaign_side_change", "UPDATE", umpire, umpire),
        _policy("campaign_side", "campaign_side_remove", "DELETE", umpire, None),
    ]
    for statement in statements:
        op.execute(statement)
    op.execute(_PLAYER_STEP_CHECK)
    op.execute(
        "CREATE TRIGGER campaign_step_player_check BEFORE INSERT ON campaign_step "
        "FOR EACH ROW EXECUTE FUNCTION castra_player_step_check()"
    )


# A policy sees a row, not what its JSON says: a player's step (reinforce, promote, return a
# leader) carries the whole campaign it made, so the database compares it with the state it
# follows (the step before, or the campaign's start) and refuses any change outside the
# side the player plays: another side's army or losses, the battles and their results.
_PLAYER_STEP_CHECK = """
CREATE FUNCTION castra_player_step_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before jsonb;
    after jsonb := NEW.state::jsonb;
    i integer;
BEGIN
    -- only players are held to it (the umpire, and the club's owner who copies whole
    -- campaigns in, are not)
    IF NOT EXISTS (SELECT 1 FROM club_member WHERE name = current_user AND role <> 'umpire')
    THEN
        RETURN NEW;
    END IF;
    IF NEW.n = 0 THEN
        SELECT start::jsonb INTO before FROM campaign WHERE id = NEW.campaign_id;
    ELSE
        SELECT state::jsonb INTO before FROM campaign_step
        WHERE campaign_id = NEW.campaign_id AND n = NEW.n - 1;
    END IF;
    IF before IS NULL
        OR jsonb_typeof(after -> 'sides') IS DISTINCT FROM 'array'
        OR (after - 'sides') IS DISTINCT FROM (before - 'sides')
        OR jsonb_array_length(after -> 'sides') <> jsonb_array_length(before -> 'sides')
    THEN
        RAISE EXCEPTION 'a player''s step may change only the side they play'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOR i IN 0 .. jsonb_array_length(before -> 'sides') - 1 LOOP
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
"""


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in (
            "roster",
            "roster_unit",
            "roster_leader",
            "roster_command",
            "battle",
            "battle_step",
            "campaign",
            "campaign_step",
        ):
            op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
            for name in _names(table):
                op.execute(f"DROP POLICY IF EXISTS {name} ON {table}")
    op.drop_table("club_member")
    op.drop_table("campaign_side")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS campaign_step_player_check ON campaign_step")
        for fn in (
            "castra_player_step_check()",
            "castra_ids_past_copies()",
            "castra_may_edit_roster(integer)",
            "castra_plays_side(integer, text)",
            "castra_others_steps(integer)",
            "castra_plays(integer)",
            "castra_is_umpire()",
        ):
            op.execute(f"DROP FUNCTION IF EXISTS {fn}")
    for table, columns in (
        ("campaign_step", ("made_by", "side")),
        ("battle_step", ("made_by",)),
        ("campaign", ("updated_by",)),
        ("battle", ("updated_by",)),
        ("roster", ("updated_by", "owner")),
    ):
        kwargs = _AUTOINC if table in ("roster", "battle", "campaign") else {}
        with op.batch_alter_table(table, table_kwargs=kwargs) as batch:
            for column in columns:
                batch.drop_column(column)
            if table == "battle":
                batch.alter_column(
                    "seed", type_=sa.Integer(), existing_type=sa.BigInteger(), nullable=False
                )


def _names(table: str) -> list[str]:
    return [f"{table}_{what}" for what in ("read", "add", "change", "remove")]
