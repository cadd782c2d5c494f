"""The quick form for a battle fought without the app: winner, each unit's strength at the
end (or lost), each leader's fate and wounds, notes. Every unit starts at its strength and
every leader fit, so a club records a battle by touching only what changed. The form makes
a core :func:`~app.core.battle.result.hand_result`; it computes nothing itself."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.battle.result import FATES, BattleResult, ResultError, hand_result
from app.core.roster import MAX_WOUNDS, Roster
from app.rules.mechanics import Side


class RecordDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        *,
        battle: str,
        sides: tuple[str, str],
        rosters: tuple[Roster, Roster],
        unit_word: str,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recordDialog")
        self.setWindowTitle(f"Record the result of {battle}")
        self.rosters = rosters
        self.outcome: BattleResult | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.winner = QComboBox()
        self.winner.setObjectName("winner")
        self.winner.addItem(f"{sides[0]} won", 0)
        self.winner.addItem(f"{sides[1]} won", 1)
        self.winner.addItem("A draw", None)
        form.addRow("Result:", self.winner)
        self.reason = QLineEdit("recorded by hand")
        self.reason.setMaxLength(500)
        form.addRow("How:", self.reason)
        layout.addLayout(form)

        layout.addWidget(QLabel(f"Units: strength at the end ({unit_word}), or lost"))
        self.units = QTableWidget(0, 5)
        self.units.setObjectName("unitsTable")
        self.units.setHorizontalHeaderLabels(["Side", "Unit", "Start", "End", "Lost"])
        self.units.verticalHeader().hide()
        self.units.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.unit_rows: list[tuple[Side, str, int, QSpinBox, QCheckBox]] = []
        for k, roster in enumerate(rosters):
            side: Side = 0 if k == 0 else 1
            for u in roster.units:
                for i in range(u.count):
                    row = self.units.rowCount()
                    self.units.insertRow(row)
                    name = u.name if u.count == 1 else f"{u.name} {i + 1}"
                    for col, text in enumerate((sides[k], name, str(u.size))):
                        item = QTableWidgetItem(text)
                        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                        self.units.setItem(row, col, item)
                    end = QSpinBox()
                    end.setRange(0, u.size)
                    end.setValue(u.size)
                    lost = QCheckBox()
                    lost.toggled.connect(lambda on, box=end: box.setEnabled(not on))
                    self.units.setCellWidget(row, 3, end)
                    self.units.setCellWidget(row, 4, lost)
                    self.unit_rows.append((side, u.id, i, end, lost))
        header = self.units.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.units, 3)

        layout.addWidget(QLabel("Leaders: fate in this battle, and wounds received"))
        self.leaders = QTableWidget(0, 4)
        self.leaders.setObjectName("leadersTable")
        self.leaders.setHorizontalHeaderLabels(["Side", "Leader", "Fate", "Wounds"])
        self.leaders.verticalHeader().hide()
        self.leader_rows: list[tuple[Side, str, QComboBox, QSpinBox]] = []
        for k, roster in enumerate(rosters):
            side = 0 if k == 0 else 1
            for ld in roster.leaders:
                row = self.leaders.rowCount()
                self.leaders.insertRow(row)
                for col, text in enumerate((sides[k], ld.name)):
                    item = QTableWidgetItem(text)
                    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    self.leaders.setItem(row, col, item)
                fate = QComboBox()
                fate.addItems(list(FATES))
                wounds = QSpinBox()
                wounds.setRange(0, MAX_WOUNDS)
                fate.currentTextChanged.connect(
                    lambda text, box=wounds: (
                        box.setValue(max(box.value(), 1)) if text == "wounded" else None
                    )
                )
                self.leaders.setCellWidget(row, 2, fate)
                self.leaders.setCellWidget(row, 3, wounds)
                self.leader_rows.append((side, ld.id, fate, wounds))
        self.leaders.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.leaders, 2)

        layout.addWidget(QLabel("Notes (one a line)"))
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("notes")
        self.notes.setMaximumHeight(60)
        layout.addWidget(self.notes)
        self.error = QLabel()
        self.error.setObjectName("recordError")
        self.error.setStyleSheet("color: #8B1E1E")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(620, 560)

    def build(self) -> BattleResult:
        """The result the form says (the core checks it)."""
        ends = {}
        lost = {}
        for side, uid, i, end, gone in self.unit_rows:
            if gone.isChecked():
                lost[(side, uid, i)] = "lost"
            elif end.value() != end.maximum():
                ends[(side, uid, i)] = end.value()
        fates = {}
        for side, lid, fate, wounds in self.leader_rows:
            if fate.currentText() != "fit" or wounds.value():
                fates[(side, lid)] = (fate.currentText(), wounds.value())
        notes = [n.strip() for n in self.notes.toPlainText().splitlines() if n.strip()]
        return hand_result(
            self.rosters,
            winner=self.winner.currentData(),
            reason=self.reason.text().strip() or "recorded by hand",
            ends=ends,  # type: ignore[arg-type]
            lost=lost,  # type: ignore[arg-type]
            fates=fates,  # type: ignore[arg-type]
            notes=notes,
        )

    def accept(self) -> None:
        try:
            self.outcome = self.build()
        except ResultError as exc:
            self.error.setText(str(exc))
            return
        super().accept()
