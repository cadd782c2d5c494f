"""Opening the store (a local file or a club server) and what can go wrong with it: the
names both faces hold a store by and catch its refusals with. Light: nothing here loads
SQLAlchemy (the window imports it before its first paint)."""

from __future__ import annotations

from app.store.engine import AccessRefused as AccessRefused
from app.store.engine import EarlyCheck as EarlyCheck
from app.store.engine import StaleWrite as StaleWrite
from app.store.engine import Store as Store
from app.store.engine import StoreDamaged as StoreDamaged
from app.store.engine import StoreError as StoreError
from app.store.engine import default_location as default_location
from app.store.engine import default_path as default_path
from app.store.engine import integrity_check as integrity_check
from app.store.engine import is_server_url as is_server_url
from app.store.engine import open_store as open_store
from app.store.engine import start_check as start_check
