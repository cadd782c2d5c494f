"""Map > Save table as layout…: a name for the table's terrain, saved as the user's own
layout (the same files ``castra battle table B --save NAME`` writes, by the same core
functions), then offered in the New battle dialog. A name the core refuses is said in one
line under the field and cannot be accepted; a layout of the same name is replaced only
after a question."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QWidget,
)

from app.rules.layouts import name_problem


def layouts_dir() -> Path:
    """The folder of the user's saved layouts (the one the CLI and New battle read)."""
    from app.paths import data_dir

    return data_dir() / "tables"


class LayoutNameDialog(QDialog):
    """Asks for the new layout's name; OK only while the name is one the core accepts."""

    def __init__(self, pieces: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("saveLayoutDialog")
        self.setWindowTitle("Save table as layout")
        form = QFormLayout(self)
        # wrapped words get the height they need (a set size cut the first line off)
        form.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        what = QLabel(
            f"The table's terrain ({pieces} piece{'' if pieces == 1 else 's'}) is saved as "
            "a layout of your own, offered in New battle for any ruleset."
        )
        what.setWordWrap(True)
        form.addRow(what)
        self.name = QLineEdit()
        self.name.setObjectName("layoutName")
        self.name.setPlaceholderText("e.g. Club table")
        self.name.setMinimumWidth(300)
        form.addRow("Name", self.name)
        self.error = QLabel()
        self.error.setObjectName("layoutNameError")
        self.error.setStyleSheet("color:#b00020")
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Save")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.name.textChanged.connect(lambda _t: self._check())
        self._check()
        self.setMinimumWidth(420)
        self.adjustSize()

    def problem(self) -> str | None:
        """Why the name typed cannot name a layout (the core's check), or None."""
        return name_problem(self.name.text())

    def _check(self) -> None:
        problem = self.problem()
        typed = bool(self.name.text())
        self.error.setText(problem if problem and typed else "")
        self.ok.setEnabled(problem is None)

    def accept(self) -> None:
        if self.problem() is None:
            super().accept()
