"""The roster as a tree: commands (or battlegroups) with their units, then "Unassigned".

The model only shows the session's roster and turns edits in place and drops into core edit
commands (``app.core.edits``) sent to the session; it never changes the roster itself. Figures,
bases and men come from ``app.core.totals``; the icons from ``app.core.validation``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

from app.core.edits import (
    AddUnit,
    AssignCommand,
    AttachLeader,
    Batch,
    MoveUnit,
    UpdateCommand,
    UpdateUnit,
)
from app.core.roster import Command, Roster, Unit, unit_from_entry
from app.core.totals import ZERO, Strength, UnitTotals
from app.gui.icons import number, severity_icon, worst
from app.gui.session import RosterSession

UNITS_MIME = "application/x-castra-units"
ENTRY_MIME = "application/x-castra-entry"
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


class Col(IntEnum):
    NAME = 0
    TYPE = 1
    QTY = 2
    SIZE = 3
    GRADE = 4
    FIGURES = 5
    BASES = 6
    MEN = 7
    LEADER = 8
    NOTES = 9


@dataclass
class _Group:
    command: Command | None
    units: list[Unit]

    @property
    def key(self) -> str | None:
        return self.command.id if self.command is not None else None


def insertion_index(units: Sequence[Unit], command: str | None, before: str | None) -> int:
    """Where a unit goes in the roster's order: just before unit ``before``, or after the last
    unit of ``command`` (the end of the roster if it has none)."""
    if before is not None:
        for i, u in enumerate(units):
            if u.id == before:
                return i
    last = None
    for i, u in enumerate(units):
        if u.command == command:
            last = i
    return len(units) if last is None else last + 1


def move_units(
    roster: Roster, unit_ids: Sequence[str], command: str | None, before: str | None
) -> Batch:
    """One undoable edit moving ``unit_ids`` (in order) into ``command`` before unit
    ``before`` (or at the end of the command)."""
    edits = []
    for uid in unit_ids:
        rest = [u for u in roster.units if u.id != uid]
        edit = MoveUnit(uid, command, insertion_index(rest, command, before))
        roster = edit.apply(roster)
        edits.append(edit)
    n = len(unit_ids)
    return Batch(tuple(edits), "Move unit" if n == 1 else f"Move {n} units")


class RosterTreeModel(QAbstractItemModel):
    """Two levels: top-level rows are groups (a command, or the "Unassigned" group), their
    children the units. ``internalId`` is 0 for a group and the group's row + 1 for a unit."""

    def __init__(self, session: RosterSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._groups: list[_Group] = []
        self._per_unit: dict[str, UnitTotals] = {}
        self._build()
        session.changed.connect(self.refresh)

    # ------------------------------------------------------------------ building

    def _build(self) -> None:
        roster = self.session.roster
        self._per_unit = {t.unit.id: t for t in self.session.totals.per_unit}
        groups = [_Group(c, list(roster.units_in(c.id))) for c in roster.commands]
        known = {c.id for c in roster.commands}
        groups.append(_Group(None, [u for u in roster.units if u.command not in known]))
        self._groups = groups

    def _shape(self) -> list[tuple[str | None, tuple[str, ...]]]:
        return [(g.key, tuple(u.id for u in g.units)) for g in self._groups]

    def refresh(self) -> None:
        """Show the session's roster: in place when only values changed (open editors and
        the selection survive), else a reset."""
        before = self._shape()
        roster = self.session.roster
        known = {c.id for c in roster.commands}
        new_shape: list[tuple[str | None, tuple[str, ...]]] = [
            (c.id, tuple(u.id for u in roster.units_in(c.id))) for c in roster.commands
        ]
        new_shape.append((None, tuple(u.id for u in roster.units if u.command not in known)))
        if new_shape == before:
            self._build()
            last = len(Col) - 1
            for row, group in enumerate(self._groups):
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))
                if group.units:
                    parent = self.index(row, 0)
                    self.dataChanged.emit(
                        self.index(0, 0, parent), self.index(len(group.units) - 1, last, parent)
                    )
            return
        self.beginResetModel()
        self._build()
        self.endResetModel()

    # ------------------------------------------------------------------ look-ups

    def group_of(self, index: Index) -> _Group | None:
        if not index.isValid():
            return None
        gid = index.internalId()
        return self._groups[index.row() if gid == 0 else gid - 1]

    def unit_at(self, index: Index) -> Unit | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        return self._groups[index.internalId() - 1].units[index.row()]

    def unit_index(self, unit_id: str, column: int = 0) -> QModelIndex:
        for g, group in enumerate(self._groups):
            for r, unit in enumerate(group.units):
                if unit.id == unit_id:
                    return self.index(r, column, self.index(g, 0))
        return QModelIndex()

    def group_index(self, command_id: str | None) -> QModelIndex:
        for g, group in enumerate(self._groups):
            if group.key == command_id:
                return self.index(g, 0)
        return QModelIndex()

    # ------------------------------------------------------------------ structure

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(Col) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < len(self._groups) else QModelIndex()
        if parent.internalId() != 0:
            return QModelIndex()
        group = self._groups[parent.row()]
        if row >= len(group.units):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    # PySide6's stub gives parent() two overloads (QObject.parent() too); this model only
    # answers the index one
    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == 0 and parent.column() == 0:
            return len(self._groups[parent.row()].units)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(Col)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        size = "Figures" if self.session.ruleset.counts_figures else "Bases"
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                Col.NAME: "Name",
                Col.TYPE: "Troop type",
                Col.QTY: "Qty",
                Col.SIZE: "Size",
                Col.GRADE: "Grade",
                Col.FIGURES: "Figures",
                Col.BASES: "Bases",
                Col.MEN: "Men",
                Col.LEADER: "Leader",
                Col.NOTES: "Notes",
            }[Col(section)]
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                Col.QTY: "How many identical units this line stands for",
                Col.SIZE: f"{size} in one unit",
                Col.FIGURES: "Figures of the whole line (quantity × size)",
                Col.MEN: "Men represented at the roster's scale",
            }.get(Col(section))
        if role == Qt.ItemDataRole.TextAlignmentRole and section in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        base |= Qt.ItemFlag.ItemIsDropEnabled
        unit = self.unit_at(index)
        col = index.column()
        if unit is not None:
            base |= Qt.ItemFlag.ItemIsDragEnabled
            editable = col in (Col.NAME, Col.QTY, Col.NOTES, Col.LEADER) or (
                col in (Col.SIZE, Col.GRADE) and bool(self.choices(index))
            )
        else:
            group = self.group_of(index)
            editable = (
                group is not None
                and group.command is not None
                and col in (Col.NAME, Col.TYPE, Col.LEADER)
            )
        if editable:
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    # ------------------------------------------------------------------ data

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        unit = self.unit_at(index)
        if unit is not None:
            return self._unit_data(unit, Col(index.column()), role)
        group = self.group_of(index)
        assert group is not None
        return self._group_data(group, Col(index.column()), role)

    def _leader_name(self, leader_id: str | None) -> str:
        if leader_id is None:
            return ""
        for ld in self.session.roster.leaders:
            if ld.id == leader_id:
                return ld.name
        return f"{leader_id} (missing)"

    def _unit_data(self, unit: Unit, col: Col, role: int) -> Any:
        entry = self.session.army.entries.get(unit.entry)
        if role == KIND_ROLE:
            return "unit"
        if role == ID_ROLE:
            return unit.id
        if role == Qt.ItemDataRole.DisplayRole:
            total = self._per_unit[unit.id].total if unit.id in self._per_unit else ZERO
            if col == Col.TYPE:
                if entry is None:
                    return f"{unit.entry} (not in the list)"
                troop = self.session.ruleset.troops.get(entry.troop)
                return troop.name if troop is not None else entry.name
            return {
                Col.NAME: unit.name,
                Col.QTY: str(unit.count),
                Col.SIZE: str(unit.size),
                Col.GRADE: unit.grade or "",
                Col.FIGURES: number(total.figures),
                Col.BASES: number(total.bases),
                Col.MEN: number(total.men),
                Col.LEADER: self._leader_name(unit.leader),
                Col.NOTES: unit.notes.replace("\n", " "),
            }[col]
        if role == Qt.ItemDataRole.EditRole:
            return {
                Col.NAME: unit.name,
                Col.QTY: unit.count,
                Col.SIZE: unit.size,
                Col.GRADE: unit.grade,
                Col.LEADER: unit.leader,
                Col.NOTES: unit.notes,
            }.get(col)
        if role == Qt.ItemDataRole.DecorationRole and col == Col.NAME:
            return self._icon("unit", unit.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._unit_tip(unit, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and entry is None:
            return QBrush(QColor("#b00020"))
        return None

    def _unit_tip(self, unit: Unit, col: Col) -> str | None:
        messages = self.session.report.for_subject("unit", unit.id)
        lines = [f"{m.severity.value}: {m.text} ({m.rule})" for m in messages]
        if col in (Col.FIGURES, Col.BASES, Col.MEN) and unit.id in self._per_unit:
            each = self._per_unit[unit.id].each
            lines.insert(
                0,
                f"each unit: {number(each.figures)} figures, {number(each.bases)} bases, "
                f"{number(each.men)} men",
            )
        if col == Col.NOTES and unit.notes:
            lines.insert(0, unit.notes)
        return "\n".join(lines) or None

    def _group_data(self, group: _Group, col: Col, role: int) -> Any:
        command = group.command
        if role == KIND_ROLE:
            return "command" if command is not None else "unassigned"
        if role == ID_ROLE:
            return group.key
        if role == Qt.ItemDataRole.DisplayRole:
            if col == Col.NAME:
                return command.name if command is not None else "Unassigned"
            strength = sum(
                (self._per_unit[u.id].total for u in group.units if u.id in self._per_unit),
                start=Strength(0, 0, 0),
            )
            return {
                Col.TYPE: (command.kind or "") if command is not None else "",
                Col.QTY: str(sum(u.count for u in group.units)),
                Col.FIGURES: number(strength.figures),
                Col.BASES: number(strength.bases),
                Col.MEN: number(strength.men),
                Col.LEADER: self._leader_name(command.leader) if command is not None else "",
            }.get(col, "")
        if role == Qt.ItemDataRole.EditRole and command is not None:
            return {Col.NAME: command.name, Col.TYPE: command.kind, Col.LEADER: command.leader}.get(
                col
            )
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.DecorationRole and col == Col.NAME and command is not None:
            return self._icon("command", command.id)
        if role == Qt.ItemDataRole.ToolTipRole and command is not None:
            messages = self.session.report.for_subject("command", command.id)
            return "\n".join(f"{m.severity.value}: {m.text} ({m.rule})" for m in messages) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _icon(self, kind: str, ident: str) -> Any:
        severity = worst([m.severity for m in self.session.report.for_subject(kind, ident)])
        return severity_icon(severity) if severity is not None else None

    # ------------------------------------------------------------------ editing

    def choices(self, index: Index) -> list[tuple[str, Any]] | None:
        """The values a cell may take, for the combo-box delegate; None for free text."""
        col = index.column()
        unit = self.unit_at(index)
        leaders = [("(none)", None)] + [(ld.name, ld.id) for ld in self.session.roster.leaders]
        if unit is not None:
            entry = self.session.army.entries.get(unit.entry)
            if col == Col.SIZE:
                if entry is None or (len(entry.sizes) < 2 and unit.size in entry.sizes):
                    return []
                out: list[tuple[str, Any]] = [(str(s), s) for s in entry.sizes]
                if unit.size not in entry.sizes:
                    out.append((f"{unit.size} (not allowed)", unit.size))
                return out
            if col == Col.GRADE:
                if entry is None or not entry.grades:
                    return []
                return [(g, g) for g in entry.grades]
            if col == Col.LEADER:
                return leaders
            return None
        group = self.group_of(index)
        if group is None or group.command is None:
            return None
        if col == Col.TYPE:
            return [
                ("(from its units)", None),
                ("infantry", "infantry"),
                ("cavalry", "cavalry"),
                ("mixed", "mixed"),
            ]
        if col == Col.LEADER:
            return leaders
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        edit = self._edit_for(index, value)
        return edit is not None and self.session.apply(edit)

    def _edit_for(self, index: Index, value: Any) -> Any:
        col = index.column()
        unit = self.unit_at(index)
        roster = self.session.roster
        if unit is not None:
            name = unit.name
            if col == Col.NAME:
                text = str(value).strip()
                return UpdateUnit(unit.id, {"name": text}, f"Rename {name}") if text else None
            if col == Col.QTY:
                count = int(value)
                return (
                    UpdateUnit(unit.id, {"count": count}, f"Set quantity of {name}")
                    if count >= 1
                    else None
                )
            if col == Col.SIZE:
                return UpdateUnit(unit.id, {"size": int(value)}, f"Set size of {name}")
            if col == Col.GRADE:
                return UpdateUnit(unit.id, {"grade": value}, f"Set grade of {name}")
            if col == Col.NOTES:
                return UpdateUnit(unit.id, {"notes": str(value)}, f"Edit notes of {name}")
            if col == Col.LEADER:
                if value is None:
                    if unit.leader is None:
                        return None
                    return Batch((AttachLeader(unit.leader, None),), f"Detach leader from {name}")
                leader = roster.leader(str(value))
                return Batch((AttachLeader(leader.id, unit.id),), f"Attach {leader.name} to {name}")
            return None
        group = self.group_of(index)
        if group is None or group.command is None:
            return None
        command = group.command
        if col == Col.NAME:
            text = str(value).strip()
            return (
                UpdateCommand(command.id, {"name": text}, f"Rename {command.name}")
                if text
                else None
            )
        if col == Col.TYPE:
            return UpdateCommand(command.id, {"kind": value}, f"Set kind of {command.name}")
        if col == Col.LEADER:
            if value is None:
                return UpdateCommand(
                    command.id, {"leader": None}, f"Unassign leader of {command.name}"
                )
            leader = roster.leader(str(value))
            return Batch(
                (AssignCommand(leader.id, command.id),), f"{leader.name} leads {command.name}"
            )
        return None

    # ------------------------------------------------------------------ drag and drop

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [UNITS_MIME, ENTRY_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        wanted = {u.id for i in indexes if (u := self.unit_at(i)) is not None}
        ids = [u.id for u in self.session.roster.units if u.id in wanted]
        data = QMimeData()
        data.setData(UNITS_MIME, json.dumps(ids).encode())
        return data

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        return data.hasFormat(UNITS_MIME) or data.hasFormat(ENTRY_MIME)

    def drop_target(self, row: int, parent: Index) -> tuple[str | None, str | None]:
        """(command id, id of the unit to insert before) for a drop at ``row`` under
        ``parent``: on a command, between its units, or on a unit (before it)."""
        if not parent.isValid():
            if 0 <= row <= len(self._groups) and row > 0:
                return self._groups[row - 1].key, None  # between groups: end of the one above
            return None, None
        unit = self.unit_at(parent)
        if unit is not None:
            group = self.group_of(parent)
            assert group is not None
            return group.key, unit.id
        group = self._groups[parent.row()]
        before = group.units[row].id if 0 <= row < len(group.units) else None
        return group.key, before

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        if action == Qt.DropAction.IgnoreAction:
            return True
        command, before = self.drop_target(row, parent)
        if data.hasFormat(UNITS_MIME):
            ids = [str(i) for i in json.loads(bytes(data.data(UNITS_MIME).data()).decode())]
            ids = [i for i in ids if i != before]
            if not ids:
                return False
            roster = self.session.roster
            rest = [u for u in roster.units if u.id not in ids]
            if before is not None and before not in {u.id for u in rest}:
                before = None
            return self.session.apply(move_units(roster, ids, command, before))
        if data.hasFormat(ENTRY_MIME):
            entry_id = bytes(data.data(ENTRY_MIME).data()).decode()
            return self.add_entry(entry_id, command, before)
        return False

    def add_entry(self, entry_id: str, command: str | None, before: str | None = None) -> bool:
        """Add one unit of army-list entry ``entry_id`` to ``command`` (before ``before``)."""
        s = self.session
        try:
            unit = unit_from_entry(s.ruleset, s.roster.army, entry_id, command=command)
        except KeyError as exc:
            s.refused.emit(str(exc.args[0]))
            return False
        index = insertion_index(s.roster.units, command, before)
        return s.apply(AddUnit(unit, index))


_NUMERIC = (Col.QTY, Col.SIZE, Col.FIGURES, Col.BASES, Col.MEN)
