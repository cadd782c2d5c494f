"""The first write after a start does not stall (issue 26): the window's worker imports
what writing needs (SQLAlchemy, sqlmodel, the table models) once the roster is in view, and
the window makes the engine and rehearses a roster's writes when idle, so the user's first
edit imports and compiles nothing and costs what a later one does. Checked in a fresh
process, as a start is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.core.roster import Roster
from app.store import Store, load_roster, save_roster

START = """
import sys, threading, time
from app.cli import _load_before_qt
_load_before_qt()
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.gui import app as gapp
from app.gui.main_window import MainWindow
from app.core.edits import UpdateRoster

qt = QApplication(sys.argv)

def edit():
    window = next(w for w in qt.topLevelWidgets() if isinstance(w, MainWindow))
    worker = any(t.name == "castra-rulesets" for t in threading.enumerate())
    store = window.builder.store
    if (worker or store is None or store._engine is None) and gapp.process_age() < 60:
        QTimer.singleShot(50, edit)
        return
    before = set(sys.modules)
    from sqlalchemy import event
    from sqlalchemy.engine.interfaces import CacheStats

    compiled = []

    def seen(_conn, _cursor, statement, _params, context, _many):
        if context is not None and context.cache_hit is CacheStats.CACHE_MISS:
            compiled.append(statement)

    event.listen(store.engine, "before_cursor_execute", seen)
    session = window.builder.session
    session.apply(UpdateRoster({"notes": "first edit"}))
    qt.processEvents()
    print("SAVED", session.save_error is None and not session.dirty)
    print("IMPORTED", sorted(set(sys.modules) - before))
    print("COMPILED", compiled)
    qt.quit()

QTimer.singleShot(100, edit)
gapp.run()
"""


def test_the_first_edit_after_a_start_imports_nothing(
    tmp_path: Path, db_path: Path, store: Store
) -> None:
    rid = save_roster(store, roster=Roster("Reopened", "quincunx", "roman", "Rome", "1:100"))
    store.close()
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.ini").write_text(f"[rosters]\nlast={rid}\n", encoding="utf-8")
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_HOME": str(home),
        "CASTRA_DB": str(db_path),
    }
    out = subprocess.run(
        [sys.executable, "-c", START], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "SAVED True" in out.stdout, out.stdout + out.stderr
    assert "IMPORTED []" in out.stdout, out.stdout
    # the window rehearsed a roster's writes when it was idle: SQLAlchemy compiled them then
    assert "COMPILED []" in out.stdout, out.stdout
    from app.store import open_store

    with open_store(db_path) as again:
        assert load_roster(again, roster_id=rid).notes == "first edit"
