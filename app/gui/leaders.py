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

from app.core.capabilities import declared_fields
from app.core.edits import AddLeader, AssignCommand, AttachLeader, Batch, RemoveLeader, UpdateLeader
from app.core.roster import MAX_WOUNDS, MIN_WOUNDS, Leader, LeaderStatus, Roster, new_id
from app.gui.delegates import ChoiceDelegate
from app.gui.fit import CELL_PADDING, ColumnFitter, text_width
from app.gui.icons import severity_icon, worst
from app.gui.session import RosterSession
from app.rules.leaderfields import LeaderField

Index = QModelIndex | QPersistentModelIndex


class LCol(IntEnum):
    """The table's common columns. The first four are always its first columns; the fields
    the ruleset's engine declares (:func:`app.core.capabilities.declared_fields`) come after
    them, then ``LEADS``, ``ATTACHED`` and ``NOTES``: find a column with
    :meth:`LeadersModel.column`."""

    NAME = 0
    RANK = 1
    STATUS = 2
    WOUNDS = 3
    LEADS = 4
    ATTACHED = 5
    NOTES = 6


_HEADERS = {
    LCol.NAME: "Name",
    LCol.RANK: "Rank",
    LCol.STATUS: "Status",
    LCol.WOUNDS: "Wounds",
    LCol.LEADS: "Leads",
    LCol.ATTACHED: "Attached to",
    LCol.NOTES: "Notes",
}
#: what a column shows: a common column, or a field the rules read
Column = LCol | LeaderField


class LeadersModel(QAbstractTableModel):
    def __init__(self, session: RosterSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._ids = [ld.id for ld in session.roster.leaders]
        self._attachments: tuple[Roster, dict[str, str]] | None = None
        #: the fields the rules read, each a column after Wounds (shown only where read)
        self.fields = declared_fields(session.ruleset)
        self.columns: tuple[Column, ...] = (
            LCol.NAME,
            LCol.RANK,
            LCol.STATUS,
            LCol.WOUNDS,
            *self.fields,
            LCol.LEADS,
            LCol.ATTACHED,
            LCol.NOTES,
        )
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
            self.dataChanged.emit(self.index(0, 0), self.index(len(ids) - 1, len(self.columns) - 1))

    def column(self, key: LCol | str) -> int:
        """The column showing a common column or the field called ``key``; -1 when the
        table has none (a field these rules do not read)."""
        for i, col in enumerate(self.columns):
            if col == key or (isinstance(col, LeaderField) and col.name == key):
                return i
        return -1

    def leader_at(self, row: int) -> Leader:
        return self.session.roster.leaders[row]

    def row_of(self, leader_id: str) -> int:
        return self._ids.index(leader_id) if leader_id in self._ids else -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        col = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.label if isinstance(col, LeaderField) else _HEADERS[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return col.help if isinstance(col, LeaderField) else None
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
        col = self.columns[index.column()]
        roster = self.session.roster
        if isinstance(col, LeaderField):
            if role == Qt.ItemDataRole.DisplayRole:
                rs = self.session.ruleset
                return col.shown(col.value(rs, leader.name, leader.fields))
            if role == Qt.ItemDataRole.EditRole:
                return col.get(leader.fields)
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            attached = self._attached(leader) if col == LCol.ATTACHED else None
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
        col = self.columns[index.column()]
        roster = self.session.roster
        if isinstance(col, LeaderField):
            return self._field_choices(col, self.leader_at(index.row()))
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

    def _field_choices(self, field: LeaderField, leader: Leader) -> list[tuple[str, Any]]:
        """A field's choices: a number's by the rules (with the rules' value for this
        leader) and the numbers it offers; no and yes; a choice's words, its default
        standing for none set."""
        if field.kind == "number":
            default = field.value(self.session.ruleset, leader.name, {})
            rules = "" if default is None else f" ({int(default):+d})"
            return [(f"by the rules{rules}", None)] + [(field.shown(n), n) for n in field.choices]
        if field.kind == "yes/no":
            no, yes = field.editor_words
            return [(no, False), (yes, True)]
        return [(str(c), None if c == field.default else c) for c in field.choices]

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        edit = self._edit_for(self.leader_at(index.row()), self.columns[index.column()], value)
        return edit is not None and self.session.apply(edit)

    def _edit_for(self, leader: Leader, col: Column, value: Any) -> Any:
        lid, name = leader.id, leader.name
        if isinstance(col, LeaderField):
            if col.kind == "yes/no":
                value = bool(value)
            return UpdateLeader(
                lid, {col.name: value}, col.undo_text(name, value), fields=self.fields
            )
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
            for col in range(self.model.columnCount()):
                self.view.setColumnHidden(col, False)
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
        notes = model.column(LCol.NOTES)
        for col in range(model.columnCount()):
            if col == notes or self.view.isColumnHidden(col):
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
