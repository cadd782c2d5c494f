"""The Advisor dock (issue 30): what the selected unit (or, on request, its whole side) may do
now, each entry with the numbers of the advisor's stated measure, best first; and, when
Castra plays a side, who it plays, its plan, what it did last and the buttons that let it
play (its turn now, or a step at a time).

Clicking an entry sets it up and does nothing more: a fight or a shot goes to the Actions
dock (unit, target, action: its odds show there), a charge to its unit and target there
(the Charge button makes it), a move is shown on the map as its ghost (Enter makes it, Esc
drops it). The advice comes from the core (:mod:`app.core.battle.advisor`), worked out only
while the dock is shown."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.battle.advisor import Advice, Advisor
from app.core.battle.base import unit_words
from app.gui.battle.castra_runner import PACES, CastraRunner
from app.gui.battle.controller import BattleController

COLUMNS = ("What", "Score", "Gives", "Takes", "Breaks", "Leader")
MEASURE = (
    "Ranked by what it is expected to give less what it may take (shares of a unit's worth), "
    "+ ½ × the chance to break the target, − 2 × the risk to its own leader; a move by the "
    "ground it gains, less the enemy's reach where it ends."
)
#: the measure in one line, under the list (the whole of it in the tooltips)
SHORT = "Score: gives − takes + ½ breaks − 2 × leader's risk"
#: most entries listed for a whole side
SIDE_ROWS = 60


class AdvicePanel(QWidget):
    #: an entry was clicked (its :class:`Advice`)
    chosen = Signal(object)

    def __init__(self, controller: BattleController, runner: CastraRunner) -> None:
        super().__init__()
        self.setObjectName("advicePanel")
        self.controller = controller
        self.runner = runner
        self.unit_id: str | None = None
        self.whole_side = False
        self.entries: list[Advice] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self._castra_bar())
        head = QHBoxLayout()
        self.title = QLabel("Select a unit")
        self.title.setObjectName("adviceTitle")
        self.title.setWordWrap(True)
        self.side_button = QPushButton("Whole side")
        self.side_button.setObjectName("adviceSideButton")
        self.side_button.setCheckable(True)
        self.side_button.setToolTip("Advise every unit of the selected unit's side")
        self.side_button.toggled.connect(self._side_toggled)
        head.addWidget(self.title, 1)
        head.addWidget(self.side_button)
        layout.addLayout(head)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("adviceTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for i in range(1, len(COLUMNS)):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellClicked.connect(lambda row, _col: self._clicked(row))
        # two entries in sight at least, whatever the docks around it leave
        self.table.setMinimumHeight(
            self.table.horizontalHeader().sizeHint().height()
            + 2 * self.table.verticalHeader().defaultSectionSize()
            + 2 * self.table.frameWidth()
        )
        layout.addWidget(self.table, 1)
        self.words = QLabel()
        self.words.setObjectName("adviceWords")
        self.words.setWordWrap(True)
        self.words.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.words)
        for w in (self.title, self.table, self.words):
            w.setToolTip(f"{MEASURE} Click an entry to set it up; nothing happens until you act.")
        self._pending = False
        # fills the dock once the window has shown the change (the dock's own timer: it goes
        # with the dock, and with it the hold it has on the dock)
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self._fill)
        runner.acted.connect(lambda _c: self._castra_refresh())
        runner.running.connect(lambda _on: self._castra_refresh())
        self._castra_refresh()

    # ------------------------------------------------------------------ Castra

    def _castra_bar(self) -> QWidget:
        box = QWidget()
        box.setObjectName("castraBar")
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 4)
        self.castra_label = QLabel()
        self.castra_label.setObjectName("castraLabel")
        self.castra_label.setWordWrap(True)
        row = QHBoxLayout()
        self.play_button = QPushButton("Play its turn")
        self.play_button.setObjectName("castraPlay")
        self.play_button.setToolTip("Castra plays on until it is your turn")
        self.step_button = QPushButton("Step")
        self.step_button.setObjectName("castraStep")
        self.step_button.setToolTip("Castra gives its next command, one at a time")
        self.pause_button = QPushButton("Pause")
        self.pause_button.setObjectName("castraPause")
        self.auto_box = QCheckBox("by itself")
        self.auto_box.setObjectName("castraAuto")
        self.auto_box.setToolTip("Castra starts as soon as it is its turn")
        self.auto_box.setChecked(self.runner.auto)
        self.pace = QComboBox()
        self.pace.setObjectName("castraPace")
        for name in PACES:
            self.pace.addItem(name, name)
        self.pace.setCurrentIndex(max(self.pace.findData(self.runner.pace), 0))
        self.pace.setToolTip("How fast Castra plays, so you can follow it on the map")
        for w in (self.play_button, self.step_button, self.pause_button):
            row.addWidget(w)
        row.addWidget(self.auto_box)
        row.addWidget(self.pace)
        row.addStretch(1)
        self.play_button.clicked.connect(self.runner.play_turn)
        self.step_button.clicked.connect(self.runner.step)
        self.pause_button.clicked.connect(self.runner.pause)
        self.auto_box.toggled.connect(lambda on: setattr(self.runner, "auto", on))
        self.pace.currentIndexChanged.connect(
            lambda _i: self.runner.set_pace(str(self.pace.currentData()))
        )
        # its plan in a line cut to the dock's width (the whole, and its last command, in
        # the tooltip): a wrapped label is squeezed by the docks around it and loses lines
        self.castra_plan = QLabel()
        self.castra_plan.setObjectName("castraPlan")
        self.castra_plan.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._plan_lines: list[str] = []
        self.castra_plan.setStyleSheet("color: #333366")
        layout.addWidget(self.castra_label)
        layout.addLayout(row)
        layout.addWidget(self.castra_plan)
        self.castra_bar = box
        return box

    def _castra_refresh(self) -> None:
        runner = self.runner
        self.castra_bar.setVisible(runner.plays)
        if not runner.plays:
            return
        live = not self.controller.read_only and self.controller.state.result is None
        self.castra_label.setText(runner.words())
        self.play_button.setEnabled(live and not runner.playing)
        self.step_button.setEnabled(live)
        self.pause_button.setEnabled(runner.playing)
        plan = runner.plan_words()
        last = runner.last
        lines = [f"Plan: {plan}" if plan else "", f"Last: {last.why}" if last else ""]
        # the plan in the dock; its last command is the status bar's, the log's and the
        # map's (a line more here pushed the window past 720 pixels)
        self._plan_lines = [f"Plan: {plan}"] if plan else []
        self.castra_plan.setToolTip("\n".join(t for t in lines if t))
        self.castra_plan.setVisible(bool(self._plan_lines))
        self._elide_plan()

    def _elide_plan(self) -> None:
        label = self.castra_plan
        metrics = label.fontMetrics()
        width = max(label.width(), 50)
        label.setText(
            "\n".join(
                metrics.elidedText(t, Qt.TextElideMode.ElideRight, width) for t in self._plan_lines
            )
        )
        label.setFixedHeight(metrics.lineSpacing() * len(self._plan_lines) + 4)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide_plan()

    # ------------------------------------------------------------------ advice

    def show_unit(self, unit_id: str | None) -> None:
        """Advise ``unit_id`` (the map's selection)."""
        self.unit_id = unit_id
        self.refresh()

    def _side_toggled(self, on: bool) -> None:
        self.whole_side = on
        self.refresh()

    def refresh(self) -> None:
        """Work the advice out again, once the window has shown the change (only while the
        dock is shown)."""
        self._castra_refresh()
        if not self._pending:
            self._pending = True
            self._later.start()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()

    def _fill(self) -> None:
        self._pending = False
        if not self.isVisible():
            return
        c = self.controller
        state = c.state
        unit = None
        if self.unit_id is not None:
            unit = next((u for u in state.units if u.id == self.unit_id), None)
        self.entries = []
        if unit is None:
            self.title.setText("Select a unit to see what it may do")
        elif state.result is not None:
            self.title.setText(f"The battle is over: {state.result.reason}")
        elif c.read_only:
            self.title.setText("A past step is shown: return to the present for advice")
        elif not state.started:
            self.title.setText("Advice begins with the battle")
        else:
            advisor = Advisor(state, c.session.ruleset, c.session.mechanics)
            if self.whole_side:
                name = state.sides[unit.side].name
                for u in state.units:
                    if u.side == unit.side and not u.status.eliminated:
                        self.entries += advisor.unit(u.id)
                self.entries.sort(key=lambda a: (-a.score, a.unit, a.title))
                self.entries = self.entries[:SIDE_ROWS]
                self.title.setText(f"<b>{name}</b>: every unit, best first")
            else:
                self.entries = advisor.unit(unit.id)
                self.title.setText(f"<b>{unit_words(state, unit.id)}</b>, best first")
            if not self.entries:
                self.title.setText(self.title.text() + " — nothing the rules allow now")
        self._rows()

    def _rows(self) -> None:
        state = self.controller.state
        self.table.setRowCount(len(self.entries))
        for row, a in enumerate(self.entries):
            what = a.title
            if self.whole_side:
                what = f"{unit_words(state, a.unit)}: {what}"
            cells = (
                what,
                f"{a.score:+.2f}",
                f"{a.given:.2f}" if a.odds is not None else "",
                f"{a.taken:.2f}" if a.odds is not None else "",
                f"{a.breaks:.0%}" if a.odds is not None else "",
                f"{a.leader_risk:.0%}" if a.leader_risk else "",
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(a.words)
                if col:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        # a column none of the entries fills (moves have no odds) gives its room to "What"
        for col in range(2, len(COLUMNS)):
            empty = all(
                not ((cell := self.table.item(r, col)) and cell.text())
                for r in range(len(self.entries))
            )
            self.table.setColumnHidden(col, empty and bool(self.entries))
        self.words.setText(SHORT if self.entries else "")

    def _clicked(self, row: int) -> None:
        if 0 <= row < len(self.entries):
            entry = self.entries[row]
            self.words.setText(f"{entry.title}: {entry.words}")
            self.chosen.emit(entry)
