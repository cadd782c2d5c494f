"""The read path without the ORM (app/store/read.py) returns exactly what the ORM holds:
every roster field, every summary field (times as the same aware UTC datetimes), and the
window opens with the library and the reopened roster without importing SQLAlchemy."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from sqlmodel import select

from app.core.roster import Roster
from app.store import (
    Store,
    delete_roster,
    list_rosters,
    load_roster,
    load_roster_versioned,
    save_roster,
)
from app.store.models import RosterRow, RosterUnitRow


def test_summaries_are_what_the_orm_holds(store: Store, full_roster: Roster) -> None:
    ids = [save_roster(store, roster=replace(full_roster, name=f"R{i}")) for i in range(3)]
    save_roster(store, roster=Roster("Empty", "quincunx", "roman", "Rome", "1:100"))
    delete_roster(store, roster_id=ids[1])
    with store.read_session() as session:
        rows = {r.id: r for r in session.exec(select(RosterRow)).all()}
        counts: dict[int, int] = {}
        for unit in session.exec(select(RosterUnitRow)).all():
            counts[unit.roster_id] = counts.get(unit.roster_id, 0) + unit.count
    summaries = list_rosters(store, include_deleted=True)
    assert len(summaries) == len(rows) == 4
    for s in summaries:
        row = rows[s.id]
        assert (s.name, s.ruleset, s.army, s.side, s.scale) == (
            row.name,
            row.ruleset,
            row.army,
            row.side,
            row.scale,
        )
        assert s.updated_at == row.updated_at and s.updated_at.tzinfo is not None
        assert s.deleted == (row.deleted_at is not None)
        assert s.units == counts.get(s.id, 0)
    assert [s.id for s in list_rosters(store)] == [s.id for s in summaries if not s.deleted]


def test_a_roster_reads_back_field_for_field(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    assert load_roster(store, roster_id=rid) == full_roster
    with store.read_session() as session:
        version = session.exec(select(RosterRow.version).where(RosterRow.id == rid)).one()
    assert load_roster_versioned(store, roster_id=rid) == (full_roster, version)


def test_the_window_reopens_its_roster_without_sqlalchemy(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_DB": str(tmp_path / "castra.sqlite3"),
        "CASTRA_HOME": str(tmp_path / "home"),
        "CASTRA_QUIT_AFTER_SHOW": "1",
    }
    code = (
        "import sys; from app.gui.app import run; run(); print('ORM', 'sqlalchemy' in sys.modules)"
    )
    first = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert "roster open" in first.stdout, first.stderr  # first start: samples written
    again = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert "roster open" in again.stdout and "ORM False" in again.stdout, again.stdout
