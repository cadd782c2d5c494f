"""A leader's engine fields in one column: ``roster_leader.fields``, a JSON object of the
fields his engine declares that are set (``app.rules.leaderfields``), instead of a column per
field of the first three engines that had one (``bonus``: Quincunx and GSB; ``exceptional``:
Leg VI; ``quality``: D3). A new engine's field needs no migration.

Every value is kept: a bonus (a +0 too), an exceptional leader, a quality (an ``average`` set
by hand too); what was unset (a NULL bonus or quality, not exceptional) is left out. The
downgrade puts the three columns back from the object (a field of another engine, which
schema 0010 could not hold, is dropped). The file is backed up before this runs (as before
every migration). On a club server the table's grants and row policies are the table's, so
they cover the new column as they did the old ones.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the columns of schema 0010 (the name each field has in the object)
_OLD = ("bonus", "exceptional", "quality")


def upgrade() -> None:
    with op.batch_alter_table("roster_leader") as batch:
        batch.add_column(sa.Column("fields", sa.Text(), nullable=False, server_default="{}"))
    conn = op.get_bind()
    rows = conn.execute(
        sa.text("SELECT id, bonus, exceptional, quality FROM roster_leader")
    ).fetchall()
    for row_id, bonus, exceptional, quality in rows:
        values: dict[str, object] = {}
        if bonus is not None:
            values["bonus"] = int(bonus)
        if exceptional:
            values["exceptional"] = True
        if quality is not None:
            values["quality"] = str(quality)
        if values:
            conn.execute(
                sa.text("UPDATE roster_leader SET fields = :f WHERE id = :i"),
                {"f": dump(values), "i": row_id},
            )
    with op.batch_alter_table("roster_leader") as batch:
        for name in _OLD:
            batch.drop_column(name)
        batch.alter_column("fields", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("roster_leader") as batch:
        batch.add_column(sa.Column("bonus", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("exceptional", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("quality", sa.String(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, fields FROM roster_leader")).fetchall()
    for row_id, text in rows:
        values = json.loads(text or "{}")
        if not any(k in values for k in _OLD):
            continue
        conn.execute(
            sa.text(
                "UPDATE roster_leader SET bonus = :b, exceptional = :e, quality = :q "
                "WHERE id = :i"
            ),
            {
                "b": values.get("bonus"),
                "e": bool(values.get("exceptional", False)),
                "q": values.get("quality"),
                "i": row_id,
            },
        )
    with op.batch_alter_table("roster_leader") as batch:
        batch.drop_column("fields")
        batch.alter_column("exceptional", server_default=None)


def dump(values: dict[str, object]) -> str:
    """The column's text: the object with its keys sorted, compact (as the store writes it,
    ``app.store.repo``)."""
    return json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
