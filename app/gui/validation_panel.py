"""Validation panel: every message of ``app.core.validation`` for the open roster, with its
severity icon, what it concerns and the rule it cites. Clicking a message selects its unit,
leader or command in the editor. The panel redraws on every change of the roster."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.validation import Message, Severity
from app.gui.icons import severity_icon
from app.gui.session import RosterSession

SUBJECT_ROLE = Qt.ItemDataRole.UserRole + 1
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


def summary(messages: tuple[Message, ...]) -> str:
    """ "2 errors, 1 warning, 3 notes" (or "Valid" with no error)."""
    counts = {s: sum(1 for m in messages if m.severity is s) for s in Severity}
    parts = []
    for severity, word in (
        (Severity.ERROR, "error"),
        (Severity.WARNING, "warning"),
        (Severity.NOTE, "note"),
    ):
        n = counts[severity]
        if n:
            parts.append(f"{n} {word}{'' if n == 1 else 's'}")
    head = "Valid" if not counts[Severity.ERROR] else "Not valid"
    return head + (": " + ", ".join(parts) if parts else "")


class ValidationPanel(QWidget):
    #: (subject kind, subject id) of the clicked message
    subject_activated = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: RosterSession | None = None
        self.summary = QLabel()
        self.summary.setObjectName("validationSummary")
        self.view = QTreeWidget()
        self.view.setObjectName("validationView")
        self.view.setColumnCount(3)
        self.view.setHeaderLabels(["Concerns", "Message", "Rule"])
        self.view.setRootIsDecorated(False)
        self.view.setAlternatingRowColors(True)
        self.view.setUniformRowHeights(True)
        self.view.setWordWrap(False)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 220)
        header.resizeSection(2, 260)
        self.view.itemClicked.connect(self._clicked)
        self.view.currentItemChanged.connect(lambda item, _prev: self._clicked(item))
        self.view.itemActivated.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.view)
        self.set_session(None)

    def set_session(self, session: RosterSession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self.refresh)
        self.session = session
        if session is not None:
            session.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.view.blockSignals(True)
        self.view.clear()
        self.view.blockSignals(False)
        if self.session is None:
            self.summary.setText("No roster open.")
            return
        messages = sorted(self.session.report.messages, key=lambda m: _ORDER[m.severity])
        text = summary(self.session.report.messages)
        color = "#b00020" if not self.session.report.valid else "#1b5e20"
        self.summary.setText(f"<b style='color:{color}'>{text}</b>")
        items = []
        for m in messages:
            item = QTreeWidgetItem([str(m.subject), m.text, m.rule])
            item.setIcon(0, severity_icon(m.severity))
            item.setData(0, SUBJECT_ROLE, (m.subject.kind, m.subject.id or ""))
            item.setToolTip(0, f"{m.severity.value}: {m.subject}")
            item.setToolTip(1, m.text)
            item.setToolTip(2, m.rule)
            items.append(item)
        if not items:
            item = QTreeWidgetItem(["", "No problems: the roster follows its army list.", ""])
            item.setData(0, SUBJECT_ROLE, ("", ""))
            items.append(item)
        self.view.blockSignals(True)
        self.view.addTopLevelItems(items)
        self.view.blockSignals(False)

    def _clicked(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        kind, ident = item.data(0, SUBJECT_ROLE)
        if ident:
            self.subject_activated.emit(kind, ident)
