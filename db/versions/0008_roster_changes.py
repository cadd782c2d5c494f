"""Roster history on both engines (issue 15): one ``roster_change`` row per roster write, in
the same transaction, naming what was done and, on a club server, who did it.

On PostgreSQL every member reads every roster's history; a member adds a change only to a
roster they may change (the owner, or an umpire), only under their own name (``made_by =
current_user``, checked by the policy), and nobody changes or deletes one (no privilege: the
history is insert-only; a roster purged for good takes its history with it, through the
foreign key's cascade, which the policies do not hold).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MEMBER_ROLE = "castra_member"


def upgrade() -> None:
    op.create_table(
        "roster_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("roster_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("made_by", sa.String(), nullable=True),
        sa.Column("what", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["roster_id"],
            ["roster.id"],
            name="fk_roster_change_roster_id_roster",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_roster_change"),
    )
    op.create_index("ix_roster_change_roster_id", "roster_change", ["roster_id"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"GRANT SELECT, INSERT ON roster_change TO {MEMBER_ROLE}")
        op.execute(f"GRANT USAGE ON SEQUENCE roster_change_id_seq TO {MEMBER_ROLE}")
        op.execute("ALTER TABLE roster_change ENABLE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY roster_change_read ON roster_change FOR SELECT TO {MEMBER_ROLE} "
            "USING (true)"
        )
        op.execute(
            f"CREATE POLICY roster_change_add ON roster_change FOR INSERT TO {MEMBER_ROLE} "
            "WITH CHECK (made_by = current_user AND castra_may_edit_roster(roster_id))"
        )


def downgrade() -> None:
    op.drop_index("ix_roster_change_roster_id", table_name="roster_change")
    op.drop_table("roster_change")
