"""A campaign's whole states stored as a head and parts (issue 26): each battle's armies as
they went in and each result side's units are stored apart from the rest of the state, in
the same compressed stream, and read only when a state read back needs them
(:func:`app.core.campaign.stored.pack_campaign`). At 50 battles they are 860 KB of a whole
state's 936 KB of JSON, and the Campaigns window and the chronicle read neither (the head
keeps what a side's units add up to: its losses and the units it lost).

Every whole state stored is rewritten into the new form from the state it held, with the
functions the app uses, so the state read back, and its digest, are the same: every step,
undo and redo is kept. A whole state that cannot be read is left as it was (it is said to
be damaged when it is read, as before). Only the ``snapshot`` column changes: the club
server's check of a player's step reads the step's change, never a whole state (a player's
step carries none), so it is left alone. The file is backed up before this runs (as before
every migration); the downgrade writes every whole state back whole.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

import zlib
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from app.core.campaign.stored import PARTED, pack_campaign, unpack_campaign
from app.core.timeline import pack_snapshot

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    _rewrite(lambda blob: None if blob.startswith(PARTED) else pack_campaign(unpack_campaign(blob)))


def downgrade() -> None:
    _rewrite(lambda blob: pack_snapshot(unpack_campaign(blob)) if blob.startswith(PARTED) else None)


def _rewrite(convert: Callable[[bytes], bytes | None]) -> None:
    """Each whole state stored, one at a time (at 50 battles one is 1 MB decoded), as
    ``convert`` makes it (None: left as it is)."""
    conn = op.get_bind()
    ids = conn.execute(
        sa.text("SELECT id FROM campaign_step WHERE snapshot IS NOT NULL ORDER BY id")
    ).fetchall()
    for (row_id,) in ids:
        blob = conn.execute(
            sa.text("SELECT snapshot FROM campaign_step WHERE id = :i"), {"i": row_id}
        ).scalar_one()
        try:
            new = convert(bytes(blob))
        except (zlib.error, ValueError, TypeError, KeyError, AttributeError):
            continue  # damaged: left as it was, said to be damaged when it is read
        if new is not None:
            conn.execute(
                sa.text("UPDATE campaign_step SET snapshot = :s WHERE id = :i"),
                {"s": new, "i": row_id},
            )
