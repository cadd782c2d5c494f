"""The roster as a tree: commands (or battlegroups) with their units, then "Unassigned".

The model only shows the session's roster and turns edits in place and drops into core edit
commands (``app.core.edits``) sent to the session; it never changes the roster itself. Figures,
bases and men come from ``app.core.totals``; the icons from ``app.core.validation``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
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

from app.core.capabilities import line_choices, lines_label
from app.core.edits import AddUnit
from app.core.roster import Command, Roster, Unit, unit_from_entry
from app.core.totals import ZERO, Strength, UnitTotals
from app.core.validation import Report
from app.gui.icons import number, severity_icon, worst
from app.gui.roster_cells import (
    NUMERIC_COLUMNS,
    Col,
    cell_choices,
    cell_edit,
    insertion_index,
    move_units,
)
from app.gui.session import RosterSession

__all__ = ["ENTRY_MIME", "ID_ROLE", "KIND_ROLE", "UNITS_MIME", "Col", "RosterTreeModel"]

UNITS_MIME = "application/x-castra-units"
ENTRY_MIME = "application/x-castra-entry"
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


@dataclass
class _Group:
    gid: int  # stable while the group is shown: the internalId of its units' indexes
    command: Command | None
    units: list[Unit]

    @property
    def key(self) -> str | None:
        return self.command.id if self.command is not None else None


_Target = list[tuple[Command | None, list[Unit]]]


class RosterTreeModel(QAbstractItemModel):
    """Two levels: top-level rows are groups (a command, or the "Unassigned" group), their
    children the units. ``internalId`` is 0 for a group and its group's stable ``gid`` for a
    unit, so a unit's index stays valid when groups before it come and go.

    An edit updates the rows it changes (inserts, removes and moves, as Qt's model/view
    guide asks), never a reset: the view keeps its expanded groups, selection and scroll."""

    def __init__(self, session: RosterSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._groups: list[_Group] = []
        self._rows: dict[int, int] = {}  # gid -> row
        self._next_gid = 1
        self._per_unit: dict[str, UnitTotals] = {}
        self._strengths: dict[int, Strength] = {}
        self._per_unit = {t.unit.id: t for t in session.totals.per_unit}
        #: the roster and the validation report shown (refresh redraws what changed)
        self._shown: Roster | None = session.roster
        self._report: Report | None = session.report
        #: units shown anew since the columns were fitted (None: everything)
        self._touched: list[Unit] | None = None
        for command, units in self._target():
            self._groups.append(self._new_group(command, units))
        self._reindex()
        session.changed.connect(self.refresh)

    # ------------------------------------------------------------------ building

    def _new_group(self, command: Command | None, units: list[Unit]) -> _Group:
        group = _Group(self._next_gid, command, units)
        self._next_gid += 1
        return group

    def _reindex(self) -> None:
        self._rows = {g.gid: row for row, g in enumerate(self._groups)}

    def _target(self) -> _Target:
        """The groups the roster asks for, in order: its commands, then "Unassigned"."""
        roster = self.session.roster
        by_command: dict[str, list[Unit]] = {c.id: [] for c in roster.commands}
        rest: list[Unit] = []
        for u in roster.units:
            bucket = by_command.get(u.command) if u.command is not None else None
            (bucket if bucket is not None else rest).append(u)
        return [(c, by_command[c.id]) for c in roster.commands] + [(None, rest)]

    def refresh(self) -> None:
        """Show the session's roster: rows removed, moved and inserted where the roster's
        shape changed, then the values redrawn in place (open editors, the selection and
        the expanded groups survive): every group's row (its sums), and the units that
        changed or whose validation messages did -- every unit when something they all
        show changed (the scale, the leaders, the commands)."""
        target = self._target()
        roster = self.session.roster
        before = {u.id: u for g in self._groups for u in g.units}
        shown, report = self._shown, self._report
        self._per_unit = {t.unit.id: t for t in self.session.totals.per_unit}
        self._shown, self._report = roster, self.session.report
        every = (
            shown is None
            or report is None
            or (shown.army, shown.scale) != (roster.army, roster.scale)
            or shown.leaders is not roster.leaders
            or shown.commands is not roster.commands
        )
        self._sync(target)
        for group, (command, units) in zip(self._groups, target, strict=True):
            group.command = command
            group.units = list(units)
        self._strengths.clear()  # sums a view asked for half-way through are stale
        flagged: set[str | None] = set()
        if not every:
            assert report is not None
            flagged = {
                m.subject.id
                for m in set(report.messages) ^ set(self._report.messages)
                if m.subject.kind == "unit"
            }
        touched = self._touched
        last = len(Col) - 1
        for row, group in enumerate(self._groups):
            self.dataChanged.emit(self.index(row, 0), self.index(row, last))
            if not group.units:
                continue
            parent = self.index(row, 0)
            if every:
                self.dataChanged.emit(
                    self.index(0, 0, parent), self.index(len(group.units) - 1, last, parent)
                )
                continue
            for r, u in enumerate(group.units):
                if before.get(u.id) is not u or u.id in flagged:
                    self.dataChanged.emit(self.index(r, 0, parent), self.index(r, last, parent))
                    if touched is not None:
                        touched.append(u)
        if every or len(before) != len(roster.units):
            self._touched = None  # the columns are fitted again as a whole

    def take_touched(self) -> list[Unit] | None:
        """The units shown anew since the last call, for fitting the columns to them alone
        (None: fit them to everything; the next call starts afresh)."""
        touched, self._touched = self._touched, []
        return touched

    def _group_parent(self, group: _Group) -> QModelIndex:
        return self.createIndex(self._rows[group.gid], 0, 0)

    def _sync(self, target: _Target) -> None:
        """Make the rows match ``target`` (ids only) with the fewest row signals: remove
        what is gone, put the groups in order, then walk each group's units in order,
        moving each into place or inserting the new ones."""
        keys = [c.id if c is not None else None for c, _ in target]
        wanted = {u.id for _, units in target for u in units}
        root = QModelIndex()
        for row in reversed(range(len(self._groups))):
            if self._groups[row].key not in keys:
                self.beginRemoveRows(root, row, row)
                del self._groups[row]
                self._reindex()
                self.endRemoveRows()
        for group in self._groups:
            units = group.units
            r = len(units) - 1
            while r >= 0:
                if units[r].id in wanted:
                    r -= 1
                    continue
                end = r
                while r >= 0 and units[r].id not in wanted:
                    r -= 1
                self.beginRemoveRows(self._group_parent(group), r + 1, end)
                del units[r + 1 : end + 1]
                self.endRemoveRows()
        for i, key in enumerate(keys):
            current = next((j for j, g in enumerate(self._groups) if g.key == key), None)
            if current is None:
                self.beginInsertRows(root, i, i)
                self._groups.insert(i, self._new_group(target[i][0], []))
                self._reindex()
                self.endInsertRows()
            elif current != i:
                self.beginMoveRows(root, current, current, root, i)
                self._groups.insert(i, self._groups.pop(current))
                self._reindex()
                self.endMoveRows()
        where = {u.id: g for g in self._groups for u in g.units}
        for group, (_, units) in zip(self._groups, target, strict=True):
            self._place_units(group, units, where)

    def _place_units(self, group: _Group, units: list[Unit], where: dict[str, _Group]) -> None:
        parent = self._group_parent(group)
        i = 0
        while i < len(units):
            uid = units[i].id
            if i < len(group.units) and group.units[i].id == uid:
                i += 1
                continue
            source = where.get(uid)
            if source is None:  # new units: one insert for the run of them
                j = i
                while j < len(units) and units[j].id not in where:
                    j += 1
                self.beginInsertRows(parent, i, j - 1)
                group.units[i:i] = units[i:j]
                for u in units[i:j]:
                    where[u.id] = group
                self.endInsertRows()
                i = j
                continue
            r = next(k for k, u in enumerate(source.units) if u.id == uid)
            # Within the group the unit is after i (the rows before i are in place).
            self.beginMoveRows(self._group_parent(source), r, r, parent, i)
            group.units.insert(i, source.units.pop(r))
            where[uid] = group
            self.endMoveRows()
            i += 1

    # ------------------------------------------------------------------ look-ups

    def group_of(self, index: Index) -> _Group | None:
        if not index.isValid():
            return None
        gid = index.internalId()
        if gid == 0:
            return self._groups[index.row()]
        row = self._rows.get(gid)
        return self._groups[row] if row is not None else None

    def unit_at(self, index: Index) -> Unit | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        group = self.group_of(index)
        if group is None or index.row() >= len(group.units):
            return None
        return group.units[index.row()]

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

    def unit_texts(self, units: Sequence[Unit], col: Col) -> list[str]:
        """What column ``col`` shows for ``units``."""
        display = Qt.ItemDataRole.DisplayRole
        return [str(self._unit_data(u, col, display) or "") for u in units]

    def column_texts(
        self, col: Col, sample: int = 50, *, widest: bool = True
    ) -> tuple[list[str], list[str]]:
        """What column ``col`` can show, to size it by: (unit texts, group texts in bold).

        Every group's text, the units of a sample of rows, and the widest values the roster
        and its army list know (the longest unit name, the largest size and quantity, every
        troop type and grade of the list, every leader's name): enough to fit the column
        without asking Qt about each of 1,000 rows. ``widest=False``: the groups' texts and
        at most ``sample`` rows' only."""
        display = Qt.ItemDataRole.DisplayRole
        bold = [str(self._group_data(g, col, display) or "") for g in self._groups]
        if not widest:  # the groups' texts alone (and a sample of rows)
            units = [u for g in self._groups for u in g.units[:sample]][:sample]
            return [str(self._unit_data(u, col, display) or "") for u in units], bold
        units = [u for g in self._groups for u in g.units]
        texts = [str(self._unit_data(u, col, display) or "") for u in units[:sample]]
        if len(units) > sample:
            rest = units[sample:]
            if col == Col.NAME:
                texts.append(max((u.name for u in rest), key=len))
            elif col == Col.QTY:
                texts.append(str(max(u.count for u in rest)))
            elif col == Col.SIZE:
                texts.append(str(max(u.size for u in rest)))
            elif col in (Col.FIGURES, Col.BASES, Col.MEN):
                # no unit line shows more than its group's total (in ``bold``); a unit
                # outside any shown group cannot exist
                pass
            elif col == Col.NOTES:
                texts.append(max((u.notes for u in rest), key=len).replace("\n", " "))
        army = self.session.army
        if col == Col.TYPE:
            troops = self.session.ruleset.troops
            texts += [troops[e.troop].name for e in army.entries.values() if e.troop in troops]
        elif col == Col.GRADE:
            texts += [g for e in army.entries.values() for g in e.grades]
        elif col == Col.LINES:
            texts += [label for e in army.entries.values() for label, _ in line_choices(e)[1:]]
        elif col == Col.LEADER:
            texts += [ld.name for ld in self.session.roster.leaders]
        return texts, bold

    # ------------------------------------------------------------------ structure

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(Col) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < len(self._groups) else QModelIndex()
        if parent.internalId() != 0 or parent.row() >= len(self._groups):
            return QModelIndex()
        group = self._groups[parent.row()]
        if row >= len(group.units):
            return QModelIndex()
        return self.createIndex(row, column, group.gid)

    # PySide6's stub gives parent() two overloads (QObject.parent() too); this model only
    # answers the index one
    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        row = self._rows.get(index.internalId())
        return QModelIndex() if row is None else self.createIndex(row, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == 0 and parent.column() == 0 and parent.row() < len(self._groups):
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
                Col.LINES: "Lines",
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
                Col.LINES: "A legion's lines: standard, or with understrength triarii",
                Col.FIGURES: "Figures of the whole line (quantity × size)",
                Col.MEN: "Men represented at the roster's scale",
            }.get(Col(section))
        if role == Qt.ItemDataRole.TextAlignmentRole and section in NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self.session.read_only is not None:  # another member's roster: look, not touch
            return base
        base |= Qt.ItemFlag.ItemIsDropEnabled
        unit = self.unit_at(index)
        col = index.column()
        if unit is not None:
            base |= Qt.ItemFlag.ItemIsDragEnabled
            editable = col in (Col.NAME, Col.QTY, Col.NOTES, Col.LEADER) or (
                col in (Col.SIZE, Col.GRADE, Col.LINES) and bool(self.choices(index))
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
                Col.LINES: lines_label(entry, dict(unit.lines) if unit.lines else None),
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
                Col.LINES: dict(unit.lines) if unit.lines else None,
                Col.LEADER: unit.leader,
                Col.NOTES: unit.notes,
            }.get(col)
        if role == Qt.ItemDataRole.DecorationRole and col == Col.NAME:
            return self._icon("unit", unit.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._unit_tip(unit, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in NUMERIC_COLUMNS:
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

    def _group_strength(self, group: _Group) -> Strength:
        """The group's figures, bases and men, summed once per roster value."""
        cached = self._strengths.get(group.gid)
        if cached is None:
            cached = sum(
                (self._per_unit[u.id].total for u in group.units if u.id in self._per_unit),
                start=Strength(0, 0, 0),
            )
            self._strengths[group.gid] = cached
        return cached

    def _group_data(self, group: _Group, col: Col, role: int) -> Any:
        command = group.command
        if role == KIND_ROLE:
            return "command" if command is not None else "unassigned"
        if role == ID_ROLE:
            return group.key
        if role == Qt.ItemDataRole.DisplayRole:
            if col == Col.NAME:
                return command.name if command is not None else "Unassigned"
            strength = self._group_strength(group)
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
        if role == Qt.ItemDataRole.TextAlignmentRole and col in NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _icon(self, kind: str, ident: str) -> Any:
        severity = worst([m.severity for m in self.session.report.for_subject(kind, ident)])
        return severity_icon(severity) if severity is not None else None

    # ------------------------------------------------------------------ editing

    def choices(self, index: Index) -> list[tuple[str, Any]] | None:
        """The values a cell may take, for the combo-box delegate; None for free text."""
        group = self.group_of(index)
        return cell_choices(
            self.session,
            self.unit_at(index),
            group.command if group is not None else None,
            Col(index.column()),
        )

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        group = self.group_of(index)
        edit = cell_edit(
            self.session,
            self.unit_at(index),
            group.command if group is not None else None,
            Col(index.column()),
            value,
        )
        return edit is not None and self.session.apply(edit)

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
