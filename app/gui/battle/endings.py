"""The end of a battle: declaring a result (a ruleset with no victory rule, or the players
agree) as an ``EndBattle`` command, and showing the result the core computes
(:func:`app.core.battle.summary.battle_summary`): each side's losses, the leaders' fates and
the winner."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QWidget,
)

from app.core.battle import EndBattle
from app.core.battle.summary import BattleSummary
from app.gui import help_windows
from app.gui.battle.controller import BattleController
from app.rules.mechanics import Side


def result_html(result: BattleSummary, history: list[str] | None = None) -> str:
    """The result; for a historical battle, ``history``: the comparison with what
    happened (:func:`app.core.scenario.history.history_of`)."""
    e = html.escape
    parts = [f"<h2>{e(result.headline)}</h2>"]
    rows = "".join(
        f"<tr><td><b>{e(s.name)}</b></td><td>{s.units_out} of {s.units}</td>"
        f"<td>{s.strength_lost} of {s.strength_start}</td></tr>"
        for s in result.sides
    )
    parts.append(
        "<table cellpadding='3'><tr><th>side</th><th>units out</th>"
        f"<th>{e(result.strength_unit)} lost</th></tr>{rows}</table>"
    )
    if result.leaders:
        fates = "".join(
            f"<li>{e(ld.name)} ({e(result.sides[ld.side].name)}): {e(ld.status)}"
            + (f", {ld.wounds} wound(s)" if ld.wounds else "")
            + "</li>"
            for ld in result.leaders
        )
        parts.append(f"<h3>Leaders</h3><ul>{fates}</ul>")
    if history:
        lines = "".join(f"<li>{e(line)}</li>" for line in history)
        parts.append(f"<h3>Beside history</h3><ul>{lines}</ul>")
    return "".join(parts)


def show_result(
    parent: QWidget, result: BattleSummary, history: list[str] | None = None
) -> QDialog:
    return help_windows.show_text(
        parent, "resultDialog", "Battle result", result_html(result, history)
    )


class EndDialog(QDialog):
    """Declare the result: a winner or a draw, and why."""

    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("endDialog")
        self.setWindowTitle("Declare the result")
        self.controller = controller
        form = QFormLayout(self)
        self.winner = QComboBox()
        self.winner.setObjectName("winnerCombo")
        for i, side in enumerate(controller.state.sides):
            self.winner.addItem(f"{side.name} wins", i)
        self.winner.addItem("A draw", None)
        self.reason = QLineEdit("declared by the players")
        self.reason.setObjectName("reasonEdit")
        self.reason.setMaxLength(500)
        self.reason.setMinimumWidth(280)  # the reason readable whole, not scrolled
        form.addRow("Result", self.winner)
        form.addRow("Why", self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.take)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def take(self) -> None:
        winner = self.winner.currentData()
        side: Side | None = None if winner is None else (0 if int(winner) == 0 else 1)
        reason = self.reason.text().strip() or "declared by the players"
        if self.controller.execute(EndBattle(winner=side, reason=reason)) is not None:
            self.accept()
