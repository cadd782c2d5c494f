"""Moving between stores (issue 15): a roster, or a campaign with the battles it was fought
with, copied whole from one store to another (the local file to a club server and back),
keeping their ids, versions, times and history (every battle and campaign step).

A copy is one transaction on the target: all of it is written, or, when the target refuses
(an id already taken there, a member who may not write it), nothing. The source is only read.
On a club server the copy belongs to the member who makes it (the server's policies insist);
the steps keep the names of who made them where the source knew them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.store.engine import Store, StoreError

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlmodel import Session

    from app.rules.registry import Registry


@dataclass(frozen=True)
class Copied:
    """What a copy wrote to the target: ids by kind."""

    rosters: tuple[int, ...] = ()
    campaigns: tuple[int, ...] = ()
    battles: tuple[int, ...] = ()

    def describe(self) -> str:
        parts = [
            f"{kind} {', '.join(map(str, ids))}"
            for kind, ids in (
                ("roster", self.rosters),
                ("campaign", self.campaigns),
                ("battle", self.battles),
            )
            if ids
        ]
        return "; ".join(parts)


def _table(name: str) -> Table:
    from sqlmodel import SQLModel

    import app.store.models  # noqa: F401  (registers the tables)

    table: Table = SQLModel.metadata.tables[name]
    return table


def _rows(src: Session, table: Table, column: str, ident: int) -> list[dict[str, Any]]:
    from sqlalchemy import select

    query = select(table).where(table.c[column] == ident)
    if "n" in table.c:
        query = query.order_by(table.c.n)
    elif "position" in table.c:
        query = query.order_by(table.c.position)
    return [dict(r._mapping) for r in src.execute(query)]


def _put(dst: Session, table: Table, rows: list[dict[str, Any]]) -> None:
    from sqlalchemy import insert

    if rows:
        dst.execute(insert(table), rows)


def _taken(dst: Session, table: Table, ident: int, what: str, where: str) -> None:
    from sqlalchemy import select

    if dst.execute(select(table.c.id).where(table.c.id == ident)).first() is not None:
        raise StoreError(
            f"{what} {ident} already exists in {where}: nothing was copied (delete it there "
            "first, or copy it under another id)"
        )


def _bump_ids(dst: Session) -> None:
    """After rows were inserted with their own ids, a server's id sequences must go past
    them (SQLite's AUTOINCREMENT counter moves by itself): a function of the server's, as
    members may not set sequences."""
    if dst.connection().dialect.name != "postgresql":
        return
    from sqlalchemy import func, select

    dst.execute(select(func.castra_ids_past_copies()))


def _head(row: dict[str, Any], target: Store, *, owned: bool) -> dict[str, Any]:
    """A roster, battle or campaign row as it is written to ``target``: on a club server, the
    copying member made the change (and owns a roster)."""
    out = dict(row)
    out["updated_by"] = target.member if target.on_server else row.get("updated_by")
    if owned:
        out["owner"] = target.member if target.on_server else row.get("owner")
    return out


def _steps(rows: list[dict[str, Any]], target: Store) -> list[dict[str, Any]]:
    if not target.on_server:
        return rows
    return [{**r, "made_by": r.get("made_by") or target.member} for r in rows]


def copy_roster(source: Store, target: Store, *, roster_id: int) -> Copied:
    """Copy roster ``roster_id`` (units, leaders, commands, version, times) from ``source``
    to ``target`` under the same id. :class:`StoreError` (nothing written) when the id is
    taken there; ``KeyError`` when the source has no such roster."""
    from app.store.models import RosterChangeRow

    roster = _table("roster")
    with source.read_session() as src:
        heads = _rows(src, roster, "id", roster_id)
        if not heads:
            raise KeyError(f"no roster with id {roster_id}")
        head = heads[0]
        children = {
            name: _rows(src, _table(name), "roster_id", roster_id)
            for name in ("roster_unit", "roster_leader", "roster_command")
        }
    with target.session() as dst:
        _taken(dst, roster, roster_id, "roster", target.where)
        _put(dst, roster, [_head(head, target, owned=True)])
        for name, rows in children.items():
            _put(dst, _table(name), [{k: v for k, v in r.items() if k != "id"} for r in rows])
        # its history stays in the source (each line there names its own maker); here it
        # begins with the copy
        dst.add(
            RosterChangeRow(
                roster_id=roster_id,
                version=int(head["version"]),
                made_at=datetime.now(UTC),
                what=f"copied from {source.where}",
            )
        )
        dst.flush()
        _bump_ids(dst)
    return Copied(rosters=(roster_id,))


def copy_campaign(source: Store, target: Store, *, campaign_id: int, registry: Registry) -> Copied:
    """Copy campaign ``campaign_id`` with all its steps, and every stored battle it was fought
    with (with all their steps), from ``source`` to ``target`` under the same ids, in one
    transaction. :class:`StoreError` (nothing written) when an id is taken there."""
    from app.store.campaigns import load_campaign

    session = load_campaign(source, campaign_id=campaign_id, registry=registry)
    fought = sorted(
        {
            b.fought
            for done in (None, *session.done)
            for b in (session.start if done is None else done.campaign).battles
            if b.fought is not None
        }
    )
    campaign, battle = _table("campaign"), _table("battle")
    with source.read_session() as src:
        [head] = _rows(src, campaign, "id", campaign_id)
        steps = _rows(src, _table("campaign_step"), "campaign_id", campaign_id)
        battles = []
        for bid in fought:
            rows = _rows(src, battle, "id", bid)
            if rows:
                battles.append((rows[0], _rows(src, _table("battle_step"), "battle_id", bid)))
    with target.session() as dst:
        _taken(dst, campaign, campaign_id, "campaign", target.where)
        for row, _ in battles:
            _taken(dst, battle, row["id"], "battle", target.where)
        for row, battle_steps in battles:
            _put(dst, battle, [_head(row, target, owned=False)])
            _put(
                dst,
                _table("battle_step"),
                [{k: v for k, v in r.items() if k != "id"} for r in _steps(battle_steps, target)],
            )
        _put(dst, campaign, [_head(head, target, owned=False)])
        _put(
            dst,
            _table("campaign_step"),
            [{k: v for k, v in r.items() if k != "id"} for r in _steps(steps, target)],
        )
        _bump_ids(dst)
    return Copied(campaigns=(campaign_id,), battles=tuple(r["id"] for r, _ in battles))
