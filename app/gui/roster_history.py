"""Edit > Roster history…: a roster's recorded changes (schema 0008), oldest first, each with
the version it made, when, who made it (on a club server) and what was done. It only shows
what the store gives (:func:`app.store.read.roster_history`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from app.usecases.roster import RosterChange

HEADERS = ("Version", "When (UTC)", "By", "What")


def history_rows(changes: Sequence[RosterChange]) -> list[tuple[str, str, str, str]]:
    """The table's rows, newest first (the latest change is what one looks for)."""
    return [
        (str(c.version), f"{c.made_at:%Y-%m-%d %H:%M:%S}", c.made_by or "—", c.what)
        for c in reversed(changes)
    ]


def show_history(parent: QWidget, name: str, changes: Sequence[RosterChange]) -> QDialog:
    """Open (not modal) the history of roster ``name``."""
    dialog = QDialog(parent)
    dialog.setObjectName("rosterHistoryDialog")
    dialog.setWindowTitle(f"History of “{name}” — Castra")
    layout = QVBoxLayout(dialog)
    n = len(changes)
    if n:
        said = f"{n} recorded change{'' if n == 1 else 's'}, newest first."
    else:
        said = "No change recorded (the roster was made before Castra kept roster history)."
    layout.addWidget(QLabel(said))
    rows = history_rows(changes)
    table = QTableWidget(len(rows), len(HEADERS))
    table.setObjectName("rosterHistory")
    table.setHorizontalHeaderLabels(list(HEADERS))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.resizeColumnsToContents()
    table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
    layout.addWidget(table)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    dialog.resize(640, 360)
    dialog.open()
    return dialog
