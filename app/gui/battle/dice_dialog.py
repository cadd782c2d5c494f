"""Enter dice: the faces thrown at the table, asked one throw at a time ("2 x d6 (1-6) for
the charge test"), exactly as the action throws them. The core says what comes next
(:meth:`BattleSession.next_request`) and checks each answer; when nothing more is thrown
the command is executed with the faces given and recorded like any roll."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import BattleCommand, CommandError, Step
from app.core.battle.given import DiceRequest, faces_problem, parse_faces
from app.gui.battle.controller import BattleController


class DiceDialog(QDialog):
    def __init__(
        self, controller: BattleController, command: BattleCommand, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("diceDialog")
        self.setWindowTitle(f"Enter dice: {command.title(controller.session.state)}")
        self.controller = controller
        self.command = command
        self.faces: list[int] = []
        self.request: DiceRequest | None = None
        self.step: Step | None = None
        layout = QVBoxLayout(self)
        self.done_list = QListWidget()
        self.done_list.setObjectName("thrownList")
        self.done_list.setMaximumHeight(90)
        self.prompt = QLabel()
        self.prompt.setObjectName("dicePrompt")
        self.prompt.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setObjectName("diceFaces")
        self.edit.setPlaceholderText("faces, like 4 6")
        self.error = QLabel()
        self.error.setObjectName("diceError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.take)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(QLabel("Thrown so far:"))
        layout.addWidget(self.done_list)
        layout.addWidget(self.prompt)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.resize(420, 300)

    def start(self) -> bool:
        """Ask the core for the first throw; False (and a message) when the command cannot
        be done. A command that throws nothing is done at once."""
        return self._advance()

    def _advance(self) -> bool:
        try:
            self.request = self.controller.next_request(self.command, self.faces)
        except CommandError as exc:
            self.controller.message.emit(str(exc))
            self.reject()
            return False
        if self.request is None:
            self.step = self.controller.execute(self.command, self.faces)
            if self.step is not None:
                self.accept()
            else:
                self.reject()
            return self.step is not None
        r = self.request
        self.prompt.setText(
            f"<b>Throw {html.escape(r.describe())}</b><br>for {html.escape(r.purpose)}"
            f"<br><small>({html.escape(r.spec)}, throw {r.index + 1})</small>"
        )
        self.edit.clear()
        self.edit.setFocus()
        return True

    def take(self) -> None:
        """OK: check the faces typed against the die asked for, then ask the next throw."""
        if self.request is None:
            return
        try:
            faces = parse_faces(self.edit.text())
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        problem = faces_problem(self.request.spec, faces)
        if problem is not None:
            self.error.setText(problem)
            return
        self.error.clear()
        self.done_list.addItem(
            f"{self.request.purpose}: {self.request.spec} -> {', '.join(map(str, faces))}"
        )
        self.faces += faces
        self._advance()
