"""Battles: the ruleset data each was created with (data_version, data_fingerprint).

Nullable: a battle made before this revision did not record them, and says nothing.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite adds a column in place; batch mode keeps AUTOINCREMENT should it rebuild.
    with op.batch_alter_table("battle", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.add_column(sa.Column("data_version", sa.String(), nullable=True))
        batch.add_column(sa.Column("data_fingerprint", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("battle", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_column("data_fingerprint")
        batch.drop_column("data_version")
