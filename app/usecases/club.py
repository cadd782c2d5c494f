"""Club operations (a PostgreSQL club server shared by members): who this member is, the
club's members, setting a server up and adding members, copying between stores, and
hearing other members' changes. The server's driver loads only when a function here needs
it, so asking a local store for its role costs nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.store.read import change_mark as change_mark
from app.store.read import club_members as club_members
from app.store.read import member_role as member_role

if TYPE_CHECKING:
    from app.rules.registry import Registry
    from app.store.engine import Store
    from app.store.server import ChangeListener as ChangeListener
    from app.store.server import Role
    from app.store.transfer import Copied


def has_password(url: str) -> bool:
    """Whether a club server's address holds a password (Castra keeps none)."""
    from app.store.server import has_password as holds

    return holds(url)


def listen_for_changes(store: Store) -> ChangeListener:
    """A listener for other members' changes as the server tells them (StoreError when the
    server cannot be listened to)."""
    from app.store.server import ChangeListener

    return ChangeListener(store)


def init_server(url: str) -> list[str]:
    """Set up a club server's database for Castra (run by the club's admin); its lines."""
    from app.store.server import init_server as init

    return init(url)


def add_member(
    url: str, *, name: str, role: Role, password: str | None = None, existing: bool = False
) -> str:
    """Add a member to the club (see :func:`app.store.server.add_member`); one line."""
    from app.store.server import add_member as add

    return add(url, name=name, role=role, password=password, existing=existing)


def copy_roster(source: Store, target: Store, *, roster_id: int) -> Copied:
    """Copy a roster (with its history) from one store to another, in one transaction."""
    from app.store.transfer import copy_roster as copy

    return copy(source, target, roster_id=roster_id)


def copy_campaign(source: Store, target: Store, *, campaign_id: int, registry: Registry) -> Copied:
    """Copy a campaign (with its battles) from one store to another, in one transaction."""
    from app.store.transfer import copy_campaign as copy

    return copy(source, target, campaign_id=campaign_id, registry=registry)
