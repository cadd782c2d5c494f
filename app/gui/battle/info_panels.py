"""The small docks: Turn (turn, phase, initiative, side in play, Next phase), Leaders
(status, wounds, attachment; attach and detach as commands) and Sides (victory stars, army
resolve, chance cards, losses so far). They show the core's state and send commands."""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import AdjustLeader, AttachLeader
from app.core.battle.leader_fate import FATE_WORDS, FATES
from app.core.battle.summary import battle_summary
from app.core.battle.who_moves import who_moves
from app.core.roster import MAX_WOUNDS
from app.gui.battle.controller import BattleController

#: side-record keys shown by name (the rest are shown as they are kept)
RECORD_WORDS = {
    "stars": "victory stars",
    "resolve": "army resolve",
    "army_resolve": "army resolve",
    "units_at_start": "units at the start",
    "drawn": "chance cards drawn",
    "deck": "chance cards left",
    "card_name": "chance card",
}
HIDDEN_RECORD = {"army", "side_name"}


def _text(value: object, name: Callable[[str], str] = str) -> str:
    """A record's value in words; ``name``: an item of a list kept there in words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and "," in value and " " not in value:
        return _counted([name(v) for v in value.split(",") if v])
    if isinstance(value, str) and value and " " not in value:
        return html.escape(name(value))  # one item kept by its id (a card: "rally")
    return html.escape(str(value))


def _counted(items: list[str]) -> str:
    """A list kept as "a,a,b" (a deck of cards) as "a ×2, b": short, and it wraps in a
    narrow dock."""
    counts: dict[str, int] = {}
    for item in items:
        if item:
            counts[item] = counts.get(item, 0) + 1
    return html.escape(", ".join(k if n == 1 else f"{k} ×{n}" for k, n in counts.items()))


class TurnPanel(QWidget):
    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("turnPanel")
        form = QFormLayout()
        self.turn = QLabel()
        self.phase = QLabel()
        self.phase.setWordWrap(True)
        self.initiative = QLabel()
        # who moves now and what may move, from the ruleset's own answer
        self.in_play = QLabel()
        self.in_play.setObjectName("whoMoves")
        self.in_play.setWordWrap(True)
        self.may_move = QLabel()
        self.may_move.setObjectName("mayMove")
        self.may_move.setWordWrap(True)
        form.addRow("Turn", self.turn)
        form.addRow("Phase", self.phase)
        form.addRow("Initiative", self.initiative)
        form.addRow("Moves", self.in_play)
        self.next_button = QPushButton("Next phase")
        self.next_button.setObjectName("nextPhaseButton")
        column = self.column = QVBoxLayout(self)
        column.addLayout(form)
        column.addWidget(self.may_move)
        column.addWidget(self.next_button)
        column.addStretch(1)

    def refresh(self) -> None:
        c = self.controller
        state = c.state
        mech = c.session.mechanics
        turn = str(state.turn)
        if mech.rounds_per_turn > 1:
            turn += f", {mech.round_name} {state.round}"
        self.turn.setText(turn)
        if not state.started:
            self.phase.setText("Deployment (then Start the battle)")
        else:
            self.phase.setText(c.phase_name(state))
        names = [s.name for s in state.sides]
        self.initiative.setText("-" if state.initiative is None else names[state.initiative])
        said = who_moves(state, mech)
        self.in_play.setText(f"<b>{html.escape(said.headline)}</b>")
        lines = [html.escape(s.words()) for s in said.sides] if said.sides else []
        if said.deploying:
            lines.insert(0, "<i>Deployment is open: drag units within your zone.</i>")
        self.may_move.setText("<br>".join(lines))
        self.may_move.setVisible(said.sides is not None)
        if state.result is not None:
            self.phase.setText(f"Ended: {state.result.reason}")
        self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        """The panel is never shorter than its wrapped lines need at its width: a dock
        layout reads no height-for-width, and at 1280x720 the rows were squeezed ("Carthage"
        and "may move" cut at the foot, the sides' last line hidden) while the Unit dock
        below had room to spare."""
        need = self.column.totalHeightForWidth(self.width())
        if need > 0 and need != self.minimumHeight():
            self.setMinimumHeight(need)


class LeadersPanel(QWidget):
    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("leadersPanel")
        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("leadersTable")
        self.table.setHorizontalHeaderLabels(["Leader", "Status", "Wounds", "With"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        # the names (the leader's, his unit's) share the room the others leave, wrapped:
        # no column is pushed out of a narrow dock
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.unit_combo = QComboBox()
        self.unit_combo.setObjectName("attachUnit")
        self.attach_button = QPushButton("Attach")
        self.attach_button.setObjectName("attachButton")
        self.attach_button.clicked.connect(self.attach)
        row.addWidget(self.unit_combo, 1)
        row.addWidget(self.attach_button)
        layout.addLayout(row)
        # the umpire's call on the leader picked in the list (a step: undo takes it back)
        fate_row = QHBoxLayout()
        self.fate_combo = QComboBox()
        self.fate_combo.setObjectName("fateCombo")
        for fate in FATES:
            self.fate_combo.addItem(FATE_WORDS[fate], fate)
        self.wounds_spin = QSpinBox()
        self.wounds_spin.setObjectName("fateWounds")
        self.wounds_spin.setRange(-1, MAX_WOUNDS)
        self.wounds_spin.setSpecialValueText("+1")
        self.wounds_spin.setValue(-1)
        self.wounds_spin.setToolTip(
            "Wounds in all after the call (+1: one more when wounded, else as they are)"
        )
        self.fate_button = QPushButton("Set fate")
        self.fate_button.setObjectName("fateButton")
        self.fate_button.setToolTip("The umpire's call on the leader picked in the list")
        self.fate_button.clicked.connect(self.set_fate)
        fate_row.addWidget(self.fate_combo, 1)
        fate_row.addWidget(self.wounds_spin)
        fate_row.addWidget(self.fate_button)
        layout.addLayout(fate_row)
        #: whether the dock is seen (:meth:`set_seen`; a panel on its own: when shown)
        self.seen = False
        self._units_stale = True

    def refresh(self) -> None:
        state = self.controller.state
        self.table.setRowCount(len(state.leaders))
        for i, ld in enumerate(state.leaders):
            host = f"{ld.attached_to} {state.unit(ld.attached_to).name}" if ld.attached_to else "-"
            side = state.sides[ld.side].name
            cells = (f"{ld.name} ({side})", ld.status, str(ld.wounds), host)
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                item.setData(Qt.ItemDataRole.UserRole, ld.id)
                self.table.setItem(i, j, item)
        # the units to attach to are listed when the dock is seen: tabbed behind the Unit
        # dock (as it opens), a 1,000-unit battle filled a list of 1,000 no one saw
        self._units_stale = True
        if self.seen:
            self._fill_units()
        self.attach_button.setEnabled(not self.controller.read_only)
        self.fate_button.setEnabled(not self.controller.read_only)

    def set_seen(self, seen: bool) -> None:
        """Whether the dock is seen (its ``visibilityChanged``: a dock tabbed behind another
        stays visible to Qt, moved out of sight): the list of units is filled once it is."""
        self.seen = seen
        if seen and self._units_stale:
            self._fill_units()

    def _fill_units(self) -> None:
        """The units a leader may be attached to (every unit still in the battle shown)."""
        self._units_stale = False
        self.unit_combo.clear()
        self.unit_combo.addItem("(detach)", None)
        for u in self.controller.state.units:
            if not u.status.eliminated:
                self.unit_combo.addItem(f"{u.id} {u.name}", u.id)

    def selected_leader(self) -> str | None:
        row = self.table.currentRow()
        item = self.table.item(row, 0) if row >= 0 else None
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def set_fate(self) -> None:
        leader = self.selected_leader()
        if leader is None:
            self.controller.message.emit("Pick a leader in the list first")
            return
        wounds = self.wounds_spin.value()
        self.controller.execute(
            AdjustLeader(
                leader=leader,
                status=self.fate_combo.currentData(),
                wounds=None if wounds < 0 else wounds,
            )
        )

    def attach(self) -> None:
        leader = self.selected_leader()
        if leader is None:
            self.controller.message.emit("Pick a leader in the list first")
            return
        unit = self.unit_combo.currentData()
        self.controller.execute(AttachLeader(leader=leader, unit=unit))


class SidesPanel(QWidget):
    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("sidesPanel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.view = QTextBrowser()
        self.view.setObjectName("sidesView")
        layout.addWidget(self.view)
        #: whether the dock is seen (:meth:`set_seen`): tabbed behind the Unit dock as the
        #: window opens, its page is written and laid out once it is
        self.seen = False
        self._stale = True

    def set_seen(self, seen: bool) -> None:
        """Whether the dock is seen (its ``visibilityChanged``); seen, it shows the battle
        as it is now."""
        self.seen = seen
        if seen and self._stale:
            self._fill()

    def refresh(self) -> None:
        self._stale = True
        if self.seen:
            self._fill()

    def _fill(self) -> None:
        self._stale = False
        c = self.controller
        state = c.state
        result = battle_summary(state, c.session.mechanics)
        unit = result.strength_unit
        parts = []
        units = {u.id: f"{u.name} ({u.id})" for u in state.units}
        for side, losses in zip(state.sides, result.sides, strict=True):
            rows = [
                f"<tr><td>units left</td><td>{losses.units_left} of {losses.units}</td></tr>",
                f"<tr><td>{unit} lost</td><td>{losses.strength_lost} of "
                f"{losses.strength_start}</td></tr>",
            ]
            for key, count in (("hits", losses.hits), ("rings", losses.rings), ("DPs", losses.dps)):
                if count:
                    rows.append(f"<tr><td>{key} standing</td><td>{count}</td></tr>")
            record = side.record
            for key, value in record.items():
                if key in HIDDEN_RECORD or value == "" or (key == "card" and "card_name" in record):
                    continue  # nothing to read, or the card's id beside its name
                words = RECORD_WORDS.get(key, key.replace("_", " "))
                if isinstance(value, str) and value in units:
                    shown = html.escape(units[value])  # a unit by name, not its id alone
                else:
                    shown = _text(value, partial(c.session.mechanics.record_item_name, key))
                rows.append(f"<tr><td>{_text(words)}</td><td>{shown}</td></tr>")
            lists = c.session.ruleset.armies
            army = lists[side.army].name if side.army in lists else side.army
            parts.append(f"<b>{_text(side.name)}</b> ({_text(army)})<table>{''.join(rows)}</table>")
        if result.over:
            parts.insert(0, f"<p><b>{_text(result.headline)}</b></p>")
        self.view.setHtml("".join(parts))
