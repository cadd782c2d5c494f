"""Small dialogs used across the window, as functions (tests replace them with monkeypatch):
a confirmation, file choosers, an error, and a list of problems (a roster file's key paths).

The Qt classes only these dialogs use are imported where they are used: PySide6 builds a
class (and its enums) when it is first touched, and the window's start needs none of these
(the message box and file dialog alone were some 5 ms of it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

ROSTER_FILTER = "Castra roster files (*.json);;All files (*)"


def confirm(parent: QWidget, title: str, text: str, ok: str) -> bool:
    """Ask before doing something; the safe choice (Cancel) is the default."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.Cancel, parent
    )
    yes = box.addButton(ok, QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is yes


def error(parent: QWidget, title: str, text: str, detail: str | None = None) -> QMessageBox:
    """Show an error without blocking (window-modal); returns the box."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Close, parent
    )
    box.setObjectName("errorBox")
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if detail:
        box.setDetailedText(detail)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def open_roster_file(parent: QWidget, folder: str) -> Path | None:
    from app.gui.files import open_file_name

    return open_file_name(parent, "Import roster file", folder, ROSTER_FILTER)


def save_roster_file(parent: QWidget, suggested: str) -> Path | None:
    from app.gui.files import save_file_name

    p = save_file_name(parent, "Export roster file", suggested, ROSTER_FILTER)
    if p is None:
        return None
    return p if p.suffix else p.with_suffix(".json")


class ProblemsDialog(QDialog):
    """What is wrong with a file, one line per problem: where (the key path) and what."""

    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        intro: str,
        problems: Sequence[tuple[str, str]],
    ) -> None:
        from PySide6.QtWidgets import QDialogButtonBox, QHeaderView, QTreeWidget, QTreeWidgetItem

        super().__init__(parent)
        self.setObjectName("problemsDialog")
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        label = QLabel(intro)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Where", "Problem"])
        self.list.setRootIsDecorated(False)
        self.list.setWordWrap(True)
        for where, what in problems:
            item = QTreeWidgetItem([where or "(whole file)", what])
            item.setToolTip(1, what)
            self.list.addTopLevelItem(item)
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.list.header().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(640, 320)

    def problems(self) -> list[tuple[str, str]]:
        out = []
        for i in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(i)
            if item is not None:
                out.append((item.text(0), item.text(1)))
        return out


def show_problems(
    parent: QWidget, title: str, intro: str, problems: Sequence[tuple[str, str]]
) -> ProblemsDialog:
    """Show the problems without blocking (window-modal); returns the dialog."""
    dialog = ProblemsDialog(parent, title, intro, problems)
    dialog.open()
    return dialog
