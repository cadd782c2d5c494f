"""Rosters: roster, roster_unit, roster_leader, roster_command, app_meta.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

The initial schema, written out by hand so that it stays what it was when later models change.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "roster",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("army", sa.String(), nullable=False),
        sa.Column("side", sa.String(), nullable=False),
        sa.Column("scale", sa.String(), nullable=True),
        sa.Column("data_version", sa.String(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_roster"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "roster_unit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("roster_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(), nullable=False),
        sa.Column("entry", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("grade", sa.String(), nullable=True),
        sa.Column("command", sa.String(), nullable=True),
        sa.Column("leader", sa.String(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("lines", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["roster_id"],
            ["roster.id"],
            name="fk_roster_unit_roster_id_roster",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_roster_unit"),
        sa.UniqueConstraint("roster_id", "uid", name="uq_roster_unit_roster_id_uid"),
    )
    op.create_table(
        "roster_leader",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("roster_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("rank", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("wounds", sa.Integer(), nullable=False),
        sa.Column("bonus", sa.Integer(), nullable=True),
        sa.Column("exceptional", sa.Boolean(), nullable=False),
        sa.Column("quality", sa.String(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["roster_id"],
            ["roster.id"],
            name="fk_roster_leader_roster_id_roster",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_roster_leader"),
        sa.UniqueConstraint("roster_id", "uid", name="uq_roster_leader_roster_id_uid"),
    )
    op.create_table(
        "roster_command",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("roster_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("leader", sa.String(), nullable=True),
        sa.Column("kind", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(
            ["roster_id"],
            ["roster.id"],
            name="fk_roster_command_roster_id_roster",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_roster_command"),
        sa.UniqueConstraint("roster_id", "uid", name="uq_roster_command_roster_id_uid"),
    )
    op.create_table(
        "app_meta",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_app_meta"),
    )


def downgrade() -> None:
    op.drop_table("app_meta")
    op.drop_table("roster_command")
    op.drop_table("roster_leader")
    op.drop_table("roster_unit")
    op.drop_table("roster")
