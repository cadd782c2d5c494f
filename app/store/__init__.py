"""The store (a local SQLite file, or a club's PostgreSQL server): rosters with their units,
leaders and commands; battles with their steps; campaigns.

Open it with :func:`open_store` (backs the file up and migrates it at start). Reads go
through :mod:`app.store.read` (plain ``sqlite3``); writes through :mod:`app.store.repo`
(sqlmodel) and :mod:`app.store.battles`, which are imported on first use: showing the
library and reopening a roster loads no SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.store.engine import (
    SCHEMA_HEAD,
    AccessRefused,
    StaleWrite,
    Store,
    StoreDamaged,
    StoreError,
    default_path,
    open_store,
)
from app.store.read import (
    RosterSummary,
    find_roster,
    list_rosters,
    load_roster,
    load_roster_versioned,
)

if TYPE_CHECKING:
    from app.store.repo import (
        Saved,
        delete_roster,
        duplicate_roster,
        purge_roster,
        rename_roster,
        restore_roster,
        save_roster,
        seed_samples,
        unique_name,
        update_roster,
        write_roster,
    )

_WRITES = {
    "Saved",
    "delete_roster",
    "duplicate_roster",
    "purge_roster",
    "rename_roster",
    "restore_roster",
    "save_roster",
    "seed_samples",
    "unique_name",
    "update_roster",
    "write_roster",
}


def __getattr__(name: str) -> Any:
    """The write functions, importing the ORM on first use."""
    if name in _WRITES:
        from app.store import repo

        return getattr(repo, name)
    raise AttributeError(f"module 'app.store' has no attribute {name!r}")


__all__ = [
    "SCHEMA_HEAD",
    "AccessRefused",
    "RosterSummary",
    "Saved",
    "StaleWrite",
    "Store",
    "StoreDamaged",
    "StoreError",
    "default_path",
    "delete_roster",
    "duplicate_roster",
    "find_roster",
    "list_rosters",
    "load_roster",
    "load_roster_versioned",
    "open_store",
    "purge_roster",
    "rename_roster",
    "restore_roster",
    "save_roster",
    "seed_samples",
    "unique_name",
    "update_roster",
    "write_roster",
]
