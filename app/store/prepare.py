"""Getting the first write ready before the user makes it.

The window reads the store without the ORM (:mod:`app.store.read`), so it starts without
SQLAlchemy; but the first write -- the first edit of a roster, the first command of a
battle, the first campaign step -- imported SQLAlchemy, sqlmodel and the table models then,
and the user waited half a second or more for it (issue 26). The window's start calls
:func:`prepare_writes` on its worker thread once the roster is in view, so by the user's
first write the modules are loaded and the mappers configured, and that write costs what
any later one does. Nothing here opens the store: the engine is still made by the first
write, on the thread that writes.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.store.engine import Store


def prepare_writes() -> None:
    """Import what every write needs and configure the table models' mappers (a few
    tenths of a second, once a process; nothing when done already)."""
    if "app.store.models" in sys.modules:
        return
    import sqlalchemy.orm
    import sqlmodel  # noqa: F401

    import app.store.models
    import app.store.repo  # noqa: F401

    sqlalchemy.orm.configure_mappers()


def warm_writes(store: Store, roster_id: int | None) -> None:
    """On the thread that writes (the window's), once the modules are loaded and the window
    is idle: make the store's engine, connect, and have SQLAlchemy compile the look-up a
    roster write starts with, by making it in a read transaction (it writes nothing; on a
    club server without its lock, which a read must not take)."""
    from app.store.models import RosterRow

    with store.read_session() as db:
        db.get(RosterRow, roster_id or 0, with_for_update=not store.on_server)
