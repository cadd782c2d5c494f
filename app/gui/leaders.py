"""The roster's leaders: a table with name, rank, status, the command each leads and the unit
each is attached to, edited in place. Every change is a core edit sent to the session."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.edits import AddLeader, AssignCommand, AttachLeader, Batch, RemoveLeader, UpdateLeader
from app.core.roster import MAX_WOUNDS, MIN_WOUNDS, Leader, LeaderStatus, new_id
from app.gui.delegates import ChoiceDelegate
from app.gui.icons import severity_icon, worst
from app.gui.session import RosterSession

Index = QModelIndex | QPersistentModelIndex


class LCol(IntEnum):
    NAME = 0
    RANK = 1
    STATUS = 2
    WOUNDS = 3
    LEADS = 4
    ATTACHED = 5
    NOTES = 6


_HEADERS = ("Name", "Rank", "Status", "Wounds", "Leads", "Attached to", "Notes")


class LeadersModel(QAbstractTableModel):
    def __init__(self, session: RosterSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._ids = [ld.id for ld in session.roster.leaders]
        session.changed.connect(self.refresh)

    def refresh(self) -> None:
        ids = [ld.id for ld in self.session.roster.leaders]
        if ids == self._ids:
            if ids:
                self.dataChanged.emit(self.index(0, 0), self.index(len(ids) - 1, len(LCol) - 1))
            return
        self.beginResetModel()
        self._ids = ids
        self.endResetModel()

    def leader_at(self, row: int) -> Leader:
        return self.session.roster.leaders[row]

    def row_of(self, leader_id: str) -> int:
        return self._ids.index(leader_id) if leader_id in self._ids else -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(LCol)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsEditable if index.isValid() else base

    def _leads(self, leader: Leader) -> list[str]:
        return [c.id for c in self.session.roster.commands if c.leader == leader.id]

    def _attached(self, leader: Leader) -> str | None:
        for u in self.session.roster.units:
            if u.leader == leader.id:
                return u.id
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        leader = self.leader_at(index.row())
        col = LCol(index.column())
        roster = self.session.roster
        if role == Qt.ItemDataRole.DisplayRole:
            attached = self._attached(leader)
            return {
                LCol.NAME: leader.name,
                LCol.RANK: leader.rank,
                LCol.STATUS: leader.status.value,
                LCol.WOUNDS: str(leader.wounds),
                LCol.LEADS: ", ".join(roster.command(c).name for c in self._leads(leader)),
                LCol.ATTACHED: roster.unit(attached).name if attached else "",
                LCol.NOTES: leader.notes.replace("\n", " "),
            }[col]
        if role == Qt.ItemDataRole.EditRole:
            leads = self._leads(leader)
            return {
                LCol.NAME: leader.name,
                LCol.RANK: leader.rank,
                LCol.STATUS: leader.status.value,
                LCol.WOUNDS: leader.wounds,
                LCol.LEADS: leads[0] if leads else None,
                LCol.ATTACHED: self._attached(leader),
                LCol.NOTES: leader.notes,
            }[col]
        if role == Qt.ItemDataRole.DecorationRole and col == LCol.NAME:
            messages = self.session.report.for_subject("leader", leader.id)
            severity = worst([m.severity for m in messages])
            return severity_icon(severity) if severity is not None else None
        if role == Qt.ItemDataRole.ToolTipRole:
            messages = self.session.report.for_subject("leader", leader.id)
            return "\n".join(f"{m.severity.value}: {m.text} ({m.rule})" for m in messages) or None
        return None

    def choices(self, index: Index) -> list[tuple[str, Any]] | None:
        col = index.column()
        roster = self.session.roster
        if col == LCol.RANK:
            return [("general", "general"), ("commander", "commander")]
        if col == LCol.STATUS:
            return [(s.value, s.value) for s in LeaderStatus]
        if col == LCol.LEADS:
            return [("(none)", None)] + [(c.name, c.id) for c in roster.commands]
        if col == LCol.ATTACHED:
            names = {c.id: c.name for c in roster.commands}
            return [("(none)", None)] + [
                (f"{u.name} — {names.get(u.command or '', 'unassigned')}", u.id)
                for u in roster.units
            ]
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        edit = self._edit_for(self.leader_at(index.row()), LCol(index.column()), value)
        return edit is not None and self.session.apply(edit)

    def _edit_for(self, leader: Leader, col: LCol, value: Any) -> Any:
        lid, name = leader.id, leader.name
        roster = self.session.roster
        if col == LCol.NAME:
            text = str(value).strip()
            return UpdateLeader(lid, {"name": text}, f"Rename {name}") if text else None
        if col == LCol.RANK:
            return UpdateLeader(lid, {"rank": value}, f"Make {name} {value}")
        if col == LCol.STATUS:
            status = LeaderStatus(value)
            return UpdateLeader(lid, {"status": status}, f"{name} {status.value}")
        if col == LCol.WOUNDS:
            return UpdateLeader(lid, {"wounds": int(value)}, f"Set wounds of {name}")
        if col == LCol.NOTES:
            return UpdateLeader(lid, {"notes": str(value)}, f"Edit notes of {name}")
        if col == LCol.LEADS:
            where = roster.command(value).name if value else "no command"
            return Batch((AssignCommand(lid, value),), f"{name} leads {where}")
        if col == LCol.ATTACHED:
            where = roster.unit(value).name if value else "no unit"
            return Batch((AttachLeader(lid, value),), f"Attach {name} to {where}")
        return None


class LeadersPanel(QWidget):
    """Leaders table with Add and Remove buttons, below the roster tree."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: RosterSession | None = None
        self.model: LeadersModel | None = None
        self.view = QTableView()
        self.view.setObjectName("leadersView")
        # the table's one whole-number cell is Wounds
        self.view.setItemDelegate(ChoiceDelegate(self.view, minimum=MIN_WOUNDS, maximum=MAX_WOUNDS))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.setWordWrap(False)
        self.add_button = QPushButton("Add leader")
        self.remove_button = QPushButton("Remove leader")
        self.add_button.clicked.connect(self.add_leader)
        self.remove_button.clicked.connect(self.remove_selected)
        title = QLabel("<b>Leaders</b>")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(self.add_button)
        top.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view)

    def set_session(self, session: RosterSession | None) -> None:
        old = self.model
        self.session = session
        self.model = LeadersModel(session, self) if session is not None else None
        self.view.setModel(self.model)
        if old is not None:
            old.session.changed.disconnect(old.refresh)
            old.deleteLater()
        if self.model is not None:
            header = self.view.horizontalHeader()
            self.view.resizeColumnsToContents()
            for col in LCol:
                if col != LCol.NOTES:
                    width = max(header.sectionSize(col) + 12, 70)
                    header.resizeSection(col, min(width, 240))
        self.add_button.setEnabled(session is not None)
        self.remove_button.setEnabled(session is not None)

    def selected_leader(self) -> str | None:
        if self.model is None:
            return None
        rows = self.view.selectionModel().selectedRows()
        index = rows[0] if rows else self.view.currentIndex()
        return self.model.leader_at(index.row()).id if index.isValid() else None

    def select_leader(self, leader_id: str) -> None:
        if self.model is None:
            return
        row = self.model.row_of(leader_id)
        if row >= 0:
            index = self.model.index(row, 0)
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)

    def add_leader(self) -> None:
        if self.session is None:
            return
        roster = self.session.roster
        has_general = any(ld.rank == "general" for ld in roster.leaders)
        leader = (
            Leader(id=new_id("l"), name="New commander", rank="commander")
            if has_general
            else Leader(id=new_id("l"), name="New general", rank="general")
        )
        if self.session.apply(AddLeader(leader)):
            self.select_leader(leader.id)
            assert self.model is not None
            self.view.setFocus()
            self.view.edit(self.model.index(self.model.row_of(leader.id), LCol.NAME))

    def remove_selected(self) -> None:
        if self.session is None:
            return
        lid = self.selected_leader()
        if lid is not None:
            name = self.session.roster.leader(lid).name
            self.session.apply(Batch((RemoveLeader(lid),), f"Remove {name}"))
