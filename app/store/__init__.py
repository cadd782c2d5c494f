"""The SQLite store (sqlmodel): rosters with their units, leaders and commands; battles with
their steps.

Open it with :func:`open_store` (backs the file up and migrates it at start), then use the
keyword-only functions of :mod:`app.store.repo` (rosters) and :mod:`app.store.battles`
(battles: imported on demand, so opening the app does not load the battle code).
"""

from app.store.engine import SCHEMA_HEAD, Store, StoreError, default_path, open_store
from app.store.repo import (
    RosterSummary,
    delete_roster,
    duplicate_roster,
    find_roster,
    list_rosters,
    load_roster,
    purge_roster,
    rename_roster,
    restore_roster,
    save_roster,
    seed_samples,
    unique_name,
)

__all__ = [
    "SCHEMA_HEAD",
    "RosterSummary",
    "Store",
    "StoreError",
    "default_path",
    "delete_roster",
    "duplicate_roster",
    "find_roster",
    "list_rosters",
    "load_roster",
    "open_store",
    "purge_roster",
    "rename_roster",
    "restore_roster",
    "save_roster",
    "seed_samples",
    "unique_name",
]
