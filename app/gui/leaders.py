"""The roster's leaders: a table with name, rank, status, the command each leads and the unit
each is attached to, edited in place. Every change is a core edit sent to the session."""

from __future__ import annotations

from dataclasses import replace
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

from app.core.capabilities import leader_bonus, leader_fields
from app.core.edits import AddLeader, AssignCommand, AttachLeader, Batch, RemoveLeader, UpdateLeader
from app.core.roster import MAX_WOUNDS, MIN_WOUNDS, Leader, LeaderStatus, Roster, new_id
from app.gui.delegates import ChoiceDelegate
from app.gui.fit import CELL_PADDING, ColumnFitter, text_width
from app.gui.icons import severity_icon, worst
from app.gui.session import RosterSession

Index = QModelIndex | QPersistentModelIndex


class LCol(IntEnum):
    NAME = 0
    RANK = 1
    STATUS = 2
    WOUNDS = 3
    BONUS = 4
    EXCEPTIONAL = 5
    QUALITY = 6
    LEADS = 7
    ATTACHED = 8
    NOTES = 9


_HEADERS = (
    "Name",
    "Rank",
    "Status",
    "Wounds",
    "Bonus",
    "Exceptional",
    "Quality",
    "Leads",
    "Attached to",
    "Notes",
)
_TIPS = {
    LCol.BONUS: "Added to the unit's melee die or missile difference when he is with it",
    LCol.EXCEPTIONAL: "An exceptional leader has one more action",
    LCol.QUALITY: "A good or poor commander changes the side's chance-card deck",
}
#: the leader field each optional column shows; shown only where the rules read it
OPTIONAL = {LCol.BONUS: "bonus", LCol.EXCEPTIONAL: "exceptional", LCol.QUALITY: "quality"}


class LeadersModel(QAbstractTableModel):
    def __init__(self, session: RosterSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._ids = [ld.id for ld in session.roster.leaders]
        self._attachments: tuple[Roster, dict[str, str]] | None = None
        session.changed.connect(self.refresh)

    def refresh(self) -> None:
        """Rows removed, inserted or moved where leaders came and went (never a reset: the
        selection survives), then every value redrawn in place."""
        ids = [ld.id for ld in self.session.roster.leaders]
        root = QModelIndex()
        wanted = set(ids)
        r = len(self._ids) - 1
        while r >= 0:
            if self._ids[r] in wanted:
                r -= 1
                continue
            end = r
            while r >= 0 and self._ids[r] not in wanted:
                r -= 1
            self.beginRemoveRows(root, r + 1, end)
            del self._ids[r + 1 : end + 1]
            self.endRemoveRows()
        for i, lid in enumerate(ids):
            if i < len(self._ids) and self._ids[i] == lid:
                continue
            if lid in self._ids:
                j = self._ids.index(lid)  # after i: the rows before i are in place
                self.beginMoveRows(root, j, j, root, i)
                self._ids.insert(i, self._ids.pop(j))
                self.endMoveRows()
            else:
                self.beginInsertRows(root, i, i)
                self._ids.insert(i, lid)
                self.endInsertRows()
        if ids:
            self.dataChanged.emit(self.index(0, 0), self.index(len(ids) - 1, len(LCol) - 1))

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
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _TIPS.get(LCol(section))
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not index.isValid() or self.session.read_only is not None:
            return base
        return base | Qt.ItemFlag.ItemIsEditable

    def _leads(self, leader: Leader) -> list[str]:
        return [c.id for c in self.session.roster.commands if c.leader == leader.id]

    def _attached(self, leader: Leader) -> str | None:
        """The unit the leader is attached to (the first, as the roster lists them), from
        one pass over the units per roster value (the table asks for every cell)."""
        roster = self.session.roster
        if self._attachments is None or self._attachments[0] is not roster:
            first: dict[str, str] = {}
            for u in roster.units:
                if u.leader is not None:
                    first.setdefault(u.leader, u.id)
            self._attachments = (roster, first)
        return self._attachments[1].get(leader.id)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        leader = self.leader_at(index.row())
        col = LCol(index.column())
        roster = self.session.roster
        if role == Qt.ItemDataRole.DisplayRole:
            attached = self._attached(leader) if col == LCol.ATTACHED else None
            bonus = leader_bonus(self.session.ruleset, leader)
            return {
                LCol.NAME: leader.name,
                LCol.RANK: leader.rank,
                LCol.STATUS: leader.status.value,
                LCol.WOUNDS: str(leader.wounds),
                LCol.BONUS: "" if bonus is None else f"{bonus:+d}",
                LCol.EXCEPTIONAL: "yes" if leader.exceptional else "",
                LCol.QUALITY: leader.quality or "average",
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
                LCol.BONUS: leader.bonus,
                LCol.EXCEPTIONAL: leader.exceptional,
                LCol.QUALITY: leader.quality,
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
        if col == LCol.BONUS:
            default = leader_bonus(
                self.session.ruleset, replace(self.leader_at(index.row()), bonus=None)
            )
            rules = "" if default is None else f" ({default:+d})"
            return [(f"by the rules{rules}", None)] + [(f"{b:+d}", b) for b in range(0, 4)]
        if col == LCol.EXCEPTIONAL:
            return [("no", False), ("yes: one more action", True)]
        if col == LCol.QUALITY:
            return [("good", "good"), ("average", None), ("poor", "poor")]
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
        if col == LCol.BONUS:
            text = "by the rules" if value is None else f"{int(value):+d}"
            return UpdateLeader(lid, {"bonus": value}, f"Set bonus of {name} to {text}")
        if col == LCol.EXCEPTIONAL:
            flag = bool(value)
            what = "exceptional" if flag else "not exceptional"
            return UpdateLeader(lid, {"exceptional": flag}, f"Make {name} {what}")
        if col == LCol.QUALITY:
            return UpdateLeader(
                lid, {"quality": value}, f"Make {name} a {value or 'average'} commander"
            )
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
        self.fitter = ColumnFitter(self.view.horizontalHeader(), self._fit_columns, self)
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
            old.session.changed.disconnect(self.fitter.schedule)
            old.deleteLater()
        self.fitter.reset()
        if session is not None and self.model is not None:
            fields = leader_fields(session.ruleset)
            for col, field in OPTIONAL.items():
                self.view.setColumnHidden(col, field not in fields)
            session.changed.connect(self.fitter.schedule)
            self.fitter.fit_now()
        editable = session is not None and session.read_only is None
        self.add_button.setEnabled(editable)
        self.remove_button.setEnabled(editable)

    def _fit_columns(self) -> None:
        """Each column as wide as its widest text (at most 320 px; the notes take the rest)."""
        model = self.model
        if model is None:
            return
        header = self.view.horizontalHeader()
        font = self.view.font()
        rows = range(model.rowCount())
        for col in LCol:
            if col == LCol.NOTES or self.view.isColumnHidden(col):
                continue
            texts = [str(model.index(r, col).data() or "") for r in rows]
            content = text_width(font, texts) + CELL_PADDING
            if col == LCol.NAME:
                content += self.view.iconSize().width() + 4
            width = max(header.sectionSizeHint(col), min(content, 320))
            self.fitter.resize(col, width)

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
