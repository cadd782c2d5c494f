"""Edit > Roster history… (issue 15): the open roster's recorded changes, newest first, each
edit under its own label; on a club server, with who made each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import QDialog, QTableWidget

from app.core.edits import AddUnit
from app.core.roster import new_roster, unit_from_entry
from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import save_roster, update_roster
from tests.conftest import Club


def _rows(dialog: Any) -> list[list[str]]:
    table = dialog.findChild(QTableWidget, "rosterHistory")
    assert table is not None
    return [
        [table.item(r, c).text() for c in range(table.columnCount())]
        for r in range(table.rowCount())
    ]


def test_the_history_dialog_lists_each_edit_with_its_maker(
    make_window: Any, club: Club, registry: Registry
) -> None:
    rs = registry.get("leg-vi-carthago")
    window: MainWindow = make_window()
    action = window.builder.actions[ActionKey.ROSTER_HISTORY]
    assert not action.isEnabled()  # no roster open
    assert window.club.connect_to(club.url("ann"))
    ann: Any = window.builder.store
    rid = save_roster(ann, roster=new_roster(rs, "roman", name="Ann's legion"))
    assert window.builder.open_roster(rid)
    session = window.builder.session
    assert session is not None and action.isEnabled()
    assert session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
    session.undo()
    update_roster(  # the umpire, meanwhile
        club.open("uma"), roster_id=rid, change=lambda r: replace(r, notes="ok"), what="Checked"
    )
    assert window.club.poll() and window.builder.session is not session  # reloaded
    action.trigger()
    dialog = window.findChild(QDialog, "rosterHistoryDialog")
    assert dialog is not None and dialog.isVisible()
    rows = _rows(dialog)
    assert [(r[0], r[2]) for r in rows] == [("3", "uma"), ("2", "ann"), ("1", "ann"), ("0", "ann")]
    assert rows[0][3] == "Checked" and rows[-1][3] == "created"
    assert rows[2][3].startswith("Add") and rows[1][3].startswith("Undo Add")
