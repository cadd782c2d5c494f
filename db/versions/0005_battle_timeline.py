"""Battle steps stored small: a digest of each step's state, its change from the state
before (``delta``), and the whole state (compressed) only every SNAPSHOT_EVERY steps,
instead of the whole state at every step (427 KB a step at 1,000 units).

Existing battles are converted step by step from the states they stored, with the same
functions the app uses (:mod:`app.core.battle.timeline`), so every recorded state is kept
exactly. The file is backed up before this runs (as before every migration).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.battle.timeline import SNAPSHOT_EVERY, delta, digest, pack_snapshot

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _normal(text: str) -> dict:
    """A stored state as the app writes it now (older states lack ``round``)."""
    return state_to_dict(state_from_dict(json.loads(text)))


def upgrade() -> None:
    with op.batch_alter_table("battle_step") as batch:
        batch.add_column(sa.Column("digest", sa.String(), nullable=False, server_default=""))
        batch.add_column(sa.Column("delta", sa.Text(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("snapshot", sa.LargeBinary(), nullable=True))
    conn = op.get_bind()
    battles = conn.execute(sa.text("SELECT id, initial_state FROM battle")).fetchall()
    for battle_id, initial in battles:
        before = _normal(initial)
        steps = conn.execute(
            sa.text("SELECT id, n, state FROM battle_step WHERE battle_id = :b ORDER BY n"),
            {"b": battle_id},
        ).fetchall()
        for row_id, n, state in steps:
            after = _normal(state)
            conn.execute(
                sa.text(
                    "UPDATE battle_step SET digest = :d, delta = :c, snapshot = :s WHERE id = :i"
                ),
                {
                    "d": digest(after),
                    "c": json.dumps(delta(before, after), ensure_ascii=False),
                    "s": pack_snapshot(after) if (n + 1) % SNAPSHOT_EVERY == 0 else None,
                    "i": row_id,
                },
            )
            before = after
    with op.batch_alter_table("battle_step") as batch:
        batch.drop_column("state")
        batch.alter_column("digest", server_default=None)
        batch.alter_column("delta", server_default=None)


def downgrade() -> None:
    from app.core.battle.timeline import apply_delta, unpack_snapshot

    with op.batch_alter_table("battle_step") as batch:
        batch.add_column(sa.Column("state", sa.Text(), nullable=False, server_default="{}"))
    conn = op.get_bind()
    battles = conn.execute(sa.text("SELECT id, initial_state FROM battle")).fetchall()
    for battle_id, initial in battles:
        state = json.loads(initial)
        steps = conn.execute(
            sa.text(
                "SELECT id, delta, snapshot FROM battle_step WHERE battle_id = :b ORDER BY n"
            ),
            {"b": battle_id},
        ).fetchall()
        for row_id, change, snapshot in steps:
            state = (
                unpack_snapshot(snapshot)
                if snapshot is not None
                else apply_delta(state, json.loads(change))
            )
            conn.execute(
                sa.text("UPDATE battle_step SET state = :s WHERE id = :i"),
                {"s": json.dumps(state), "i": row_id},
            )
    with op.batch_alter_table("battle_step") as batch:
        batch.drop_column("snapshot")
        batch.drop_column("delta")
        batch.drop_column("digest")
        batch.alter_column("state", server_default=None)
