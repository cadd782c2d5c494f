"""The Unit dock: the selected unit's state on the table, its roster line (entry, size,
grade, command, notes), and corrections by hand, each an ``Adjust`` command (the table is
the authority; the core refuses a state the rules do not allow)."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import Adjust
from app.core.battle.commands import MAX_ADJUST
from app.core.battle.state import BattleUnit
from app.gui.battle.controller import BattleController

FIELDS = ("strength", "hits", "rings", "dps")


class UnitPanel(QWidget):
    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("unitPanel")
        self.unit_id: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.view = QTextBrowser()
        self.view.setObjectName("unitView")
        layout.addWidget(self.view, 1)
        row = QHBoxLayout()
        self.field = QComboBox()
        self.field.setObjectName("adjustField")
        self.field.addItems(FIELDS)
        self.value = QSpinBox()
        self.value.setObjectName("adjustValue")
        self.value.setRange(0, MAX_ADJUST)
        self.set_button = QPushButton("Set")
        self.set_button.setObjectName("adjustButton")
        self.set_button.setToolTip("Correct the unit by hand (logged, undoable)")
        self.set_button.clicked.connect(self.adjust)
        self.field.currentTextChanged.connect(lambda _t: self._fill_value())
        row.addWidget(self.field)
        row.addWidget(self.value)
        row.addWidget(self.set_button)
        layout.addLayout(row)
        row = QHBoxLayout()
        self.marker = QLineEdit()
        self.marker.setObjectName("markerName")
        self.marker.setPlaceholderText("marker")
        self.marker.setToolTip("A marker to add or remove: shaken, disordered, …")
        self.add_marker = QPushButton("Add")
        self.remove_marker = QPushButton("Remove")
        self.add_marker.clicked.connect(lambda: self.marker_change("+"))
        self.remove_marker.clicked.connect(lambda: self.marker_change("-"))
        row.addWidget(self.marker, 1)
        row.addWidget(self.add_marker)
        row.addWidget(self.remove_marker)
        layout.addLayout(row)

    def show_unit(self, unit_id: str | None) -> None:
        self.unit_id = unit_id
        self.refresh()

    def _unit(self) -> BattleUnit | None:
        if self.unit_id is None:
            return None
        try:
            return self.controller.state.unit(self.unit_id)
        except KeyError:
            return None

    def _fill_value(self) -> None:
        unit = self._unit()
        if unit is not None:
            value = int(getattr(unit.status, self.field.currentText()))
            fits = 0 <= value <= self.value.maximum()
            # a value beyond the field (set before corrections were bounded) is shown in the
            # unit's text; the field is not filled with another number that Set would write
            self.value.setEnabled(fits and not self.controller.read_only)
            self.set_button.setEnabled(fits and not self.controller.read_only)
            if fits:
                self.value.setValue(value)

    def refresh(self) -> None:
        unit = self._unit()
        editable = unit is not None and not self.controller.read_only
        for w in (self.set_button, self.add_marker, self.remove_marker):
            w.setEnabled(editable)
        if unit is None:
            self.view.setHtml("<p>Select a unit on the map or in the Actions panel.</p>")
            return
        self._fill_value()
        c = self.controller
        state = c.state
        mech = c.session.mechanics
        s = unit.status
        e = html.escape
        leader = state.leader_of(unit.id)
        rows = [
            ("side", state.sides[unit.side].name),
            ("troop", mech.troop_name(unit.troop) if unit.troop else "-"),
            (mech.strength_unit, f"{s.strength} of {s.start_strength}"),
            ("hits / rings / DPs", f"{s.hits} / {s.rings} / {s.dps}"),
            ("markers", ", ".join(sorted(s.markers)) or "-"),
            ("grade", s.grade or "-"),
            ("position", f"({unit.x:.1f}, {unit.y:.1f}) facing {unit.facing:.0f}°"),
            ("moved this turn", f"{unit.moved:.1f}".removesuffix(".0")),
            ("leader", leader.name if leader else "-"),
        ]
        if s.eliminated:
            rows.insert(0, ("state", "OUT OF THE BATTLE"))
        roster_unit = self._roster_line(unit)
        if roster_unit:
            rows += roster_unit
        body = "".join(f"<tr><td>{e(k)}</td><td><b>{e(str(v))}</b></td></tr>" for k, v in rows)
        self.view.setHtml(f"<h3>{e(unit.name)} ({e(unit.id)})</h3><table>{body}</table>")

    def _roster_line(self, unit: BattleUnit) -> list[tuple[str, str]]:
        rosters = self.controller.rosters
        if rosters is None or unit.roster_unit is None:
            return []
        roster = rosters[unit.side]
        for u in roster.units:
            if u.id == unit.roster_unit:
                out = [
                    ("roster", roster.name),
                    ("entry", self._entry_name(roster.army, u.entry)),
                    ("size", str(u.size)),
                ]
                if u.command:
                    command = next((c for c in roster.commands if c.id == u.command), None)
                    out.append(("command", command.name if command else u.command))
                if u.notes:
                    out.append(("notes", u.notes))
                return out
        return []

    def _entry_name(self, army_id: str, entry_id: str) -> str:
        """The army-list entry by its name ("Roman legion", not "roman_legion"); its id only
        when the ruleset's data no longer has it."""
        army = self.controller.session.ruleset.armies.get(army_id)
        entry = army.entries.get(entry_id) if army is not None else None
        return entry.name if entry is not None else entry_id

    def adjust(self) -> None:
        if self.unit_id is None:
            return
        field = self.field.currentText()
        self.controller.execute(
            Adjust(unit=self.unit_id, field=field, value=str(self.value.value()))  # type: ignore[arg-type]
        )

    def marker_change(self, sign: str) -> None:
        name = self.marker.text().strip()
        if self.unit_id is None or not name:
            self.controller.message.emit("Type a marker's name first")
            return
        self.controller.execute(Adjust(unit=self.unit_id, field="marker", value=sign + name))
