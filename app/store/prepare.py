"""Getting the first write ready before the user makes it.

The window reads the store without the ORM (:mod:`app.store.read`), so it starts without
SQLAlchemy; but the first write -- the first edit of a roster, the first command of a
battle, the first campaign step -- imported SQLAlchemy, sqlmodel and the table models then,
and the user waited half a second or more for it (issue 26). The window's start calls
:func:`prepare_writes` on its worker thread once the roster is in view, so by the user's
first write the modules are loaded and the mappers configured. Then, on the thread that
writes and once the window is idle, :func:`warm_writes` makes the engine and rehearses a
roster's writes in a transaction that is rolled back, so that SQLAlchemy has compiled their
statements too: the user's first edit costs what any later one does.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from app.core.roster import Command, Leader, Roster, Unit

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
    club server without its lock, which a read must not take). On a local file, rehearse a
    roster's writes too (:func:`rehearse_roster_writes`)."""
    from app.store.models import RosterRow

    with store.read_session() as db:
        db.get(RosterRow, roster_id or 0, with_for_update=not store.on_server)
    if not store.on_server and not store.read_only:
        rehearse_roster_writes(store)


#: the scratch roster a rehearsal writes and rolls back
_SCRATCH = Roster(
    name="rehearsal",
    ruleset="-",
    army="-",
    side="-",
    scale=None,
    units=tuple(Unit(id=f"u{i}", entry="-", name="-", size=1) for i in range(3)),
    leaders=(Leader(id="l0", name="-"),),
    commands=(Command(id="c0", name="-"),),
)


def rehearse_roster_writes(store: Store) -> bool:
    """Run the statements of a roster's writes on a scratch roster, in a transaction that
    is rolled back (:meth:`~app.store.engine.Store.rehearsal`): a new roster; an edit of a
    unit, a leader and a command; a unit taken out (the units after it move up, one
    statement for many rows) and one added, a leader and a command replaced; the roster
    renamed, its notes changed. SQLAlchemy compiles each statement the first time it runs
    (about 3 ms of the user's first edit otherwise) and keeps it. Nothing reaches the
    store's files; a store another writer holds at this moment is left alone (it never
    waits). Returns whether the rehearsal ran."""
    from dataclasses import replace

    from app.store.engine import StoreError
    from app.store.repo import write_in

    first, *rest = _SCRATCH.units
    edited = replace(
        _SCRATCH,
        units=(replace(first, notes="edited"), *rest),
        leaders=(replace(_SCRATCH.leaders[0], notes="edited"),),
        commands=(replace(_SCRATCH.commands[0], name="edited"),),
    )
    moved = replace(
        edited,
        units=(*rest, Unit(id="u9", entry="-", name="-", size=1)),
        leaders=(Leader(id="l9", name="-"),),
        commands=(Command(id="c9", name="-"),),
    )
    try:
        with store.rehearsal() as session:
            made = write_in(session, _SCRATCH, None)
            saved = write_in(session, edited, made.id, made.version, _SCRATCH, what="edited")
            saved = write_in(session, moved, made.id, saved.version, edited, what="moved")
            renamed = replace(moved, name="renamed")
            saved = write_in(session, renamed, made.id, saved.version, moved, what="renamed")
            noted = replace(renamed, notes="noted")
            write_in(session, noted, made.id, saved.version, renamed, what="noted")
    except StoreError:
        return False  # another writer holds the store now: the first write compiles them
    return True
