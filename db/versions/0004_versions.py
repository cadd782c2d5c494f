"""Rosters and battles: a ``version`` counting their writes, for the optimistic check that
refuses a write made from a copy changed elsewhere since (issue 13: two writers lost
acknowledged updates).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("roster", "battle"):
        with op.batch_alter_table(table, table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.add_column(
                sa.Column("version", sa.Integer(), nullable=False, server_default="0")
            )


def downgrade() -> None:
    for table in ("roster", "battle"):
        with op.batch_alter_table(table, table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.drop_column("version")
